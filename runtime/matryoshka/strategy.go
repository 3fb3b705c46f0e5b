package matryoshka

import (
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
)

// ToolInjectionResult is what a Strategy asks the toolbox to change after a
// tool call. The zero value changes nothing.
type ToolInjectionResult struct {
	// Add are tools to offer, in order; tools already present are skipped.
	Add []runtime.Tool
	// Remove names tools to withdraw.
	Remove []string
	// At names the tool where Add goes: in its place when it is removed
	// too, right after it otherwise; Add is appended when At is absent.
	At string
	// Origin is the facade the added tools came from; the toolbox records
	// it so that Fold can withdraw them again.
	Origin string
	// Fold names unfolded facades to fold back before anything else.
	Fold []string
}

// IsZero reports whether r changes nothing.
func (r ToolInjectionResult) IsZero() bool {
	return len(r.Add) == 0 && len(r.Remove) == 0 && len(r.Fold) == 0
}

// InjectionContext is what a Strategy sees after a tool call.
type InjectionContext struct {
	// Toolbox is the current toolbox; strategies must not modify it.
	Toolbox *Toolbox
	// Call is the call that just ran.
	Call runtime.ToolCall
	// Result is what the call returned.
	Result runtime.Result
}

// Strategy decides, after every tool call, which tools to add and remove.
type Strategy interface {
	Evaluate(InjectionContext) ToolInjectionResult
}

// StrategyFunc adapts a function to Strategy.
type StrategyFunc func(InjectionContext) ToolInjectionResult

// Evaluate implements Strategy.
func (f StrategyFunc) Evaluate(c InjectionContext) ToolInjectionResult { return f(c) }

// Unfold is the Strategy that unfolds facades: when a call's result is an *Unfolded,
// the selected inner tools take the facade's place (or follow it when the
// facade is kept). With Refold set, every other open facade that is not on
// the path to the invoked one is folded back first.
type Unfold struct {
	Refold bool
}

// Evaluate implements Strategy.
func (s Unfold) Evaluate(c InjectionContext) ToolInjectionResult {
	u, ok := c.Result.Value.(*Unfolded)
	if !ok || !c.Result.Success || u == nil {
		return ToolInjectionResult{}
	}
	tb := c.Toolbox
	if tb == nil {
		tb = &Toolbox{}
	}
	r := ToolInjectionResult{Add: u.Tools, Origin: u.Facade, At: u.Facade}
	if _, present := tb.Get(u.Facade); !present {
		// Reached through another facade's shortcut: place the tools by
		// the facade that was called.
		r.At = c.Call.Name
	} else if u.RemoveOnInvoke {
		r.Remove = []string{u.Facade}
	}
	if s.Refold {
		path := map[string]bool{}
		for f, i := u.Facade, 0; f != "" && i <= len(tb.order); f, i = tb.Origin(f), i+1 {
			path[f] = true
		}
		for _, f := range tb.Open() {
			if !path[f] && !slices.Contains(r.Fold, f) {
				r.Fold = append(r.Fold, f)
			}
		}
	}
	return r
}
