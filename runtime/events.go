package runtime

import (
	"encoding/json"
	"sync"
	"time"
)

// Event is anything published on an EventBus.
type Event interface {
	EventName() string
}

// ToolInvoked is published after every tool call, successful or not, and
// before a propagating error leaves Dispatch.
type ToolInvoked struct {
	Tool   string
	CallID string
	// Args is the raw arguments object the model sent.
	Args json.RawMessage
	// Params is the decoded params value the handler ran with (from
	// Result.Params), nil when the arguments did not decode.
	Params any
	// Result is the structured outcome (Value nil on most failures).
	Result Result
	// Rendered is exactly the text the provider saw for this result.
	Rendered string
	Started  time.Time
	Duration time.Duration
	// Metadata carries tool-specific telemetry (open_sections puts
	// requested_sections, reason and current_visibility_state here).
	Metadata map[string]any
}

// EventName implements Event.
func (ToolInvoked) EventName() string { return "ToolInvoked" }

// EventBus is an in-process, synchronous publish/subscribe bus. The zero
// value is ready to use and safe for concurrent use; a nil *EventBus drops
// everything published on it.
type EventBus struct {
	mu   sync.Mutex
	subs []*subscription // copied on write, so Publish can read a snapshot
}

type subscription struct{ fn func(Event) }

// Subscribe registers fn for every event published after it returns, and
// returns a function that removes the subscription (calling it again does
// nothing).
func (b *EventBus) Subscribe(fn func(Event)) (unsubscribe func()) {
	if b == nil || fn == nil {
		return func() {}
	}
	s := &subscription{fn: fn}
	b.mu.Lock()
	subs := make([]*subscription, len(b.subs), len(b.subs)+1)
	copy(subs, b.subs)
	b.subs = append(subs, s)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, x := range b.subs {
			if x == s {
				subs := make([]*subscription, 0, len(b.subs)-1)
				subs = append(subs, b.subs[:i]...)
				b.subs = append(subs, b.subs[i+1:]...)
				return
			}
		}
	}
}

// Publish delivers e synchronously to every subscriber, in subscription
// order. Subscribers added or removed during delivery take effect from the
// next Publish.
func (b *EventBus) Publish(e Event) {
	if b == nil {
		return
	}
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	for _, s := range subs {
		s.fn(e)
	}
}
