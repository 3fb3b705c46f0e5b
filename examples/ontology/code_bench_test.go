package ontology_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// BenchmarkThreeOps runs the three-op task (search, read, update) in
// process: as one tool_code script (strip types, start an engine, three
// op calls through tool_exec's path) and as three tool_exec calls.
func BenchmarkThreeOps(b *testing.B) {
	ctx := context.Background()
	b.Run("code", func(b *testing.B) {
		tool := ontology.Code(ontology.NewStore(), codemode.WithWrites(true))[0]
		args, _ := json.Marshal(map[string]string{"script": threeOps(b)})
		for b.Loop() {
			res, err := tool.Handler(ctx, runtime.ToolContext{}, args)
			if err != nil || !res.Success {
				b.Fatalf("%v %s", err, runtime.RenderResult(res))
			}
		}
	})
	b.Run("gateway", func(b *testing.B) {
		var exec runtime.Tool
		for _, t := range ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true)) {
			if t.Name == gateway.ExecTool {
				exec = t
			}
		}
		calls := []json.RawMessage{
			json.RawMessage(`{"op":"onto.task.search","args":{"search":"staging","project_id":"` + projectID + `"}}`),
			json.RawMessage(`{"op":"onto.task.get","args":{"task_id":"` + stagingTaskID + `"}}`),
			json.RawMessage(`{"op":"onto.task.update","args":{"task_id":"` + stagingTaskID + `","state_key":"done"}}`),
		}
		for b.Loop() {
			for _, c := range calls {
				res, err := exec.Handler(ctx, runtime.ToolContext{}, c)
				if err != nil || !res.Success {
					b.Fatalf("%v %s", err, runtime.RenderResult(res))
				}
			}
		}
	})
}
