package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// oldDecodeHelp is how tool_help decoded its arguments before decodeHelp:
// json.Unmarshal into a helpRequest.
func oldDecodeHelp(raw []byte) (helpRequest, *EnvelopeError) {
	var req helpRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return req, &EnvelopeError{Code: "VALIDATION_ERROR",
			Message: "tool_help arguments are not valid: " + jsonErrText(err) + `; send {"path":"<group, entity or op>"}`,
			Details: Details{FieldErrors: typeErrors(err, raw)}}
	}
	return req, nil
}

// oldDecodeSearch is how tool_search decoded its arguments before
// decodeSearch.
func oldDecodeSearch(raw []byte) (searchRequest, *EnvelopeError) {
	var req searchRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return req, &EnvelopeError{Code: "VALIDATION_ERROR",
			Message: "tool_search arguments are not valid: " + jsonErrText(err) + `; send {"query":"<need, in words>"}`,
			Details: Details{FieldErrors: typeErrors(err, raw)}}
	}
	return req, nil
}

// decodeShapes are tool_help and tool_search arguments of many shapes:
// valid ones, unknown members, member names that match up to case (as
// encoding/json folds them: U+017F is s, U+212A is k) or only through
// escapes, values of every type for every field, members sent twice,
// values that are no object, text that is not JSON, and huge inputs.
func decodeShapes() []string {
	names := []string{"path", "Path", "PATH", `p\u0061th`, `\u0070ath`, "format", "FORMAT", "include_examples", "INCLUDE_Examples",
		`include_\u017fchemas`, "include_schemas", "query", "Query", `\u0071uery`, "limit", "LIMIT", `li\u006dit`, "q", "zz", "", "tool",
		"op", "args", `\u212a`, "pa th", "path\u0000"}
	values := []string{`"onto.task"`, `"visit a web page"`, `5`, `2.5`, `-1`, `1e3`, `1e400`, `0`, `true`, `false`, `null`, `[]`, `{}`,
		`"yes"`, `"full"`, `"\u00e9t\u00e9"`, `{"a":[1,{"b":2}]}`, `[1,"x"]`, `""`, `" "`}
	var out []string
	for _, n := range names {
		for _, v := range values {
			out = append(out, `{"`+n+`":`+v+`}`)
		}
	}
	// Pairs and triples, deterministically spread over names and values.
	for i := range 3000 {
		var b strings.Builder
		b.WriteString("{")
		for j := range 1 + i%3 {
			if j > 0 {
				b.WriteString(" , ")
			}
			fmt.Fprintf(&b, `"%s" : %s`, names[(i*7+j*13)%len(names)], values[(i*11+j*5)%len(values)])
		}
		b.WriteString("}")
		out = append(out, b.String())
	}
	long := strings.Repeat("a", 64<<10)
	out = append(out,
		`{}`, `{ }`, `5`, `"x"`, `true`, `[]`, `[{"path":"onto"}]`, `{"path":"onto"`, `{"path":"onto",}`, `{"path" "onto"}`,
		`{"path":'onto'}`, `{path:"onto"}`, `{"path":"onto"} x`, `{"path":"onto"}{}`, `{"path":"\x"}`, `{"limit":01}`,
		`{"path":"a","path":"b"}`, `{"path":5,"path":"b"}`, `{"path":"a","Path":5}`, `{"limit":"x","LIMIT":2.5}`,
		`{"query":"web","limit":1,"limit":"x"}`, `{"include_examples":"x","include_examples":null}`,
		"{\"path\":\"\xff\"}", `{"path":"\ud800"}`, `{"`+long+`":1,"path":"onto"}`, `{"path":"`+long+`"}`,
		strayMembers(`{"path":"util"`, `"\u007a%d":1`, 1<<20), strayMembers(`{"query":"visit a web page"`, `"\u007a%d":1`, 1<<20),
		strayMembers(`{"path":"util","limit":"x"`, `"PATH%d":[1,{"a":2}]`, 256<<10),
		strings.Repeat(`{"a":`, 10001)+"1"+strings.Repeat("}", 10001), strings.Repeat(`{"path":`, 50)+`1`+strings.Repeat("}", 50),
	)
	return out
}

// TestDecodeArgsAsBefore: tool_help and tool_search read their arguments
// in place, and decode them as json.Unmarshal did: the same request, or
// the same error in the same words, for every shape.
func TestDecodeArgsAsBefore(t *testing.T) {
	for _, s := range decodeShapes() {
		raw := bytes.TrimSpace([]byte(s))
		compareDecode(t, s, func() (any, *EnvelopeError) { return decodeHelp(raw) }, func() (any, *EnvelopeError) { return oldDecodeHelp(raw) })
		compareDecode(t, s, func() (any, *EnvelopeError) { return decodeSearch(raw) }, func() (any, *EnvelopeError) { return oldDecodeSearch(raw) })
	}
}

// compareDecode fails when decode and old disagree on the arguments s.
func compareDecode(t *testing.T, s string, decode, old func() (any, *EnvelopeError)) {
	t.Helper()
	got, gotErr := decode()
	want, wantErr := old()
	gb, _ := json.Marshal(gotErr)
	wb, _ := json.Marshal(wantErr)
	if !bytes.Equal(gb, wb) {
		t.Errorf("%.200s:\n%s\nwant\n%s", s, gb, wb)
	} else if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%.200s: %+v, want %+v", s, got, want)
	}
}

// FuzzDecodeArgs: decodeHelp and decodeSearch agree with json.Unmarshal
// on any text.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range decodeShapes() {
		if len(s) < 1<<10 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := bytes.TrimSpace([]byte(s))
		if len(raw) == 0 || string(raw) == "null" || raw[0] == '"' {
			return // not decoded: the handlers answer these before
		}
		compareDecode(t, s, func() (any, *EnvelopeError) { return decodeHelp(raw) }, func() (any, *EnvelopeError) { return oldDecodeHelp(raw) })
		compareDecode(t, s, func() (any, *EnvelopeError) { return decodeSearch(raw) }, func() (any, *EnvelopeError) { return oldDecodeSearch(raw) })
	})
}

// BenchmarkDirectArgs measures direct tool_help and tool_search calls
// whose arguments are a megabyte of escaped member names the tools do not
// take (answered with an unknown-argument error), beside ordinary calls.
// encoding/json decoded the escaped names one by one, some 66,000
// allocations; read in place they cost about a hundred.
func BenchmarkDirectArgs(b *testing.B) {
	cases := []struct{ name, tool, args string }{
		{"help_ordinary", HelpTool, `{"path":"onto.task.get","format":"full","include_examples":true}`},
		{"search_ordinary", SearchTool, `{"query":"visit a web page","limit":3}`},
		{"help_escaped_1MB", HelpTool, strayMembers(`{"path":"util"`, `"\u007a%d":1`, 1<<20)},
		{"search_escaped_1MB", SearchTool, strayMembers(`{"query":"visit a web page"`, `"\u007a%d":1`, 1<<20)},
		{"help_case_variants_1MB", HelpTool, strayMembers(`{"path":"util"`, `"P\u0061TH%d":[1,{"a":2}]`, 1<<20)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			h := newHarness(b)
			b.ReportAllocs()
			for b.Loop() {
				h.call(c.tool, c.args)
			}
		})
	}
}
