package agenttest

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/agent"
)

// Run runs an agent built with opts over m on one user message and returns
// the outcome. It fails tb at once when the run returns an error (showing
// the tools offered at each turn) or when scripted turns were left over.
// With go test -v it logs the conversation, one message a line.
func Run(tb testing.TB, m *Model, user string, opts ...agent.Option) *agent.Outcome {
	tb.Helper()
	out, err := agent.New(m, opts...).Run(context.Background(), agent.User(user))
	if err != nil {
		tb.Fatalf("run: %v\noffered: %v", err, m.Offered())
	}
	if n := m.Remaining(); n != 0 {
		tb.Fatalf("%d scripted turns left over", n)
	}
	if testing.Verbose() {
		for i, msg := range out.Messages {
			tb.Logf("%d %s %s: %.600s", i, msg.Role, msg.ToolName, msg.Content)
		}
	}
	return out
}

// ToolMessages returns the outcome's tool messages (the answers to the
// model's calls), in order.
func ToolMessages(out *agent.Outcome) []agent.Message {
	var msgs []agent.Message
	for _, m := range out.Messages {
		if m.Role == agent.RoleTool {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// ExpectToolMessages returns the outcome's tool messages, in order; it
// fails tb at once unless there are n.
func ExpectToolMessages(tb testing.TB, out *agent.Outcome, n int) []agent.Message {
	tb.Helper()
	msgs := ToolMessages(out)
	if len(msgs) != n {
		tb.Fatalf("%d tool messages, want %d", len(msgs), n)
	}
	return msgs
}

// Contains fails tb unless msg is the answer to tool and its content holds
// every want.
func Contains(tb testing.TB, msg agent.Message, tool string, want ...string) {
	tb.Helper()
	if msg.ToolName != tool {
		tb.Errorf("tool message for %s, want %s: %s", msg.ToolName, tool, msg.Content)
	}
	for _, w := range want {
		if !strings.Contains(msg.Content, w) {
			tb.Errorf("%s answer lacks %q:\n%s", tool, w, msg.Content)
		}
	}
}
