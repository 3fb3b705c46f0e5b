package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostileShapes: definitions a hostile or careless author writes,
// each read without losing a word of what was written: the schema the
// tool ends up with, and every error and warning, located.
func TestHostileShapes(t *testing.T) {
	tests := []struct {
		name    string
		inputs  []Input
		lenient bool
		// params is the first tool's parameters schema ("" when no tool
		// loads).
		params string
		errs   []string
		// warns are the warnings, "POS CODE MESSAGE".
		warns []string
		// defs, when set, is the second input's $defs after loading.
		defs string
	}{
		{
			// A lenient rewrite to a type the array lists already would
			// make the compiler report a duplicate the author never wrote.
			name:    "lenient type array alias of a listed type",
			inputs:  []Input{{"a.json", `[{"name":"t","input_schema":{"type":"object","properties":{"x":{"type":["string","str","int","integer","null"]}}}}]`}},
			lenient: true,
			params:  `{"type":"object","properties":{"x":{"type":["string","integer","null"]}}}`,
			warns: []string{
				`a.json:1:82 lenient-type rewrote type "str" to "string" 1 time`,
				`a.json:1:88 lenient-type rewrote type "int" to "integer" 1 time`,
			},
		},
		{
			name:    "lenient type array of two aliases of one type",
			inputs:  []Input{{"a.json", `[{"name":"t","input_schema":{"type":"object","properties":{"x":{"type":["int","long"]}}}}]`}},
			lenient: true,
			params:  `{"type":"object","properties":{"x":{"type":["integer"]}}}`,
			warns: []string{
				`a.json:1:73 lenient-type rewrote type "int" to "integer" 1 time`,
				`a.json:1:79 lenient-type rewrote type "long" to "integer" 1 time`,
			},
		},
		{
			// "any" in a type array allows any value: lenient removes the
			// type keyword, as it does for "type": "any".
			name:    "lenient any in a type array",
			inputs:  []Input{{"a.json", `[{"name":"t","input_schema":{"type":"object","properties":{"x":{"type":["string","any"],"description":"d"}}}}]`}},
			lenient: true,
			params:  `{"type":"object","properties":{"x":{"description":"d"}}}`,
			warns:   []string{`a.json:1:82 lenient-type removed type "any" (any value) 1 time`},
		},
		{
			name:   "any in a type array",
			inputs: []Input{{"a.json", `[{"name":"t","input_schema":{"type":"object","properties":{"x":{"type":["string","any"]}}}}]`}},
			errs:   []string{`a.json:1:82: /0/input_schema/properties/x/type/1: "any" is not a JSON Schema type; omit "type" to allow any value`},
		},
		{
			// Another file's $defs are reached by cross-file $refs: the
			// lenient rewrites apply there too, not only in the tools'
			// own schemas.
			name: "lenient shared defs",
			inputs: []Input{
				{"a.json", `[{"name":"t","input_schema":{"type":"object","properties":{"x":{"$ref":"b.json#/$defs/X"}}}}]`},
				{"b.json", `{"tools":[],"$defs":{"X":{"type":"object","properties":{"n":{"type":"int","required":true}}}},"definitions":{"Y":{"type":"str"}}}`},
			},
			lenient: true,
			params:  `{"type":"object","properties":{"x":{"$ref":"b.json#/$defs/X"}}}`,
			defs:    `{"X":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}`,
			warns: []string{
				`b.json:1:86 lenient-required moved a boolean "required" from a property into its object's "required" array 1 time`,
				`b.json:1:69 lenient-type rewrote type "int" to "integer" 1 time`,
				`b.json:1:122 lenient-type rewrote type "str" to "string" 1 time`,
			},
		},
		{
			// A shared $defs may hold more than the tools use: what
			// cannot be rewritten is the compiler's to report where a
			// $ref reaches it.
			name: "lenient shared defs not rewritable",
			inputs: []Input{
				{"a.json", `[{"name":"t","input_schema":{"type":"object"}}]`},
				{"b.json", `{"tools":[],"$defs":{"F":{"type":"file"},"X":{"type":"int"}}}`},
			},
			lenient: true,
			params:  `{"type":"object"}`,
			defs:    `{"F":{"type":"file"},"X":{"type":"integer"}}`,
			warns:   []string{`b.json:1:54 lenient-type rewrote type "int" to "integer" 1 time`},
		},
		{
			// A file of shared $defs needs "tools": say so.
			name: "defs without tools",
			inputs: []Input{
				{"a.json", `[{"name":"t","input_schema":{"type":"object"}}]`},
				{"b.json", `{"$defs":{"X":{"type":"string"}}}`},
			},
			errs: []string{`b.json:1:1: /: expected an array of tools or an object with a "tools" array; a file of shared $defs has an empty one ("tools": [])`},
		},
		{
			name:   "legacy functions list alone",
			inputs: []Input{{"a.json", `{"functions":[{"name":"t","parameters":{"type":"object"}}]}`}},
			errs:   []string{`a.json:1:14: /functions: the legacy "functions" list is not read: name it "tools" (its entries may stay as they are)`},
		},
		{
			// The tool's own title wins over the annotations' one, which
			// is still checked.
			name:   "annotations title not a string",
			inputs: []Input{{"a.json", `[{"name":"t","title":"T","inputSchema":{"type":"object"},"annotations":{"title":5}}]`}},
			errs:   []string{`a.json:1:81: /0/annotations/title: "title" must be a string, found a number`},
		},
		{
			name:   "empty file",
			inputs: []Input{{"a.json", "\uFEFF \n\t\n"}},
			errs:   []string{`a.json:1:1: /: the file is empty: expected an array of tools or an object with a "tools" array`},
		},
		{
			name:   "one tool, not in a list",
			inputs: []Input{{"a.json", `{"name":"t","inputSchema":{"type":"object"}}`}},
			errs:   []string{`a.json:1:1: /: expected an array of tools or an object with a "tools" array; this is one tool: put it in an array ([{...}])`},
		},
		{
			name:   "one chat tool, not in a list",
			inputs: []Input{{"a.json", `{"type":"function","function":{"name":"t"}}`}},
			errs:   []string{`a.json:1:1: /: expected an array of tools or an object with a "tools" array; this is one tool: put it in an array ([{...}])`},
		},
		{
			name:   "misspelt tool list",
			inputs: []Input{{"a.json", `{"Tool":[{"name":"t","inputSchema":{"type":"object"}}]}`}},
			errs:   []string{`a.json:1:1: /: expected an array of tools or an object with a "tools" array; did you mean "tools" for "Tool"?`},
		},
		{
			name:   "tool list one level down",
			inputs: []Input{{"a.json", `{"id":1,"data":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`}},
			errs:   []string{`a.json:1:1: /: expected an array of tools or an object with a "tools" array; its member "data" holds one: save that object as the file`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, errs := Decode(tt.inputs, Options{Lenient: tt.lenient})
			var gotErrs, gotWarns []string
			for _, e := range errs {
				gotErrs = append(gotErrs, e.Error())
			}
			for _, w := range doc.Warnings {
				gotWarns = append(gotWarns, strings.Join([]string{w.Pos.String(), w.Code, w.Message}, " "))
			}
			if diff := cmp.Diff(tt.errs, gotErrs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warns, gotWarns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			got := ""
			if len(doc.Tools) > 0 {
				got = string(doc.Tools[0].Params.JSON())
			}
			if got != tt.params && (tt.params != "" || len(tt.errs) == 0) {
				t.Errorf("params:\n got %s\nwant %s", got, tt.params)
			}
			if tt.defs != "" {
				if got := string(doc.Roots[1].Get("$defs").JSON()); got != tt.defs {
					t.Errorf("$defs:\n got %s\nwant %s", got, tt.defs)
				}
			}
		})
	}
}

// BenchmarkLenientRequiredWide: draft-3 booleans moved into the required
// array of an object schema that also has many other members. Each move
// looked the array up again, a scan of the object once adding the array
// had dropped its index: 40,000 of each (1.5 MB) took 10.9 s.
func BenchmarkLenientRequiredWide(b *testing.B) {
	const n = 20000
	var s strings.Builder
	s.WriteString(`[{"name":"t","input_schema":{"type":"object"`)
	for i := range n {
		fmt.Fprintf(&s, `,"x%d":0`, i)
	}
	s.WriteString(`,"properties":{`)
	for i := range n {
		if i > 0 {
			s.WriteString(",")
		}
		fmt.Fprintf(&s, `"p%d":{"required":true}`, i)
	}
	s.WriteString("}}}]")
	in := []Input{{Name: "a.json", Data: s.String()}}
	b.SetBytes(int64(s.Len()))
	for b.Loop() {
		doc, err := Tools(in, Options{Lenient: true})
		if err != nil {
			b.Fatal(err)
		}
		if got := len(doc.Tools[0].Params.Get("required").Items); got != n {
			b.Fatalf("%d required, want %d", got, n)
		}
	}
}

// BenchmarkMisspeltSchemaKeys: a tool with a member near its schema key
// per member ("parameters00001", …), each an error. The members already
// reported were looked for in a list per member: 40,000 (800 KB) took
// 14 s.
func BenchmarkMisspeltSchemaKeys(b *testing.B) {
	const n = 20000
	var s strings.Builder
	s.WriteString(`[{"name":"t"`)
	for i := range n {
		fmt.Fprintf(&s, `,"parameters%05d":0`, i)
	}
	s.WriteString("}]")
	in := []Input{{Name: "a.json", Data: s.String()}}
	b.SetBytes(int64(s.Len()))
	for b.Loop() {
		if _, errs := Decode(in, Options{}); len(errs) != n {
			b.Fatalf("%d errors, want %d", len(errs), n)
		}
	}
}
