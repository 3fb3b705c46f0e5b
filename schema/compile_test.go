package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/load"
)

// tool wraps a parameters schema in a one-tool OpenAI chat list.
func tool(name, params string) string {
	return `[{"type":"function","function":{"name":"` + name + `","parameters":` + params + `}}]`
}

func TestCompileConstructs(t *testing.T) {
	cases := []struct {
		name, params, want string
	}{
		{"scalars", `{"type":"object","properties":{
			"s":{"type":"string","minLength":1,"maxLength":5,"pattern":"^a"},
			"i":{"type":"integer","minimum":0,"exclusiveMaximum":10,"multipleOf":2},
			"n":{"type":"number","maximum":0.5},
			"b":{"type":"boolean"},
			"f":{"type":"string","format":"date-time"}},"required":["s"]}`, `
DoItParams: object{s:string [minLength=1 maxLength=5 pattern=^a] req, i:int [min=0 xmax=10 multipleOf=2], n:number [max=0.5], b:bool, f:string fmt=date-time}`},
		{"nested names", `{"type":"object","properties":{
			"labels":{"type":"object","properties":{"name":{"type":"string"}}},
			"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}},
			"meta":{"type":"object","additionalProperties":{"type":"string"}},
			"any_obj":{"type":"object"}}}`, `
DoItParams: object{labels:DoItLabels, items:[]DoItItemsItem, meta:map<string>, any_obj(AnyObj):map<any>}
DoItLabels: object{name:string}
DoItItemsItem: object{id(ID):int req}`},
		{"enums", `{"type":"object","properties":{
			"state":{"type":"string","enum":["open","closed","all"]},
			"level":{"type":"integer","enum":[1,2,3]},
			"mixed":{"enum":["a",1,true]},
			"maybe":{"type":["string","null"],"enum":["x","y",null]},
			"odd":{"type":"string","enum":["0-18","60+","","0-18b"]}}}`, `
DoItParams: object{state:DoItState, level:int in(1,2,3), mixed:any in("a",1,true), maybe:DoItMaybe?, odd:DoItOdd}
DoItState: enum("open"=DoItStateOpen "closed"=DoItStateClosed "all"=DoItStateAll)
DoItMaybe: enum("x"=DoItMaybeX "y"=DoItMaybeY)?
DoItOdd: enum("0-18"=DoItOdd0To18 "60+"=DoItOdd60Plus ""=DoItOddEmpty "0-18b"=DoItOdd0To18b)`},
		{"const and type arrays", `{"type":"object","properties":{
			"kind":{"const":"fixed"},
			"id":{"type":["integer","string","null"],"minimum":1,"maxLength":3},
			"note":{"type":["string","null"]},
			"nothing":{"type":"null"}},"required":["id","note"]}`, `
DoItParams: object{kind:const("fixed"), id(ID):DoItID? req, note:string? req, nothing:const(null)?}
DoItID: anyOf<kind>(string [maxLength=3] | int [min=1])?`},
		{"discriminated oneOf", `{"type":"object","properties":{
			"target":{"oneOf":[{"$ref":"#/$defs/User"},{"$ref":"#/$defs/Team"}]}},
			"$defs":{
			"User":{"type":"object","properties":{"type":{"const":"user"},"login":{"type":"string"}},"required":["type","login"]},
			"Team":{"type":"object","properties":{"type":{"type":"string","enum":["team"]},"slug":{"type":"string"}},"required":["type"]}}}`, `
DoItParams: object{target:DoItTarget}
DoItTarget: oneOf<disc:type>(User | Team)
User: object{type:const("user") req, login:string req}
Team: object{type:TeamType req, slug:string}
TeamType: enum("team"=TeamTypeTeam)`},
		{"union by kind and in order", `{"type":"object","properties":{
			"v":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"array","items":{"type":"string"}}]},
			"o":{"anyOf":[{"type":"object","title":"By Name","properties":{"name":{"type":"string"}}},{"type":"object","properties":{"id":{"type":"integer"}}}]},
			"r":{"anyOf":[{"$ref":"#/$defs/Point"},{"type":"null"}]},
			"s":{"oneOf":[{"type":"string"},{"type":"null"}],"description":"maybe"}},
			"$defs":{"Point":{"type":"object","properties":{"x":{"type":"number"}}}}}`, `
DoItParams: object{v:DoItV, o:DoItO, r:Point?, s:string?}
DoItV: anyOf<kind>(string | int | []string)
DoItO: anyOf<order>(DoItOByName | DoItOOption2)
DoItOByName: object{name:string}
DoItOOption2: object{id(ID):int}
Point: object{x:number}`},
		{"allOf merge", `{"type":"object","allOf":[{"$ref":"#/$defs/Base"},{"properties":{"b":{"type":"integer","maximum":9}},"required":["b"]}],
			"properties":{"b":{"minimum":1}},
			"$defs":{"Base":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}`, `
DoItParams: object{b:int [min=1 max=9] req, a:string req}`},
		{"recursion", `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"},"list":{"$ref":"#/$defs/List"},"a":{"$ref":"#/$defs/A"}},
			"$defs":{
			"Node":{"type":"object","properties":{"value":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}},
			"List":{"type":"array","items":{"$ref":"#/$defs/List"}},
			"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},
			"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}}`, `
DoItParams: object{root:Node, list:List, a:A}
Node: object{value:string, children:[]Node}
List: []List
A: object{b:B}
B: object{a:A}`},
		{"tuples", `{"type":"object","properties":{
			"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false},
			"row":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"}},
			"old":{"type":"array","items":[{"type":"string"},{"type":"boolean"}],"additionalItems":false}}}`, `
DoItParams: object{point:DoItPoint, row:DoItRow, old:DoItOld}
DoItPoint: tuple(number, number, closed)
DoItRow: tuple(string, ...int)
DoItOld: tuple(string, bool, closed)`},
		{"maps and patterns", `{"type":"object","properties":{
			"known":{"type":"object","properties":{"a":{"type":"string"},"extra":{"type":"string"}},"additionalProperties":{"type":"integer"}},
			"closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},
			"pp":{"type":"object","patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false},
			"mixed":{"type":"object","properties":{"x-a":{"minLength":2}},"patternProperties":{"^x-":{"type":"string"}}},
			"mixedClosed":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false},
			"mixedTyped":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":{"type":"integer"}}},
			"required":["must"]}`, `
DoItParams: object{known:DoItKnown, closed:DoItClosed, pp:map<any> delegated{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}, mixed:DoItMixed, mixedClosed:DoItMixedClosed, mixedTyped:DoItMixedTyped, must:any req}
DoItKnown: object{a:string, extra:string, ...Extra2:int}
DoItClosed: object{a:string, closed}
DoItMixed: object{x-a(XA):string [minLength=2], ...Extra:any} delegated{"patternProperties":{"^x-":{"type":"string"}}}
DoItMixedClosed: object{a:string, ...Extra:any} delegated{"patternProperties":{"^x-":{"type":"string"}},"properties":{"a":true},"additionalProperties":false}
DoItMixedTyped: object{a:string, ...Extra:any} delegated{"patternProperties":{"^x-":{"type":"string"}},"properties":{"a":true},"additionalProperties":{"type":"integer"}}`},
		{"root oneOf of required", `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}},
			"oneOf":[{"required":["id"]},{"required":["name"]}]}`, `
DoItParams: object{id(ID):string, name:string} delegated{"oneOf":[{"required":["id"]},{"required":["name"]}]}`},
		{"defaults", `{"type":"object","properties":{
			"n":{"type":"integer","default":"10"},
			"m":{"type":"integer","default":10},
			"s":{"type":"string","enum":["a","b"],"default":"c"},
			"r":{"$ref":"#/$defs/R","default":{"x":1}}},
			"$defs":{"R":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}}}`, `
DoItParams: object{n:int, m:int =10 =10, s:DoItS, r:R ={"x":1}}
DoItS: enum("a"=DoItSA "b"=DoItSB)
R: object{x:int req}
warning tools.json:2:36: /0/function/parameters/properties/n/default: default "10" does not match the schema: expected integer; not applied
warning tools.json:4:52: /0/function/parameters/properties/s/default: default "c" does not match the schema: not one of "a", "b"; not applied`},
		{"default with an unpaired surrogate", `{"type":"object","properties":{
			"s":{"type":"string","default":"\ud800"},
			"p":{"type":"string","default":"\ud83d\ude00"}}}`, `
DoItParams: object{s:string, p:string ="😀" ="😀"}
warning tools.json:2:35: /0/function/parameters/properties/s/default: default "�" holds an unpaired surrogate escape, which no argument can (one that does is refused); not applied`},
		{"defaults checked by every keyword", `{"type":"object","properties":{
			"d":{"type":"string","format":"date","default":"nope"},
			"p":{"type":"string","pattern":"^a","default":"x"},
			"l":{"type":"array","minItems":1,"default":[]},
			"c":{"type":"array","contains":{"not":{}},"default":[]},
			"u":{"type":"array","uniqueItems":true,"default":[1,1]},
			"o":{"oneOf":[{"type":"integer"},{"type":"number"}],"default":1},
			"m":{"type":"object","minProperties":1,"default":{}},
			"r":{"type":"object","dependentRequired":{"a":["b"]},"default":{"a":1}},
			"n":{"type":"string","not":{"const":"x"},"default":"x"},
			"ok":{"type":"string","format":"date","default":"2024-02-29"}}}`, `
DoItParams: object{d:string fmt=date, p:string [pattern=^a], l:[]any [minItems=1], c:[]any [contains=any delegated{"not":{}}], u:[]any [unique], o:DoItO, m:map<any> [minProps=1], r:map<any> delegated{"dependentRequired":{"a":["b"]}}, n:string delegated{"not":{"const":"x"}}, ok:string fmt=date ="2024-02-29" ="2024-02-29"}
DoItO: oneOf<order>(int | number)
warning tools.json:2:51: /0/function/parameters/properties/d/default: default "nope" does not match the schema: not a valid date; not applied
warning tools.json:3:50: /0/function/parameters/properties/p/default: default "x" does not match the schema: does not match the pattern ^a; not applied
warning tools.json:4:47: /0/function/parameters/properties/l/default: default [] does not match the schema: fewer items than minItems 1; not applied
warning tools.json:5:56: /0/function/parameters/properties/c/default: default [] does not match the schema: contains 0 matching items, outside minContains/maxContains; not applied
warning tools.json:6:53: /0/function/parameters/properties/u/default: default [1,1] does not match the schema: items 0 and 1 are equal (uniqueItems); not applied
warning tools.json:7:66: /0/function/parameters/properties/o/default: default 1 does not match the schema: matches more than one branch of oneOf; not applied
warning tools.json:8:53: /0/function/parameters/properties/m/default: default {} does not match the schema: fewer members than minProperties 1; not applied
warning tools.json:9:67: /0/function/parameters/properties/r/default: default {"a":1} does not match the schema: property "b" is required when "a" is present; not applied
warning tools.json:10:55: /0/function/parameters/properties/n/default: default "x" does not match the schema: must not match the schema {"const":"x"}; not applied`},
		{"delegated", `{"type":"object","properties":{
			"a":{"type":"string","not":{"const":"x"}},
			"b":{"type":"object","if":{"required":["p"]},"then":{"required":["q"]},"properties":{"p":{},"q":{}}},
			"c":{"type":"object","properties":{"x":{"type":"string"}},"dependentSchemas":{"x":{"$ref":"#/$defs/Y"}}},
			"d":{"type":"object","properties":{"x":{"type":"string"}},"unevaluatedProperties":false},
			"e":{"minLength":2}},
			"$defs":{"Y":{"required":["y"]}}}`, `
DoItParams: object{a:string delegated{"not":{"const":"x"}}, b:DoItB, c:DoItC, d:DoItD, e:any delegated{"minLength":2}}
DoItB: object{p:any, q:any} delegated{"if":{"required":["p"]},"then":{"required":["q"]}}
DoItC: object{x:string} delegated{"dependentSchemas":{"x":{"$ref":"#/$defs/d1"}},"$defs":{"d1":{"required":["y"]}}}
DoItD: object{x:string} delegated{"type":"object","properties":{"x":{"type":"string"}},"unevaluatedProperties":false}`},
		{"numbers exact", `{"type":"object","properties":{
			"big":{"type":"integer","minimum":-99999999999999999999,"maximum":99999999999999999999},
			"c":{"const":12345678901234567890123},
			"d4":{"type":"number","minimum":5,"exclusiveMinimum":true,"maximum":6,"exclusiveMaximum":false},
			"cnt":{"type":"string","maxLength":2.0}}}`, `
DoItParams: object{big:int [min=-99999999999999999999 max=99999999999999999999], c:const(12345678901234567890123), d4:number [max=6 xmin=5], cnt:string [maxLength=2]}
warning tools.json:2:38: /0/function/parameters/properties/big/minimum: minimum -99999999999999999999 allows integers down to -99999999999999999999, but the generated int64 holds -9223372036854775808 to 9223372036854775807: an argument outside that range is refused with an error at call time
warning tools.json:2:70: /0/function/parameters/properties/big/maximum: maximum 99999999999999999999 allows integers up to 99999999999999999999, but the generated int64 holds -9223372036854775808 to 9223372036854775807: an argument outside that range is refused with an error at call time
warning tools.json:3:17: /0/function/parameters/properties/c/const: const 12345678901234567890123 is outside the range of the generated int64 (-9223372036854775808 to 9223372036854775807): the one argument it allows is refused with an error at call time, so no argument passes`},
		{"object constraints", `{"type":"object","properties":{
			"o":{"type":"object","properties":{"a":{},"b":{}},"minProperties":1,"maxProperties":2,"dependentRequired":{"a":["b"]},"propertyNames":{"maxLength":3}},
			"l":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3,"uniqueItems":true,"minItems":1},
			"dep":{"type":"object","properties":{"a":{}},"dependencies":{"a":["b"],"b":{"required":["c"]}}}}}`, `
DoItParams: object{o:DoItO, l:[]any [minItems=1 unique contains=int minContains=2 maxContains=3], dep:DoItDep}
DoItO: object{a:any, b:any} delegated{"minProperties":1,"maxProperties":2,"propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]}}
DoItDep: object{a:any} delegated{"allOf":[{"dependentRequired":{"a":["b"]}},{"dependentSchemas":{"b":{"required":["c"]}}}]}`},
		{"field names", `{"type":"object","properties":{
			"target_id":{"type":"string"},"targetId":{"type":"string"},"type":{"type":"string"},"Validate":{"type":"string"},
			"PM2.5":{"type":"number"},"Content-Type":{"type":"string"},"当前状态":{"type":"string"}}}`, `
DoItParams: object{target_id(TargetID2):string, targetId(TargetID):string, type:string, Validate(Validate2):string, PM2.5(PM2_5):number, Content-Type(ContentType):string, 当前状态(X当前状态):string}`},
		{"boolean schemas", `{"type":"object","properties":{"t":true,"f":false,"e":{}},"required":["t"]}`, `
DoItParams: object{t:any req, f:never, e:any}`},
		{"root oneOf of objects", `{"oneOf":[{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]},
			{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}]}`, `
DoItParams: oneOf<order>(DoItOption1 | DoItOption2)
DoItOption1: object{url(URL):string req}
DoItOption2: object{path:string req}
warning tools.json:1:61: /0/function/parameters: parameters have no "type"; providers require "type": "object" at the root, so the definitions toolgen serves add it`},
		{"full branches differing in required", `{"type":"object","anyOf":[
			{"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]},
			{"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"]}]}`, `
DoItParams: object{a:string, b:string} delegated{"anyOf":[{"required":["a"]},{"required":["b"]}]}`},
		{"nullable object", `{"type":"object","properties":{"o":{"type":["object","null"],"properties":{"a":{"type":"string"}}}}}`, `
DoItParams: object{o:DoItO?}
DoItO: object{a:string}?`},
		// {"type": "object"} without additionalProperties is MCP's tool
		// without arguments; additionalProperties true or {} says the
		// arguments are free-form: the handler gets them in Extra. Below
		// the root an object with properties keeps them only.
		{"no arguments", `{"type":"object"}`, `
DoItParams: object{}`},
		{"no arguments, no properties", `{"type":"object","properties":{}}`, `
DoItParams: object{}`},
		{"free-form arguments", `{"type":"object","additionalProperties":true}`, `
DoItParams: object{...Extra:any}`},
		{"free-form arguments, additionalProperties {}", `{"type":"object","properties":{},"additionalProperties":{}}`, `
DoItParams: object{...Extra:any}`},
		{"declared and free-form arguments", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`, `
DoItParams: object{a:string, ...Extra:any}`},
		{"free-form arguments by $ref", `{"$ref":"#/$defs/p","$defs":{"p":{"type":"object","properties":{"p":{"$ref":"#/$defs/p"}},"additionalProperties":true}}}`, `
DoItParams: object{p:P, ...Extra:any}
P: object{p:P, ...Extra:any}
warning tools.json:1:61: /0/function/parameters: parameters have no "type"; providers require "type": "object" at the root, so the definitions toolgen serves add it`},
		{"repeated required", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}`, `
DoItParams: object{a:string req}
warning tools.json:1:131: /0/function/parameters/required/1: required lists "a" again; JSON Schema asks for each name once`},
		{"root union with an open object", `{"type":"object","oneOf":[{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},{"type":"object","additionalProperties":{"type":"string"}}]}`, `
DoItParams: oneOf<order>(DoItOption1 | map<string>)
DoItOption1: object{id(ID):string req}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fam, err := compileTools(t, tool("do_it", tc.params))
			if err != nil {
				t.Fatal(err)
			}
			got := dumpFamily(fam)
			if strings.TrimSpace(got) != strings.TrimSpace(tc.want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		name, params, want string
	}{
		{"unresolvable ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}}}`,
			`tools.json:1:104: /0/function/parameters/properties/a/$ref: unresolvable $ref "#/$defs/Missing"`},
		{"ref loop", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
			`tools.json:1:139: /0/function/parameters/$defs/A/$ref: circular $ref`},
		{"allOf type conflict", `{"type":"object","properties":{"a":{"allOf":[{"type":"string"},{"type":"integer"}]}}}`,
			`tools.json:1:132: /0/function/parameters/properties/a/allOf/1/type: allOf: no type satisfies every branch`},
		{"allOf const conflict", `{"type":"object","properties":{"a":{"allOf":[{"const":1},{"const":2}]}}}`,
			`tools.json:1:127: /0/function/parameters/properties/a/allOf/1/const: allOf: conflicting const values`},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"(["}}}`,
			"tools.json:1:123: /0/function/parameters/properties/a/pattern: invalid pattern \"([\": unterminated [] set in `([`"},
		{"negative length", `{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`,
			`tools.json:1:125: /0/function/parameters/properties/a/minLength: minLength must be a non-negative integer`},
		{"fractional count", `{"type":"object","properties":{"a":{"type":"array","maxItems":1.5}}}`,
			`tools.json:1:123: /0/function/parameters/properties/a/maxItems: maxItems must be a non-negative integer`},
		{"zero multipleOf", `{"type":"object","properties":{"a":{"type":"number","multipleOf":0}}}`,
			`tools.json:1:126: /0/function/parameters/properties/a/multipleOf: multipleOf must be greater than 0`},
		{"negative multipleOf past the float64s", `{"type":"object","properties":{"a":{"type":"number","multipleOf":-1e-999999999}}}`,
			`tools.json:1:126: /0/function/parameters/properties/a/multipleOf: multipleOf must be greater than 0`},
		{"zero multipleOf of a huge exponent", `{"type":"object","properties":{"a":{"type":"number","multipleOf":0e999999999}}}`,
			`tools.json:1:126: /0/function/parameters/properties/a/multipleOf: multipleOf must be greater than 0`},
		{"required not strings", `{"type":"object","properties":{},"required":[1]}`,
			`tools.json:1:106: /0/function/parameters/required/0: required must be an array of strings`},
		{"params not object", `{"type":"string"}`,
			`tools.json:1:61: /0/function/parameters: parameters must be an object schema`},
		{"params union not of objects", `{"anyOf":[{"type":"object"},{"type":"string"}]}`,
			`tools.json:1:61: /0/function/parameters: parameters must be an object schema`},
		{"params union looping back", `{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"$ref":"#"}]}`,
			`tools.json:1:134: /0/function/parameters/anyOf/1/$ref: circular schema: this applies /0/function/parameters to the same value again (through anyOf, oneOf, not, if/then/else or dependentSchemas) and can never be decided`},
		{"empty type array", `{"type":"object","properties":{"a":{"type":[]}}}`,
			`tools.json:1:104: /0/function/parameters/properties/a/type: type must be a type name or a non-empty array of them; [] allows no type`},
		{"repeated type", `{"type":"object","properties":{"a":{"type":["string","string"]}}}`,
			`tools.json:1:114: /0/function/parameters/properties/a/type/1: type lists "string" twice; the entries of a type array must be unique`},
		{"remote ref named like an input file", `{"type":"object","properties":{"a":{"$ref":"https://evil.example/x/tools.json#/0/function/parameters/$defs/S"}},"$defs":{"S":{"type":"string"}}}`,
			`tools.json:1:104: /0/function/parameters/properties/a/$ref: unresolvable $ref "https://evil.example/x/tools.json#/0/function/parameters/$defs/S": toolgen fetches no documents (a $ref reaches another input file by a relative path, and a schema by its $id); copy the schema into this document's $defs and refer to it as "#/$defs/NAME"`},
		{"not of a wrong kind", `{"type":"object","properties":{"a":{"type":"string","not":{"minLength":"x"}}}}`,
			`tools.json:1:96: /0/function/parameters/properties/a: the embedded validator refuses this schema: at '/not/minLength': got string, want integer`},
		{"dependency of a wrong kind", `{"type":"object","properties":{"a":{}},"dependencies":{"a":"b"}}`,
			`tools.json:1:61: /0/function/parameters: the embedded validator refuses this schema: at '/dependentSchemas/a': got string, want boolean or object`},
		{"several errors", `{"type":"object","properties":{"a":{"$ref":"#/nope"},"b":{"type":"string","maxLength":"x"}}}`,
			`tools.json:1:104: /0/function/parameters/properties/a/$ref: unresolvable $ref "#/nope"` + "\n" +
				`tools.json:1:147: /0/function/parameters/properties/b/maxLength: maxLength must be a non-negative integer`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileTools(t, tool("do_it", tc.params))
			if err == nil {
				t.Fatal("compiled; want an error")
			}
			var list jsonpos.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			if err.Error() != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// chainSchema is params whose x is a chain of n definitions, each
// applying the next twice to the same value (if and then/else; anyOf and
// not) — the embedded validator's work doubles at each link.
func chainSchema(n int, link func(next string) string) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d":%s`, i, link(fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, i+1))))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"string"}`, n))
	return `{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// TestDelegatedApplications: a schema the embedded validator would apply
// to one value more than 10,000 times is refused, located (40 links of
// if/then/else ran for minutes a call); a short chain is compiled.
func TestDelegatedApplications(t *testing.T) {
	ite := func(next string) string { return `{"if":` + next + `,"then":` + next + `,"else":` + next + `}` }
	anyNot := func(next string) string { return `{"anyOf":[` + next + `,{"type":"integer"}],"not":` + next + `}` }
	for _, link := range []func(string) string{ite, anyNot} {
		if _, err := compileTools(t, tool("short", chainSchema(6, link))); err != nil {
			t.Errorf("6 links: %v", err)
		}
		_, err := compileTools(t, tool("long", chainSchema(40, link)))
		if err == nil || !strings.Contains(err.Error(), "the embedded validator would apply subschemas to one value more than 10000 times here") ||
			!strings.Contains(err.Error(), "/0/function/parameters/$defs/d") {
			t.Errorf("40 links: %v", err)
		}
	}
}

// TestDuplicateDeclarations: an $id or anchor declared again by another
// schema is a located warning (references resolve to the first); copies
// of one schema are not.
func TestDuplicateDeclarations(t *testing.T) {
	cases := []struct{ name, params, want string }{
		{"id", `{"type":"object","properties":{"a":{"$ref":"https://dup.example/s"}},"$defs":{"S":{"$id":"https://dup.example/s","type":"string"},"T":{"$id":"https://dup.example/s","type":"integer"}}}`,
			`warning tools.json:1:202: /0/function/parameters/$defs/T/$id: $id "https://dup.example/s" is declared again (first at tools.json:1:143 /0/function/parameters/$defs/S): references to it resolve to the first`},
		{"anchor", `{"type":"object","properties":{"a":{"$ref":"#x"}},"$defs":{"S":{"$anchor":"x","type":"string"},"T":{"$anchor":"x","type":"integer"}}}`,
			`warning tools.json:1:171: /0/function/parameters/$defs/T/$anchor: $anchor "x" is declared again (first at tools.json:1:124 /0/function/parameters/$defs/S): references to it resolve to the first`},
		{"copies", `{"type":"object","properties":{"a":{"$ref":"https://dup.example/s"}},"$defs":{"S":{"$id":"https://dup.example/s","type":"string"},"T":{"$id":"https://dup.example/s","type":"string"}}}`, ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fam, err := compileTools(t, tool("do_it", tc.params))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range strings.Split(dumpFamily(fam), "\n") {
				if strings.HasPrefix(line, "warning ") {
					got = append(got, line)
				}
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

// TestRequiredTypoWarns: a required name no property declares, near the
// spelling of one declared ("userId" for user_id), is a located warning;
// generation said nothing, and calls sending user_id were refused for
// want of userId. A required name with no near declared one says nothing
// (it is legal: the member must be there, with any value).
func TestRequiredTypoWarns(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"user_id":{"type":"string"}},"required":["userId"]}`, `/0/inputSchema/required/0: warning: property "userId" is required but no property declares it (did you mean "user_id"?)`},
		{`{"type":"object","properties":{"user_id":{"type":"string"}},"required":["token"]}`, ``},
		{`{"type":"object","required":["userId"]}`, ``},
	} {
		doc, err := load.Tools([]load.Input{{Name: "t.json", Data: `[{"name":"t","inputSchema":` + c.schema + `}]`}}, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fam, err := Compile(doc, CompileOptions{Package: "p"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range fam.Warnings {
			if w.Code == "required-undeclared" {
				got = append(got, w.Pos.Pointer+": warning: "+w.Message)
			}
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: warned %q", c.schema, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: warnings %q, want one holding %q", c.schema, got, c.want)
		}
	}
}

// TestOutputRootTypeWarns: MCP lists an outputSchema only with "type":
// "object" at its root; one without it (["object","null"], no type) was
// dropped from tools/list without a word.
func TestOutputRootTypeWarns(t *testing.T) {
	for _, c := range []struct {
		output string
		warns  bool
	}{
		{`{"type":["object","null"],"properties":{"n":{"type":"integer"}}}`, true},
		{`{"properties":{"n":{"type":"integer"}}}`, true},
		{`{"type":"object","properties":{"n":{"type":"integer"}}}`, false},
	} {
		doc, err := load.Tools([]load.Input{{Name: "t.json", Data: `[{"name":"t","inputSchema":{"type":"object"},"outputSchema":` + c.output + `}]`}}, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fam, err := Compile(doc, CompileOptions{Package: "p"})
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, w := range fam.Warnings {
			warned = warned || w.Code == codeOutputType
		}
		if warned != c.warns {
			t.Errorf("%s: warned %v", c.output, warned)
		}
	}
}
