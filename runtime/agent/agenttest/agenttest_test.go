package agenttest_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
)

func offer(names ...string) agent.Request {
	var r agent.Request
	for _, n := range names {
		r.Tools = append(r.Tools, runtime.Tool{Name: n})
	}
	return r
}

func TestModelReplays(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("a", ""), runtime.ToolCall{ID: "mine", Name: "b", Args: json.RawMessage(`{"x":1}`)}).Expect("a", "b"),
		agenttest.Say("bye"),
	)
	resp, err := m.Next(t.Context(), offer("a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{{ID: "t1_c1", Name: "a", Args: json.RawMessage(`{}`)}, {ID: "mine", Name: "b", Args: json.RawMessage(`{"x":1}`)}}
	if diff := cmp.Diff(want, resp.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	resp, err = m.Next(t.Context(), offer())
	if err != nil || resp.Text != "bye" || len(resp.ToolCalls) != 0 {
		t.Fatalf("turn 2 = %+v, %v", resp, err)
	}
	if diff := cmp.Diff([][]string{{"a", "b"}, {}}, m.Offered()); diff != "" {
		t.Errorf("offered (-want +got):\n%s", diff)
	}
	if m.Remaining() != 0 || len(m.Requests()) != 2 {
		t.Errorf("remaining %d, requests %d", m.Remaining(), len(m.Requests()))
	}
	if _, err := m.Next(t.Context(), offer()); err == nil || err.Error() != "agenttest: turn 3: script has only 2 turns" {
		t.Errorf("exhausted: %v", err)
	}
}

func TestModelChecksOffers(t *testing.T) {
	tests := []struct {
		name  string
		m     *agenttest.Model
		offer []string
		err   string
	}{
		{"unexpected offer", agenttest.New(agenttest.Say("x").Expect("a", "b")), []string{"b", "a"},
			"agenttest: turn 1: offered tools [b a], script expects [a b]"},
		{"expects nothing offered", agenttest.New(agenttest.Say("x").Expect()), []string{"a"},
			"agenttest: turn 1: offered tools [a], script expects []"},
		{"call of a tool not offered", agenttest.New(agenttest.Calls(agenttest.Call("c", ""))), []string{"a", "b"},
			"agenttest: turn 1: scripted call of c, which was not offered; offered: [a b]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.m.Next(t.Context(), offer(tt.offer...)); err == nil || err.Error() != tt.err {
				t.Errorf("err = %v\nwant %s", err, tt.err)
			}
		})
	}
	lenient := agenttest.New(agenttest.Calls(agenttest.Call("c", "")))
	lenient.AllowUnoffered = true
	if _, err := lenient.Next(t.Context(), offer("a")); err != nil {
		t.Errorf("AllowUnoffered: %v", err)
	}
}

// A scripted turn's stop reason comes back in the response.
func TestModelStopped(t *testing.T) {
	m := agenttest.New(agenttest.Say("The answer is").Stopped(agent.StopLength))
	resp, err := m.Next(t.Context(), offer())
	if err != nil || resp.Stop != agent.StopLength || resp.Text != "The answer is" {
		t.Errorf("response %+v, %v", resp, err)
	}
}
