package runtime_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type ping int

func (ping) EventName() string { return "ping" }

func TestEventBusOrderAndUnsubscribe(t *testing.T) {
	var bus runtime.EventBus
	var log []string
	bus.Subscribe(func(e runtime.Event) { log = append(log, "a") })
	unsubB := bus.Subscribe(func(e runtime.Event) { log = append(log, "b") })
	bus.Subscribe(func(e runtime.Event) { log = append(log, "c") })

	bus.Publish(ping(1))
	unsubB()
	unsubB() // idempotent
	bus.Publish(ping(2))

	want := "abcac"
	got := ""
	for _, s := range log {
		got += s
	}
	if got != want {
		t.Errorf("delivery order %q, want %q", got, want)
	}
}

func TestEventBusSubscribeDuringPublish(t *testing.T) {
	var bus runtime.EventBus
	late := 0
	bus.Subscribe(func(runtime.Event) {
		bus.Subscribe(func(runtime.Event) { late++ })
	})
	bus.Publish(ping(1))
	if late != 0 {
		t.Errorf("a subscriber added during Publish saw that event")
	}
	bus.Publish(ping(2))
	if late != 1 {
		t.Errorf("late subscriber saw %d events, want 1", late)
	}
}

func TestNilEventBus(t *testing.T) {
	var bus *runtime.EventBus
	bus.Publish(ping(1)) // must not panic
	bus.Subscribe(func(runtime.Event) {})()
}

func TestEventBusConcurrent(t *testing.T) {
	var bus runtime.EventBus
	var n atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				unsub := bus.Subscribe(func(runtime.Event) { n.Add(1) })
				if j%2 == 0 {
					unsub()
				}
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				bus.Publish(ping(j))
			}
		}()
	}
	wg.Wait()
	before := n.Load()
	bus.Publish(ping(0))
	if got := n.Load() - before; got != 8*50 {
		t.Errorf("after concurrent churn, one Publish reached %d subscribers, want %d", got, 8*50)
	}
}
