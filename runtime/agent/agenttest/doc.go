// Package agenttest provides a scripted agent.Model for tests: it replays
// recorded turns (tool calls with JSON arguments, or final text) and records
// what it was offered at each turn, so that a test can assert the tools a
// model saw and the handler calls that resulted.
//
//	m := agenttest.New(
//		agenttest.Calls(agenttest.Call("onto", `{}`)),
//		agenttest.Calls(agenttest.Call("list_onto_tasks", `{"project_id":"p1"}`)),
//		agenttest.Say("done"),
//	)
//	out, err := agent.New(m, agent.WithTools(pkg.Facades(h)...)).Run(ctx, agent.User("list tasks"))
//	// m.Offered() == [][]string{{"onto"}, {"list_onto_tasks", ...}, {...}}
package agenttest
