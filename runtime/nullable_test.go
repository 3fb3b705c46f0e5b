package runtime_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type patch struct {
	Title    runtime.Nullable[string]   `json:"title,omitzero"`
	Assignee runtime.Nullable[int64]    `json:"assignee,omitzero"`
	Labels   runtime.Nullable[[]string] `json:"labels,omitzero"`
}

func TestNullableRoundTrip(t *testing.T) {
	tests := []struct {
		in               string
		titleSet, isNull bool
		title            string
		out              string
	}{
		{`{}`, false, false, "", `{}`},
		{`{"title":null}`, true, true, "", `{"title":null}`},
		{`{"title":"Fix it"}`, true, false, "Fix it", `{"title":"Fix it"}`},
		{`{"title":""}`, true, false, "", `{"title":""}`},
		{`{"title": null ,"assignee":7,"labels":["a"]}`, true, true, "", `{"title":null,"assignee":7,"labels":["a"]}`},
	}
	for _, tc := range tests {
		var p patch
		if err := json.Unmarshal([]byte(tc.in), &p); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if p.Title.IsSet() != tc.titleSet || p.Title.IsNull() != tc.isNull {
			t.Errorf("%s: IsSet=%v IsNull=%v, want %v %v", tc.in, p.Title.IsSet(), p.Title.IsNull(), tc.titleSet, tc.isNull)
		}
		v, ok := p.Title.Get()
		if ok != (tc.titleSet && !tc.isNull) || v != tc.title {
			t.Errorf("%s: Get() = %q, %v", tc.in, v, ok)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.out {
			t.Errorf("%s: marshal = %s, want %s", tc.in, out, tc.out)
		}
	}
}

func TestNullableConstructors(t *testing.T) {
	v := runtime.Value(int64(3))
	if got, ok := v.Get(); !ok || got != 3 || !v.IsSet() || v.IsNull() || v.IsZero() {
		t.Errorf("Value(3) = %+v", v)
	}
	n := runtime.Null[string]()
	if _, ok := n.Get(); ok || !n.IsNull() || !n.IsSet() {
		t.Errorf("Null() = %+v", n)
	}
	var absent runtime.Nullable[string]
	if absent.IsSet() || absent.IsNull() || !absent.IsZero() {
		t.Errorf("zero Nullable = %+v", absent)
	}
}

func TestNullableTypeError(t *testing.T) {
	var p patch
	if err := json.Unmarshal([]byte(`{"assignee":"seven"}`), &p); err == nil {
		t.Error("a string for a Nullable[int64] decoded without error")
	}
}
