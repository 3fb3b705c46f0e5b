package check

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// MatchTimeout bounds one match on the ECMAScript fallback engine, which
// backtracks. Match reports a match that runs out of time as an error
// (validation fails closed); MatchString, for callers without a way to
// report it, as no match.
const MatchTimeout = 100 * time.Millisecond

// DefaultCallBudget is the default time all the ECMAScript-engine matches
// of one call (one decode and validation of a tool's arguments) may take
// together; see SetCallBudget.
const DefaultCallBudget = time.Second

var callBudget atomic.Int64

func init() { callBudget.Store(int64(DefaultCallBudget)) }

// SetCallBudget sets the time all the ECMAScript-engine matches of one call
// may take together (DefaultCallBudget unless set; at least MatchTimeout).
// Once a call has spent it, every further match on that engine fails
// without running, so one call spends at most the budget plus one
// MatchTimeout in pattern matching. Patterns that run on RE2 (the usual
// case) take linear time and spend no budget. Safe for concurrent use.
func SetCallBudget(d time.Duration) { callBudget.Store(int64(max(d, MatchTimeout))) }

// CallBudget returns the per-call budget SetCallBudget set.
func CallBudget() time.Duration { return time.Duration(callBudget.Load()) }

// Budget is the pattern-matching time one call has spent, and the work
// the embedded validator may still do in it. Its zero value has spent
// nothing; the decoder and validators of one call share one.
type Budget struct {
	spent time.Duration
	// evals is what the embedded validator may still evaluate in this
	// call (Schema.ValidateIn), once evalsSet.
	evals    int
	evalsSet bool
}

// MatchTimeoutError is a match that could not be decided in time: the
// match itself took longer than MatchTimeout, or the call had spent its
// budget.
type MatchTimeoutError struct {
	Pattern string
	// Call is set when the call's budget was spent (the match did not run).
	Call bool
}

func (e *MatchTimeoutError) Error() string {
	if e.Call {
		return fmt.Sprintf("pattern %s not checked: this call already spent its %v pattern-matching budget; send shorter or simpler values", strconv.Quote(e.Pattern), CallBudget())
	}
	return fmt.Sprintf("pattern %s not checked: matching took longer than the %v limit; send a shorter or simpler value", strconv.Quote(e.Pattern), MatchTimeout)
}

// Regexp is a compiled ECMA-262 pattern with JSON Schema search semantics
// (unanchored: it matches when any substring matches).
type Regexp struct {
	src string
	re2 *regexp.Regexp
	ecm *regexp2.Regexp
	// fast matches a simple pattern (simple.go) without the engine, for
	// input up to simpleMax bytes.
	fast *simple
	// size is about the number of instructions of re2's program
	// (progSize); a match on RE2 takes up to size steps per input byte.
	size int
	// slow compiles the pattern on the ECMAScript engine, once, for the
	// inputs too long to match on RE2 within re2MaxWork.
	slow func() *regexp2.Regexp
}

// Compile compiles an ECMA-262 pattern, on Go's RE2 engine when the pattern
// means the same there (after translating the constructs whose meaning
// differs, such as \s and .), else on an ECMAScript backtracking engine.
func Compile(pattern string) (*Regexp, error) {
	tr, err := translateECMA(pattern)
	if errors.Is(err, errInvalid) {
		return nil, fmt.Errorf("invalid pattern %s: %w", strconv.Quote(pattern), err)
	}
	if err == nil {
		if re, err := regexp.Compile(tr); err == nil {
			fast, _ := parseSimple(pattern)
			r := &Regexp{src: pattern, re2: re, fast: fast, size: translatedSize(tr)}
			r.slow = sync.OnceValue(func() *regexp2.Regexp {
				ecm, err := compileECMA(pattern)
				if err != nil {
					// RE2 took it; the ECMAScript engine takes every
					// pattern whose translation RE2 takes.
					panic(err)
				}
				return ecm
			})
			return r, nil
		}
	}
	re, err := compileECMA(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid pattern %s: %s", strconv.Quote(pattern), shortRegexpError(err))
	}
	return &Regexp{src: pattern, ecm: re}, nil
}

// compileECMA compiles pattern on the ECMAScript engine, with the
// engine's Unicode syntax as the fallback, each match bounded by
// MatchTimeout.
func compileECMA(pattern string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		re, err = regexp2.Compile(pattern, regexp2.Unicode)
	}
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = MatchTimeout
	return re, nil
}

// validPattern reports whether Compile accepts pattern, taking the same
// steps but for building the RE2 program: RE2 reports every error of a
// pattern when it parses it, and its compilation, which expands counted
// repetitions into a program as long as they make it, cannot fail.
func validPattern(pattern string) bool {
	tr, err := translateECMA(pattern)
	if errors.Is(err, errInvalid) {
		return false
	}
	if err == nil {
		if _, err := syntax.Parse(tr, syntax.Perl); err == nil {
			return true
		}
	}
	if _, err := regexp2.Compile(pattern, regexp2.ECMAScript); err == nil {
		return true
	}
	_, err = regexp2.Compile(pattern, regexp2.Unicode)
	return err == nil
}

// MustCompile is Compile that panics on error; generated code calls it for
// patterns the generator has already compiled successfully.
func MustCompile(pattern string) *Regexp {
	re, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return re
}

// MatchString reports whether s contains a match of the pattern. A match
// not decided in time (see Match) is reported as no match.
func (r *Regexp) MatchString(s string) bool {
	m, err := r.Match(s, nil)
	return err == nil && m
}

// Matching on RE2 takes linear time, but the factor is the program's size:
// up to size steps per input byte, each a few nanoseconds
// ([a-z]{1000}x, 1,003 instructions, takes 1.9 s on 100 kB). The work of
// a match is the input's length times the program's size.
const (
	// re2FreeWork is the most work a match on RE2 does without being
	// timed and charged to the call's budget (well under a millisecond).
	re2FreeWork = 1 << 16
	// re2MaxWork is the most work a match on RE2 may do (a few tenths of
	// a second) with a program of more than budgetSize instructions. Past
	// it the match runs on the ECMAScript engine, which
	// MatchTimeout and the call's budget bound; it decides most such
	// matches quickly (an anchored pattern fails early).
	re2MaxWork = 1 << 24
	// budgetSize is the largest RE2 program whose matches need no
	// budget: at most budgetSize steps per byte of a call's arguments.
	budgetSize = 32
)

// Match reports whether s contains a match of the pattern, charging the
// time a match on the ECMAScript engine, or a costly one on RE2, takes to
// b (nil: no per-call budget). A match that cannot be decided in time
// returns a *MatchTimeoutError: callers must treat it as a failed
// validation, never as a match or a non-match.
func (r *Regexp) Match(s string, b *Budget) (bool, error) {
	if r.fast != nil {
		if m, ok := r.fast.match(s); ok {
			return m, nil
		}
	}
	if r.re2 == nil {
		return r.backtrack(r.ecm, s, b)
	}
	work := len(s) * r.size
	if work > re2MaxWork && r.size > budgetSize {
		// A program of budgetSize instructions or fewer stays on RE2
		// (Budgeted): its callers read no timeout.
		return r.backtrack(r.slow(), s, b)
	}
	if work <= re2FreeWork || b == nil {
		return r.re2.MatchString(s), nil
	}
	if b.spent >= CallBudget() {
		return false, &MatchTimeoutError{Pattern: r.src, Call: true}
	}
	start := time.Now()
	m := r.re2.MatchString(s)
	b.spent += time.Since(start)
	return m, nil
}

// backtrack matches s on the ECMAScript engine re, charging b.
func (r *Regexp) backtrack(re *regexp2.Regexp, s string, b *Budget) (bool, error) {
	if b != nil && b.spent >= CallBudget() {
		return false, &MatchTimeoutError{Pattern: r.src, Call: true}
	}
	start := time.Now()
	ok, err := re.MatchString(s)
	if b != nil {
		b.spent += time.Since(start)
	}
	if err != nil {
		return false, &MatchTimeoutError{Pattern: r.src}
	}
	return ok, nil
}

// String returns the source pattern.
func (r *Regexp) String() string { return r.src }

// Backtracking reports whether the pattern runs on the ECMAScript fallback
// engine instead of RE2.
func (r *Regexp) Backtracking() bool { return r.ecm != nil }

// Budgeted reports whether matches may take long enough to need the call's
// budget (Match with a non-nil Budget): the pattern backtracks, or its RE2
// program has more than budgetSize instructions. Other patterns' matches
// take at most budgetSize steps per input byte.
func (r *Regexp) Budgeted() bool { return r.ecm != nil || r.size > budgetSize }

// Size is about the number of instructions of the pattern's RE2 program
// (counted repetitions expanded), or 0 when it runs on the ECMAScript
// engine; generated code holds each compiled program in memory.
func (r *Regexp) Size() int { return r.size }

func shortRegexpError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.HasPrefix(msg, "error parsing regexp") {
		msg = msg[i+2:]
	}
	return msg
}

// ECMA-262 WhiteSpace and LineTerminator code points, as RE2 class items.
const ecmaSpaceItems = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	errUntranslatable = errors.New("untranslatable")
	errInvalid        = errors.New("not ECMA-262 syntax")
)

// RE2Syntax is the ECMA-262 pattern p in Go's regexp syntax, with the
// same meaning; ok is false when p uses what RE2 lacks (lookaround,
// backreferences) or is not a valid pattern.
func RE2Syntax(p string) (re2 string, ok bool) {
	re2, err := translateECMA(p)
	return re2, err == nil
}

// translateECMA rewrites an ECMA-262 pattern into RE2 syntax with the same
// meaning. It returns errUntranslatable when the pattern uses something RE2
// lacks (lookaround, backreferences) or whose meaning it is unsure of, and
// errInvalid for syntax ECMA-262 does not have (inline flags, comments,
// unknown letter escapes).
func translateECMA(p string) (string, error) {
	var b strings.Builder
	b.Grow(len(p) + 8)
	t := translator{p: p, b: &b}
	if err := t.run(); err != nil {
		return "", err
	}
	return b.String(), nil
}

type translator struct {
	p string
	i int
	b *strings.Builder
}

func (t *translator) run() error {
	for t.i < len(t.p) {
		c := t.p[t.i]
		switch c {
		case '\\':
			if err := t.escape(false); err != nil {
				return err
			}
		case '.':
			t.b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
			t.i++
		case '[':
			if err := t.class(); err != nil {
				return err
			}
		case '(':
			if err := t.group(); err != nil {
				return err
			}
		default:
			_, n := utf8.DecodeRuneInString(t.p[t.i:])
			t.b.WriteString(t.p[t.i : t.i+n])
			t.i += n
		}
	}
	return nil
}

func (t *translator) group() error {
	rest := t.p[t.i:]
	switch {
	case !strings.HasPrefix(rest, "(?"):
		t.b.WriteByte('(')
		t.i++
	case strings.HasPrefix(rest, "(?:"):
		t.b.WriteString("(?:")
		t.i += 3
	case strings.HasPrefix(rest, "(?<") && len(rest) > 3 && rest[3] != '=' && rest[3] != '!':
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return errUntranslatable
		}
		name := rest[3:end]
		for _, r := range name {
			if !(r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
				return errUntranslatable
			}
		}
		t.b.WriteString("(?P<")
		t.b.WriteString(name)
		t.b.WriteByte('>')
		t.i += end + 1
	case strings.HasPrefix(rest, "(?="), strings.HasPrefix(rest, "(?!"),
		strings.HasPrefix(rest, "(?<="), strings.HasPrefix(rest, "(?<!"):
		return errUntranslatable // lookaround
	default: // inline flags, comments: not ECMA-262
		return errInvalid
	}
	return nil
}

// class translates a character class starting at '['.
func (t *translator) class() error {
	t.i++ // '['
	neg := false
	if t.i < len(t.p) && t.p[t.i] == '^' {
		neg = true
		t.i++
	}
	if t.i < len(t.p) && t.p[t.i] == ']' {
		t.i++
		if neg { // [^] matches any code point
			t.b.WriteString(`[\x{0}-\x{10FFFF}]`)
			return nil
		}
		return errUntranslatable // [] matches nothing
	}
	t.b.WriteByte('[')
	if neg {
		t.b.WriteByte('^')
	}
	for t.i < len(t.p) {
		c := t.p[t.i]
		switch c {
		case ']':
			t.b.WriteByte(']')
			t.i++
			return nil
		case '\\':
			if err := t.escape(true); err != nil {
				return err
			}
		case '[':
			t.b.WriteString(`\[`)
			t.i++
		default:
			_, n := utf8.DecodeRuneInString(t.p[t.i:])
			t.b.WriteString(t.p[t.i : t.i+n])
			t.i += n
		}
	}
	return errUntranslatable // unterminated
}

// escape translates the escape sequence at t.i ('\\').
func (t *translator) escape(inClass bool) error {
	if t.i+1 >= len(t.p) {
		return errUntranslatable
	}
	c := t.p[t.i+1]
	t.i += 2
	switch c {
	case 'd', 'D', 'w', 'W':
		t.b.WriteByte('\\')
		t.b.WriteByte(c)
	case 'b':
		if inClass {
			t.b.WriteString(`\x08`)
		} else {
			t.b.WriteString(`\b`)
		}
	case 'B':
		if inClass {
			return errUntranslatable
		}
		t.b.WriteString(`\B`)
	case 's':
		if inClass {
			t.b.WriteString(ecmaSpaceItems)
		} else {
			t.b.WriteString("[" + ecmaSpaceItems + "]")
		}
	case 'S':
		if inClass {
			return errUntranslatable
		}
		t.b.WriteString("[^" + ecmaSpaceItems + "]")
	case 't', 'n', 'r', 'f', 'v':
		t.b.WriteByte('\\')
		t.b.WriteByte(c)
	case '0':
		if t.i < len(t.p) && t.p[t.i] >= '0' && t.p[t.i] <= '9' {
			return errUntranslatable // legacy octal
		}
		t.b.WriteString(`\x00`)
	case 'c':
		if t.i < len(t.p) && isASCIILetter(t.p[t.i]) {
			writeCodePoint(t.b, rune(t.p[t.i]%32))
			t.i++
			return nil
		}
		return errUntranslatable
	case 'x':
		if t.i+2 <= len(t.p) && isHex(t.p[t.i]) && isHex(t.p[t.i+1]) {
			t.b.WriteString(`\x`)
			t.b.WriteString(t.p[t.i : t.i+2])
			t.i += 2
			return nil
		}
		return errUntranslatable
	case 'u':
		r, ok := t.unicodeEscape()
		if !ok {
			return errUntranslatable
		}
		writeCodePoint(t.b, r)
	case 'p', 'P':
		return t.property(c == 'P')
	default:
		if c >= '1' && c <= '9' || c == 'k' {
			return errUntranslatable // backreference
		}
		if isASCIILetter(c) {
			return errInvalid // no such escape in ECMA-262 (unicode mode)
		}
		if c < utf8.RuneSelf {
			t.b.WriteByte('\\')
			t.b.WriteByte(c)
			return nil
		}
		t.i-- // non-ASCII identity escape: the character itself
		r, n := utf8.DecodeRuneInString(t.p[t.i:])
		t.i += n
		writeCodePoint(t.b, r)
	}
	return nil
}

// unicodeEscape reads the hex part of \uXXXX, \u{X...} or a surrogate pair
// \uD83D\uDE00; t.i is just after 'u'.
func (t *translator) unicodeEscape() (rune, bool) {
	rest := t.p[t.i:]
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 2 || end > 9 {
			return 0, false
		}
		v, err := strconv.ParseUint(rest[1:end], 16, 32)
		if err != nil || v > unicode.MaxRune {
			return 0, false
		}
		t.i += end + 1
		return rune(v), true
	}
	hi, ok := hex4(rest)
	if !ok {
		return 0, false
	}
	t.i += 4
	if hi >= 0xD800 && hi <= 0xDBFF && strings.HasPrefix(t.p[t.i:], `\u`) {
		if lo, ok := hex4(t.p[t.i+2:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			t.i += 6
			return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), true
		}
	}
	if hi >= 0xD800 && hi <= 0xDFFF {
		return 0, false // lone surrogate: no UTF-8 string contains it
	}
	return hi, true
}

// property translates \p{Name} and \P{Name}; t.i is just after 'p'.
func (t *translator) property(negated bool) error {
	rest := t.p[t.i:]
	if !strings.HasPrefix(rest, "{") {
		return errUntranslatable
	}
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		return errUntranslatable
	}
	name := rest[1:end]
	if k, v, ok := strings.Cut(name, "="); ok {
		switch k {
		case "General_Category", "gc", "Script", "sc", "Script_Extensions", "scx":
			name = v
		default:
			return errUntranslatable
		}
	}
	re2, ok := propertyName(name)
	if !ok {
		return errUntranslatable
	}
	t.i += end + 1
	if negated {
		t.b.WriteString(`\P{`)
	} else {
		t.b.WriteString(`\p{`)
	}
	t.b.WriteString(re2)
	t.b.WriteByte('}')
	return nil
}

// Long general-category names (and a few common aliases) → RE2 short names.
var categoryAliases = map[string]string{
	"letter": "L", "cased_letter": "L", "uppercase_letter": "Lu", "lowercase_letter": "Ll",
	"titlecase_letter": "Lt", "modifier_letter": "Lm", "other_letter": "Lo",
	"mark": "M", "combining_mark": "M", "nonspacing_mark": "Mn", "spacing_mark": "Mc", "enclosing_mark": "Me",
	"number": "N", "decimal_number": "Nd", "digit": "Nd", "letter_number": "Nl", "other_number": "No",
	"punctuation": "P", "punct": "P", "connector_punctuation": "Pc", "dash_punctuation": "Pd",
	"open_punctuation": "Ps", "close_punctuation": "Pe", "initial_punctuation": "Pi",
	"final_punctuation": "Pf", "other_punctuation": "Po",
	"symbol": "S", "math_symbol": "Sm", "currency_symbol": "Sc", "modifier_symbol": "Sk", "other_symbol": "So",
	"separator": "Z", "space_separator": "Zs", "line_separator": "Zl", "paragraph_separator": "Zp",
	"other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf", "surrogate": "Cs", "private_use": "Co",
}

func propertyName(name string) (string, bool) {
	if _, ok := unicode.Categories[name]; ok {
		return name, true
	}
	if _, ok := unicode.Scripts[name]; ok {
		return name, true
	}
	if s, ok := categoryAliases[strings.ToLower(name)]; ok {
		return s, true
	}
	return "", false
}

func writeCodePoint(b *strings.Builder, r rune) {
	b.WriteString(`\x{`)
	b.WriteString(strconv.FormatInt(int64(r), 16))
	b.WriteByte('}')
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var v rune
	for i := 0; i < 4; i++ {
		if !isHex(s[i]) {
			return 0, false
		}
		v = v<<4 | rune(hexVal(s[i]))
	}
	return v, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
