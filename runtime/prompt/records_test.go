package prompt

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestSectionRecords(t *testing.T) {
	d := SectionData{Key: "todo", Title: "todo", Summary: "Todo items. 2 tools.", Template: "Todo items.\n\n- `list_todos` (read): List; 3:x.\n", Tools: []string{"list_todos", "create_todo"}}
	got, err := DecodeSection(EncodeSection(d))
	if err != nil || !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip: %v\n got %#v\nwant %#v", err, got, d)
	}
	tools := []runtime.Tool{{Name: "create_todo"}, {Name: "other"}, {Name: "list_todos"}}
	secs := GeneratedSections(tools, []string{EncodeSection(d)})
	want := []Section{{Key: d.Key, Title: d.Title, Summary: d.Summary, Template: d.Template, Visibility: VisibilitySummary, Generated: true,
		Tools: []runtime.Tool{{Name: "list_todos"}, {Name: "create_todo"}}}}
	if !reflect.DeepEqual(secs, want) {
		t.Errorf("sections from records\n got %#v\nwant %#v", secs, want)
	}
	if _, err := DecodeSection(EncodeSection(d)[:10]); err == nil || !strings.Contains(err.Error(), "section record") {
		t.Errorf("cut record: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("GeneratedSections of a bad record did not panic")
		}
	}()
	GeneratedSections(tools, []string{"x"})
}

// FuzzDecodeSection: any record decodes or fails with an error, never a
// panic, and what decodes encodes back to equal data.
func FuzzDecodeSection(f *testing.F) {
	f.Add(EncodeSection(SectionData{Key: "k", Summary: "s", Tools: []string{"a"}}))
	f.Fuzz(func(t *testing.T, rec string) {
		d, err := DecodeSection(rec)
		if err != nil {
			return
		}
		again, err := DecodeSection(EncodeSection(d))
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("re-encoded section: %v\n got %#v\nwant %#v", err, again, d)
		}
	})
}
