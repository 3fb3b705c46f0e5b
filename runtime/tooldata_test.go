package runtime

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestToolRecordRoundTrip(t *testing.T) {
	full := Tool{
		Name:         "get_item",
		Description:  "3:not a field; 1;\n`quoted` \xff",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"a:b":{"type":"string"}}}`),
		Title:        "Get; an: item",
		Annotations:  &Annotations{ReadOnly: Hint(true), Destructive: Hint(false), OpenWorld: Hint(true)},
		ResultSchema: json.RawMessage(`{"type":"string"}`),
	}
	// The definition fields of Tool are all set in full: a field added to
	// Tool and not to EncodeTool fails here, unless it is one the record
	// leaves out on purpose.
	left := map[string]bool{"Handler": true, "Decode": true, "AcceptsOverrides": true}
	v := reflect.ValueOf(full)
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; !left[name] && v.Field(i).IsZero() {
			t.Fatalf("full leaves Tool.%s zero; set it so the round trip covers it", name)
		}
	}
	for _, want := range []Tool{full, {Name: "bare"}, {Name: "hints", Annotations: &Annotations{}}} {
		got, err := DecodeTool(EncodeTool(want))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
		}
	}
}

func TestDecodeToolErrors(t *testing.T) {
	good := EncodeTool(Tool{Name: "a", Annotations: &Annotations{ReadOnly: Hint(true)}})
	for _, c := range []struct{ rec, want string }{
		{"", `byte 0: expected digits and ':'`},
		{good[:len(good)-1], "expected digits"},
		{good + "x", "trailing data"},
		{strings.Replace(good, "1;2;", "1;3;", 1), "expected a hint 0, 1 or 2"},
	} {
		if _, err := DecodeTool(c.rec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeTool(%q) = %v; want an error containing %q", c.rec, err, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustDecodeTool of a bad record did not panic")
		}
	}()
	MustDecodeTool("x")
}

// FuzzDecodeTool: any record decodes or fails with an error, never a
// panic, and what decodes encodes back to an equal definition.
func FuzzDecodeTool(f *testing.F) {
	f.Add(EncodeTool(Tool{Name: "a", Description: "d", Parameters: json.RawMessage(`{}`), Annotations: &Annotations{Idempotent: Hint(false)}}))
	f.Add("1:a0:0:0:0;0:")
	f.Fuzz(func(t *testing.T, rec string) {
		tool, err := DecodeTool(rec)
		if err != nil {
			return
		}
		again, err := DecodeTool(EncodeTool(tool))
		if err != nil || !reflect.DeepEqual(again, tool) {
			t.Fatalf("re-encoded tool: %v\n got %#v\nwant %#v", err, again, tool)
		}
	})
}
