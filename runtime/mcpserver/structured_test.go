package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestStructuredContentUTF8: a value holding bytes that are not UTF-8 (a
// json.RawMessage, which encoding/json copies as it is) goes out as
// structuredContent with U+FFFD in their place, as the text content has
// them: the answer's line was not UTF-8, and a client decoding it
// strictly lost the whole answer.
func TestStructuredContentUTF8(t *testing.T) {
	type wrapped struct {
		Data json.RawMessage `json:"data"`
	}
	tests := []struct {
		name  string
		value any
		want  string // the structuredContent in the answer's line
	}{
		{"raw message", json.RawMessage("{\"a\":\"x\xffy\"}"), `"structuredContent":{"a":"x` + "\uFFFD" + `y"}`},
		{"raw member", wrapped{json.RawMessage("{\"b\":\"\xc3\"}")}, `"structuredContent":{"data":{"b":"` + "\uFFFD" + `"}}`},
		{"valid text kept", json.RawMessage(`{"a":"é✓"}`), `"structuredContent":{"a":"é✓"}`},
	}
	var tools []runtime.Tool
	in := []string{initializeLine, initializedLine}
	for i, tt := range tests {
		name := "tool_" + strconv.Itoa(i)
		tools = append(tools, runtime.Tool{
			Name:         name,
			Description:  "Answers with a value.",
			ResultSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{Success: true, Value: tt.value}, nil
			},
		})
		in = append(in, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+2)+`,"method":"tools/call","params":{"name":"`+name+`","arguments":{}}}`)
	}
	server, err := NewServer("t", "v0", tools)
	if err != nil {
		t.Fatal(err)
	}
	got := piped(t, server, strings.NewReader(lines(in...)), nil)
	for i, tt := range tests {
		line := got[strconv.Itoa(i+2)]
		if !utf8.ValidString(line) || !strings.Contains(line, tt.want) || strings.Contains(line, `"isError":true`) {
			t.Errorf("%s: answer %q, want valid UTF-8 with %s", tt.name, line, tt.want)
		}
	}
}

// TestArgumentsNotObject: tools/call arguments that are not a JSON object
// (MCP's arguments are one) are refused as the call's error, before the
// handler, which would otherwise read a string or an array as its own;
// absent or null arguments stay {}.
func TestArgumentsNotObject(t *testing.T) {
	// The calls run concurrently: got is guarded, and compared sorted.
	var mu sync.Mutex
	var got []string
	tool := runtime.Tool{Name: "echo", Description: "Echoes its arguments.", Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, string(args))
			return runtime.Result{Success: true, Value: "ok"}, nil
		}}
	tests := []struct{ args, want string }{
		{`"{\"a\":1}"`, `echo: arguments must be a JSON object, got a string`},
		{`[1]`, `echo: arguments must be a JSON object, got an array`},
		{`5`, `echo: arguments must be a JSON object, got a number`},
		{`true`, `echo: arguments must be a JSON object, got a boolean`},
		{`null`, ``},
		{`{"a":1}`, ``},
	}
	in := []string{initializeLine, initializedLine}
	for i, tt := range tests {
		in = append(in, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+2)+`,"method":"tools/call","params":{"name":"echo","arguments":`+tt.args+`}}`)
	}
	server, err := NewServer("t", "v0", []runtime.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	answers := piped(t, server, strings.NewReader(lines(in...)), nil)
	for i, tt := range tests {
		line := answers[strconv.Itoa(i+2)]
		if refused := strings.Contains(line, `"isError":true`); refused != (tt.want != "") || !strings.Contains(line, tt.want) {
			t.Errorf("arguments %s: answer %s, want refused %v with %q", tt.args, line, tt.want != "", tt.want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(got)
	if want := []string{`{"a":1}`, `{}`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the handler read %q, want %q", got, want)
	}
}
