package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/openai"
)

// Real MCP servers ship root allOf (a base object and more properties)
// and root unions of different property sets, which OpenAI refuses at
// the root of a function's parameters: the function is sent with an
// equivalent or looser schema (rootschema.Flatten) instead of refused,
// and arguments valid for the tool's schema stay valid for it.
func TestRootLoosened(t *testing.T) {
	for _, tt := range []struct {
		schema, want string
		args         []string // valid for schema
	}{
		{`{"type":"object","allOf":[{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false},{"properties":{"limit":{"type":"integer"}}}]}`,
			`{"type":"object","properties":{"id":{"type":"string"},"limit":{"type":"integer"}},"required":["id"],"additionalProperties":false}`,
			[]string{`{"id":"x"}`}},
		{`{"type":"object","$defs":{"Base":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},"allOf":[{"$ref":"#/$defs/Base"},{"properties":{"tags":{"type":"array","items":{"type":"string"}}}}]}`,
			`{"type":"object","$defs":{"Base":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},"properties":{"id":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"]}`,
			[]string{`{"id":"x","tags":["a"]}`, `{"id":"x","more":1}`}},
		{`{"type":"object","properties":{"kind":{"enum":["add","del"]}},"required":["kind"],"oneOf":[{"properties":{"kind":{"const":"add"},"x":{"type":"number"}},"required":["x"],"additionalProperties":false},{"properties":{"kind":{"const":"del"},"id":{"type":"string"}},"required":["id"],"additionalProperties":false}]}`,
			`{"type":"object","properties":{"kind":{"allOf":[{"enum":["add","del"]},{"anyOf":[{"const":"add"},{"const":"del"}]}]},"x":{"type":"number"},"id":{"type":"string"}},"required":["kind"],"additionalProperties":false,"description":"The arguments must match one of these alternatives, by required properties: [x] | [id]."}`,
			[]string{`{"kind":"add","x":1}`, `{"kind":"del","id":"a"}`}},
		{`{"type":"object","description":"Read.","anyOf":[{"properties":{"path":{"type":"string"}},"required":["path"]},{"properties":{"url":{"type":"string","description":"A URL."}},"required":["url"]}]}`,
			`{"type":"object","description":"Read.\n\nThe arguments must match one of these alternatives, by required properties: [path] | [url].","properties":{"path":{},"url":{"description":"A URL."}}}`,
			[]string{`{"path":"a"}`, `{"url":"b"}`, `{"path":7,"url":"b"}`}},
	} {
		tool := runtime.Tool{Name: "x", Parameters: json.RawMessage(tt.schema)}
		p, err := openai.ResponseTool(tool)
		if err != nil {
			t.Errorf("%s: %v", tt.schema, err)
			continue
		}
		sent, _ := json.Marshal(p.Parameters)
		var got, want any
		_ = json.Unmarshal(sent, &got)
		_ = json.Unmarshal([]byte(tt.want), &want)
		if g, w := mustJSON(got), mustJSON(want); g != w {
			t.Errorf("%s:\nsent %s\nwant %s", tt.schema, g, w)
		}
		if _, err := openai.ChatTool(tool); err != nil {
			t.Errorf("chat %s: %v", tt.schema, err)
		}
		replaytest.AcceptsValid(t, tt.schema, string(sent), tt.args)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
