package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// Dispatch runs one call of tool with the model's raw arguments and returns
// the Result to send back to the model.
//
// Failure semantics (tool runtime spec): a handler error or panic becomes a
// failed Result (Success false, Value nil, Message for the model); nothing a
// handler does aborts the evaluation. The one exception: an error
// implementing Propagator is returned as the second value, untouched, after
// the ToolInvoked event has been published.
//
// Dispatch publishes a ToolInvoked event on tc.Bus() for every call.
func Dispatch(ctx context.Context, tool Tool, tc ToolContext, args json.RawMessage) (Result, error) {
	start := time.Now()
	res, perr := invoke(ctx, tool, tc, args)
	ev := ToolInvoked{
		Tool:     tool.Name,
		CallID:   tc.call.ID,
		Args:     args,
		Params:   res.Params,
		Result:   res,
		Rendered: RenderResult(res),
		Started:  start,
		Duration: time.Since(start),
	}
	ev.Metadata = telemetry(res.Err)
	tc.bus.Publish(ev)
	return res, perr
}

// telemetry returns the TelemetryMetadata of the first TelemetryCarrier in
// err's chain, or nil when there is none or finding it or calling it
// panics (a nil *prompt.VisibilityExpansionRequired wrapped by the
// handler's error did): the call's result stands without it.
func telemetry(err error) (m map[string]any) {
	if err == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			m = nil
		}
	}()
	var tm TelemetryCarrier
	if errors.As(err, &tm) {
		return tm.TelemetryMetadata()
	}
	return nil
}

func invoke(ctx context.Context, tool Tool, tc ToolContext, args json.RawMessage) (res Result, perr error) {
	if tool.Handler == nil {
		return Failure(fmt.Errorf("tool %s has no handler", tool.Name)), nil
	}
	defer func() {
		if v := recover(); v != nil {
			res = Failure(&PanicError{Tool: tool.Name, Value: v, Stack: debug.Stack()})
			perr = nil
			if p, ok := v.(Propagator); ok { // panic(err) with a propagating error
				if msg, ok := errorText(p); ok {
					res, perr = Result{Message: msg, Err: p}, p
				}
			}
		}
	}()
	r, err := tool.Handler(ctx, tc, args)
	if err != nil {
		var p Propagator
		if errors.As(err, &p) {
			return Result{Message: err.Error(), Err: err, Params: r.Params}, err
		}
		f := Failure(err)
		f.Params = r.Params // the event still shows what the handler ran with
		return f, nil
	}
	// A failed Result keeps a Value only when the handler set one on
	// purpose (a structured error payload); typed results drop it in
	// ToolResult.Untyped.
	return r, nil
}

// errorText returns err.Error(), ok false when it panics (a nil pointer
// whose method dereferences it), so that a panic with such an error stays
// a failed Result instead of panicking again out of Dispatch.
func errorText(err error) (msg string, ok bool) {
	defer func() {
		if recover() != nil {
			msg, ok = "", false
		}
	}()
	return err.Error(), true
}

// TelemetryCarrier is implemented by errors that carry telemetry for the
// ToolInvoked event of the call that returned them (open_sections's
// VisibilityExpansionRequired does).
type TelemetryCarrier interface {
	TelemetryMetadata() map[string]any
}
