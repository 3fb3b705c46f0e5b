package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
)

type TaskParams struct {
	Objective string `json:"objective"`
}

type ContextParams struct {
	ProjectName string `json:"project_name"`
}

// specPrompt is the example flow of the progressive disclosure spec.
func specPrompt(t testing.TB) *Prompt {
	t.Helper()
	p, err := New("agents/assistant", "task-executor", "task_executor",
		Section{
			Key:      "task",
			Title:    "Task",
			Template: "Complete the following: ${objective}",
			Params:   reflect.TypeFor[TaskParams](),
		},
		Section{
			Key:   "context",
			Title: "Project Context",
			Template: `
				Detailed documentation for ${project_name}:
				- Architecture overview
				- API reference
				- Code conventions
				- Historical decisions
				`,
			Summary:    "Documentation for ${project_name} is available.",
			Visibility: VisibilitySummary,
			Params:     reflect.TypeFor[ContextParams](),
		},
	)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var specParams = []any{
	TaskParams{Objective: "Refactor the authentication module"},
	&ContextParams{ProjectName: "WeakIncentives"},
}

const (
	specSummarized = "## 1 Task\n" +
		"Complete the following: Refactor the authentication module\n" +
		"\n" +
		"## 2 Project Context\n" +
		"Documentation for WeakIncentives is available.\n" +
		"---\n" +
		"[This section is summarized. To view full content, call `open_sections` with key \"context\".]"
	specExpanded = "## 1 Task\n" +
		"Complete the following: Refactor the authentication module\n" +
		"\n" +
		"## 2 Project Context\n" +
		"Detailed documentation for WeakIncentives:\n" +
		"- Architecture overview\n" +
		"- API reference\n" +
		"- Code conventions\n" +
		"- Historical decisions"
)

func toolNames(ts []runtime.Tool) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func call(t *testing.T, tool runtime.Tool, bus *runtime.EventBus, args string) (runtime.Result, error) {
	t.Helper()
	tc := runtime.NewToolContext(runtime.ContextParts{Bus: bus, Call: runtime.ToolCall{ID: "c1", Name: tool.Name, Args: json.RawMessage(args)}})
	return runtime.Dispatch(context.Background(), tool, tc, json.RawMessage(args))
}

// nestedOpenSections is the open_sections tool of nestedPrompt's first
// rendering.
func nestedOpenSections(t *testing.T) runtime.Tool {
	t.Helper()
	r, err := nestedPrompt(t).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	return findTool(t, r.Tools(), OpenSectionsName)
}

func findTool(t *testing.T, ts []runtime.Tool, name string) runtime.Tool {
	t.Helper()
	for _, x := range ts {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no tool %q in %v", name, toolNames(ts))
	return runtime.Tool{}
}

// TestSpecExampleFlow is the spec's integration story: initial render → the
// model calls open_sections → the expansion error → retry with overrides →
// expanded content visible.
func TestSpecExampleFlow(t *testing.T) {
	p := specPrompt(t)
	r, err := p.Render(nil, specParams...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text() != specSummarized {
		t.Fatalf("initial render:\n%s\nwant:\n%s", r.Text(), specSummarized)
	}
	if d := cmp.Diff([]string{"open_sections"}, toolNames(r.Tools())); d != "" {
		t.Fatalf("tools (-want +got):\n%s", d)
	}

	_, err = call(t, r.Tools()[0], nil, `{"section_keys":["context"],"reason":"Need architecture details"}`)
	var exp *VisibilityExpansionRequired
	if !errors.As(err, &exp) {
		t.Fatalf("open_sections returned %v, want *VisibilityExpansionRequired", err)
	}
	if d := cmp.Diff(Overrides{"context": VisibilityFull}, exp.RequestedOverrides); d != "" {
		t.Errorf("requested overrides (-want +got):\n%s", d)
	}
	if want := "Visibility expansion required for sections: context. Reason: Need architecture details"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}

	r, err = p.Render(Merge(nil, exp.RequestedOverrides), specParams...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text() != specExpanded {
		t.Errorf("expanded render:\n%s\nwant:\n%s", r.Text(), specExpanded)
	}
	if len(r.Tools()) != 0 {
		t.Errorf("open_sections still offered after expansion: %v", toolNames(r.Tools()))
	}
	if _, ok := r.VisibilityOf("context"); !ok {
		t.Errorf("context not shown after expansion")
	}
}

// TestRetryLoop runs the caller pattern of the spec: render, evaluate,
// catch the expansion, merge, retry until the model stops asking.
func TestRetryLoop(t *testing.T) {
	p := MustNew("ns", "loop", "",
		Section{Key: "a", Title: "A", Template: "a full", Summary: "a short", Visibility: VisibilitySummary,
			Children: []Section{{Key: "b", Title: "B", Template: "b full", Summary: "b short", Visibility: VisibilitySummary}}},
		Section{Key: "c", Title: "C", Template: "c full", Summary: "c short", Visibility: VisibilitySummary},
	)
	// The scripted model asks for one section per turn, then answers.
	requests := [][]string{{"a"}, {"a.b", "c"}}
	caller := Overrides{"c": VisibilitySummary}
	overrides := Merge(caller)
	var texts []string
	for turn := 0; ; turn++ {
		if turn > 5 {
			t.Fatal("retry loop did not converge")
		}
		r, err := p.Render(overrides)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, r.Text())
		if turn >= len(requests) {
			break
		}
		args, _ := json.Marshal(OpenSectionsParams{SectionKeys: requests[turn], Reason: "need it"})
		_, err = call(t, findTool(t, r.Tools(), OpenSectionsName), nil, string(args))
		var exp *VisibilityExpansionRequired
		if !errors.As(err, &exp) {
			t.Fatalf("turn %d: %v", turn, err)
		}
		overrides = Merge(overrides, exp.RequestedOverrides)
	}
	last := texts[len(texts)-1]
	for _, want := range []string{"a full", "### 1.1 B\nb full", "c full"} {
		if !strings.Contains(last, want) {
			t.Errorf("final render lacks %q:\n%s", want, last)
		}
	}
	if len(texts) != 3 {
		t.Errorf("rendered %d times, want 3", len(texts))
	}
}

func TestOpenSectionsRegistration(t *testing.T) {
	lookup := runtime.MustTool("lookup_entity", "Fetch an entity.", nil, nil)
	search := runtime.MustTool("search", "Search entities.", nil, nil)
	tests := []struct {
		name      string
		sections  []Section
		overrides Overrides
		want      []string
	}{
		{
			name:     "all full: no open_sections",
			sections: []Section{{Key: "a", Title: "A", Tools: []runtime.Tool{lookup}}},
			want:     []string{"lookup_entity"},
		},
		{
			name: "summary: appended after user tools, summarized tools hidden",
			sections: []Section{
				{Key: "a", Title: "A", Tools: []runtime.Tool{lookup}},
				{Key: "b", Title: "B", Summary: "b", Visibility: VisibilitySummary, Tools: []runtime.Tool{search}},
			},
			want: []string{"lookup_entity", "open_sections"},
		},
		{
			name: "children of a summarized section do not offer tools",
			sections: []Section{
				{Key: "a", Title: "A", Summary: "a", Visibility: VisibilitySummary,
					Children: []Section{{Key: "b", Title: "B", Tools: []runtime.Tool{search}}}},
			},
			want: []string{"open_sections"},
		},
		{
			name: "overrides opening every section remove open_sections",
			sections: []Section{
				{Key: "a", Title: "A", Tools: []runtime.Tool{lookup}},
				{Key: "b", Title: "B", Summary: "b", Visibility: VisibilitySummary, Tools: []runtime.Tool{search}},
			},
			overrides: Overrides{"b": VisibilityFull},
			want:      []string{"lookup_entity", "search"},
		},
		{
			name: "caller override summarizing a full section adds open_sections",
			sections: []Section{
				{Key: "a", Title: "A", Summary: "a", Tools: []runtime.Tool{lookup}},
				{Key: "b", Title: "B", Tools: []runtime.Tool{search}},
			},
			overrides: Overrides{"a": VisibilitySummary},
			want:      []string{"search", "open_sections"},
		},
		{
			name: "disabled summarized section does not count",
			sections: []Section{
				{Key: "a", Title: "A", Tools: []runtime.Tool{lookup}},
				{Key: "b", Title: "B", Summary: "b", Visibility: VisibilitySummary, Enabled: func(any) bool { return false }},
			},
			want: []string{"lookup_entity"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New("ns", "k", "", tt.sections...)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Render(tt.overrides)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, toolNames(r.Tools())); d != "" {
				t.Errorf("tools (-want +got):\n%s", d)
			}
			if d := cmp.Diff(toolNames(r.Tools()), keysOf(r.ToolParamDescriptions()), sortStrings); d != "" {
				t.Errorf("param descriptions cover other tools (-tools +descs):\n%s", d)
			}
		})
	}
}

func keysOf[V any](m map[string]V) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	return out
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestOpenSectionsTool(t *testing.T) {
	p := specPrompt(t)
	var tool runtime.Tool
	for _, x := range p.Tools() {
		if x.Name == OpenSectionsName {
			tool = x
		}
	}
	if tool.AcceptsOverrides {
		t.Error("open_sections accepts overrides")
	}
	if err := tool.Check(true); err != nil {
		t.Errorf("open_sections breaks the strict tool rules: %v", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	props := schema["properties"].(map[string]any)
	keys := props["section_keys"].(map[string]any)
	reason := props["reason"].(map[string]any)
	if keys["type"] != "array" || keys["minItems"] != 1.0 || keys["items"].(map[string]any)["type"] != "string" {
		t.Errorf("section_keys schema = %v", keys)
	}
	if reason["type"] != "string" || reason["maxLength"] != 256.0 {
		t.Errorf("reason schema = %v", reason)
	}
	if d := cmp.Diff([]any{"section_keys", "reason"}, schema["required"]); d != "" {
		t.Errorf("required (-want +got):\n%s", d)
	}
	got, err := tool.Decode(json.RawMessage(`{"section_keys":["context"],"reason":"r"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&OpenSectionsParams{SectionKeys: []string{"context"}, Reason: "r"}, got); d != "" {
		t.Errorf("Decode (-want +got):\n%s", d)
	}
	if _, err := tool.Decode(json.RawMessage(`{"section_keys":["task"],"reason":"r"}`)); err == nil {
		t.Error("Decode accepted an open section")
	}
}

// nestedPrompt has a summarized parent with children, one of them disabled
// and one summarized itself.
func nestedPrompt(t testing.TB) *Prompt {
	t.Helper()
	return MustNew("ns", "nested", "",
		Section{Key: "intro", Title: "Intro", Template: "Read this first."},
		Section{Key: "context", Title: "Context", Template: "All context.", Summary: "Context is available.",
			Visibility: VisibilitySummary,
			Children: []Section{
				{Key: "examples", Title: "Examples", Template: "Example list."},
				{Key: "secret", Title: "Secret", Template: "x", Enabled: func(any) bool { return false }},
				{Key: "constraints", Title: "Constraints", Template: "Be brief.", Summary: "Some constraints.",
					Visibility: VisibilitySummary},
				{Key: "history", Title: "History", Template: "Long ago.", Summary: "Old stuff."},
			}},
	)
}

func TestSuffixListsChildKeys(t *testing.T) {
	p := nestedPrompt(t)
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "## 1 Intro\nRead this first.\n\n" +
		"## 2 Context\nContext is available.\n---\n" +
		"[This section is summarized. Call `open_sections` with key \"context\" to view full content including subsections: examples, constraints, history.]"
	if r.Text() != want {
		t.Errorf("render:\n%s\nwant:\n%s", r.Text(), want)
	}
	if d := cmp.Diff([]string{"context"}, r.Summarized()); d != "" {
		t.Errorf("Summarized (-want +got):\n%s", d)
	}

	r, err = p.Render(Overrides{"context": VisibilityFull})
	if err != nil {
		t.Fatal(err)
	}
	want = "## 1 Intro\nRead this first.\n\n" +
		"## 2 Context\nAll context.\n\n" +
		"### 2.1 Examples\nExample list.\n\n" +
		"### 2.2 Constraints\nSome constraints.\n---\n" +
		"[This section is summarized. To view full content, call `open_sections` with key \"context.constraints\".]\n\n" +
		"### 2.3 History\nLong ago."
	if r.Text() != want {
		t.Errorf("render:\n%s\nwant:\n%s", r.Text(), want)
	}
}

func TestOpenSectionsValidation(t *testing.T) {
	tool := nestedOpenSections(t)
	tests := []struct {
		name  string
		args  string
		codes []string // path:code of each field error
	}{
		{"unknown key", `{"section_keys":["nope"],"reason":"r"}`, []string{"/section_keys/0:enum"}},
		{"misspelt key", `{"section_keys":["context.histroy"],"reason":"r"}`, []string{"/section_keys/0:enum"}},
		{"already open", `{"section_keys":["intro"],"reason":"r"}`, []string{"/section_keys/0:already_open"}},
		{"disabled section", `{"section_keys":["context.secret"],"reason":"r"}`, []string{"/section_keys/0:enum"}},
		{"every bad key reported", `{"section_keys":["context","nope","intro"],"reason":"r"}`,
			[]string{"/section_keys/1:enum", "/section_keys/2:already_open"}},
		{"missing everything", `{}`, []string{"/section_keys:required", "/reason:required"}},
		{"empty args", ``, []string{"/section_keys:required", "/reason:required"}},
		{"not an object", `["context"]`, []string{":type"}},
		{"empty keys", `{"section_keys":[],"reason":"r"}`, []string{"/section_keys:minItems"}},
		{"wrong types", `{"section_keys":"context","reason":7}`, []string{"/section_keys:type", "/reason:type"}},
		{"null key", `{"section_keys":[null, 3],"reason":"r"}`, []string{"/section_keys/0:type", "/section_keys/1:type"}},
		{"unknown argument", `{"section_keys":["context"],"reason":"r","sections":1}`, []string{"/sections:additionalProperties"}},
		{"reason too long", `{"section_keys":["context"],"reason":"` + strings.Repeat("é", 257) + `"}`, []string{"/reason:maxLength"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, tool, nil, tt.args)
			if err != nil {
				t.Fatalf("Dispatch returned error %v, want a failed result", err)
			}
			if res.Success {
				t.Fatal("open_sections succeeded")
			}
			var ve *runtime.ValidationError
			if !errors.As(res.Err, &ve) {
				t.Fatalf("result error = %T %v, want *runtime.ValidationError", res.Err, res.Err)
			}
			var codes []string
			for _, f := range ve.Fields {
				codes = append(codes, f.Path+":"+f.Code)
			}
			if d := cmp.Diff(tt.codes, codes); d != "" {
				t.Errorf("field errors (-want +got):\n%s\nmessage: %s", d, res.Message)
			}
		})
	}
	res, _ := call(t, tool, nil, `{"section_keys":["nope"],"reason":"r"}`)
	if want := `keys to open: context, context.examples, context.constraints, context.history`; !strings.Contains(res.Message, want) {
		t.Errorf("message %q does not list the openable sections", res.Message)
	}
	res, _ = call(t, tool, nil, `{"section_keys":["context.histroy"],"reason":"r"}`)
	if want := `(did you mean "context.history"?)`; !strings.Contains(res.Message, want) {
		t.Errorf("message %q lacks %s", res.Message, want)
	}
	res, _ = call(t, tool, nil, `{"section_keys":["context"],"reasn":"r"}`)
	if want := `(did you mean "reason"?)`; !strings.Contains(res.Message, want) {
		t.Errorf("message %q lacks %s", res.Message, want)
	}
	if runtime.CodeOf(res.Err) != runtime.CodeValidation {
		t.Errorf("code = %s", runtime.CodeOf(res.Err))
	}
}

// TestOpenSectionsHidesDisabled: a key naming a section left out of the
// rendering (Enabled false) is answered as a key naming no section; the
// answer said "is not part of this prompt", telling the model that the
// section exists.
func TestOpenSectionsHidesDisabled(t *testing.T) {
	tool := nestedOpenSections(t)
	tests := []struct {
		name string
		key  string // one naming nothing, and a disabled one of the same length
	}{
		{"unknown child", "context.zzzzzz"},
		{"disabled child", "context.secret"},
	}
	var messages []string
	for _, tt := range tests {
		res, err := call(t, tool, nil, `{"section_keys":["`+tt.key+`"],"reason":"r"}`)
		if err != nil || res.Success {
			t.Fatalf("%s: %+v, %v; want a failed result", tt.name, res, err)
		}
		messages = append(messages, strings.ReplaceAll(res.Message, tt.key, "KEY"))
	}
	for i, m := range messages {
		if m != messages[0] || strings.Contains(m, "secret") {
			t.Errorf("%s: answer %q, want the answer to an unknown key, %q", tests[i].name, m, messages[0])
		}
	}
}

func TestOpenSectionsAlreadyOpenUnderOverrides(t *testing.T) {
	p := nestedPrompt(t)
	r, err := p.Render(Overrides{"context": VisibilityFull})
	if err != nil {
		t.Fatal(err)
	}
	tool := findTool(t, r.Tools(), OpenSectionsName)
	res, err := call(t, tool, nil, `{"section_keys":["context"],"reason":"r"}`)
	if err != nil || res.Success || !strings.Contains(res.Message, `section "context" is already open`) {
		t.Errorf("opening an overridden-open section: %+v, %v", res, err)
	}
	_, err = call(t, tool, nil, `{"section_keys":["context.constraints"],"reason":"r"}`)
	var exp *VisibilityExpansionRequired
	if !errors.As(err, &exp) {
		t.Fatalf("got %v", err)
	}
}

func TestExpansionOverrides(t *testing.T) {
	tool := nestedOpenSections(t)
	tests := []struct {
		keys      string
		overrides Overrides
		paths     []string
		msg       string
		sent      []string // SectionKeys: each key once, in the order sent
	}{
		{`["context"]`, Overrides{"context": VisibilityFull}, []string{"context"},
			"Visibility expansion required for sections: context. Reason: why", []string{"context"}},
		{`["context.constraints","context"]`,
			Overrides{"context": VisibilityFull, "context.constraints": VisibilityFull},
			[]string{"context", "context.constraints"},
			"Visibility expansion required for sections: context, context.constraints. Reason: why",
			[]string{"context.constraints", "context"}},
		{`["context.history","context.history"]`,
			Overrides{"context": VisibilityFull, "context.history": VisibilityFull},
			[]string{"context", "context.history"},
			"Visibility expansion required for sections: context, context.history. Reason: why",
			[]string{"context.history"}},
	}
	for _, tt := range tests {
		t.Run(tt.keys, func(t *testing.T) {
			_, err := call(t, tool, nil, `{"section_keys":`+tt.keys+`,"reason":"why"}`)
			var exp *VisibilityExpansionRequired
			if !errors.As(err, &exp) {
				t.Fatalf("got %v", err)
			}
			if d := cmp.Diff(tt.overrides, exp.RequestedOverrides); d != "" {
				t.Errorf("overrides (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.paths, exp.Paths()); d != "" {
				t.Errorf("paths (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.sent, exp.SectionKeys); d != "" {
				t.Errorf("section keys (-want +got):\n%s", d)
			}
			if exp.Reason != "why" || exp.Error() != tt.msg {
				t.Errorf("reason %q, Error() %q", exp.Reason, exp.Error())
			}
			// The overrides are ready for Render.
			if _, err := nestedPrompt(t).Render(exp.RequestedOverrides); err != nil {
				t.Errorf("Render with requested overrides: %v", err)
			}
		})
	}
}

// TestPropagationThroughDispatch checks that dispatch neither catches nor
// wraps the expansion and that ToolInvoked is published first, with the
// expansion telemetry.
func TestPropagationThroughDispatch(t *testing.T) {
	p := nestedPrompt(t)
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	var bus runtime.EventBus
	var events []runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) {
		if ev, ok := e.(runtime.ToolInvoked); ok {
			events = append(events, ev)
		}
	})
	tool := findTool(t, r.Tools(), OpenSectionsName)
	res, err := call(t, tool, &bus, `{"section_keys":["context"],"reason":"Need the examples"}`)
	exp, ok := err.(*VisibilityExpansionRequired)
	if !ok {
		t.Fatalf("Dispatch error = %T %v, want the *VisibilityExpansionRequired itself", err, err)
	}
	if res.Success || res.Err != error(exp) {
		t.Errorf("result = %+v", res)
	}
	if len(events) != 1 {
		t.Fatalf("published %d ToolInvoked events, want 1", len(events))
	}
	want := map[string]any{
		"requested_sections": []string{"context"},
		"reason":             "Need the examples",
		"current_visibility_state": map[string]string{
			"intro":               "FULL",
			"context":             "SUMMARY",
			"context.examples":    "HIDDEN",
			"context.constraints": "HIDDEN",
			"context.history":     "HIDDEN",
		},
	}
	if d := cmp.Diff(want, events[0].Metadata); d != "" {
		t.Errorf("telemetry (-want +got):\n%s", d)
	}
	if events[0].Tool != OpenSectionsName || events[0].CallID != "c1" {
		t.Errorf("event = %+v", events[0])
	}
	// Failed validation is an ordinary failed result with its event.
	_, err = call(t, tool, &bus, `{"section_keys":["intro"],"reason":"r"}`)
	if err != nil || len(events) != 2 || events[1].Result.Success {
		t.Errorf("invalid call: err %v, events %d", err, len(events))
	}
}

func TestMergePrecedence(t *testing.T) {
	declared := nestedPrompt(t)
	caller := Overrides{"intro": VisibilityFull, "context": VisibilitySummary, "context.history": VisibilitySummary}
	requested := Overrides{"context": VisibilityFull}
	got := Merge(caller, requested)
	want := Overrides{"intro": VisibilityFull, "context": VisibilityFull, "context.history": VisibilitySummary}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Merge (-want +got):\n%s", d)
	}
	if caller["context"] != VisibilitySummary {
		t.Error("Merge modified its input")
	}
	r, err := declared.Render(got)
	if err != nil {
		t.Fatal(err)
	}
	if v, shown := r.VisibilityOf("context.history"); !shown || v != VisibilitySummary {
		t.Errorf("context.history = %v shown %v, want caller's SUMMARY", v, shown)
	}
	if v, shown := r.VisibilityOf("context"); !shown || v != VisibilityFull {
		t.Errorf("context = %v shown %v, want requested FULL", v, shown)
	}
	if len(Merge()) != 0 {
		t.Error("Merge() not empty")
	}
}

func TestConcurrentRender(t *testing.T) {
	p := specPrompt(t)
	done := make(chan string)
	for i := range 8 {
		go func() {
			var ov Overrides
			if i%2 == 0 {
				ov = Overrides{"context": VisibilityFull}
			}
			r, err := p.Render(ov, specParams...)
			if err != nil {
				done <- err.Error()
				return
			}
			done <- r.Text()
		}()
	}
	for range 8 {
		if got := <-done; got != specSummarized && got != specExpanded {
			t.Errorf("concurrent render = %q", got)
		}
	}
}

// TestSectionText: SectionText is the part of Text a shown section takes,
// from its heading to the end of its shown subsections; a section hidden
// under a summarized ancestor, disabled or unknown has none.
func TestSectionText(t *testing.T) {
	p, err := New("test", "text", "",
		Section{Key: "a", Title: "A", Template: "A body.\n\n```\nopen fence", Children: []Section{
			{Key: "b", Title: "B", Template: "B body.", Summary: "B summary.", Visibility: VisibilitySummary,
				Children: []Section{{Key: "c", Title: "C", Template: "C body."}}},
		}},
		Section{Key: "d", Title: "D", Template: "D body.", Enabled: func(any) bool { return false }},
		Section{Key: "e", Title: "E", Template: "E body."})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	open, err := p.Render(Overrides{"a.b": VisibilityFull})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		r    *Rendered
		path string
		want string // "" for none
	}{
		{closed, "a", "## 1 A\nA body.\n\n```\nopen fence\n```\n\n### 1.1 B\nB summary.\n---\n[This section is summarized. Call `open_sections` with key \"a.b\" to view full content including subsections: c.]"},
		{closed, "a.b", "### 1.1 B\nB summary.\n---\n[This section is summarized. Call `open_sections` with key \"a.b\" to view full content including subsections: c.]"},
		{closed, "a.b.c", ""},
		{closed, "d", ""},
		{closed, "nope", ""},
		{closed, "e", "## 2 E\nE body."},
		{open, "a.b", "### 1.1 B\nB body.\n\n#### 1.1.1 C\nC body."},
		{open, "a.b.c", "#### 1.1.1 C\nC body."},
	}
	for _, tt := range tests {
		got, ok := tt.r.SectionText(tt.path)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("SectionText(%q) = %q, %v; want %q", tt.path, got, ok, tt.want)
		}
		if ok && !strings.Contains(tt.r.Text(), got) {
			t.Errorf("SectionText(%q) is not part of Text", tt.path)
		}
	}
}
