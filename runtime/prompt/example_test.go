package prompt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

type TaskParams struct {
	Objective string `json:"objective"`
}

// The progressive disclosure flow: the model sees a summary, calls
// open_sections, and the caller re-renders with the requested overrides.
func Example() {
	p := prompt.MustNew("agents/assistant", "task-executor", "",
		prompt.Section{Key: "task", Title: "Task", Template: "Complete the following: ${objective}",
			Params: reflect.TypeFor[TaskParams]()},
		prompt.Section{Key: "context", Title: "Project Context", Template: "Detailed documentation.",
			Summary: "Documentation is available.", Visibility: prompt.VisibilitySummary},
	)
	params := TaskParams{Objective: "Refactor the auth module"}

	overrides := prompt.Overrides{}
	for {
		r, err := p.Render(overrides, params)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n-- tools: %d\n", r.Text(), len(r.Tools()))
		if len(r.Tools()) == 0 {
			break
		}
		// The model calls open_sections.
		open := r.Tools()[len(r.Tools())-1]
		args := json.RawMessage(`{"section_keys":["context"],"reason":"need the docs"}`)
		_, err = runtime.Dispatch(context.Background(), open, runtime.NewToolContext(runtime.ContextParts{Prompt: p, Rendered: r}), args)
		var exp *prompt.VisibilityExpansionRequired
		if !errors.As(err, &exp) {
			panic(err)
		}
		fmt.Println("--", exp)
		overrides = prompt.Merge(overrides, exp.RequestedOverrides)
	}
	// Output:
	// ## 1 Task
	// Complete the following: Refactor the auth module
	//
	// ## 2 Project Context
	// Documentation is available.
	// ---
	// [This section is summarized. To view full content, call `open_sections` with key "context".]
	// -- tools: 1
	// -- Visibility expansion required for sections: context. Reason: need the docs
	// ## 1 Task
	// Complete the following: Refactor the auth module
	//
	// ## 2 Project Context
	// Detailed documentation.
	// -- tools: 0
}

// Embedding child markdown under a parent's template variable (spec 002).
func ExampleResolveTemplates() {
	parent := prompt.ParseMarkdown("## Research Process\n\n{PROMPT_SUBTREE}", 1)
	child := prompt.ParseMarkdown("## Analysis Method\n\n### Data Sources", 1)
	fmt.Println(prompt.RenderMarkdown(prompt.ResolveTemplates(parent, map[string][]prompt.Element{
		"PROMPT_SUBTREE": prompt.Titled("Literature Review", child),
	})))
	// Output:
	// ## Research Process
	//
	// ### Literature Review
	// #### Analysis Method
	// ##### Data Sources
}
