package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// fieldCodes lists err's field errors as path:code, or fails.
func fieldCodes(t *testing.T, err error) []string {
	t.Helper()
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error = %T %v, want *runtime.ValidationError", err, err)
	}
	if ve.Tool != OpenSectionsName {
		t.Errorf("tool %q", ve.Tool)
	}
	var codes []string
	for _, f := range ve.Fields {
		codes = append(codes, f.Path+":"+f.Code)
		switch f.Code {
		case text.CodeDuplicate:
			if f.Message != text.DuplicateMessage {
				t.Errorf("duplicate message %q", f.Message)
			}
		case text.CodeEncoding:
			if !strings.HasPrefix(f.Message, "a string is not valid Unicode (byte ") {
				t.Errorf("encoding message %q", f.Message)
			}
		}
	}
	return codes
}

// TestOpenSectionsStrictArgs: a member sent twice and a string that is not
// valid Unicode, at any depth, are refused with the gateway's field error,
// by DecodeOpenSections and by the tool (encoding/json kept the last value
// and decoded U+FFFD: {"section_keys":["nope"],"section_keys":["context"]}
// opened context, and a reason arrived with U+FFFD for its bad bytes).
func TestOpenSectionsStrictArgs(t *testing.T) {
	tool := nestedOpenSections(t)
	tests := []struct {
		name, args string
		codes      []string // path:code of each field error; nil for the expansion
	}{
		{"section_keys twice", `{"section_keys":["nope"],"section_keys":["context"],"reason":"r"}`, []string{"/section_keys:duplicate"}},
		{"reason twice", `{"section_keys":["context"],"reason":"a","reason":"b"}`, []string{"/reason:duplicate"}},
		{"twice, once escaped", `{"section_keys":["context"],"reason":"a","\u0072eason":"b"}`, []string{"/reason:duplicate"}},
		{"twice inside an unknown member", `{"section_keys":["context"],"reason":"r","x":[{"a":1,"a":2}]}`, []string{"/x/0/a:duplicate"}},
		{"invalid UTF-8 reason", "{\"section_keys\":[\"context\"],\"reason\":\"bad\xff\xfe utf8 \xff\"}", []string{"/reason:encoding"}},
		{"invalid UTF-8 key", "{\"section_keys\":[\"cont\xffext\"],\"reason\":\"r\"}", []string{"/section_keys/0:encoding"}},
		{"lone surrogate key", `{"section_keys":["context","\ud800"],"reason":"r"}`, []string{"/section_keys/1:encoding"}},
		{"lone surrogate reason", `{"section_keys":["context"],"reason":"need \udc00 it"}`, []string{"/reason:encoding"}},
		{"invalid UTF-8 name", "{\"section_keys\":[\"context\"],\"reason\":\"r\",\"re\xffason\":1}", []string{"/re\uFFFDason:encoding"}},
		{"names differ in case", `{"section_keys":["context"],"reason":"r","Reason":"s"}`, []string{"/Reason:additionalProperties"}},
		{"surrogate pair", `{"section_keys":["context"],"reason":"need it \ud83d\ude42"}`, nil},
		{"U+FFFD sent", `{"section_keys":["context"],"reason":"\ufffd"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, derr := DecodeOpenSections(json.RawMessage(tt.args))
			res, err := call(t, tool, nil, tt.args)
			if tt.codes == nil {
				var exp *VisibilityExpansionRequired
				if derr != nil || !errors.As(err, &exp) {
					t.Fatalf("DecodeOpenSections: %v; tool: %v (%+v)", derr, err, res)
				}
				if exp.Reason != params.Reason || strings.ContainsRune(exp.Reason, '\uFFFD') != strings.Contains(tt.args, `\ufffd`) {
					t.Errorf("reason %q", exp.Reason)
				}
				return
			}
			if d := cmp.Diff(tt.codes, fieldCodes(t, derr)); d != "" {
				t.Errorf("DecodeOpenSections field errors (-want +got):\n%s", d)
			}
			if err != nil || res.Success {
				t.Fatalf("tool: %v (%+v), want a failed result", err, res)
			}
			if d := cmp.Diff(tt.codes, fieldCodes(t, res.Err)); d != "" {
				t.Errorf("tool field errors (-want +got):\n%s\nmessage: %s", d, res.Message)
			}
		})
	}
}

// TestOpenSectionsRepeatedKeys: a section key sent again is dropped (it
// asks for nothing more); errors about the others keep the index the
// model sent them at.
func TestOpenSectionsRepeatedKeys(t *testing.T) {
	tool := nestedOpenSections(t)
	tests := []struct {
		keys  string
		sent  []string // SectionKeys of the expansion
		codes []string // or the field errors
	}{
		{`["context","context"]`, []string{"context"}, nil},
		{`["context.history","context","context.history","context"]`, []string{"context.history", "context"}, nil},
		{`["nope","context","nope"]`, nil, []string{"/section_keys/0:enum"}},
		{`["context","intro","intro","nope","nope2"]`, nil, []string{"/section_keys/1:already_open", "/section_keys/3:enum", "/section_keys/4:enum"}},
		{`["context",1,"context",null]`, nil, []string{"/section_keys/1:type", "/section_keys/3:type"}},
	}
	for _, tt := range tests {
		t.Run(tt.keys, func(t *testing.T) {
			args := `{"section_keys":` + tt.keys + `,"reason":"r"}`
			res, err := call(t, tool, nil, args)
			if tt.codes != nil {
				if err != nil || res.Success {
					t.Fatalf("%v (%+v), want a failed result", err, res)
				}
				if d := cmp.Diff(tt.codes, fieldCodes(t, res.Err)); d != "" {
					t.Errorf("field errors (-want +got):\n%s", d)
				}
				return
			}
			var exp *VisibilityExpansionRequired
			if !errors.As(err, &exp) {
				t.Fatalf("got %v (%+v)", err, res)
			}
			if d := cmp.Diff(tt.sent, exp.SectionKeys); d != "" {
				t.Errorf("SectionKeys (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.sent, exp.TelemetryMetadata()["requested_sections"]); d != "" {
				t.Errorf("requested_sections (-want +got):\n%s", d)
			}
			params, err := DecodeOpenSections(json.RawMessage(args))
			if err != nil || !cmp.Equal(tt.sent, params.SectionKeys) {
				t.Errorf("DecodeOpenSections = %+v, %v", params, err)
			}
		})
	}
}

// TestOpenSectionsKeyCap: section_keys names at most as many different
// keys as the rendering has sections (a key can only name one of them);
// beyond, one error says so, and the rest of the list is not read. A key
// repeated any number of times is one key: 200,001 copies of "context"
// used to be kept in SectionKeys and in the event's metadata.
func TestOpenSectionsKeyCap(t *testing.T) {
	p := nestedPrompt(t)
	r, err := p.Render(nil) // intro, context and its three enabled children
	if err != nil {
		t.Fatal(err)
	}
	tool := findTool(t, r.Tools(), OpenSectionsName)
	keys := func(ks ...string) string {
		b, _ := json.Marshal(map[string]any{"section_keys": ks, "reason": "r"})
		return string(b)
	}
	five := []string{"context", "context.examples", "context.constraints", "context.history", "nope"}

	// As many different keys as sections: each is checked.
	res, err := call(t, tool, nil, keys(five...))
	if err != nil || res.Success {
		t.Fatalf("%v (%+v)", err, res)
	}
	if d := cmp.Diff([]string{"/section_keys/4:enum"}, fieldCodes(t, res.Err)); d != "" {
		t.Errorf("five keys (-want +got):\n%s", d)
	}

	// One more: the cap, said once, with the keys to open.
	res, err = call(t, tool, nil, keys(append(five, "nope2")...))
	if err != nil || res.Success {
		t.Fatalf("%v (%+v)", err, res)
	}
	if d := cmp.Diff([]string{"/section_keys:maxItems"}, fieldCodes(t, res.Err)); d != "" {
		t.Errorf("six keys (-want +got):\n%s", d)
	}
	for _, want := range []string{"more than 5 different keys", "this prompt has only 5 sections",
		"keys to open: context, context.examples, context.constraints, context.history"} {
		if !strings.Contains(res.Message, want) {
			t.Errorf("message %q lacks %q", res.Message, want)
		}
	}

	// Repeats do not count toward the cap.
	_, err = call(t, tool, nil, keys(append(five[:4], five[:4]...)...))
	var exp *VisibilityExpansionRequired
	if !errors.As(err, &exp) || len(exp.SectionKeys) != 4 {
		t.Fatalf("four keys twice: %v", err)
	}

	// 200,001 copies of one key: one key.
	many := make([]string, 200001)
	for i := range many {
		many[i] = "context"
	}
	var bus runtime.EventBus
	var meta map[string]any
	bus.Subscribe(func(e runtime.Event) {
		if ev, ok := e.(runtime.ToolInvoked); ok {
			meta = ev.Metadata
		}
	})
	start := time.Now()
	_, err = call(t, tool, &bus, keys(many...))
	t.Logf("200,001 copies: %v", time.Since(start))
	if !errors.As(err, &exp) || !cmp.Equal([]string{"context"}, exp.SectionKeys) {
		t.Fatalf("200,001 copies: %v", err)
	}
	if d := cmp.Diff([]string{"context"}, meta["requested_sections"]); d != "" {
		t.Errorf("requested_sections (-want +got):\n%s", d)
	}

	// 200,001 different keys: the cap, after reading six of them.
	for i := range many {
		many[i] = "k" + strconv.Itoa(i)
	}
	start = time.Now()
	res, err = call(t, tool, nil, keys(many...))
	t.Logf("200,001 different keys: %v", time.Since(start))
	if err != nil || res.Success || len(res.Message) > 1024 {
		t.Fatalf("%v (%d bytes: %.200s)", err, len(res.Message), res.Message)
	}
	if d := cmp.Diff([]string{"/section_keys:maxItems"}, fieldCodes(t, res.Err)); d != "" {
		t.Errorf("200,001 keys (-want +got):\n%s", d)
	}

	// The prompt's own tool counts every declared section (six, secret
	// included).
	decl := findTool(t, p.Tools(), OpenSectionsName)
	res, _ = call(t, decl, nil, keys("a", "b", "c", "d", "e", "f", "g"))
	if !strings.Contains(res.Message, "this prompt has only 6 sections") {
		t.Errorf("declared tool: %s", res.Message)
	}
}

// TestOpenSectionsRenamed: a section's tool named open_sections is a tool
// as any other, and the builtin takes the first free name of
// open_sections_2, open_sections_3, ..., which the summaries, the tool
// lists and the builtin's errors say. New refused such a prompt, so the
// generated Sections(h) could not be built.
func TestOpenSectionsRenamed(t *testing.T) {
	mine := func(name string) runtime.Tool {
		return runtime.MustTool(name, "Mine.", nil, func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Message: "mine ran"}, nil
		})
	}
	tests := []struct {
		name  string
		tools []string // of the summarized section a; then its child a.b
		want  string
	}{
		{"no clash", []string{"lookup"}, "open_sections"},
		{"open_sections taken", []string{"open_sections"}, "open_sections_2"},
		{"open_sections_2 taken too, deeper", []string{"open_sections", "open_sections_2"}, "open_sections_3"},
		{"only open_sections_2 taken", []string{"open_sections_2"}, "open_sections"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			child := Section{Key: "b", Title: "B", Template: "Child."}
			a := Section{Key: "a", Title: "A", Template: "Full.", Summary: "Summary.", Visibility: VisibilitySummary, Tools: []runtime.Tool{mine(tt.tools[0])}}
			if len(tt.tools) > 1 {
				child.Tools = []runtime.Tool{mine(tt.tools[1])}
			}
			a.Children = []Section{child}
			p, err := New("ns", "k", "", a)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.OpenSectionsName(); got != tt.want {
				t.Fatalf("OpenSectionsName() = %q, want %q", got, tt.want)
			}
			if diff := cmp.Diff(append(slices.Clone(tt.tools), tt.want), toolNames(p.Tools())); diff != "" {
				t.Errorf("Tools() (-want +got):\n%s", diff)
			}
			r, err := p.Render(nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := "Call `" + tt.want + "` with key \"a\""; !strings.Contains(r.Text(), want) {
				t.Errorf("text %q, want it to contain %q", r.Text(), want)
			}
			if diff := cmp.Diff([]string{tt.want}, toolNames(r.Tools())); diff != "" {
				t.Errorf("rendered tools (-want +got):\n%s", diff)
			}
			if _, ok := r.ToolParamDescriptions()[tt.want]["section_keys"]; !ok {
				t.Errorf("no parameter descriptions for %s", tt.want)
			}
			open := findTool(t, r.Tools(), tt.want)
			var ve *runtime.ValidationError
			if res, _ := call(t, open, nil, `{"section_keys":["a"],"reason":"r","why":1}`); !errors.As(res.Err, &ve) || ve.Tool != tt.want ||
				len(ve.Fields) != 1 || !strings.Contains(ve.Fields[0].Message, "; "+tt.want+" takes section_keys") {
				t.Errorf("unknown argument: error %v, want a *runtime.ValidationError of %s naming it", res.Err, tt.want)
			}
			if res, _ := call(t, open, nil, `{"section_keys":["zz"],"reason":"r"}`); !errors.As(res.Err, &ve) || ve.Tool != tt.want {
				t.Errorf("unknown key: error %v, want a *runtime.ValidationError of %s", res.Err, tt.want)
			}
			_, err = call(t, open, nil, `{"section_keys":["a"],"reason":"r"}`)
			var exp *VisibilityExpansionRequired
			if !errors.As(err, &exp) {
				t.Fatalf("open: error %v, want the expansion", err)
			}
			r, err = p.Render(exp.RequestedOverrides)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.tools, toolNames(r.Tools())); diff != "" {
				t.Errorf("tools once open (-want +got):\n%s", diff)
			}
			if res, err := call(t, findTool(t, r.Tools(), tt.tools[0]), nil, `{}`); err != nil || res.Message != "mine ran" {
				t.Errorf("section's own %s: %+v, %v", tt.tools[0], res, err)
			}
		})
	}
}
