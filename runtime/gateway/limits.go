package gateway

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Limits bound everything a model controls in one gateway call, so that
// no argument can make the gateway spend more than linear time or answer
// with more than a bounded envelope. A call beyond a limit gets a
// VALIDATION_ERROR naming the limit, located by a JSON pointer into the
// arguments of the call the envelope answers. A limit of the raw
// arguments (ArgsBytes, Depth, KeyBytes, and valid Unicode) is checked on
// the gateway tool's whole arguments and located in them (/args/…, and
// /items/2/args/… in tool_batch's). One of a tool_batch item's own members
// (OpBytes, PathBytes, QueryBytes, IdempotencyKeyBytes) fails that item
// alone, whose result is at the item's index in results, and is located
// in the item as the direct call of its tool locates it (/op, /query), as
// are all of an item's errors. A zero field takes its default
// (DefaultLimits); WithLimits sets them.
type Limits struct {
	// ArgsBytes bounds the raw arguments of one tool_exec, tool_help,
	// tool_search or tool_batch call, in bytes (default 1 MiB).
	ArgsBytes int
	// Depth bounds the nesting of arrays and objects in the arguments
	// (default 64).
	Depth int
	// OpBytes bounds an op path (default 256).
	OpBytes int
	// PathBytes bounds a tool_help path (default 256).
	PathBytes int
	// QueryBytes bounds a tool_search query (default 1024).
	QueryBytes int
	// KeyBytes bounds every object key (argument name) at any depth
	// (default 256).
	KeyBytes int
	// IdempotencyKeyBytes bounds an idempotency_key (default 256).
	IdempotencyKeyBytes int
	// FieldErrors bounds the field errors one envelope reports; the rest
	// are counted in details.more_field_errors and the message ends with
	// "and N more" (default 20).
	FieldErrors int
	// EchoBytes bounds each text an envelope echoes from the call or from
	// a validator (op, field error path, message, received value,
	// suggestion; default 256). Longer texts end in "…".
	EchoBytes int
	// MessageBytes bounds an error message (default 4096).
	MessageBytes int
}

// DefaultLimits are the limits of a gateway built without WithLimits.
var DefaultLimits = Limits{
	ArgsBytes:           1 << 20,
	Depth:               64,
	OpBytes:             256,
	PathBytes:           256,
	QueryBytes:          1024,
	KeyBytes:            256,
	IdempotencyKeyBytes: 256,
	FieldErrors:         20,
	EchoBytes:           256,
	MessageBytes:        4096,
}

// WithLimits sets the gateway's input and envelope limits; zero fields
// keep their defaults.
func WithLimits(l Limits) Option {
	return func(c *config) { c.limits = l.withDefaults() }
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.ArgsBytes, d.ArgsBytes)
	set(&l.Depth, d.Depth)
	set(&l.OpBytes, d.OpBytes)
	set(&l.PathBytes, d.PathBytes)
	set(&l.QueryBytes, d.QueryBytes)
	set(&l.KeyBytes, d.KeyBytes)
	set(&l.IdempotencyKeyBytes, d.IdempotencyKeyBytes)
	set(&l.FieldErrors, d.FieldErrors)
	set(&l.EchoBytes, d.EchoBytes)
	set(&l.MessageBytes, d.MessageBytes)
	return l
}

// Limits returns the limits the gateway enforces.
func (g *Gateway) Limits() Limits { return g.cfg.limits }

// limitError is the VALIDATION_ERROR of an input beyond a limit.
func limitError(tool, ptr, code, msg string) *EnvelopeError {
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: tool + " arguments: " + msg,
		Details: Details{FieldErrors: []runtime.FieldError{{Path: ptr, Code: code, Message: msg}}}}
}

// checkRaw applies the limits that hold for the raw arguments of any
// gateway tool: size, then, in one linear pass, nesting depth, key length
// and valid Unicode in every string (invalid UTF-8 or an unpaired
// surrogate escape is rejected instead of being silently replaced, so a
// handler never sees text the model did not send). Malformed JSON passes:
// the decoding that follows reports it.
func (g *Gateway) checkRaw(tool string, raw []byte) *EnvelopeError {
	lim := g.cfg.limits
	if len(raw) > lim.ArgsBytes {
		return limitError(tool, "", "maxBytes",
			fmt.Sprintf("the arguments are %d bytes; at most %d are accepted. Send less data per call", len(raw), lim.ArgsBytes))
	}
	if fe := scanJSON(raw, lim); fe != nil {
		return &EnvelopeError{Code: runtime.CodeValidation,
			Message: tool + " arguments: " + fe.Path + ": " + fe.Message,
			Details: Details{FieldErrors: []runtime.FieldError{*fe}}}
	}
	return nil
}

// checkLen reports a string field beyond its limit.
func (g *Gateway) checkLen(tool, ptr, what, s string, limit int) *EnvelopeError {
	if len(s) <= limit {
		return nil
	}
	e := limitError(tool, ptr, "maxLength", fmt.Sprintf("%s is %d bytes; at most %d are accepted", what, len(s), limit))
	e.Details.FieldErrors[0].Received = text.Truncate(s, 40)
	return e
}

// scanFrame is one open container of scanJSON: where its current key lies
// in the input (objects) or how many items it has (arrays).
type scanFrame struct {
	array      bool
	n          int
	kstart     int
	kend       int
	keyPending bool
}

// scanJSON walks raw once and returns the first violation of the depth or
// key limits or of valid Unicode, located by JSON pointer; nil when there
// is none or when raw is not well-formed JSON.
func scanJSON(raw []byte, lim Limits) *runtime.FieldError {
	var stack []scanFrame
	pointer := func() string {
		var b strings.Builder
		for _, f := range stack {
			b.WriteByte('/')
			if f.array {
				b.WriteString(strconv.Itoa(f.n - 1))
				continue
			}
			key := raw[f.kstart:f.kend]
			b.WriteString(truncBytes(text.PointerToken(decodeKey(key)), lim.EchoBytes))
		}
		return b.String()
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch c {
		case '{', '[':
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if top.array {
					top.n++
				}
			}
			if len(stack) >= lim.Depth {
				return &runtime.FieldError{Path: pointer(), Code: "maxDepth",
					Message: fmt.Sprintf("arrays and objects nest more than %d deep", lim.Depth)}
			}
			stack = append(stack, scanFrame{array: c == '[', keyPending: c == '{'})
			i++
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			stack = stack[:len(stack)-1]
			i++
		case ',':
			if len(stack) > 0 && !stack[len(stack)-1].array {
				stack[len(stack)-1].keyPending = true
			}
			i++
		case '"':
			end, bad, ok := text.ScanString(raw, i)
			if !ok {
				return nil
			}
			isKey := len(stack) > 0 && stack[len(stack)-1].keyPending
			if isKey {
				top := &stack[len(stack)-1]
				top.keyPending = false
				top.kstart, top.kend = i+1, end-1
				top.n++
			} else if len(stack) > 0 && stack[len(stack)-1].array {
				stack[len(stack)-1].n++
			}
			if bad >= 0 {
				return &runtime.FieldError{Path: pointer(), Code: text.CodeEncoding, Message: text.EncodingMessage(bad)}
			}
			if isKey && end-1-(i+1) > lim.KeyBytes {
				return &runtime.FieldError{Path: pointer(), Code: "maxKeyLength",
					Message: fmt.Sprintf("a key is %d bytes; keys are at most %d", end-2-i, lim.KeyBytes)}
			}
			i = end
		default:
			// Scalars other than strings: count array items at their
			// first byte.
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ':' && len(stack) > 0 && stack[len(stack)-1].array {
				stack[len(stack)-1].n++
				for i < len(raw) && !strings.ContainsRune(",]} \t\r\n", rune(raw[i])) {
					i++
				}
				continue
			}
			i++
		}
	}
	return nil
}

// decodeKey is the text of a key as it appears between its quotes: the
// first 1 KiB of it, enough for an error to name it.
func decodeKey(b []byte) string {
	if len(b) > 1024 {
		b = b[:1024]
		for len(b) > 0 && b[len(b)-1] == '\\' {
			b = b[:len(b)-1]
		}
	}
	var s string
	quoted := make([]byte, 0, len(b)+2)
	quoted = append(append(append(quoted, '"'), b...), '"')
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(b)
	}
	return s
}

// truncBytes shortens s to at most n bytes, cutting at a code point
// boundary and marking the cut with "…".
func truncBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n-len("…"), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// boundError caps what an envelope error echoes (see Limits): at most
// FieldErrors field errors, each text at most EchoBytes, the message at
// most MessageBytes.
func (l Limits) boundError(e *EnvelopeError) {
	if e == nil {
		return
	}
	fe := e.Details.FieldErrors
	if n := len(fe) - l.FieldErrors; n > 0 {
		fe = append([]runtime.FieldError(nil), fe[:l.FieldErrors]...)
		e.Details.FieldErrors = fe
		e.Details.More += n
	}
	for i := range fe {
		f := &fe[i]
		f.Path = l.echo(f.Path)
		f.Code = l.echo(f.Code)
		f.Message = l.echo(f.Message)
		f.Expected = l.echo(f.Expected)
		f.Received = l.echo(f.Received)
		f.Suggestion = l.echo(f.Suggestion)
	}
	e.HelpPath = l.echo(e.HelpPath)
	for i, s := range e.Details.DidYouMean {
		e.Details.DidYouMean[i] = l.echo(s)
	}
	more := ""
	if e.Details.More > 0 && !strings.Contains(e.Message, "more field errors") {
		more = fmt.Sprintf("; and %d more field errors", e.Details.More)
	}
	if len(e.Message)+len(more) > l.MessageBytes {
		e.Message = truncBytes(e.Message, max(l.MessageBytes-len(more), 16))
	}
	e.Message += more
}

// echo truncates s to EchoBytes (at a code point boundary, marked "…").
func (l Limits) echo(s string) string {
	if len(s) <= l.EchoBytes {
		return s
	}
	return truncBytes(s, l.EchoBytes)
}

// bound applies boundError and echo to an envelope.
func (l Limits) bound(env *Envelope) {
	if env == nil || env.raw != nil {
		return
	}
	env.Op = l.echo(env.Op)
	l.boundError(env.Error)
	if env.Meta != nil {
		for i, w := range env.Meta.Warnings {
			env.Meta.Warnings[i] = truncBytes(w, l.MessageBytes)
		}
	}
}
