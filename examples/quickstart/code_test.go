package quickstart_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// TestSurfaceCode: the same three calls as the other stories, in one
// script.
func TestSurfaceCode(t *testing.T) {
	script := `
const before = await todo.list();
const made = await todo.create(` + createArgs + `);
const admin = await todo.list({tag: "admin"});
return {before, id: made.id, admin};`
	args, _ := json.Marshal(map[string]string{"script": script})
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(codemode.CodeTool, string(args))).Expect(codemode.CodeTool, codemode.HelpTool),
		agenttest.Say("Added."),
	)
	out, rec := run(t, m, agent.WithTools(quickstart.Code(&quickstart.Store{}, codemode.WithWrites(true))...))
	agenttest.Contains(t, agenttest.ExpectToolMessages(t, out, 1)[0], codemode.CodeTool,
		`"ok":true`, `"before":{"items":[]}`, `"id":"td_1"`, `"admin":{"items":[{"id":"td_1","title":"Renew passport"`, `"op_calls":3`)
	rec.Expect(t, listOpen, createTodo, listAdmin)
}
