package wire

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
)

// slowPattern backtracks past check.MatchTimeout on slowText (the
// lookahead keeps it on the ECMAScript engine).
const slowPattern = `^(?=a)(a+)+b`

var slowText = strings.Repeat("a", 40) + "!"

// TestMatchFailsClosed: a match that times out is a violation at the
// path, never a match or a non-match the caller acts on.
func TestMatchFailsClosed(t *testing.T) {
	re := check.MustCompile(slowPattern)
	if !re.Backtracking() {
		t.Fatal("pattern runs on RE2; the test needs the ECMAScript engine")
	}
	var e Errors
	p := At("/s")
	m, ok := e.Match(&p, re, slowText, "pattern")
	if m || ok {
		t.Fatalf("Match = %v, %v; want false, false", m, ok)
	}
	if e.Len() != 1 || e.List()[0].Path != "/s" || e.List()[0].Code != "pattern" || !strings.Contains(e.List()[0].Message, "100ms") {
		t.Fatalf("errors = %+v", e.List())
	}
	var te *check.MatchTimeoutError
	if _, err := re.Match(slowText, nil); !errors.As(err, &te) || te.Call {
		t.Fatalf("Regexp.Match error = %v", err)
	}
	// RE2 patterns never time out and record nothing.
	var e2 Errors
	if m, ok := e2.Match(&p, check.MustCompile(`^a+$`), "aaa", "pattern"); !m || !ok || e2.Len() != 0 {
		t.Fatalf("RE2 Match = %v, %v, %v", m, ok, e2.List())
	}
	// A large RE2 program against a long value is not decided on RE2
	// (it would take ~20 s); the ECMAScript engine's time limit ends it,
	// and the undecided match is a violation, as above.
	var e3 Errors
	if m, ok := e3.Match(&p, check.MustCompile(`[a-z]{1000}x`), strings.Repeat("a", 1<<20), "pattern"); m || ok || e3.Len() != 1 {
		t.Fatalf("large RE2 program: Match = %v, %v, %v", m, ok, e3.List())
	}
}

// TestCallBudget: once a call has spent its budget, further matches on
// the ECMAScript engine of the same call (sharing the budget through Sub,
// Checks and UseBudget) fail without running.
func TestCallBudget(t *testing.T) {
	check.SetCallBudget(0) // raised to check.MatchTimeout
	defer check.SetCallBudget(check.DefaultCallBudget)
	if check.CallBudget() != check.MatchTimeout {
		t.Fatalf("CallBudget = %v", check.CallBudget())
	}
	re := check.MustCompile(slowPattern)
	d := NewDecoder([]byte(`{"` + slowText + `":1,"` + slowText + `x":2,"` + slowText + `y":3}`))
	d.UseBudget(new(check.Budget))
	if b := d.Branch(); b.Budget() != d.Budget() {
		t.Fatal("a branch decoder does not share the call's budget")
	}
	ran, skipped := 0, 0
	count := func(msg string) {
		if strings.Contains(msg, "already spent") {
			skipped++
		} else {
			ran++
		}
	}
	if !d.Object() {
		t.Fatal("not an object")
	}
	for d.More() {
		if m, ok := d.MatchKey(re); m || ok {
			t.Fatalf("MatchKey = %v, %v", m, ok)
		}
		d.Skip()
	}
	e := d.Checks()
	sub := e.Sub()
	for i := 0; i < 5; i++ {
		sub.Match(nil, re, slowText, "pattern")
	}
	d.Absorb(&sub)
	for _, f := range d.Errors() {
		count(f.Message)
	}
	if ran+skipped != 8 {
		t.Fatalf("%d violations, want 8: %+v", ran+skipped, d.Errors())
	}
	if ran != 1 {
		t.Errorf("%d matches ran after the budget was spent by the first; want only the first", ran-1)
	}
}

// TestAppendNewCutPointers: violations of the embedded validator said in
// the same words at the same pointer are one, unless the pointer is cut
// (MaxPointerBytes): then they may be two, deeper, and the second is
// counted among those left out rather than dropped without a word.
func TestAppendNewCutPointers(t *testing.T) {
	same := runtime.FieldError{Path: "/a/b", Code: "type", Message: "expected string"}
	cut := runtime.FieldError{Path: "/a/" + pointerCutMark[1:], Code: "type", Message: "expected string"}
	var list []runtime.FieldError
	if n := appendNew(&list, []runtime.FieldError{same, same}); n != 0 || len(list) != 1 {
		t.Errorf("the same violation twice: %d kept, %d counted as left out; want 1, 0", len(list), n)
	}
	list = nil
	if n := appendNew(&list, []runtime.FieldError{cut, cut}); n != 1 || len(list) != 1 {
		t.Errorf("two violations under one cut pointer: %d kept, %d counted as left out; want 1, 1", len(list), n)
	}
}
