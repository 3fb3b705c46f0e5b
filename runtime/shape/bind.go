package shape

import (
	"context"
	"reflect"

	"github.com/toolgen-go/toolgen/runtime"
)

// Bind is runtime.Bind for a tool whose params are an object of table t:
// its arguments decode and validate through DecodeArgs into a new value
// of t.Type, so a catalogue's tools need no decode function each. P must
// be t.Type's pointer type; Bind panics when it is not, when Tools is
// built, never on a call.
//
//go:noinline
func Bind[P, R any](tool runtime.Tool, t *Table, call func(context.Context, runtime.ToolContext, P) (runtime.ToolResult[R], error)) runtime.Tool {
	if _, ok := t.Type.(P); !ok {
		panic("shape.Bind: tool " + tool.Name + ": params type " + reflect.TypeFor[P]().String() + " is not the table's " + reflect.TypeOf(t.Type).String())
	}
	elem := reflect.TypeOf(t.Type).Elem()
	return runtime.Bind(tool, func(name string, args []byte) (P, error) {
		x := reflect.New(elem)
		if err := DecodeArgs(t, name, args, x.UnsafePointer()); err != nil {
			var zero P
			return zero, err
		}
		return x.Interface().(P), nil
	}, call)
}
