package agenttest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
)

// HandlerCall is one call that reached a generated tool's handler: the
// tool's name and the params value the generated code decoded for it
// (a pointer to the tool's params struct).
type HandlerCall struct {
	Tool   string
	Params any
}

// Handled returns the HandlerCall of tool with params.
func Handled(tool string, params any) HandlerCall { return HandlerCall{Tool: tool, Params: params} }

// String renders c as the tool name followed by its params as JSON.
func (c HandlerCall) String() string {
	b, err := json.Marshal(c.Params)
	if err != nil {
		return fmt.Sprintf("%s%+v", c.Tool, c.Params)
	}
	return c.Tool + string(b)
}

// Recorder records the handler calls of generated tools from the
// runtime.ToolInvoked events published on a bus: every event whose Params
// is not nil, in publication order. Generated tools set Params (through
// runtime.ToolResult.WithParams) whenever their handler ran; calls whose
// arguments did not decode, and the gateway tools, facade unfolds and
// open_sections, carry none. Inner calls made by tool_exec, tool_batch and
// facade shortcuts publish their own event and are recorded like direct
// calls (the wrappers' own events carry no params).
//
// A Recorder is safe for concurrent use.
type Recorder struct {
	bus   *runtime.EventBus
	stop  func()
	mu    sync.Mutex
	calls []HandlerCall
}

// Record returns a Recorder subscribed to bus: the bus an agent publishes
// on ((*agent.Agent).Bus, or one given with agent.WithBus).
func Record(bus *runtime.EventBus) *Recorder {
	r := &Recorder{bus: bus}
	r.stop = bus.Subscribe(r.observe)
	return r
}

// NewRecorder returns a Recorder subscribed to a new bus; pass Option to
// agent.New so that the agent publishes on it.
func NewRecorder() *Recorder { return Record(&runtime.EventBus{}) }

// Option is agent.WithBus of the recorder's bus.
func (r *Recorder) Option() agent.Option { return agent.WithBus(r.bus) }

// Bus returns the bus r is subscribed to.
func (r *Recorder) Bus() *runtime.EventBus { return r.bus }

// Stop unsubscribes r; the calls recorded so far stay.
func (r *Recorder) Stop() { r.stop() }

func (r *Recorder) observe(e runtime.Event) {
	ev, ok := e.(runtime.ToolInvoked)
	if !ok || ev.Params == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, HandlerCall{Tool: ev.Tool, Params: ev.Params})
}

// Calls returns the calls recorded so far, in order.
func (r *Recorder) Calls() []HandlerCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]HandlerCall(nil), r.calls...)
}

// Expect fails tb unless exactly want were recorded, in order, with params
// equal by reflect.DeepEqual. The failure lists both sequences call by
// call, marking those that differ.
func (r *Recorder) Expect(tb testing.TB, want ...HandlerCall) {
	tb.Helper()
	got := r.Calls()
	if len(got) == len(want) && (len(got) == 0 || reflect.DeepEqual(got, want)) {
		return
	}
	tb.Errorf("handler calls differ (- want, + got):\n%s", DiffCalls(want, got))
}

// DiffCalls renders want and got call by call: equal calls once, indented;
// differing ones as a "- want" line and a "+ got" line. Calls that render
// alike but differ (unexported fields, pointer against value) are shown
// with their Go types and field values.
func DiffCalls(want, got []HandlerCall) string {
	var b strings.Builder
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			fmt.Fprintf(&b, "- %d %v\n", i, want[i])
		case i >= len(want):
			fmt.Fprintf(&b, "+ %d %v\n", i, got[i])
		case reflect.DeepEqual(want[i], got[i]):
			fmt.Fprintf(&b, "  %d %v\n", i, got[i])
		default:
			w, g := want[i].String(), got[i].String()
			if w == g {
				w, g = goValue(want[i]), goValue(got[i])
			}
			fmt.Fprintf(&b, "- %d %s\n+ %d %s\n", i, w, i, g)
		}
	}
	return b.String()
}

// goValue renders c's params with their Go type and field values.
func goValue(c HandlerCall) string {
	p := c.Params
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && !v.IsNil() {
		p = v.Elem().Interface()
	}
	return fmt.Sprintf("%s %T %+v", c.Tool, c.Params, p)
}
