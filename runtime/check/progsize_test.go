package check

import (
	"errors"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestProgSize: the estimate of a pattern's RE2 program stays within two
// instructions of the program regexp/syntax builds.
func TestProgSize(t *testing.T) {
	for _, p := range []string{
		`[a-z]{1000}x`,
		`^[\w\s.,'-]{0,500}$`,
		`^[A-Za-z0-9\s]{1,100}\.(pdf|docx|xlsx)$`,
		`^(daily|weekly|monthly|quarterly|semi-annually|annually)$`,
		`^\+?[1-9]\d{1,14}$|^[\w.-]+@[\w.-]+\.\w{2,}$`,
		`a{2,}`, `(ab){3,5}`, `x*`, `^[A-Z]{3}-[0-9]{4,8}$`,
		`(?:[a-z]{10}){100}`, `(a|b){0,300}c`,
	} {
		tr, err := translateECMA(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		re, err := syntax.Parse(tr, syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, want := translatedSize(tr), len(prog.Inst)
		if d := max(got-want, want-got); d > 2 {
			t.Errorf("%s: size %d, program %d", p, got, want)
		}
	}
}

// TestBudgeted: patterns whose matches may take long are the backtracking
// ones and those with a large RE2 program.
func TestBudgeted(t *testing.T) {
	for p, want := range map[string]bool{
		`^[A-Z]{3}-[0-9]{4,8}$`: false,
		`^a+$`:                  false,
		`[a-z]{1000}x`:          true,
		`^(?=a)b`:               true,
	} {
		if got := MustCompile(p).Budgeted(); got != want {
			t.Errorf("%s: Budgeted() = %v, want %v", p, got, want)
		}
	}
}

// TestLargeProgramLongInput: RE2 takes up to its program's size in steps
// per input byte ([a-z]{1000}x against 1 MB would run ~20 s); past
// re2MaxWork the match runs on the ECMAScript engine, whose time limit
// ends it, failing closed.
func TestLargeProgramLongInput(t *testing.T) {
	re := MustCompile(`[a-z]{1000}x`)
	s := strings.Repeat("a", 1<<20)
	var te *MatchTimeoutError
	if m, err := re.Match(s, nil); m || !errors.As(err, &te) {
		t.Fatalf("Match = %v, %v; want a *MatchTimeoutError", m, err)
	}
	if re.MatchString(s) {
		t.Fatal("MatchString = true for an undecided match")
	}
	// The same pattern still decides what RE2 decides cheaply.
	if m, err := re.Match(strings.Repeat("b", 1000)+"x", nil); !m || err != nil {
		t.Fatalf("short input: Match = %v, %v", m, err)
	}
}

// TestLargeProgramChargesBudget: costly matches on RE2 are timed and
// charged to the call's budget, so one call cannot run many of them.
func TestLargeProgramChargesBudget(t *testing.T) {
	SetCallBudget(0) // raised to MatchTimeout
	defer SetCallBudget(DefaultCallBudget)
	re := MustCompile(`[a-z]{1000}x`)
	s := strings.Repeat("a", re2MaxWork/re.Size()) // each match ~0.2 s
	var b Budget
	for i := 0; i < 20; i++ {
		_, err := re.Match(s, &b)
		var te *MatchTimeoutError
		if errors.As(err, &te) && te.Call {
			if i == 0 {
				t.Fatal("the first match found the budget spent")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("20 matches of %d steps each spent %v of a %v budget", len(s)*re.Size(), b.spent, CallBudget())
}

// TestSmallProgramLongInput: a pattern that needs no budget (Budgeted is
// false: at most budgetSize steps per input byte) is decided on RE2
// whatever the input's length. Callers of such patterns use MatchString,
// which reads an undecided match as no match: on the ECMAScript engine
// this one, on 1 MB, timed out.
func TestSmallProgramLongInput(t *testing.T) {
	re := MustCompile(`^([a-z0-9]+[._-]?)+@example\.com$`)
	if re.Budgeted() {
		t.Fatal("Budgeted() = true")
	}
	s := strings.Repeat("a", 1<<20)
	if m, err := re.Match(s+"!", nil); m || err != nil {
		t.Fatalf("Match = %v, %v; want false, nil", m, err)
	}
	if !re.MatchString(s + "@example.com") {
		t.Fatal("MatchString = false for a match")
	}
}
