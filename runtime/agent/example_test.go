package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

// A scripted model unfolds a facade, calls an inner tool and answers.
func Example() {
	listTasks := runtime.Tool{Name: "list_tasks", Description: "Lists tasks.",
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Value: []string{"write docs", "ship"}}, nil
		}}
	tasks := matryoshka.Facade("tasks", "Task tools. Invoke to reveal them.", []runtime.Tool{listTasks})

	model := agenttest.New(
		agenttest.Calls(agenttest.Call("tasks", `{}`)),
		agenttest.Calls(agenttest.Call("list_tasks", `{}`)),
		agenttest.Say("You have 2 tasks."),
	)
	out, err := agent.New(model, agent.WithTools(tasks)).Run(context.Background(), agent.User("what is left?"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(model.Offered())
	fmt.Println(out.Messages[4].Content)
	fmt.Println(out.Text)
	// Output:
	// [[tasks] [list_tasks] [list_tasks]]
	// ["write docs","ship"]
	// You have 2 tasks.
}
