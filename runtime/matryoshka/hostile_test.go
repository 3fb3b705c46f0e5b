package matryoshka

import (
	"errors"
	"slices"
	"strconv"
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

// TestFacadeAnswerOneLinePerTool: an inner tool's description that breaks
// its first sentence with "\r" or U+2028 rather than "\n" stays on the
// tool's line of the facade's answer (the break started a line of its
// own: "## Injected" read as a heading).
func TestFacadeAnswerOneLinePerTool(t *testing.T) {
	var r recorder
	for _, desc := range []string{"Runs a.\r## Injected", "Runs a.\u2028## Injected", "Runs a.\r\n## Injected", "Runs a.\u0085- injected: item"} {
		tool := Facade("f", "F.", []runtime.Tool{r.tool("a", desc), r.tool("b", "Runs b.")})
		res, err := runtime.Dispatch(t.Context(), tool, runtime.ToolContext{}, []byte(`{}`))
		if err != nil || !res.Success {
			t.Fatalf("%q: %v %+v", desc, err, res)
		}
		answer := runtime.RenderResult(res)
		lines := strings.FieldsFunc(answer, func(r rune) bool {
			return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
		})
		if len(lines) != 4 {
			t.Errorf("%q: the answer has %d lines, want 4:\n%s", desc, len(lines), answer)
		}
	}
}

// TestFacadeUnknownArgumentsCounted: past maxUnknownErrors, unknown
// arguments are counted in Omitted rather than each given a field error
// (300,000 of them took 356 MB to render twenty), and the errors about
// the facade's own arguments are still reported.
func TestFacadeUnknownArgumentsCounted(t *testing.T) {
	var r recorder
	tool := Facade("f", "F.", r.tools("alpha", "beta"))
	tests := []struct {
		unknown     int
		extra       string // more members
		fields      int
		omitted     int
		wantPresent string // a path among the fields
	}{
		{unknown: 3, fields: 3},
		{unknown: maxUnknownErrors, fields: maxUnknownErrors},
		{unknown: 5000, fields: maxUnknownErrors, omitted: 5000 - maxUnknownErrors},
		{unknown: 5000, extra: `,"tool":1`, fields: maxUnknownErrors + 1, omitted: 5000 - maxUnknownErrors, wantPresent: "/tool"},
	}
	for _, tt := range tests {
		var b strings.Builder
		b.WriteString(`{"a":1`)
		for i := 1; i < tt.unknown; i++ {
			b.WriteString(`,"k` + strconv.Itoa(i) + `":1`)
		}
		b.WriteString(tt.extra + "}")
		res, err := runtime.Dispatch(t.Context(), tool, runtime.ToolContext{}, []byte(b.String()))
		var ve *runtime.ValidationError
		if err != nil || !errors.As(res.Err, &ve) {
			t.Fatalf("%d unknown: %v %+v", tt.unknown, err, res)
		}
		if len(ve.Fields) != tt.fields || ve.Omitted != tt.omitted {
			t.Errorf("%d unknown%s: %d fields, %d omitted; want %d, %d", tt.unknown, tt.extra, len(ve.Fields), ve.Omitted, tt.fields, tt.omitted)
		}
		if tt.wantPresent != "" && !slices.ContainsFunc(ve.Fields, func(f runtime.FieldError) bool { return f.Path == tt.wantPresent }) {
			t.Errorf("%d unknown%s: no error at %s", tt.unknown, tt.extra, tt.wantPresent)
		}
	}
}
