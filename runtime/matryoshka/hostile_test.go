package matryoshka

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestHostileFacadeArgs: huge tool, category and argument names get small
// answers (the names were echoed whole and compared by a quadratic edit
// distance).
func TestHostileFacadeArgs(t *testing.T) {
	var r recorder
	tool := Facade("f", "F.", r.tools("alpha", "beta"), Category("read", "alpha"))
	huge := strings.Repeat("z", 4<<20)
	var many strings.Builder
	many.WriteString(`{"tool":"alpha"`)
	for i := range 2000 {
		many.WriteString(`,"k` + strings.Repeat("x", i%40) + string(rune('a'+i%26)) + `":1`)
	}
	many.WriteString("}")
	for name, args := range map[string]string{
		"tool":      `{"tool":"` + huge + `"}`,
		"category":  `{"category":"` + huge + `"}`,
		"key":       `{"tool":"alpha","` + huge + `":1}`,
		"many_keys": many.String(),
	} {
		res, err := runtime.Dispatch(t.Context(), tool, runtime.ToolContext{}, []byte(args))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text := runtime.RenderResult(res); res.Success || len(text) > 16<<10 {
			t.Errorf("%s: success %v, %d bytes: %.200s", name, res.Success, len(text), text)
		}
	}
}
