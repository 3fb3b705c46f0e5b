package shape

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestBind checks a tool bound to its params table: Decode and Handler
// give the handler a new, decoded and validated value each call, invalid
// arguments a validation error naming the tool, and a params type that is
// not the table's a panic when the tool is built.
func TestBind(t *testing.T) {
	var got []*params
	call := func(_ context.Context, _ runtime.ToolContext, p *params) (runtime.ToolResult[json.RawMessage], error) {
		got = append(got, p)
		return runtime.ToolResult[json.RawMessage]{}, nil
	}
	tool := Bind(runtime.Tool{Name: "t"}, &tableParams, call)
	v, err := tool.Decode(json.RawMessage(valid))
	p, ok := v.(*params)
	if err != nil || !ok || p.Owner != "abc" || p.Limit != 20 || len(p.Items) != 1 {
		t.Fatalf("Decode: %#v, %v", v, err)
	}
	for range 2 {
		if _, err := tool.Handler(context.Background(), runtime.ToolContext{}, json.RawMessage(valid)); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] == got[1] || got[0] == p || got[1].Owner != "abc" {
		t.Errorf("handler got %+v", got)
	}
	_, err = tool.Decode(json.RawMessage(`{"owner":"ABCDEFG"}`))
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || ve.Tool != "t" {
		t.Errorf("invalid arguments: %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "is not the table's") {
			t.Errorf("mismatched params type: recovered %v", r)
		}
	}()
	Bind(runtime.Tool{Name: "u"}, &tableItem, call)
}
