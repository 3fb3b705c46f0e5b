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
	Tool     string
	CallID   string
	Args     json.RawMessage
	Result   Result
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
// value is ready to use and safe for concurrent use.
type EventBus struct {
	mu   sync.RWMutex
	subs []*subscription
}

type subscription struct{ fn func(Event) }

// Subscribe registers fn for every event published after it returns, and
// returns a function that removes the subscription.
func (b *EventBus) Subscribe(fn func(Event)) (unsubscribe func()) {
	s := &subscription{fn: fn}
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, x := range b.subs {
			if x == s {
				b.subs = append(b.subs[:i:i], b.subs[i+1:]...)
				return
			}
		}
	}
}

// Publish delivers e to every subscriber in subscription order. A nil bus
// drops the event.
func (b *EventBus) Publish(e Event) {
	if b == nil {
		return
	}
	b.mu.RLock()
	subs := b.subs
	b.mu.RUnlock()
	for _, s := range subs {
		s.fn(e)
	}
}
