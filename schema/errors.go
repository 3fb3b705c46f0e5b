package schema

import (
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Error is a located input error. It prints as
// FILE:LINE:COL: /json/pointer: message.
type Error struct {
	Pos     ir.Pos
	Message string
}

func (e *Error) Error() string {
	ptr := e.Pos.Pointer
	if ptr == "" {
		ptr = "/"
	}
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.Pos.File, e.Pos.Line, e.Pos.Col, ptr, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.Pos.File, ptr, e.Message)
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
