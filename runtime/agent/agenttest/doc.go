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
//
// It also has the assertions conversation tests share. Run plays a script
// and fails the test on a run error or left-over turns; ToolMessages,
// ExpectToolMessages and Contains check the answers the model read; a
// Recorder, subscribed to the agent's event bus, records the handler calls
// of generated tools with their decoded params (from runtime.ToolInvoked),
// whichever surface made them — a direct call, tool_exec, tool_batch or a
// facade shortcut — so a test can use the real handlers instead of wrapping
// every handler method:
//
//	rec := agenttest.NewRecorder()
//	out := agenttest.Run(t, m, "list tasks", agent.WithTools(pkg.Gateway(store)...), rec.Option())
//	agenttest.Contains(t, agenttest.ExpectToolMessages(t, out, 1)[0], gateway.ExecTool, `"ok":true`)
//	rec.Expect(t, agenttest.Handled("list_onto_tasks", &pkg.ListOntoTasksParams{ProjectID: ptr("p1"), Limit: 20}))
package agenttest
