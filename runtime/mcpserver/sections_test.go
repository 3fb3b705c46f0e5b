package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

func okHandler(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
	return runtime.Result{Success: true}, nil
}

// manySections is a prompt of n summarized sections, each with a body of
// body bytes and one tool.
func manySections(t testing.TB, n, body int) *prompt.Prompt {
	t.Helper()
	secs := make([]prompt.Section, n)
	for i := range secs {
		key := fmt.Sprintf("s%d", i)
		secs[i] = prompt.Section{Key: key, Title: "Section " + key,
			Template: key + " body " + strings.Repeat("x", body), Summary: key + " summary.",
			Visibility: prompt.VisibilitySummary,
			Tools: []runtime.Tool{{Name: "tool_" + key, Description: "Tool of " + key + ".",
				Parameters: json.RawMessage(`{"type":"object"}`), Handler: okHandler}}}
	}
	p, err := prompt.New("test", "many", "", secs...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenSectionsAnswersOpenedText: open_sections answers with the text
// of the sections it opened (their subsections included), not the whole
// prompt, which the client already has as the server's instructions. It
// answered with the whole re-rendered prompt: opening 200 sections of 1
// KB one by one sent the client 23.3 MB, quadratic in the prompt.
func TestOpenSectionsAnswersOpenedText(t *testing.T) {
	const n, body = 200, 1000
	server, err := mcpserver.NewSectionsServer("t", "v1", manySections(t, n, body), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server, nil)
	total := 0
	for i := range n {
		key := fmt.Sprintf("s%d", i)
		got := mustOK(t, cs, prompt.OpenSectionsName, `{"section_keys":["`+key+`"],"reason":"r"}`)
		total += len(got)
		if !strings.Contains(got, key+" body ") || !strings.Contains(got, "tool_"+key) {
			t.Fatalf("opening %s answered without its text or tool:\n%s", key, got)
		}
		if i > 0 && strings.Contains(got, "s0 body") {
			t.Fatalf("opening %s answered with s0's text too", key)
		}
	}
	t.Logf("opening %d sections one by one answered %d bytes", n, total)
	// Each answer holds one section's text and a line about it.
	if limit := n * (body + 300); total > limit {
		t.Errorf("opening %d sections one by one answered %d bytes, want at most %d", n, total, limit)
	}
}

// TestOpenSectionsNested: a section opened with an ancestor, or opening
// its summarized ancestors on the way, is answered once, inside the
// outermost opened section's text; sections not opened are not sent.
func TestOpenSectionsNested(t *testing.T) {
	tool := func(name string) []runtime.Tool {
		return []runtime.Tool{{Name: name, Description: "Tool " + name + ".", Parameters: json.RawMessage(`{"type":"object"}`), Handler: okHandler}}
	}
	build := func(t *testing.T) *prompt.Prompt {
		p, err := prompt.New("test", "nested", "",
			prompt.Section{Key: "a", Title: "A", Template: "A body.", Summary: "A summary.", Visibility: prompt.VisibilitySummary, Tools: tool("tool_a"),
				Children: []prompt.Section{{Key: "b", Title: "B", Template: "B body.", Tools: tool("tool_b"),
					Children: []prompt.Section{{Key: "c", Title: "C", Template: "C body.", Summary: "C summary.", Visibility: prompt.VisibilitySummary, Tools: tool("tool_c")}}}}},
			prompt.Section{Key: "d", Title: "D", Template: "D body.", Summary: "D summary.", Visibility: prompt.VisibilitySummary, Tools: tool("tool_d")})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name  string
		calls []string // section_keys of each call, in order
		want  []string // in the last answer, each exactly once
		not   []string // not in the last answer
	}{
		{"deep key opens its ancestor", []string{`["a.b.c"]`}, []string{"## 1 A", "A body.", "### 1.1 B", "#### 1.1.1 C", "C body.", "tool_a, tool_b, tool_c"}, []string{"D ", "C summary."}},
		{"ancestor and descendant", []string{`["a.b.c","a"]`}, []string{"## 1 A", "C body."}, []string{"D "}},
		{"child left summarized", []string{`["a"]`}, []string{"## 1 A", "B body.", "C summary."}, []string{"C body.", "D "}},
		{"two sections", []string{`["d","a"]`}, []string{"## 1 A", "## 2 D", "D body."}, nil},
		{"later opening", []string{`["a"]`, `["a.b.c"]`}, []string{"#### 1.1.1 C", "C body.", "tool_c"}, []string{"A body.", "B body.", "D "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server, err := mcpserver.NewSectionsServer("t", "v1", build(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			cs := connect(t, server, nil)
			var got string
			for _, keys := range tt.calls {
				got = mustOK(t, cs, prompt.OpenSectionsName, `{"section_keys":`+keys+`,"reason":"r"}`)
			}
			for _, w := range tt.want {
				if n := strings.Count(got, w); n != 1 {
					t.Errorf("answer holds %q %d times, want once:\n%s", w, n, got)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("answer holds %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestOpenSectionsConcurrent: concurrent openings on one server, each of
// its own section, add every tool once and answer each with its section.
func TestOpenSectionsConcurrent(t *testing.T) {
	const n = 40
	server, err := mcpserver.NewSectionsServer("t", "v1", manySections(t, n, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server, nil)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			key := fmt.Sprintf("s%d", i)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: prompt.OpenSectionsName,
				Arguments: json.RawMessage(`{"section_keys":["` + key + `"],"reason":"r"}`)})
			switch {
			case err != nil:
				errs <- err
			case res.IsError || len(res.Content) != 1:
				errs <- fmt.Errorf("opening %s: %+v", key, res)
			case !strings.Contains(res.Content[0].(*mcp.TextContent).Text, key+" body"):
				errs <- fmt.Errorf("opening %s answered %s", key, res.Content[0].(*mcp.TextContent).Text)
			default:
				errs <- nil
			}
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	tools := listTools(t, cs)
	for i := range n {
		if tools[fmt.Sprintf("tool_s%d", i)] == nil {
			t.Errorf("tool_s%d not listed after its opening", i)
		}
	}
}

// TestOpenSectionsAgain: a section opened before (by another session of a
// shared server, or in an earlier conversation on the same connection,
// whose model reads the same instructions) is opened again and answered
// with its text and tools; it was refused as already open, and its text
// was out of reach. open_sections stays listed with every section open,
// as the instructions still name it; it was removed.
func TestOpenSectionsAgain(t *testing.T) {
	server, err := mcpserver.NewSectionsServer("t", "v1", manySections(t, 2, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	first, second := connect(t, server, nil), connect(t, server, nil)
	mustOK(t, first, prompt.OpenSectionsName, `{"section_keys":["s0","s1"],"reason":"r"}`)
	for _, cs := range []*mcp.ClientSession{first, second} {
		got := mustOK(t, cs, prompt.OpenSectionsName, `{"section_keys":["s1"],"reason":"r"}`)
		if !strings.Contains(got, "s1 body") || !strings.Contains(got, "Tools now available: tool_s1.") || strings.Contains(got, "s0 body") {
			t.Errorf("opening s1 again answered:\n%s", got)
		}
		if listTools(t, cs)[prompt.OpenSectionsName] == nil {
			t.Errorf("open_sections not listed once every section is open")
		}
	}
	mustFail(t, second, prompt.OpenSectionsName, `{"section_keys":["nope"],"reason":"r"}`, "nope", "s0, s1")
}

// TestSectionsServerRenamedBuiltin: a section's tool named open_sections
// leaves the builtin the name open_sections_2, which the server lists with
// its MCP description and read-only hint, names in its instructions and
// answers; the section's own open_sections joins the list once opened, with
// no hint it did not give, and runs. prompt.New refused such a prompt.
func TestSectionsServerRenamedBuiltin(t *testing.T) {
	mine := runtime.Tool{Name: prompt.OpenSectionsName, Description: "Open a ticket's sections.", Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Message: "mine ran"}, nil
		}}
	p, err := prompt.New("test", "renamed", "", prompt.Section{Key: "tickets", Title: "Tickets", Template: "Ticket tools.",
		Summary: "Tickets.", Visibility: prompt.VisibilitySummary, Tools: []runtime.Tool{mine}})
	if err != nil {
		t.Fatal(err)
	}
	const builtin = "open_sections_2"
	if p.OpenSectionsName() != builtin {
		t.Fatalf("OpenSectionsName() = %q", p.OpenSectionsName())
	}
	server, err := mcpserver.NewSectionsServer("t", "v1", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server, nil)
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "call `"+builtin+"` with key \"tickets\"") {
		t.Errorf("instructions do not name %s:\n%s", builtin, ins)
	}
	tools := listTools(t, cs)
	open := tools[builtin]
	if len(tools) != 1 || open == nil {
		t.Fatalf("tools before opening: %v", tools)
	}
	if d := open.Description; strings.Contains(d, "re-sent") || !strings.Contains(d, "tool list") {
		t.Errorf("%s description over MCP: %s", builtin, d)
	}
	if a := open.Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("%s hints %+v, want read-only", builtin, a)
	}
	mustFail(t, cs, builtin, `{"section_keys":["tickets"],"reason":"r","x":1}`, builtin+" takes section_keys")
	if got := mustOK(t, cs, builtin, `{"section_keys":["tickets"],"reason":"r"}`); !strings.Contains(got, "Tools now available: open_sections.") {
		t.Errorf("%s answered %s", builtin, got)
	}
	tools = listTools(t, cs)
	if m := tools[prompt.OpenSectionsName]; m == nil || m.Description != mine.Description || m.Annotations != nil {
		t.Fatalf("the section's open_sections listed as %+v", m)
	}
	if got := mustOK(t, cs, prompt.OpenSectionsName, `{}`); got != "mine ran" {
		t.Errorf("the section's open_sections answered %q", got)
	}
}
