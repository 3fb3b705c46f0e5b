package jsonpos

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Error is a located input error. It prints as
// FILE:LINE:COL: /json/pointer: message.
type Error struct {
	Pos     ir.Pos
	Message string
}

// Error is one line with its control and bidi characters escaped (see
// Visible): the pointer holds property names and the message often echoes
// definition text (a pattern, a type name), both attacker-controlled, and
// the line is printed to a terminal.
func (e *Error) Error() string {
	ptr := e.Pos.Pointer
	if ptr == "" {
		ptr = "/"
	}
	return Visible(e.Pos.String() + ": " + elide(ptr) + ": " + Shorten(e.Message))
}

// maxShownMessage bounds the message an error shows: one quoting a
// definition's text (a tool name of a megabyte) keeps its start and its
// end, which holds the hint, with " … " between.
const maxShownMessage = 2000

// Shorten returns msg, or, when it is longer than maxShownMessage bytes,
// its first 1,400 and last 500 bytes (cut between characters) joined by
// " … ".
func Shorten(msg string) string {
	if len(msg) <= maxShownMessage {
		return msg
	}
	// At most UTFMax-1 steps: bytes that start no character (invalid
	// UTF-8) are cut anywhere.
	head := 1400
	for i := 1; i < utf8.UTFMax && !utf8.RuneStart(msg[head]); i++ {
		head--
	}
	tail := len(msg) - 500
	for i := 1; i < utf8.UTFMax && !utf8.RuneStart(msg[tail]); i++ {
		tail++
	}
	return msg[:head] + " … " + msg[tail:]
}

// maxShownPointer bounds the pointer an error message shows: a value
// nested thousands deep is named by its first and last steps, with "…"
// between (the line and column locate it exactly).
const maxShownPointer = 400

// elide shortens a pointer longer than maxShownPointer in its middle, at
// token boundaries; a token too long for either half is cut between
// characters, "…" marking the cut ("/ab…yz").
func elide(ptr string) string {
	if len(ptr) <= maxShownPointer {
		return ptr
	}
	// At most UTFMax-1 steps, as in Shorten: bytes that start no
	// character are cut anywhere.
	cut := maxShownPointer / 2
	for i := 1; i < utf8.UTFMax && !utf8.RuneStart(ptr[cut]); i++ {
		cut--
	}
	head := ptr[:cut]
	if i := strings.LastIndexByte(head, '/'); i > 0 {
		head = head[:i+1]
	}
	cut = len(ptr) - maxShownPointer/2
	for i := 1; i < utf8.UTFMax && !utf8.RuneStart(ptr[cut]); i++ {
		cut++
	}
	tail := ptr[cut:]
	if i := strings.IndexByte(tail, '/'); i >= 0 {
		tail = tail[i:]
	}
	return head + "…" + tail
}

// Errorf returns a located error at pos.
func Errorf(pos ir.Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// ErrorList is every located error found in one run, in source order. It is
// returned as an error only when non-empty.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// MergeErrors joins error lists of successive phases into one sorted by
// position (ComparePos over files), then message. Where two phases report
// the same position, only the earlier phase's error is kept (a later phase
// re-reading the same flaw says the same thing less precisely).
func MergeErrors(files []string, lists ...ErrorList) ErrorList {
	var out ErrorList
	taken := map[ir.Pos]bool{}
	for _, l := range lists {
		var mine []ir.Pos
		for _, e := range l {
			key := e.Pos
			key.Pointer = ""
			if key.Line > 0 && taken[key] {
				continue
			}
			mine = append(mine, key)
			out = append(out, e)
		}
		for _, k := range mine {
			taken[k] = true
		}
	}
	at := ComparePos(files)
	slices.SortStableFunc(out, func(a, b *Error) int {
		return cmp.Or(at(a.Pos, b.Pos), cmp.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(out, func(a, b *Error) bool { return a.Error() == b.Error() })
}

// ComparePos returns the order in which toolgen reports what it finds at
// positions (errors, warnings): files in the order of files (others after,
// by name), then line and column.
func ComparePos(files []string) func(a, b ir.Pos) int {
	order := map[string]int{}
	for i, s := range files {
		if _, ok := order[s]; !ok {
			order[s] = i
		}
	}
	rank := func(f string) int {
		if i, ok := order[f]; ok {
			return i
		}
		return len(files)
	}
	return func(a, b ir.Pos) int {
		return cmp.Or(
			cmp.Compare(rank(a.File), rank(b.File)),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col))
	}
}
