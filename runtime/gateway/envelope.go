package gateway

import (
	"encoding/json"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Envelope is the answer of every gateway call (spec 004 §2.2). Success:
//
//	{"op":"onto.task.list","ok":true,"result":…,"meta":{"trace_id":"tr_1","latency_ms":3,"warnings":[]}}
//
// Failure:
//
//	{"op":"onto.task.update","ok":false,"error":{"code":"VALIDATION_ERROR","message":"…",
//	 "details":{"field_errors":[…]},"help_path":"onto.task.update"},"meta":{…}}
//
// Only tool_exec and tool_batch envelopes carry meta (trace id, latency,
// warnings, dry run). tool_help and tool_search answers are documents, not
// executions: their envelopes have no meta, except that a repeated identical
// tool_help call carries a meta holding only the repetition warning. Each
// result of tool_batch is the envelope the direct call of the item's tool
// gives to the item's members, meta included where that call has it; an
// item that names no tool it can run (not an object, an unknown tool) gets
// an error with meta.
//
// An Envelope renders itself (runtime.Renderer) as that compact JSON.
type Envelope struct {
	Op     string          `json:"op"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *EnvelopeError  `json:"error,omitempty"`
	Meta   *Meta           `json:"meta,omitempty"`

	raw []byte // the encoding, once computed or replayed
}

// EnvelopeError is the error member of a failed envelope.
type EnvelopeError struct {
	Code     runtime.Code `json:"code"`
	Message  string       `json:"message"`
	Details  Details      `json:"details"`
	HelpPath string       `json:"help_path"`
}

// Details carries what a model needs to fix a failed call.
type Details struct {
	FieldErrors []runtime.FieldError `json:"field_errors"`
	// Required lists the op's required arguments when some were missing.
	Required []string `json:"required,omitempty"`
	// Example is a ready-to-run tool_exec argument object for the op.
	Example json.RawMessage `json:"example,omitempty"`
	// DidYouMean lists the nearest op paths or help paths.
	DidYouMean []string `json:"did_you_mean,omitempty"`
	// Next is the advice that replaces a repeated error.
	Next []string `json:"next,omitempty"`
	// Repeated counts identical failing calls, from the threshold on.
	Repeated int `json:"repeated,omitempty"`
	// More counts the field errors left out of FieldErrors (Limits).
	More int `json:"more_field_errors,omitempty"`
	// Handler holds structured details a handler attached to its error.
	Handler map[string]any `json:"handler,omitempty"`
}

// Meta is the meta member of an envelope.
type Meta struct {
	TraceID   string   `json:"trace_id"`
	LatencyMS int64    `json:"latency_ms"`
	Warnings  []string `json:"warnings"`
	// DryRun is set when the op ran as a dry run.
	DryRun bool `json:"dry_run,omitempty"`
	// Message is the handler's short note on a successful result ("3
	// tasks", "dry run: would move ..."), when it returned a value too.
	Message string `json:"message,omitempty"`
}

// MarshalJSON encodes the envelope compactly, members in spec order.
func (e *Envelope) MarshalJSON() ([]byte, error) {
	if e.raw == nil {
		b, err := e.encode()
		if err != nil {
			return nil, err
		}
		e.raw = b
	}
	return e.raw, nil
}

// Render implements runtime.Renderer: the text the model reads.
func (e *Envelope) Render() string {
	b, err := e.MarshalJSON()
	if err != nil {
		return `{"op":` + strconv.Quote(e.Op) + `,"ok":false,"error":{"code":"INTERNAL","message":"envelope could not be encoded"}}`
	}
	return string(b)
}

func (e *Envelope) encode() ([]byte, error) {
	b := make([]byte, 0, 128+len(e.Result))
	b = append(b, `{"op":`...)
	b = text.AppendJSONString(b, e.Op, false)
	if e.OK {
		b = append(b, `,"ok":true`...)
	} else {
		b = append(b, `,"ok":false`...)
	}
	if len(e.Result) > 0 {
		b = append(b, `,"result":`...)
		b = append(b, e.Result...)
	}
	if e.Error != nil {
		b = append(b, `,"error":{"code":`...)
		b = text.AppendJSONString(b, string(e.Error.Code), false)
		b = append(b, `,"message":`...)
		b = text.AppendJSONString(b, e.Error.Message, false)
		b = append(b, `,"details":`...)
		d := e.Error.Details
		if d.FieldErrors == nil {
			d.FieldErrors = []runtime.FieldError{}
		}
		db, err := text.Marshal(d)
		if err != nil {
			return nil, err
		}
		b = append(b, db...)
		b = append(b, `,"help_path":`...)
		b = text.AppendJSONString(b, e.Error.HelpPath, false)
		b = append(b, '}')
	}
	if m := e.Meta; m != nil {
		b = append(b, `,"meta":{"trace_id":`...)
		b = text.AppendJSONString(b, m.TraceID, false)
		b = append(b, `,"latency_ms":`...)
		b = strconv.AppendInt(b, m.LatencyMS, 10)
		b = append(b, `,"warnings":[`...)
		for i, w := range m.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = text.AppendJSONString(b, w, false)
		}
		b = append(b, ']')
		if m.DryRun {
			b = append(b, `,"dry_run":true`...)
		}
		if m.Message != "" {
			b = append(b, `,"message":`...)
			b = text.AppendJSONString(b, m.Message, false)
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	return b, nil
}
