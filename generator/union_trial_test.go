package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// trialTools has two tools whose arguments are unions matched by trial
// and nested in themselves: a Notion-style filter (an anyOf of 19 object
// branches, each requiring its own member, and compound "and" and "or"
// arrays of filters) and a JSON-logic rule (an anyOf of scalars, an array
// of rules and one object per operator, whose operand is "an array of
// rules, or one rule": an array matches both at every level), and a
// chain whose links may match both of their object branches.
const trialTools = `[
{"type":"function","function":{"name":"query_db","description":"Query a database.","parameters":{
	"type":"object","properties":{"filter":{"$ref":"#/$defs/Filter"}},"required":["filter"],
	"$defs":{"Filter":{"anyOf":[
		{"type":"object","properties":{"property":{"type":"string"},"f0":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f0"]},
		{"type":"object","properties":{"property":{"type":"string"},"f1":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f1"]},
		{"type":"object","properties":{"property":{"type":"string"},"f2":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f2"]},
		{"type":"object","properties":{"property":{"type":"string"},"f3":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f3"]},
		{"type":"object","properties":{"property":{"type":"string"},"f4":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f4"]},
		{"type":"object","properties":{"property":{"type":"string"},"f5":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f5"]},
		{"type":"object","properties":{"property":{"type":"string"},"f6":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f6"]},
		{"type":"object","properties":{"property":{"type":"string"},"f7":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f7"]},
		{"type":"object","properties":{"property":{"type":"string"},"f8":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f8"]},
		{"type":"object","properties":{"property":{"type":"string"},"f9":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f9"]},
		{"type":"object","properties":{"property":{"type":"string"},"f10":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f10"]},
		{"type":"object","properties":{"property":{"type":"string"},"f11":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f11"]},
		{"type":"object","properties":{"property":{"type":"string"},"f12":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f12"]},
		{"type":"object","properties":{"property":{"type":"string"},"f13":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f13"]},
		{"type":"object","properties":{"property":{"type":"string"},"f14":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f14"]},
		{"type":"object","properties":{"property":{"type":"string"},"f15":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f15"]},
		{"type":"object","properties":{"property":{"type":"string"},"f16":{"type":"object","properties":{"equals":{"type":"string","minLength":1}}}},"required":["property","f16"]},
		{"type":"object","properties":{"property":{"type":"string"},"f17":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f17"]},
		{"type":"object","properties":{"property":{"type":"string"},"f18":{"type":"object","properties":{"equals":{"type":"string"}}}},"required":["property","f18"]},
		{"type":"object","properties":{"and":{"type":"array","items":{"$ref":"#/$defs/Filter"}}},"required":["and"]},
		{"type":"object","properties":{"or":{"type":"array","items":{"$ref":"#/$defs/Filter"}}},"required":["or"]}]}}}}},
{"type":"function","function":{"name":"eval_logic","description":"Evaluate a JSON-logic rule.","parameters":{
	"type":"object","properties":{"rule":{"$ref":"#/$defs/Expr"}},"required":["rule"],
	"$defs":{
		"Expr":{"anyOf":[{"type":"number"},{"type":"string"},{"type":"boolean"},
			{"type":"array","items":{"$ref":"#/$defs/Expr"}},
			{"type":"object","properties":{"and":{"$ref":"#/$defs/Args"}},"required":["and"],"additionalProperties":false},
			{"type":"object","properties":{"or":{"$ref":"#/$defs/Args"}},"required":["or"],"additionalProperties":false},
			{"type":"object","properties":{"!":{"$ref":"#/$defs/Args"}},"required":["!"],"additionalProperties":false},
			{"type":"object","properties":{"==":{"$ref":"#/$defs/Args"}},"required":["=="],"additionalProperties":false},
			{"type":"object","properties":{"var":{"$ref":"#/$defs/Args"}},"required":["var"],"additionalProperties":false}]},
		"Args":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Expr"}},{"$ref":"#/$defs/Expr"}]}}}}},
{"type":"function","function":{"name":"walk","description":"Walk a chain.","parameters":{
	"type":"object","properties":{"node":{"$ref":"#/$defs/Node"}},"required":["node"],
	"$defs":{"Node":{"anyOf":[
		{"type":"object","properties":{"a":{"type":"string"},"next":{"$ref":"#/$defs/Node"}},"required":["a"]},
		{"type":"object","properties":{"b":{"type":"string"},"next":{"$ref":"#/$defs/Node"}},"required":["b"]}]}}}}},
{"type":"function","function":{"name":"link","description":"Follow links.","parameters":{
	"type":"object","properties":{"link":{"$ref":"#/$defs/Link"}},"required":["link"],
	"$defs":{"Link":{"anyOf":[
		{"type":"object","properties":{"a":{"type":"string"},"next":{"$ref":"#/$defs/Link"}},"minProperties":2},
		{"type":"object","properties":{"b":{"type":"string"},"next":{"$ref":"#/$defs/Link"}},"minProperties":2},
		{"type":"string","pattern":"^[a-z]+$"},
		{"type":"array","items":{"type":"string"}}]}}}}}
]`

// TestUnionTrialsBehave compiles the package of trialTools with a
// behaviour test. JSON-logic rules nested 8 levels (101 bytes of
// arguments) were refused as too much work, each level trying the one
// below twice; they are accepted to 400 levels now, and decode to the
// value sent. A flood of empty objects in a filter's "and" is refused
// with the one error it got before (it took 8.6 s a megabyte, now
// 0.1 s), and so is a rule or filter wrong at its deepest level. A chain
// whose links match both object branches would be written 2^depth times
// by MarshalJSON (each branch writes the rest of the chain): it is
// accepted 10 links deep and refused with maxWork 40 deep, as it was
// before, and so is one 12 links deep over a 64 KB string, which is
// written 2^12 times though it holds few unions.
func TestUnionTrialsBehave(t *testing.T) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: trialTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "trials_test.go", []byte(trialBehaviour))
}

const trialBehaviour = `package generated

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func refusal(t *testing.T, tool, args string) runtime.FieldError {
	t.Helper()
	_, err := DecodeArgs(tool, []byte(args))
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 1 {
		t.Fatalf("%.80s: want one error, got %v", args, err)
	}
	return ve.Fields[0]
}

func TestDeepRules(t *testing.T) {
	for _, depth := range []int{8, 40, 250} {
		for _, rule := range []string{
			strings.Repeat(` + "`" + `{"and":[` + "`" + `, depth) + ` + "`" + `{"==":[{"var":"a"},1]}` + "`" + ` + strings.Repeat(` + "`" + `]}` + "`" + `, depth),
			strings.Repeat(` + "`" + `{"!":` + "`" + `, depth) + "true" + strings.Repeat("}", depth),
			` + "`" + `{"var":` + "`" + ` + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + "}",
		} {
			args := ` + "`" + `{"rule":` + "`" + ` + rule + "}"
			v, err := DecodeArgs("eval_logic", []byte(args))
			if err != nil {
				t.Fatalf("depth %d: %.60s: %v", depth, rule, err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, []byte(args)) {
				t.Fatalf("depth %d: decoded as %.200s", depth, out)
			}
		}
	}
	// Wrong at the bottom: the rule matches none of Expr's branches.
	rule := strings.Repeat(` + "`" + `{"and":[` + "`" + `, 200) + ` + "`" + `{"==":[{"var":"a"},{"x":1}]}` + "`" + ` + strings.Repeat(` + "`" + `]}` + "`" + `, 200)
	if f := refusal(t, "eval_logic", ` + "`" + `{"rule":` + "`" + `+rule+"}"); f.Path != "/rule" || f.Code != "anyOf" {
		t.Fatalf("%+v", f)
	}
}

func TestFilters(t *testing.T) {
	item := ` + "`" + `{"property":"p","f3":{"equals":"x"}}` + "`" + `
	valid := ` + "`" + `{"filter":{"and":[` + "`" + ` + strings.Repeat(item+",", 2000) + ` + "`" + `{"or":[` + "`" + ` + item + ` + "`" + `]}]}}` + "`" + `
	if _, err := DecodeArgs("query_db", []byte(valid)); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string]string{
		"flood":         ` + "`" + `{"filter":{"and":[` + "`" + ` + strings.Repeat("{},", 1<<16) + ` + "`" + `{}]}}` + "`" + `,
		"last item bad": ` + "`" + `{"filter":{"and":[` + "`" + ` + strings.Repeat(item+",", 2000) + ` + "`" + `{"property":"p","f16":{"equals":""}}]}}` + "`" + `,
	} {
		if f := refusal(t, "query_db", args); f.Path != "/filter" || f.Code != "anyOf" || !strings.HasPrefix(f.Message, "matches none of: ") {
			t.Fatalf("%s: %+v", name, f)
		}
	}
}

// TestLinkChecks: a branch's checks (minProperties, judged on the value
// decoded) ran again on the unions it holds, whose branches were checked
// as they were kept: with the unions Recall shares, each level checked
// all those below it, marshalling each for the embedded validator (12
// links: 1.2 million allocations, 170 thousand now). A union's
// branches decoded directly (the string's pattern) are still checked.
// The checks of a trial judge the value as sent: {"a":"x","c":"y"} has
// the two members the first branch's minProperties asks for, though
// its Go value holds only a (it was refused).
func TestLinkChecks(t *testing.T) {
	chain := func(depth int, leaf string) string {
		return ` + "`" + `{"link":` + "`" + ` + strings.Repeat(` + "`" + `{"a":"x","b":"y","next":` + "`" + `, depth) + leaf + strings.Repeat("}", depth) + "}"
	}
	args := []byte(chain(12, ` + "`" + `"z"` + "`" + `))
	if _, err := DecodeArgs("link", args); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1, func() { DecodeArgs("link", args) }); n > 400000 {
		t.Errorf("12 links: %.0f allocations", n)
	}
	// minProperties counts the members sent, not those a branch declares.
	if _, err := DecodeArgs("link", []byte(chain(3, ` + "`" + `{"a":"x","c":"y"}` + "`" + `))); err != nil {
		t.Fatal(err)
	}
	for _, leaf := range []string{` + "`" + `"Z"` + "`" + `, ` + "`" + `{"a":"x"}` + "`" + `, ` + "`" + `[1]` + "`" + `} {
		if f := refusal(t, "link", chain(3, leaf)); f.Path != "/link" || f.Code != "anyOf" {
			t.Fatalf("%s: %+v", leaf, f)
		}
	}
}

func TestChains(t *testing.T) {
	chain := func(depth int) string {
		return ` + "`" + `{"node":` + "`" + ` + strings.Repeat(` + "`" + `{"a":"x","b":"y","next":` + "`" + `, depth) + ` + "`" + `{"a":"z"}` + "`" + ` + strings.Repeat("}", depth) + "}"
	}
	v, err := DecodeArgs("walk", []byte(chain(10)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	// The branches' members are merged, in branch order.
	var got, want any
	if json.Unmarshal(out, &got) != nil || json.Unmarshal([]byte(chain(10)), &want) != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded as %s", out)
	}
	if f := refusal(t, "walk", chain(40)); f.Code != "maxWork" {
		t.Fatalf("%+v", f)
	}
	// 12 links over a 64 KB string: 2^12 copies of it (256 MB) to write.
	big := ` + "`" + `{"node":` + "`" + ` + strings.Repeat(` + "`" + `{"a":"x","b":"y","next":` + "`" + `, 12) + ` + "`" + `{"a":"z","b":"` + "`" + ` + strings.Repeat("q", 1<<16) + ` + "`" + `"}` + "`" + ` + strings.Repeat("}", 12) + "}"
	if f := refusal(t, "walk", big); f.Code != "maxWork" {
		t.Fatalf("%+v", f)
	}
}
`
