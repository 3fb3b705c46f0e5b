package check

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestSchemaMessages pins how the embedded validator's violations read:
// in the words generated validators and runtime/wire use for the same
// violation, located at the offending member, with the received value as
// wire shows it.
func TestSchemaMessages(t *testing.T) {
	// mcp2.json's lookup-user: an object with either member, and no other.
	const lookupUser = `{"anyOf":[{"type":"object","properties":{"email":{"type":"string"}},"required":["email"],"additionalProperties":false},{"type":"object","properties":{"user_id":{"type":"integer"}},"required":["user_id"],"additionalProperties":false}]}`
	type fe = runtime.FieldError
	tests := []struct {
		name, schema, value string
		want                []fe
	}{
		// type: wire.Decoder.Mismatch's sentence.
		{"type", `{"patternProperties":{"^x":{"type":"integer"}}}`, `{"xa":"t"}`,
			[]fe{{Path: "/p/xa", Code: "type", Message: `expected integer, received string "t"`, Expected: "integer", Received: `"t"`}}},
		{"type number", `{"type":"integer"}`, `1.5`,
			[]fe{{Path: "/p", Code: "type", Message: "expected integer, received number 1.5", Expected: "integer", Received: "1.5"}}},
		{"type null", `{"type":["string","integer"]}`, `null`,
			[]fe{{Path: "/p", Code: "type", Message: "expected integer or string, received null", Expected: "integer or string", Received: "null"}}},
		{"type object", `{"type":"string"}`, `{"a":[1,2]}`,
			[]fe{{Path: "/p", Code: "type", Message: `expected string, received object {"a":[1,2]}`, Expected: "string", Received: `{"a":[1,2]}`}}},
		{"type escaped and cut", `{"type":"integer"}`, `"` + strings.Repeat("a", 100) + `\n"`,
			[]fe{{Path: "/p", Code: "type", Message: `expected integer, received string "` + strings.Repeat("a", 78) + "…",
				Expected: "integer", Received: `"` + strings.Repeat("a", 78) + "…"}}},
		{"type control character", `{"type":"integer"}`, `"a\u0001"`,
			[]fe{{Path: "/p", Code: "type", Message: `expected integer, received string "a\u0001"`, Expected: "integer", Received: `"a\u0001"`}}},

		// additionalProperties: one unknown property per member, at its
		// pointer, with the decoder's suggestion and no received value.
		{"additionalProperties", `{"patternProperties":{"^x":{"type":"integer"}},"additionalProperties":false}`, `{"xa":1,"y":1,"b":2}`,
			[]fe{
				{Path: "/p/b", Code: "additionalProperties", Message: `unknown property "b"`},
				{Path: "/p/y", Code: "additionalProperties", Message: `unknown property "y"`},
			}},
		{"additionalProperties suggestion", `{"properties":{"limit":{},"offset":{}},"additionalProperties":false}`, `{"limt":1}`,
			[]fe{{Path: "/p/limt", Code: "additionalProperties", Message: `unknown property "limt"`, Suggestion: "limit"}}},
		{"additionalProperties escaped", `{"additionalProperties":false}`, `{"a/b~c":1}`,
			[]fe{{Path: "/p/a~1b~0c", Code: "additionalProperties", Message: `unknown property "a/b~c"`}}},
		{"unevaluatedProperties", `{"properties":{"a":{}},"allOf":[{"properties":{"email":{}}}],"unevaluatedProperties":false}`, `{"emial":1,"a":1}`,
			[]fe{{Path: "/p/emial", Code: "unevaluatedProperties", Message: `unknown property "emial"`, Suggestion: "email"}}},
		{"unevaluatedProperties declared elsewhere", `{"anyOf":[{"properties":{"b":{"type":"integer"}}},{"required":["c"]}],"unevaluatedProperties":false}`, `{"b":"x"}`,
			[]fe{
				{Path: "/p", Code: "anyOf", Message: `matches none of: object or object with "c"`, Expected: `object or object with "c"`, Received: `{"b":"x"}`},
				{Path: "/p/b", Code: "unevaluatedProperties", Message: `property "b" is not allowed here`},
			}},

		// required and its kin: at the missing member.
		{"required", `{"required":["x","y"]}`, `{"y":1}`,
			[]fe{{Path: "/p/x", Code: "required", Message: `missing required property "x"`}}},
		{"dependentRequired", `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`,
			[]fe{{Path: "/p/b", Code: "dependentRequired", Message: `property "b" is required when "a" is present`}}},
		{"dependencies", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"]}}`, `{"a":1}`,
			[]fe{{Path: "/p/b", Code: "dependencies", Message: `property "b" is required when "a" is present`}}},

		// enum and const: the generated validators' sentences.
		{"enum", `{"enum":["open","closed"]}`, `"opne"`,
			[]fe{{Path: "/p", Code: "enum", Message: `must be one of "open", "closed"`, Expected: `"open", "closed"`, Received: `"opne"`, Suggestion: "open"}}},
		{"enum mixed", `{"enum":[1,"a",null,{"k":[true]}]}`, `2`,
			[]fe{{Path: "/p", Code: "enum", Message: `must be one of 1, "a", null, {"k":[true]}`, Expected: `1, "a", null, {"k":[true]}`, Received: "2"}}},
		{"const", `{"const":"user"}`, `"usr"`,
			[]fe{{Path: "/p", Code: "const", Message: `must be "user"`, Expected: `"user"`, Received: `"usr"`, Suggestion: "user"}}},
		{"const object", `{"const":{"a":1}}`, `{"a":2}`,
			[]fe{{Path: "/p", Code: "const", Message: `must be {"a":1}`, Expected: `{"a":1}`, Received: `{"a":2}`}}},

		// numbers: the bound as the schema writes it.
		{"minimum", `{"minimum":1.0}`, `0`,
			[]fe{{Path: "/p", Code: "minimum", Message: "must be >= 1.0", Expected: ">= 1.0", Received: "0"}}},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, `0`,
			[]fe{{Path: "/p", Code: "exclusiveMinimum", Message: "must be > 0", Expected: "> 0", Received: "0"}}},
		{"maximum", `{"maximum":100}`, `101`,
			[]fe{{Path: "/p", Code: "maximum", Message: "must be <= 100", Expected: "<= 100", Received: "101"}}},
		{"exclusiveMaximum", `{"exclusiveMaximum":1e2}`, `100`,
			[]fe{{Path: "/p", Code: "exclusiveMaximum", Message: "must be < 1e2", Expected: "< 1e2", Received: "100"}}},
		{"draft-04 exclusiveMaximum", `{"$schema":"http://json-schema.org/draft-04/schema#","maximum":0.25,"exclusiveMaximum":true}`, `0.25`,
			[]fe{{Path: "/p", Code: "exclusiveMaximum", Message: "must be < 0.25", Expected: "< 0.25", Received: "0.25"}}},
		{"multipleOf", `{"multipleOf":0.01}`, `0.005`,
			[]fe{{Path: "/p", Code: "multipleOf", Message: "must be a multiple of 0.01", Expected: "multiple of 0.01", Received: "0.005"}}},

		// strings.
		{"minLength", `{"minLength":1}`, `""`,
			[]fe{{Path: "/p", Code: "minLength", Message: "must be at least 1 character long", Expected: "at least 1 character", Received: `""`}}},
		{"maxLength", `{"maxLength":2}`, `"abc"`,
			[]fe{{Path: "/p", Code: "maxLength", Message: "must be at most 2 characters long", Expected: "at most 2 characters", Received: `"abc"`}}},
		{"pattern", `{"pattern":"^[a-z]+$"}`, `"A"`,
			[]fe{{Path: "/p", Code: "pattern", Message: "must match the pattern ^[a-z]+$", Expected: "pattern ^[a-z]+$", Received: `"A"`}}},
		{"format", `{"format":"date"}`, `"2024-13-01"`,
			[]fe{{Path: "/p", Code: "format", Message: "must be a valid date (YYYY-MM-DD, as 2024-02-29)", Expected: "date", Received: `"2024-13-01"`}}},

		// arrays.
		{"minItems", `{"minItems":2}`, `[1]`,
			[]fe{{Path: "/p", Code: "minItems", Message: "must have at least 2 items", Expected: "at least 2 items"}}},
		{"maxItems", `{"maxItems":1}`, `[1,2]`,
			[]fe{{Path: "/p", Code: "maxItems", Message: "must have at most 1 item", Expected: "at most 1 item"}}},
		{"uniqueItems", `{"uniqueItems":true}`, `[{"a":1},2,{"a":1}]`,
			[]fe{{Path: "/p", Code: "uniqueItems", Message: "items 0 and 2 are equal", Expected: "unique items"}}},
		{"contains", `{"contains":{"type":"integer","minimum":10}}`, `[1,"a"]`,
			[]fe{{Path: "/p", Code: "contains", Message: "must contain at least 1 matching item", Expected: "at least 1 matching item"}}},
		{"minContains", `{"contains":{"type":"integer"},"minContains":2}`, `[1,"a"]`,
			[]fe{{Path: "/p", Code: "contains", Message: "must contain at least 2 matching items", Expected: "at least 2 matching items"}}},
		{"maxContains", `{"contains":{"type":"integer"},"maxContains":1}`, `[1,2]`,
			[]fe{{Path: "/p", Code: "maxContains", Message: "must contain at most 1 matching item", Expected: "at most 1 matching item"}}},
		{"items false", `{"prefixItems":[true,true],"items":false}`, `[1,2,3,"x"]`,
			[]fe{
				{Path: "/p/2", Code: "items", Message: "at most 2 items are allowed", Received: "3"},
				{Path: "/p/3", Code: "items", Message: "at most 2 items are allowed", Received: `"x"`},
			}},
		{"additionalItems", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[true],"additionalItems":false}`, `[1,2]`,
			[]fe{{Path: "/p/1", Code: "additionalItems", Message: "at most 1 item is allowed", Received: "2"}}},
		{"unevaluatedItems", `{"prefixItems":[true],"unevaluatedItems":false}`, `[1,2]`,
			[]fe{{Path: "/p/1", Code: "unevaluatedItems", Message: "item 1 is not allowed", Received: "2"}}},

		// objects.
		{"minProperties", `{"minProperties":1}`, `{}`,
			[]fe{{Path: "/p", Code: "minProperties", Message: "must have at least 1 property", Expected: "at least 1 property"}}},
		{"maxProperties", `{"maxProperties":1}`, `{"a":1,"b":2}`,
			[]fe{{Path: "/p", Code: "maxProperties", Message: "must have at most 1 property", Expected: "at most 1 property"}}},
		{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"Abc":1,"ok":2}`,
			[]fe{{Path: "/p/Abc", Code: "propertyNames", Message: `invalid property name "Abc": must match the pattern ^[a-z]+$`, Expected: "pattern ^[a-z]+$", Received: `"Abc"`}}},
		{"propertyNames false", `{"propertyNames":false}`, `{"a":1}`,
			[]fe{{Path: "/p/a", Code: "propertyNames", Message: `invalid property name "a"`, Received: `"a"`}}},
		{"false property", `{"properties":{"old":false}}`, `{"old":1}`,
			[]fe{{Path: "/p/old", Code: "false", Message: "no value is allowed here", Received: "1"}}},

		// applicators.
		{"not", `{"not":{"type":"string"}}`, `"s"`,
			[]fe{{Path: "/p", Code: "not", Message: `must not match the schema {"type":"string"}`, Expected: `not {"type":"string"}`, Received: `"s"`}}},
		{"oneOf none", `{"oneOf":[{"required":["a"]},{"required":["b"]}]}`, `{}`,
			[]fe{{Path: "/p", Code: "oneOf", Message: `matches none of: object with "a" or object with "b"`, Expected: `object with "a" or object with "b"`, Received: "{}"}}},
		{"oneOf many", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `3`,
			[]fe{{Path: "/p", Code: "oneOf", Message: "matches more than one of: integer and number", Expected: "exactly one of: integer or number", Received: "3"}}},
		// The branches matched are named, not every branch.
		{"oneOf many of three", `{"oneOf":[{"type":"integer"},{"type":"string"},{"minimum":0}]}`, `3`,
			[]fe{{Path: "/p", Code: "oneOf", Message: "matches more than one of: integer and number", Expected: "exactly one of: integer or string or number", Received: "3"}}},
		// A union of thousands of branches names a few.
		{"anyOf many branches", `{"anyOf":[{"const":0},{"const":1},{"const":2},{"const":3},{"const":4},{"const":5},{"const":6},{"const":7},{"const":8},{"const":9}]}`, `99`,
			[]fe{{Path: "/p", Code: "anyOf", Message: "matches none of: 0 or 1 or 2 or 3 or 4 or 5 or 4 more", Expected: "0 or 1 or 2 or 3 or 4 or 5 or 4 more", Received: "99"}}},
		// An object one member away from a branch is told which, and what
		// is wrong against it.
		{"anyOf nearest misspelt", lookupUser, `{"emial":"a"}`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: object with "email" or object with "user_id"; nearest is object with "email": unknown property "emial"`, Expected: `object with "email" or object with "user_id"`, Received: `{"emial":"a"}`, Suggestion: "email"}}},
		{"anyOf nearest unknown", lookupUser, `{"email":"a","x":1}`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: object with "email" or object with "user_id"; nearest is object with "email": unknown property "x"`, Expected: `object with "email" or object with "user_id"`, Received: `{"email":"a","x":1}`}}},
		{"anyOf nearest missing", `{"anyOf":[{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"],"additionalProperties":false},{"$ref":"#/$defs/C"}],"$defs":{"C":{"type":"object","properties":{"c":{}},"required":["c"]}}}`, `{"a":1}`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: object with "a", "b" or C; nearest is object with "a", "b": missing required property "b"`, Expected: `object with "a", "b" or C`, Received: `{"a":1}`}}},
		// A definition's name is cut as a received value is.
		{"anyOf long definition name", `{"$defs":{"` + strings.Repeat("D", 200) + `":{"type":"object"}},"anyOf":[{"$ref":"#/$defs/` + strings.Repeat("D", 200) + `"},{"type":"string"}]}`, `3`,
			[]fe{{Path: "/p", Code: "anyOf", Message: "matches none of: " + strings.Repeat("D", 79) + "… or string", Expected: strings.Repeat("D", 79) + "… or string", Received: "3"}}},
		// Names that fit a branch: its members' values are wrong.
		{"anyOf names fit", lookupUser, `{"user_id":"x"}`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: object with "email" or object with "user_id"`, Expected: `object with "email" or object with "user_id"`, Received: `{"user_id":"x"}`}}},
		// Equally near two branches: neither is named.
		{"anyOf nearest tie", lookupUser, `{}`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: object with "email" or object with "user_id"`, Expected: `object with "email" or object with "user_id"`, Received: `{}`}}},
		{"anyOf refs", `{"$defs":{"Pet":{"type":"object","required":["name"]},"Car":{"type":"object"}},"anyOf":[{"$ref":"#/$defs/Pet"},{"$ref":"#/$defs/Car"},{"const":"none"}]}`, `3`,
			[]fe{{Path: "/p", Code: "anyOf", Message: `matches none of: Pet or Car or "none"`, Expected: `Pet or Car or "none"`, Received: "3"}}},
		{"if then", `{"if":{"properties":{"k":{"const":"x"}}},"then":{"required":["n"]}}`, `{"k":"x"}`,
			[]fe{{Path: "/p/n", Code: "required", Message: `missing required property "n"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := MustSchema(tc.schema).Validate(generic(t, tc.value), "/p")
			if !equalFields(got, tc.want) {
				t.Errorf("Validate(%s) against %s:\n got %s\nwant %s", tc.value, tc.schema, dump(got), dump(tc.want))
			}
		})
	}
}

// TestSchemaMessagesSorted: violations come in path order (indexes as
// numbers) whatever order the validator walked the object in.
func TestSchemaMessagesSorted(t *testing.T) {
	s := MustSchema(`{"additionalProperties":{"type":"integer"},"items":{"type":"integer"}}`)
	var members []string
	for _, k := range []string{"m", "b", "z", "a", "k"} {
		members = append(members, fmt.Sprintf("%q:%q", k, k))
	}
	obj := generic(t, "{"+strings.Join(members, ",")+"}")
	for range 20 {
		got := s.Validate(obj, "")
		var paths []string
		for _, f := range got {
			paths = append(paths, f.Path)
		}
		if p := strings.Join(paths, " "); p != "/a /b /k /m /z" {
			t.Fatalf("paths %s, want /a /b /k /m /z", p)
		}
	}
	arr := `[` + strings.Repeat(`"x",`, 11) + `"x"]`
	got := s.Validate(generic(t, arr), "")
	if len(got) != 12 || got[2].Path != "/2" || got[10].Path != "/10" {
		t.Errorf("array paths %s, want /0 /1 /2 ... /11", dump(got))
	}
}

// TestSchemaLongMemberName: a hostile member name is cut in the path and
// the message as the decoder cuts them.
func TestSchemaLongMemberName(t *testing.T) {
	name := strings.Repeat("é", 1000)
	b, _ := json.Marshal(map[string]int{name: 1})
	got := MustSchema(`{"additionalProperties":false}`).Validate(generic(t, string(b)), "")
	if len(got) != 1 {
		t.Fatalf("got %s, want one violation", dump(got))
	}
	if n := len(got[0].Path); n > maxTokenBytes+1 || !strings.HasSuffix(got[0].Path, "…") {
		t.Errorf("path of %d bytes %q, want it cut to %d bytes", n, got[0].Path, maxTokenBytes)
	}
	if want := `unknown property "` + strings.Repeat("é", ReceivedLimit-1) + `…"`; got[0].Message != want {
		t.Errorf("message %q, want %q", got[0].Message, want)
	}
}

func TestComparePointers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "/a", -1},
		{"/a", "/a/b", -1},
		{"/2", "/10", -1},
		{"/a/10/x", "/a/9/y", 1},
		{"/b", "/a/z", 1},
		{"/a~1b", "/a~1b", 0},
		{"/x/0", "/x/00", -1},
	}
	for _, tc := range tests {
		got := comparePointers(tc.a, tc.b)
		if sign(got) != tc.want || sign(comparePointers(tc.b, tc.a)) != -tc.want {
			t.Errorf("comparePointers(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSchemaBoundText(t *testing.T) {
	// A bound reads as the schema writes it, in a subschema under a $id
	// of its own too; ratText writes one the document does not hold as a
	// number (draft 4's boolean exclusiveMaximum).
	s := MustSchema(`{"properties":{"n":{"$id":"https://x.test/n","maximum":2.50}}}`)
	got := s.Validate(generic(t, `{"n":3}`), "")
	if len(got) != 1 || got[0].Path != "/n" || got[0].Message != "must be <= 2.50" {
		t.Errorf("maximum 2.50: %s", dump(got))
	}
	for in, want := range map[string]string{"3": "3", "-0.25": "-0.25", "1e300": "1e+300", "1/3": "0.3333333333333333", "0.000001": "0.000001"} {
		r, _ := new(big.Rat).SetString(in)
		if got := ratText(r); got != want {
			t.Errorf("ratText(%s) = %q, want %q", in, got, want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func equalFields(a, b []runtime.FieldError) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func dump(fs []runtime.FieldError) string {
	b, _ := json.MarshalIndent(fs, "", "  ")
	return string(b)
}
