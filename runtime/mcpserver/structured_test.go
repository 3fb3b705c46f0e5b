package mcpserver

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
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
