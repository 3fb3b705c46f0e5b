package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
)

// Turn is one scripted model turn.
type Turn struct {
	// Calls are the tool calls the model makes; none means a final answer.
	Calls []runtime.ToolCall
	// Text is the model's text.
	Text string
	// Stop is why the model ended the turn (Response.Stop); zero means
	// complete.
	Stop agent.Stop
	// Offered, when not nil, is the exact list of tool names the turn
	// expects to be offered; Next fails on any difference.
	Offered []string
}

// Call returns a tool call of name with JSON args ("" means {}).
func Call(name, args string) runtime.ToolCall {
	if args == "" {
		args = "{}"
	}
	return runtime.ToolCall{Name: name, Args: json.RawMessage(args)}
}

// Calls returns a turn making calls.
func Calls(calls ...runtime.ToolCall) Turn { return Turn{Calls: calls} }

// Say returns a turn answering text with no tool calls.
func Say(text string) Turn { return Turn{Text: text} }

// Stopped returns t ended for reason s, as a provider reports a turn cut
// off, refused or paused.
func (t Turn) Stopped(s agent.Stop) Turn {
	t.Stop = s
	return t
}

// Expect returns t expecting exactly the named tools to be offered.
func (t Turn) Expect(names ...string) Turn {
	t.Offered = append([]string{}, names...)
	return t
}

// Model replays turns in order. By default a scripted call naming a tool
// that was not offered fails Next with an error saying so; set
// AllowUnoffered to let such calls through (to test how a loop handles
// them). Model is safe for concurrent use.
type Model struct {
	// AllowUnoffered lets scripted calls name tools that were not offered.
	AllowUnoffered bool

	mu       sync.Mutex
	turns    []Turn
	next     int
	requests []agent.Request
}

// New returns a model replaying turns.
func New(turns ...Turn) *Model { return &Model{turns: turns} }

// Next implements agent.Model.
func (m *Model) Next(_ context.Context, req agent.Request) (agent.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, req)
	n := len(m.requests)
	if m.next >= len(m.turns) {
		return agent.Response{}, fmt.Errorf("agenttest: turn %d: script has only %d turns", n, len(m.turns))
	}
	t := m.turns[m.next]
	m.next++
	offered := names(req.Tools)
	if t.Offered != nil && !slices.Equal(t.Offered, offered) {
		return agent.Response{}, fmt.Errorf("agenttest: turn %d: offered tools [%s], script expects [%s]",
			n, strings.Join(offered, " "), strings.Join(t.Offered, " "))
	}
	if !m.AllowUnoffered {
		for _, c := range t.Calls {
			if !slices.Contains(offered, c.Name) {
				return agent.Response{}, fmt.Errorf("agenttest: turn %d: scripted call of %s, which was not offered; offered: [%s]",
					n, c.Name, strings.Join(offered, " "))
			}
		}
	}
	calls := make([]runtime.ToolCall, len(t.Calls))
	for i, c := range t.Calls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("t%d_c%d", n, i+1)
		}
		calls[i] = c
	}
	return agent.Response{Text: t.Text, ToolCalls: calls, Stop: t.Stop}, nil
}

// Offered returns the tool names offered at each turn so far.
func (m *Model) Offered() [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]string, len(m.requests))
	for i, r := range m.requests {
		out[i] = names(r.Tools)
	}
	return out
}

// Requests returns the requests received so far.
func (m *Model) Requests() []agent.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Remaining is the number of scripted turns not replayed yet; a test that
// expects the whole script to run checks that it is 0.
func (m *Model) Remaining() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.turns) - m.next
}

func names(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}
