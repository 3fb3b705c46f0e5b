package matryoshka

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func recordFacade() FacadeData {
	return FacadeData{
		Name:        "todo",
		Description: "Todo items; 3:not a field.\n`quoted`",
		Tools:       []string{"list_todos", "create_todo"},
		Categories:  []CategoryData{{Name: "read", Tools: []string{"list_todos"}}, {Name: "write", Tools: []string{"create_todo"}}},
		Usage:       []string{"list_todos [state:string]", "create_todo title:string"},
	}
}

// TestFacadeRecords: a facade built from its record is the facade the
// Facade call of the same definition builds.
func TestFacadeRecords(t *testing.T) {
	d := recordFacade()
	got, err := DecodeFacade(EncodeFacade(d))
	if err != nil || !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip: %v\n got %#v\nwant %#v", err, got, d)
	}
	tools := []runtime.Tool{
		{Name: "list_todos", Description: "List todos.", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "create_todo", Description: "Create a todo.", Parameters: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`)},
		{Name: "other", Description: "Not in the facade.", Parameters: json.RawMessage(`{"type":"object"}`)},
	}
	want := Facade(d.Name, d.Description, runtime.Pick(tools, d.Tools...),
		Category("read", "list_todos"), Category("write", "create_todo"),
		Usage("list_todos", d.Usage[0]), Usage("create_todo", d.Usage[1]))
	fs := Facades(tools, []string{EncodeFacade(d)})
	if len(fs) != 1 {
		t.Fatalf("%d facades, want 1", len(fs))
	}
	if fs[0].Name != want.Name || fs[0].Description != want.Description || string(fs[0].Parameters) != string(want.Parameters) {
		t.Errorf("facade from its record %+v\nwant %+v", fs[0], want)
	}
	gd, _ := Of(fs[0])
	wd, _ := Of(want)
	if !reflect.DeepEqual(gd.Categories(), wd.Categories()) || !reflect.DeepEqual(gd.usage, wd.usage) || len(gd.Inner()) != 2 {
		t.Errorf("facade from its record: categories %v usage %v inner %d; want %v %v 2", gd.Categories(), gd.usage, len(gd.Inner()), wd.Categories(), wd.usage)
	}
}

func TestDecodeFacadeErrors(t *testing.T) {
	d := recordFacade()
	d.Usage = d.Usage[:1]
	for _, c := range []struct{ rec, want string }{
		{"", "byte 0"},
		{EncodeFacade(recordFacade()) + "1;", "trailing data"},
		{EncodeFacade(d), "1 usage lines for 2 tools"},
	} {
		if _, err := DecodeFacade(c.rec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeFacade(%q) = %v; want an error containing %q", c.rec, err, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Facades of a bad record did not panic")
		}
	}()
	Facades(nil, []string{"x"})
}

// FuzzDecodeFacade: any record decodes or fails with an error, never a
// panic, and what decodes encodes back to equal data.
func FuzzDecodeFacade(f *testing.F) {
	f.Add(EncodeFacade(recordFacade()))
	f.Add("1:a0:0;0;0;")
	f.Fuzz(func(t *testing.T, rec string) {
		d, err := DecodeFacade(rec)
		if err != nil {
			return
		}
		again, err := DecodeFacade(EncodeFacade(d))
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("re-encoded facade: %v\n got %#v\nwant %#v", err, again, d)
		}
	})
}
