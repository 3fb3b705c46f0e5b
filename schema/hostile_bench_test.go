package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// members is n object members prefix0 … prefixN-1, each of schema body.
func members(prefix string, n int, body string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s%d":%s`, prefix, i, body)
	}
	return b.String()
}

// refChain is n $defs, each referring to the next through link.
func refChain(n int, link string) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"a%d":`+link, i, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"a%d":{"type":"string"}`, n))
	return `{"type":"object","properties":{"x":{"$ref":"#/$defs/a0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// BenchmarkHostileCompile measures the compile of inputs whose cost once
// grew faster than their size: long $ref chains (a scan of the stack of
// references at each link), a union whose shared properties merge into
// every branch (a scan per merged key), and a large schema merged by
// reference from many places (serialized whole to compare it), tools
// sharing one definition (every root's schemas walked), and defaults
// sharing a pattern or a delegated schema (compiled again for each).
func BenchmarkHostileCompile(b *testing.B) {
	branches := strings.Repeat(`{"$ref":"#/$defs/D"},`, 400)
	cases := []struct{ name, params string }{
		{"pure ref chain 20000", refChain(20000, `{"$ref":"#/$defs/a%d"}`)},
		{"allOf ref chain 20000", refChain(20000, `{"minLength":1,"allOf":[{"$ref":"#/$defs/a%d"}]}`)},
		{"union of 400 over 900+900 properties", `{"type":"object","properties":{` + members("a", 900, `{"type":"string"}`) +
			`},"anyOf":[` + strings.TrimSuffix(branches, ",") + `],"$defs":{"D":{"properties":{` + members("b", 900, `{"type":"string"}`) + `}}}}`},
		{"500 KB schema merged from 200 places", `{"type":"object","properties":{` + members("p", 200, `{"allOf":[{"$ref":"#/$defs/Big"},{"properties":{"z":{}}}]}`) +
			`},"$defs":{"Big":{"type":"object","properties":{` + members("q", 900, `{"type":"string","description":"`+strings.Repeat("x", 500)+`"}`) + `}}}}`},
	}
	var inputs []string
	for _, tc := range cases {
		inputs = append(inputs, oneTool(tc.params))
	}
	// Tools sharing one large definition in another tool (each root's
	// schemas were walked for a dynamic reference).
	big := `{"type":"object","properties":{` + members("q", 900, `{"type":"object","properties":{"a":{"type":"string"}}}`) + `}}`
	tools := []string{`{"name":"t0","description":"d","input_schema":{"type":"object","properties":{"x":{"$ref":"#/$defs/Big"}},"$defs":{"Big":` + big + `}}}`}
	for i := 1; i < 2000; i++ {
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","description":"d","input_schema":{"type":"object","properties":{"x":{"$ref":"t.json#/0/input_schema/$defs/Big"}}}}`, i))
	}
	cases = append(cases, struct{ name, params string }{"2000 tools sharing one definition", ""})
	inputs = append(inputs, "["+strings.Join(tools, ",")+"]")
	// Defaults checked against a pattern many fields share (the pattern
	// was compiled again for each default).
	cases = append(cases, struct{ name, params string }{"2000 tools' defaults sharing one pattern", ""})
	tools = tools[:0]
	for i := range 2000 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","description":"d","input_schema":{"type":"object","properties":{"p":{"type":"string","pattern":"^[a-z]{3,50}(-[a-z0-9]{2,20}){0,4}$","default":"abc-de"}}}}`, i))
	}
	inputs = append(inputs, "["+strings.Join(tools, ",")+"]")
	cases = append(cases, struct{ name, params string }{"2000 tools' defaults under one delegated not", ""})
	tools = tools[:0]
	for i := range 2000 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","description":"d","input_schema":{"type":"object","properties":{"p":{"type":"string","not":{"pattern":"^x[0-9]+$"},"default":"abc-de"}}}}`, i))
	}
	inputs = append(inputs, "["+strings.Join(tools, ",")+"]")
	for i, tc := range cases {
		in := []load.Input{{Name: "t.json", Data: inputs[i]}}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(inputs[i])))
			b.ReportAllocs()
			for b.Loop() {
				schema.Build(in, schema.BuildOptions{Package: "x"})
			}
		})
	}
}
