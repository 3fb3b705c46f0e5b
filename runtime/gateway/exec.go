package gateway

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"math"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"
	"weak"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// execRequest is the argument object of tool_exec.
type execRequest struct {
	Op             string          `json:"op"`
	Args           json.RawMessage `json:"args"`
	IdempotencyKey string          `json:"idempotency_key"`
	DryRun         *bool           `json:"dry_run"`
}

// execFields are tool_exec's own members; "tool" is read and ignored (a
// model names the gateway tool in its arguments).
var execFields = []string{"op", "args", "idempotency_key", "dry_run", "tool"}

// parseExec decodes the untrusted tool_exec arguments. Lenient where the
// intent is unambiguous (args sent as a JSON string, or spread at the top
// level next to op), each leniency reported as a warning.
//
// A member sent twice is refused. Member names are exact, as the
// generated decoders' are: "op" is the op
// and "OP" is not. A member that differs from one of tool_exec's own only
// in case ("Dry_Run") is refused rather than guessed at: read as dry_run it
// would also be an argument, read as an argument a write meant as a dry
// run would run.
//
// The arguments it gets have passed checkRaw; args sent as a JSON string
// are checked here, once unwrapped. Its cost is linear in the arguments
// with a small factor, however many members are spread next to op: they
// are read in place (text.MemberReader) and copied once, into the merged args
// (mergeStray).
func parseExec(raw json.RawMessage, lim Limits) (req execRequest, warnings []string, fail *EnvelopeError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return req, nil, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `tool_exec takes a JSON object: {"op":"<op path>","args":{...}}`}
	}
	if !json.Valid(raw) {
		var none struct{}
		return req, nil, execInvalid(jsonErrText(json.Unmarshal(raw, &none)))
	}
	if fail := repeatedMember(ExecTool, raw, lim, execShape); fail != nil {
		return req, nil, fail
	}
	return readExec(raw, lim, false)
}

// execShape is the shape of tool_exec's arguments, after a repeated
// member in its answer.
const execShape = `: {"op":"<op path>","args":{...}}`

// readExec is parseExec on raw, a JSON object (valid JSON) that names no
// member twice: a tool_batch item checked as such already (item), whose
// "tool" member is the item's, not an argument of the op.
func readExec(raw json.RawMessage, lim Limits, item bool) (req execRequest, warnings []string, fail *EnvelopeError) {
	// Members other than tool_exec's own are arguments sent next to op.
	// Where several members are at fault, the one reported is the first
	// by name, whatever the order they were sent in.
	stray := 0
	var own []string          // tool_exec's fields sent along with them
	var variant, field string // a member that is one of them up to case
	var bad *EnvelopeError
	var badKey string
	for r := text.NewMemberReader(raw); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		v := m.Value
		var err error
		// Decoded as a tool_batch item's members are (decodeField): req
		// stays off the heap and a string that is its own text is not
		// decoded.
		switch string(m.Name) {
		case "op":
			err = decodeString(&req.Op, v)
		case "args":
			req.Args = v
		case "idempotency_key":
			err = decodeString(&req.IdempotencyKey, v)
		case "dry_run":
			err = decodeField(&req.DryRun, v)
		case "tool":
		default:
			stray++
			if i := execField(m.Name); i >= 0 && (variant == "" || string(m.Name) < variant) {
				variant, field = string(m.Name), execFields[i]
			}
			continue
		}
		if err != nil {
			// Reported once every member is read: the answer names the op.
			if k := string(m.Name); bad == nil || k < badKey {
				badKey = k
				bad = execInvalid(jsonErrText(err))
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					want := execTypes[k]
					bad = execInvalid(fmt.Sprintf("%s must be %s, got %s", k, jsonKindOf(te.Type), te.Value))
					bad.Details.FieldErrors = []runtime.FieldError{typeFieldError(k, want, te.Value, v)}
				}
			}
			continue
		}
		if k := string(m.Name); k != "op" && k != "args" && !(item && k == "tool") {
			own = append(own, strconv.Quote(k))
		}
	}
	slices.Sort(own)
	req.Op = strings.TrimSpace(req.Op)
	if bad != nil {
		return req, nil, bad
	}
	if variant != "" {
		return req, nil, caseVariant(variant, field, lim)
	}
	args := bytes.TrimSpace(req.Args)
	switch {
	case len(args) == 0 || string(args) == "null":
		if stray > 0 {
			args = json.RawMessage("{}") // the arguments are the ones next to op
		}
	case args[0] == '"':
		var s string
		if json.Unmarshal(args, &s) == nil {
			inner := bytes.TrimSpace([]byte(s))
			if len(inner) > 0 && inner[0] == '{' && json.Valid(inner) {
				if fe := scanJSON(inner, lim); fe != nil {
					fe.Path = "/args" + fe.Path
					return req, nil, &EnvelopeError{Code: runtime.CodeValidation,
						Message: "tool_exec arguments: " + fe.Path + ": " + fe.Message,
						Details: Details{FieldErrors: []runtime.FieldError{*fe}}}
				}
				args = inner
				warnings = append(warnings, "args was a JSON string; send it as an object")
				break
			}
		}
		fallthrough
	case args[0] != '{':
		return req, nil, &EnvelopeError{Code: runtime.CodeValidation,
			Message: "args must be a JSON object",
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/args", Code: "type", Message: "args must be an object", Expected: "object", Received: text.Truncate(string(args), 40)}}}}
	}
	if stray > 0 {
		merged, fail := mergeStray(args, raw)
		if fail != nil {
			return req, nil, fail
		}
		args = merged
		warnings = append(warnings, "arguments were sent next to op; put them inside \"args\"")
		if len(own) > 0 {
			// An op's own argument of that name would otherwise be taken
			// away without a word.
			warnings = append(warnings, strings.Join(own, ", ")+" next to op were read as tool_exec's own; an argument of the op with that name goes inside \"args\"")
		}
	}
	req.Args = args
	return req, warnings, nil
}

// execField returns the index in execFields of the field name is up to
// case, or -1.
func execField(name []byte) int {
	for i, f := range execFields {
		// A letter folds from a code point of three bytes at most
		// (U+212A, the Kelvin sign, is k).
		if len(name) <= 3*len(f) && (strings.EqualFold(f, string(name)) || foldedFields[f] != "" && foldedIs(name, foldedFields[f])) {
			return i
		}
	}
	return -1
}

// foldedIs reports whether name, without ASCII case and the separators
// models vary ('_', '-', ' '), is folded: dryRun, dry-run, DryRun and
// dry_run are all "dryrun". It allocates nothing: it runs on every member
// of the arguments.
func foldedIs(name []byte, folded string) bool {
	j := 0
	for _, c := range name {
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if j >= len(folded) || folded[j] != c {
			return false
		}
		j++
	}
	return j == len(folded)
}

// foldedFields are tool_exec's own fields a model misspells, folded.
var foldedFields = map[string]string{"dry_run": "dryrun", "idempotency_key": "idempotencykey"}

// misplacedOwn refuses a call whose args hold tool_exec's own dry_run or
// idempotency_key (in any spelling) that the op does not declare: read as
// an argument it would be ignored, and a dry run meant would write.
func misplacedOwn(b *binding, args json.RawMessage, lim Limits) *EnvelopeError {
	if len(args) == 0 || args[0] != '{' {
		return nil
	}
	for r := text.NewMemberReader(args); ; {
		m, ok := r.Next()
		if !ok {
			return nil
		}
		for field, folded := range foldedFields {
			if !foldedIs(m.Name, folded) || slices.Contains(b.props, string(m.Name)) {
				continue
			}
			k := truncBytes(string(m.Name), lim.EchoBytes)
			return &EnvelopeError{Code: runtime.CodeValidation,
				Message:  fmt.Sprintf("%q inside args is no argument of %s: tool_exec's %s goes next to args, {\"op\":%q,\"args\":{...},%q:...}; the call did not run", k, b.op.Path, field, b.op.Path, field),
				Details:  Details{FieldErrors: []runtime.FieldError{{Path: "/args/" + k, Code: "additionalProperties", Message: "send " + field + " next to args"}}},
				HelpPath: b.op.Path}
		}
	}
}

// isExecField reports whether name is one of tool_exec's own members.
func isExecField(name []byte) bool {
	switch string(name) {
	case "op", "args", "idempotency_key", "dry_run", "tool":
		return true
	}
	return false
}

// execTypes are the JSON types of tool_exec's own members.
var execTypes = map[string]string{"op": "string", "idempotency_key": "string", "dry_run": "boolean"}

// execInvalid is the answer to tool_exec arguments that do not decode.
func execInvalid(why string) *EnvelopeError {
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: "tool_exec arguments are not valid: " + why + `; send {"op":"<op path>","args":{...}}`}
}

// caseVariant refuses member k, which is tool_exec's field only up to
// case.
func caseVariant(k, field string, lim Limits) *EnvelopeError {
	k = truncBytes(k, lim.EchoBytes)
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf("tool_exec has no argument %q; member names are exact: send %q (an argument of the op named %q goes inside \"args\")", k, field, k),
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/" + text.PointerToken(k), Code: "additionalProperties",
			Message: fmt.Sprintf("unknown argument %q", k), Suggestion: field}}}}
}

// mergeStray adds the arguments sent next to op (the members of the
// tool_exec object env other than its own) to the args object: none is
// dropped, and one that args also holds with another value is a
// VALIDATION_ERROR naming it rather than a silent choice; one it holds
// with the same value is sent once. The members of args come first, as
// sent, then the others in the order they were sent.
//
// The merged object is the only copy made of them: the names of args go
// to a text.NameSet when both sides have members, and nothing else is kept per
// member, so that a megabyte of members costs about a megabyte (a map of
// them, sorted keys and a re-encoding once cost some seventy times the
// input).
func mergeStray(args, env json.RawMessage) (json.RawMessage, *EnvelopeError) {
	args = bytes.TrimSpace(args)
	if len(args) < 2 || args[0] != '{' || args[len(args)-1] != '}' {
		return nil, &EnvelopeError{Code: runtime.CodeValidation, Message: "args must be a JSON object"}
	}
	inner := bytes.TrimSpace(args[1 : len(args)-1])
	var have *text.NameSet // args' names, when it has members
	var values [][]byte
	if len(inner) > 0 {
		n, size := text.CountMembers(args)
		have, values = text.NewNameSet(n, size), make([][]byte, 0, n)
		for r := text.NewMemberReader(args); ; {
			m, ok := r.Next()
			if !ok {
				break
			}
			if i, added := have.Add(m.Name); added {
				values = append(values, m.Value)
			} else {
				values[i] = m.Value // encoding/json keeps the last
			}
		}
	}
	out := make([]byte, 0, len(args)+len(env))
	out = append(append(out, '{'), inner...)
	var a, b []byte // compacted values, reused
	for r := text.NewMemberReader(env); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		if isExecField(m.Name) {
			continue
		}
		if have != nil {
			if i := have.Find(m.Name); i >= 0 {
				var same bool
				if same = bytes.Equal(values[i], m.Value); !same {
					a, _ = text.AppendCompactJSON(a[:0], values[i], false)
					b, _ = text.AppendCompactJSON(b[:0], m.Value, false)
					same = bytes.Equal(a, b)
				}
				if !same {
					k := string(m.Name)
					return nil, &EnvelopeError{Code: runtime.CodeValidation,
						Message: fmt.Sprintf("%q was sent both inside args and next to op, with different values; send it once, inside \"args\"", text.Truncate(k, 40)),
						Details: Details{FieldErrors: []runtime.FieldError{{Path: "/args/" + text.PointerToken(k), Code: "conflict", Message: "sent inside args and next to op with different values"}}}}
				}
				continue
			}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, m.Quoted...), ':'), m.Value...)
	}
	return append(out, '}'), nil
}

func jsonErrText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			// The arguments themselves: an object of named members.
			return fmt.Sprintf("the arguments must be an object, got %s", te.Value)
		}
		return fmt.Sprintf("%s must be %s, got %s", te.Field, jsonKindOf(te.Type), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKindOf names the JSON kind a Go type decodes from, for messages that
// must not show Go type names.
func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKindOf(t.Elem())
	}
	return "a value"
}

// isEmptyArgs reports an absent, null or {} args object.
func isEmptyArgs(a json.RawMessage) bool {
	if len(a) == 0 || string(a) == "null" || string(a) == "{}" {
		return true
	}
	if a[0] != '{' {
		return false
	}
	return len(bytes.TrimSpace(a[1:len(a)-1])) == 0
}

func (g *Gateway) handleExec(ctx context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	start := g.cfg.clock()
	fail := g.checkRaw(ExecTool, raw)
	var req execRequest
	var warnings []string
	if fail == nil {
		req, warnings, fail = parseExec(raw, g.cfg.limits)
	}
	if fail != nil {
		fail.HelpPath = ""
		env := g.failure(tc, req.Op, fail, raw)
		g.stamp(env, start, warnings)
		return env, nil
	}
	return g.exec(ctx, tc, req, warnings, start)
}

// resolve finds the binding of an op path, accepting a tool's wire name or
// stray case and whitespace too (with a warning).
func (g *Gateway) resolve(op string) (*binding, string) {
	if b := g.ops[op]; b != nil {
		return b, ""
	}
	if b := g.byTool[op]; b != nil {
		return b, fmt.Sprintf("%q is a tool name; its op is %q", op, b.op.Path)
	}
	if b := g.ops[strings.ToLower(op)]; b != nil {
		return b, fmt.Sprintf("op paths are lowercase: %q", b.op.Path)
	}
	return nil, ""
}

// exec runs one tool_exec request. The returned error is non-nil only for
// handler errors that must propagate (runtime.Propagator).
func (g *Gateway) exec(ctx context.Context, tc runtime.ToolContext, req execRequest, warnings []string, start time.Time) (*Envelope, error) {
	fail := func(op string, e *EnvelopeError) (*Envelope, error) {
		env := g.failure(tc, op, e, req.Args)
		g.stamp(env, start, warnings)
		return env, nil
	}
	if req.Op == "" {
		return fail("", &EnvelopeError{Code: runtime.CodeValidation,
			Message: `op is missing: send {"op":"<op path>","args":{...}}; find the op with tool_search or tool_help`,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/op", Code: "required", Message: "op is required"}}}})
	}
	if e := g.checkLen(ExecTool, "/op", "op", req.Op, g.cfg.limits.OpBytes); e != nil {
		e.Message += "; op paths are short dotted names such as group.entity.action: find one with tool_search or tool_help"
		return fail("", e)
	}
	if e := g.checkLen(ExecTool, "/idempotency_key", "idempotency_key", req.IdempotencyKey, g.cfg.limits.IdempotencyKeyBytes); e != nil {
		return fail(req.Op, e)
	}
	if strings.IndexByte(req.IdempotencyKey, 0) >= 0 {
		// NUL separates a session from its key in the store
		// (idempotencyScope): a caller without a session could otherwise
		// name another session's key.
		const msg = "idempotency_key must not hold NUL (\\u0000)"
		return fail(req.Op, limitError(ExecTool, "/idempotency_key", "pattern", msg+"; send a key of printable characters"))
	}
	b, warn := g.resolve(req.Op)
	if b == nil {
		return fail(req.Op, &EnvelopeError{Code: runtime.CodeNotFound,
			Message:  fmt.Sprintf("unknown op %q", truncBytes(req.Op, g.cfg.limits.EchoBytes)),
			Details:  Details{DidYouMean: g.suggestOps(req.Op, 3)},
			HelpPath: g.nearestDir(req.Op)})
	}
	if warn != "" {
		warnings = append(warnings, warn)
	}
	op := b.op.Path
	if e := misplacedOwn(b, req.Args, g.cfg.limits); e != nil {
		return fail(op, e)
	}
	// A dry run writes nothing, so it is allowed when writes are not.
	if dryRun := req.DryRun != nil && *req.DryRun || req.DryRun == nil && b.op.DryRunDefault; b.op.Kind == runtime.OpWrite && !g.cfg.writes && !dryRun {
		return fail(op, &EnvelopeError{Code: runtime.CodePermissionDenied,
			Message:  fmt.Sprintf("%s is a write op and writes are not allowed in this session; tell the user instead of retrying (\"dry_run\":true shows what it would do)", op),
			HelpPath: op})
	}
	if isEmptyArgs(req.Args) {
		req.Args = json.RawMessage("{}")
		if len(b.required) > 0 {
			return fail(op, g.missingArgs(b, b.required))
		}
	}
	dry := b.op.DryRunDefault
	if req.DryRun != nil {
		dry = *req.DryRun
	} else if dry {
		warnings = append(warnings, "dry_run defaulted to true for this op; send \"dry_run\":false to apply")
	}

	// Idempotency. A dry run changes nothing, so it neither replays nor
	// records an answer: the key stays free for the real call. A real
	// call is identified by the session, the key, and a fingerprint of
	// what decides its outcome (op, dry-run flag, canonical args).
	var fp, idemKey string
	session, known := caller(tc)
	if req.IdempotencyKey != "" && !dry && !known {
		// Another client's key must never replay or block this call.
		warnings = append(warnings, "idempotency_key ignored: this transport has no session to keep it per client")
	}
	if req.IdempotencyKey != "" && !dry {
		fp = fingerprint(op, dry, req.Args)
	}
	if req.IdempotencyKey != "" && !dry && known {
		idemKey = idempotencyScope(session, req.IdempotencyKey)
		unlock := g.keys.lock(idemKey)
		defer unlock()
		if rec, ok := g.cfg.idem.Load(idemKey); ok && g.cfg.clock().Sub(rec.Stored) < g.cfg.idemTTL {
			if rec.Op == op && rec.Fingerprint == fp {
				return replay(rec.Envelope), nil
			}
			return fail(op, &EnvelopeError{Code: runtime.CodeConflict,
				Message:  fmt.Sprintf("idempotency_key %q was already used for a different call (%s with other args); use a new key for a new call", req.IdempotencyKey, rec.Op),
				HelpPath: op})
		}
	}

	if b.tool.Decode == nil {
		if fe, omitted := b.checkArgs(req.Args, g.cfg.limits.FieldErrors); len(fe) > 0 {
			ee := g.invalid(b, fe)
			ee.Details.More += omitted
			return fail(op, ee)
		}
	} else if ee := g.repeatedRefused(b, req.Args); ee != nil {
		return fail(op, ee)
	}

	res, perr := g.invoke(withIdempotencyKey(WithDryRun(ctx, dry), handlerKey(req.IdempotencyKey, fp)), tc, b, req.Args)
	if perr != nil {
		return nil, perr
	}
	var env *Envelope
	if res.Success {
		env = &Envelope{Op: op, OK: true, Result: encodeResult(res)}
		g.stamp(env, start, append(warnings, b.ignored.Warnings(op, req.Args, nil)...))
		if res.Value != nil {
			env.Meta.Message = res.Message
		}
	} else {
		env = g.failure(tc, op, g.handlerFailure(b, res), req.Args)
		g.stamp(env, start, append(warnings, b.ignored.Warnings(op, req.Args, res.Err)...))
	}
	env.Meta.DryRun = dry
	if idemKey != "" && (env.OK || env.Error.Code != runtime.CodeValidation) {
		g.cfg.limits.bound(env)
		g.remember(idemKey, op, fp, env)
	}
	return env, nil
}

// remember stores env under an idempotency key so that a repeat of the same
// call replays it; an envelope that cannot be encoded is not stored.
func (g *Gateway) remember(key, op, fp string, env *Envelope) {
	if raw, err := env.MarshalJSON(); err == nil {
		g.cfg.idem.Store(key, IdempotencyRecord{Op: op, Fingerprint: fp, Envelope: raw, Stored: g.cfg.clock()})
	}
}

// stamp sets the envelope's meta: trace id, latency since start, warnings.
func (g *Gateway) stamp(env *Envelope, start time.Time, warnings []string) {
	if warnings == nil {
		warnings = []string{}
	}
	env.Meta = &Meta{TraceID: g.cfg.traceID(), LatencyMS: g.cfg.clock().Sub(start).Milliseconds(), Warnings: warnings}
}

func replay(raw []byte) *Envelope {
	var env Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return &Envelope{OK: false, Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "stored answer for this idempotency_key is unreadable"}}
	}
	env.raw = raw
	return &env
}

// fingerprint hashes what decides the outcome of a call: the op, the
// dry-run flag and the canonical form of args (keys sorted, whitespace
// dropped, numbers kept as written: canonicalizer), so that reordered
// but equal args match and nothing else does.
func fingerprint(op string, dry bool, args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	h := fingerprintHash(op, dry)
	// Written to the hash as it goes, a buffer at a time.
	c := canonicalizer{sink: h}
	rest, ok := c.append(make([]byte, 0, min(len(args)+len(args)/8, 2*canonicalBuffer)), args)
	if !ok {
		// Not JSON (it always is: the arguments were read before): the
		// text as it is, as before.
		h, rest = fingerprintHash(op, dry), args
	}
	h.Write(rest)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// fingerprintHash is the hash of a fingerprint, written what comes
// before the arguments.
func fingerprintHash(op string, dry bool) hash.Hash {
	h := sha256.New()
	h.Write([]byte(op))
	if dry {
		h.Write([]byte("\x00dry\x00"))
	} else {
		h.Write([]byte("\x00run\x00"))
	}
	return h
}

// canonicalizer writes the canonical form of JSON values: byte for byte
// what json.Marshal writes of the value a json.Decoder with UseNumber
// reads from them (members sorted by name, the last of a name sent twice
// kept; no insignificant space; strings as encoding/json writes them,
// HTML-escaped; numbers as written), which fingerprints have always
// hashed, at a cost linear in the value but for the sort of each
// object's members: it keeps where each member of the objects being
// written starts, the names with escapes decoded once each, and a few
// buffers (a map per object, and an interface per value, cost some
// thirty times a megabyte of members; decoding the names at every
// comparison of the sort, some 200 ns a byte of them).
type canonicalizer struct {
	sink    io.Writer     // when set, written the canonical form as it goes
	members []canonMember // the members of the objects being written, each object's after its parent's
	names   []byte        // their names that have escapes, decoded, each after its length (4 bytes, little-endian), likewise
	a       []byte        // a decoded name
	str     []byte        // a decoded string
}

// canonMember is a member of an object a canonicalizer writes: where it
// starts in the object (its name's opening quote), and where its name,
// decoded, starts in the canonicalizer's names, or plainName for a name
// that is its own text.
type canonMember struct{ at, name uint32 }

// plainName is the canonMember.name of a name without escapes.
const plainName = math.MaxUint32

// canonicalBuffer is how much of a canonical form a canonicalizer with a
// sink holds before writing it there.
const canonicalBuffer = 32 << 10

// flush writes dst to the sink, when there is one and dst holds enough,
// and returns what dst still holds.
func (c *canonicalizer) flush(dst []byte) []byte {
	if c.sink == nil || len(dst) < canonicalBuffer {
		return dst
	}
	_, _ = c.sink.Write(dst)
	return dst[:0]
}

// append appends the canonical form of the JSON value v (no space around
// it); ok is false when v is not one JSON value it can read.
func (c *canonicalizer) append(dst, v []byte) (out []byte, ok bool) {
	if len(v) == 0 {
		return dst, false
	}
	switch v[0] {
	case '{':
		return c.object(dst, v)
	case '[':
		dst = append(dst, '[')
		i := text.SkipBlanks(v, 1)
		for n := 0; i < len(v) && v[i] != ']'; n++ {
			end, ok := text.SkipValue(v, i)
			if !ok {
				return dst, false
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = c.append(c.flush(dst), v[i:end]); !ok {
				return dst, false
			}
			if i = text.SkipBlanks(v, end); i < len(v) && v[i] == ',' {
				i = text.SkipBlanks(v, i+1)
			}
		}
		return append(dst, ']'), true
	case '"':
		if len(v) < 2 || v[len(v)-1] != '"' {
			return dst, false
		}
		c.str = text.AppendUnquoted(c.str[:0], v[1:len(v)-1])
		return text.AppendJSONString(dst, unsafe.String(unsafe.SliceData(c.str), len(c.str)), true), true
	}
	return append(dst, v...), true // a number or a literal
}

// object appends the canonical form of the JSON object v.
func (c *canonicalizer) object(dst, v []byte) ([]byte, bool) {
	if len(v) > math.MaxUint32 {
		return dst, false
	}
	base, nbase := len(c.members), len(c.names)
	defer func() { c.members, c.names = c.members[:base], c.names[:nbase] }()
	if !c.readMembers(v) {
		return dst, false
	}
	members := c.members[base:]
	slices.SortStableFunc(members, func(x, y canonMember) int { return bytes.Compare(c.name(v, x), c.name(v, y)) })
	dst = append(dst, '{')
	first := true
	for i := base; i < len(c.members); i++ {
		// (c.members, not members: a nested object may have moved it.)
		if i+1 < len(c.members) && bytes.Equal(c.name(v, c.members[i]), c.name(v, c.members[i+1])) {
			continue // encoding/json keeps the last
		}
		var m text.Member
		m, _, c.a = text.MemberAt(v, int(c.members[i].at), c.a)
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = c.flush(dst)
		dst = text.AppendJSONString(dst, unsafe.String(unsafe.SliceData(m.Name), len(m.Name)), true)
		dst = append(dst, ':')
		var ok bool
		if dst, ok = c.append(dst, m.Value); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// readMembers adds the members of the JSON object v to c.members, the
// names with escapes decoded to c.names, and reports whether v is an
// object read to its end.
func (c *canonicalizer) readMembers(v []byte) bool {
	// Room for them at once: append grows a large slice by a quarter at
	// a time.
	n, size := 0, 0
	for r := text.NewMemberReader(v); ; n++ {
		m, ok := r.Next()
		if !ok {
			break
		}
		if !text.Unescaped(m.Quoted[1 : len(m.Quoted)-1]) {
			size += 4 + len(m.Name)
		}
	}
	c.members, c.names = slices.Grow(c.members, n), slices.Grow(c.names, size)
	r := text.NewMemberReader(v)
	for {
		at := r.Offset()
		m, ok := r.Next()
		if !ok {
			break
		}
		name := uint32(plainName)
		if body := m.Quoted[1 : len(m.Quoted)-1]; !text.Unescaped(body) {
			if uint64(len(c.names))+4+uint64(len(m.Name)) >= plainName {
				return false // more names than a canonMember can point to
			}
			name = uint32(len(c.names))
			c.names = binary.LittleEndian.AppendUint32(c.names, uint32(len(m.Name)))
			c.names = append(c.names, m.Name...)
		}
		c.members = append(c.members, canonMember{at: uint32(at), name: name})
	}
	t := text.SkipBlanks(v, r.Offset())
	return t == len(v)-1 && v[t] == '}' // read to its end
}

// name is the decoded name of m, a member of the object v.
func (c *canonicalizer) name(v []byte, m canonMember) []byte {
	if m.name == plainName {
		body := v[m.at+1:]
		return body[:bytes.IndexByte(body, '"')]
	}
	n := binary.LittleEndian.Uint32(c.names[m.name:])
	return c.names[m.name+4 : m.name+4+n]
}

// handlerKey is the key IdempotencyKey gives the op's handler: the
// caller's idempotency_key and the call's fingerprint (fp: op and
// arguments), hashed; "" without a key. A handler that records its writes
// under it finds one again for the same call only: under the caller's key
// alone, another session's call of another op with the same key got the
// first call's answer. It is not scoped to the session, so that a client
// that reconnects after a crash and repeats its call finds the write done.
func handlerKey(key, fp string) string {
	if key == "" || fp == "" {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(fp))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// idempotencyScope is the store key of an idempotency key: keys are
// per session, so one session's key never replays another's answer.
func idempotencyScope(session, key string) string {
	if session == "" {
		return key
	}
	return session + "\x00" + key
}

// repeatedMember refuses a call of tool whose JSON object raw names a
// member twice. encoding/json keeps the last value, while whoever reads
// the call's text (a log, an approval prompt) may see the first: an op,
// an item's tool. shape, when not empty, follows the advice.
func repeatedMember(tool string, raw []byte, lim Limits, shape string) *EnvelopeError {
	k, ok := text.RepeatedMember(raw)
	if !ok {
		return nil
	}
	k = truncBytes(k, lim.EchoBytes)
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf("%s got %s twice; send each member once%s", tool, jsonQuote(k), shape),
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/" + text.PointerToken(k), Code: text.CodeDuplicate, Message: text.DuplicateMessage}}}}
}

// invoke runs the op's tool. With an event bus in the tool context it goes
// through runtime.Dispatch (publishing ToolInvoked for the inner tool);
// otherwise it calls the handler directly with the same failure semantics.
func (g *Gateway) invoke(ctx context.Context, tc runtime.ToolContext, b *binding, args json.RawMessage) (res runtime.Result, perr error) {
	inner := runtime.NewToolContext(runtime.ContextParts{
		Prompt: tc.Prompt(), Rendered: tc.RenderedPrompt(), Adapter: tc.Adapter(), Session: tc.Session(), Bus: tc.Bus(),
		Call: runtime.ToolCall{ID: tc.Call().ID, Name: b.tool.Name, Args: args},
	})
	if tc.Bus() != nil {
		return runtime.Dispatch(ctx, b.tool, inner, args)
	}
	if b.tool.Handler == nil {
		return runtime.Failure(runtime.Internal("op %s has no handler", b.op.Path)), nil
	}
	defer func() {
		if v := recover(); v != nil {
			res = runtime.Failure(&runtime.PanicError{Tool: b.tool.Name, Value: v, Stack: debug.Stack()})
			perr = nil
		}
	}()
	r, err := b.tool.Handler(ctx, inner, args)
	if err != nil {
		var p runtime.Propagator
		if errors.As(err, &p) {
			return runtime.Result{Message: err.Error(), Err: err}, err
		}
		return runtime.Failure(err), nil
	}
	return r, nil
}

// encodeResult is the envelope's result member: the value as JSON, else
// the message as a JSON string.
func encodeResult(res runtime.Result) json.RawMessage {
	switch v := res.Value.(type) {
	case nil:
		if res.Message == "" {
			return json.RawMessage("null")
		}
		return text.AppendJSONString(nil, res.Message, false)
	case json.RawMessage:
		if len(v) > 0 && json.Valid(v) {
			return v
		}
	}
	b, err := json.Marshal(res.Value)
	if err != nil {
		return text.AppendJSONString(nil, runtime.RenderValue(res.Value), false)
	}
	return b
}

// handlerFailure turns a failed Result into the envelope error: the code
// from runtime.CodeOf, field errors from a *runtime.ValidationError.
func (g *Gateway) handlerFailure(b *binding, res runtime.Result) *EnvelopeError {
	op := b.op.Path
	if res.Err == nil {
		msg := res.Message
		if msg == "" {
			msg = op + " failed without a message"
		}
		return &EnvelopeError{Code: runtime.CodeInternal, Message: msg, HelpPath: op}
	}
	var ve *runtime.ValidationError
	if errors.As(res.Err, &ve) && ve != nil { // a handler may wrap a nil one
		ee := g.invalid(b, ve.Fields)
		ee.Details.More += ve.Omitted
		return ee
	}
	var pe *runtime.PanicError
	if errors.As(res.Err, &pe) {
		return &EnvelopeError{Code: runtime.CodeInternal,
			Message:  fmt.Sprintf("%s failed unexpectedly inside the tool (%s); this is not caused by your args, do not retry the same call", op, text.Truncate(runtime.PanicText(pe.Value), 120)),
			HelpPath: op}
	}
	ee := &EnvelopeError{Code: runtime.CodeOf(res.Err), Message: res.Err.Error(), HelpPath: op}
	var re *runtime.Error
	if errors.As(res.Err, &re) && len(re.Details) > 0 {
		ee.Details.Handler = re.Details
	}
	if ee.Code == runtime.CodeValidation {
		ee.Details.Example = b.call()
	}
	return ee
}

// invalid builds a VALIDATION_ERROR for field errors, adding the nearest
// argument name to unknown-argument errors and a ready-to-run example.
//
// Only the first Limits.FieldErrors errors are kept (details counts the
// rest), so the suggestions cost a bounded amount whatever the arguments.
func (g *Gateway) invalid(b *binding, fields []runtime.FieldError) *EnvelopeError {
	shown := min(len(fields), g.cfg.limits.FieldErrors)
	fe := make([]runtime.FieldError, shown)
	copy(fe, fields)
	var missing []string
	for i := range fe {
		name, top := topLevelName(fe[i].Path)
		if !top {
			continue
		}
		if fe[i].Suggestion == "" && !b.hasProp(name) && name != "" {
			if s := nearest(name, b.props, 1); len(s) > 0 {
				fe[i].Suggestion = s[0]
			} else if s := text.Respelled(name, b.props); s != "" {
				fe[i].Suggestion = s
			}
		}
		if fe[i].Code == "required" {
			missing = append(missing, name)
		}
	}
	parts := make([]string, 0, len(fe))
	for _, f := range fe {
		parts = append(parts, f.String())
	}
	msg := fmt.Sprintf("invalid args for %s: %s", b.op.Path, strings.Join(parts, "; "))
	if len(missing) > 0 {
		msg += fmt.Sprintf(". Required: %s", strings.Join(b.required, ", "))
	}
	return &EnvelopeError{Code: runtime.CodeValidation, Message: msg,
		Details:  Details{FieldErrors: fe, Required: reqIf(len(missing) > 0, b.required), Example: b.call(), More: len(fields) - shown},
		HelpPath: b.op.Path}
}

func reqIf(ok bool, r []string) []string {
	if ok {
		return r
	}
	return nil
}

// topLevelName returns the argument name of a JSON pointer one level deep.
func topLevelName(ptr string) (string, bool) {
	if !strings.HasPrefix(ptr, "/") {
		return "", false
	}
	rest := ptr[1:]
	if strings.Contains(rest, "/") {
		return "", false
	}
	return strings.ReplaceAll(strings.ReplaceAll(rest, "~1", "/"), "~0", "~"), true
}

// missingArgs is the corrective answer to a call without its required args.
func (g *Gateway) missingArgs(b *binding, missing []string) *EnvelopeError {
	fe := make([]runtime.FieldError, len(missing))
	for i, m := range missing {
		fe[i] = runtime.FieldError{Path: "/" + m, Code: "required", Message: m + " is required"}
	}
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf("args are empty but %s needs %s. Send args like: %s", b.op.Path, strings.Join(missing, ", "), b.call()),
		Details: Details{FieldErrors: fe, Required: b.required, Example: b.call()}, HelpPath: b.op.Path}
}

// call is a ready-to-run tool_exec argument object for the op.
func (b *binding) call() json.RawMessage {
	out := make([]byte, 0, 32+len(b.op.Path)+len(b.example))
	out = append(out, `{"op":`...)
	out = text.AppendJSONString(out, b.op.Path, false)
	out = append(out, `,"args":`...)
	out = append(out, b.example...)
	return append(out, '}')
}

func (b *binding) hasProp(name string) bool {
	i := sort.SearchStrings(b.props, name)
	return i < len(b.props) && b.props[i] == name
}

// hasPropBytes is hasProp for a name read in place.
func (b *binding) hasPropBytes(name []byte) bool {
	i := sort.Search(len(b.props), func(i int) bool { return b.props[i] >= string(name) })
	return i < len(b.props) && b.props[i] == string(name)
}

// checkArgs is the gateway's own check for tools without a Decode
// function: required arguments present, no unknown arguments on a closed
// schema. Full validation is the tool's business.
//
// Of the unknown arguments, the first limit by name are reported, and
// omitted counts the others: thousands of them (spread next to op, say)
// cost a set of their names, not an error each.
func (b *binding) checkArgs(args json.RawMessage, limit int) (fe []runtime.FieldError, omitted int) {
	if t := bytes.TrimSpace(args); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return []runtime.FieldError{{Path: "", Code: "type", Message: "args must be a JSON object", Expected: "object"}}, 0
	}
	present := make([]bool, len(b.required))
	var unknown *text.NameSet // the unknown names, each once
	var first []int           // the first limit of them by name, sorted, by index in unknown
	for r := text.NewMemberReader(args); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		for i, r := range b.required {
			if r == string(m.Name) {
				present[i] = true
			}
		}
		if !b.closed || b.hasPropBytes(m.Name) {
			continue
		}
		if unknown == nil {
			unknown = text.NewNameSet(text.CountMembers(args))
		}
		i, added := unknown.Add(m.Name)
		if !added {
			continue
		}
		at, _ := slices.BinarySearchFunc(first, m.Name, func(j int, name []byte) int { return bytes.Compare(unknown.Name(j), name) })
		if at < limit {
			first = slices.Insert(first, at, i)
			if len(first) > limit {
				first = first[:limit]
			}
		}
	}
	for i, r := range b.required {
		if !present[i] {
			fe = append(fe, runtime.FieldError{Path: "/" + r, Code: "required", Message: r + " is required"})
		}
	}
	for _, i := range first {
		k := string(unknown.Name(i))
		fe = append(fe, runtime.FieldError{Path: "/" + text.PointerToken(k), Code: "additionalProperties", Message: "unknown argument " + jsonQuote(k)})
	}
	if unknown != nil {
		omitted = unknown.Len() - len(first)
	}
	dups, more := repeatedArgs(args, limit)
	return append(fe, dups...), omitted + more
}

// repeatedRefused refuses args with a member sent twice for an op whose
// tool has a Decode function, unless that function refuses them itself,
// as a generated decoder does (then the call runs as before, and the
// handler's decoder answers): the answer holds what Decode found, then
// the repeated members it did not report. nil when no member is
// repeated.
func (g *Gateway) repeatedRefused(b *binding, args json.RawMessage) *EnvelopeError {
	dups, omitted := repeatedArgs(args, g.cfg.limits.FieldErrors)
	if len(dups) == 0 {
		return nil
	}
	found, more := decodeErrors(b.tool, args)
	fe := found
	for _, d := range dups {
		if !slices.ContainsFunc(found, func(f runtime.FieldError) bool { return f.Path == d.Path && f.Code == d.Code }) {
			fe = append(fe, d)
		}
	}
	if len(fe) == len(found) {
		return nil
	}
	ee := g.invalid(b, fe)
	ee.Details.More += more + omitted
	return ee
}

// decodeErrors are the field errors t.Decode finds in args, and how many
// more it counted; none when it panics.
func decodeErrors(t runtime.Tool, args json.RawMessage) (fe []runtime.FieldError, omitted int) {
	defer func() {
		if recover() != nil {
			fe, omitted = nil, 0
		}
	}()
	_, err := t.Decode(args)
	var ve *runtime.ValidationError
	if errors.As(err, &ve) {
		return slices.Clip(ve.Fields), ve.Omitted
	}
	return nil, 0
}

// Members sent twice in one object of an op's arguments. A decoder keeps
// the last value, while a log, a policy or an approval prompt that reads
// the text may show the first: the generated decoders refuse them at any
// depth (runtime/wire), and the gateway refuses them in the same words
// for the tools whose decoder it cannot vouch for.

// repeatedArgs returns the field errors of the members of args, a JSON
// value, that their object has had before, at any depth, in the order
// sent, worded as a generated decoder words them: code "duplicate" at the
// member's JSON pointer (each reference token cut at dupTokenBytes),
// `property "a" sent twice; send each property once`. At most limit are
// returned, and omitted counts the others. Names are compared decoded and
// exactly: "a" and "\u0061" are one name, "a" and "A" two.
//
// It reads args once, allocating nothing for objects of up to dupLinear
// members, whose names are compared one with another; the names of a
// larger object go to a memberTable, of four bytes or so a member. Text that
// is not JSON is read as far as it makes sense; args of 4 GiB or more are
// not read (a memberTable holds offsets of 32 bits).
func repeatedArgs(args []byte, limit int) (fe []runtime.FieldError, omitted int) {
	if len(args) >= math.MaxUint32 {
		return nil, 0
	}
	var framesBuf [16]dupFrame
	var namesBuf [4 * dupLinear]uint32
	frames := framesBuf[:0] // the open arrays and objects
	names := namesBuf[:0]   // where the names of the open objects' members start, each object's after its parent's
	var cur, buf []byte     // a decoded name; the decoded names compared with it
	var spare *memberTable  // a table of a closed object, for the next one
	for i := text.SkipBlanks(args, 0); i < len(args); {
		switch c := args[i]; c {
		case '{', '[':
			frames = append(frames, dupFrame{array: c == '[', base: len(names), key: -1})
			i++
		case '}', ']':
			if len(frames) == 0 {
				return fe, omitted
			}
			f := &frames[len(frames)-1]
			if f.table != nil {
				spare = f.table
			}
			names, frames = names[:f.base], frames[:len(frames)-1]
			i++
		case ',':
			if len(frames) > 0 && frames[len(frames)-1].array {
				frames[len(frames)-1].n++
			}
			i++
		case ' ', '\t', '\n', '\r', ':':
			i++
		case '"':
			end, ok := text.SkipString(args, i)
			if !ok {
				return fe, omitted
			}
			if j := text.SkipBlanks(args, end); len(frames) == 0 || frames[len(frames)-1].array || j >= len(args) || args[j] != ':' {
				i = end // a value
				continue
			}
			f := &frames[len(frames)-1]
			f.key, f.n = i, f.n+1
			body := args[i+1 : end-1]
			name := body
			if !text.Unescaped(body) {
				cur = text.AppendUnquoted(cur[:0], body)
				name = cur
			}
			var dup bool
			switch {
			case f.table != nil:
				dup = f.table.add(args, i, name, &buf)
			case f.n <= dupLinear:
				for _, at := range names[f.base:] {
					if dup = sameName(args, int(at), name, &buf); dup {
						break
					}
				}
				if !dup {
					names = append(names, uint32(i))
				}
			default:
				// The object has more members than are compared one
				// with another: its names go to a table, the root's sized
				// for all its members at once.
				size := 2 * dupLinear
				if len(frames) == 1 {
					size, _ = text.CountMembers(args)
				}
				f.table, spare = spare.reset(size), nil
				for _, at := range names[f.base:] {
					f.table.add(args, int(at), nameAt(args, int(at), &buf), &cur)
				}
				names = names[:f.base]
				dup = f.table.add(args, i, nameAt(args, i, &cur), &buf)
			}
			if dup {
				if len(fe) >= limit {
					omitted++
				} else {
					fe = append(fe, repeatedArg(args, frames, nameAt(args, i, &cur)))
				}
			}
			i = end
		default:
			end, ok := text.SkipValue(args, i) // a number or a literal
			if !ok {
				return fe, omitted
			}
			i = end
		}
	}
	return fe, omitted
}

// dupLinear is the number of members up to which repeatedArgs compares
// the names of an object one with another.
const dupLinear = 16

// dupTokenBytes is where a reference token of a JSON pointer in a
// repeatedArgs error is cut, as in generated decoders' errors
// (wire.MaxTokenBytes).
const dupTokenBytes = 256

// dupFrame is an array or object repeatedArgs is in.
type dupFrame struct {
	array bool
	n     int          // an array's current item; the members an object has had
	key   int          // where an object's current member's name starts (its quote)
	base  int          // where the object's names start in repeatedArgs' names
	table *memberTable // the names of an object of more than dupLinear members
}

// repeatedArg is the field error of the member named name sent twice in
// the innermost object of frames, whose keys are in args.
func repeatedArg(args []byte, frames []dupFrame, name []byte) runtime.FieldError {
	var p strings.Builder
	var buf []byte
	for _, f := range frames {
		p.WriteByte('/')
		if f.array {
			p.WriteString(strconv.Itoa(f.n))
			continue
		}
		k := nameAt(args, f.key, &buf)
		if len(k) > dupTokenBytes {
			cut := dupTokenBytes - len("…")
			for cut > 0 && !utf8.RuneStart(k[cut]) {
				cut--
			}
			p.WriteString(text.PointerToken(string(k[:cut])) + "…")
			continue
		}
		p.WriteString(text.PointerToken(string(k)))
	}
	return runtime.FieldError{Path: p.String(), Code: text.CodeDuplicate,
		Message: "property " + strconv.Quote(text.Truncate(string(name), text.ReceivedLimit)) + " sent twice; send each property once"}
}

// nameAt is the decoded text of the JSON string at args[at] (its quote):
// a subslice of args, or *buf, which it reuses.
func nameAt(args []byte, at int, buf *[]byte) []byte {
	end, _ := text.SkipString(args, at)
	body := args[at+1 : end-1]
	if text.Unescaped(body) {
		return body
	}
	*buf = text.AppendUnquoted((*buf)[:0], body)
	return *buf
}

// sameName reports whether the JSON string at args[at] is name, decoded.
func sameName(args []byte, at int, name []byte, buf *[]byte) bool {
	return bytes.Equal(nameAt(args, at, buf), name)
}

// memberTable is a set of the member names of one object, by where each
// starts in the text of the arguments: open addressing over a seeded hash
// of the decoded name (an attacker cannot choose names that collide), at
// most three quarters full, four bytes a slot.
type memberTable struct {
	seed  maphash.Seed
	slots []uint32 // 0: empty; else where a name starts, plus one
	n     int
}

// reset returns t emptied, or a new table when t is nil, with room for n
// names.
func (t *memberTable) reset(n int) *memberTable {
	size := 16
	for 3*size < 4*n {
		size *= 2
	}
	if t == nil || cap(t.slots) < size {
		return &memberTable{seed: maphash.MakeSeed(), slots: make([]uint32, size)}
	}
	t.slots, t.n = t.slots[:size], 0
	clear(t.slots)
	return t
}

// add adds the name starting at args[at], decoded name, unless the table
// has it, and reports whether it had.
func (t *memberTable) add(args []byte, at int, name []byte, buf *[]byte) bool {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow(args, buf)
	}
	mask := len(t.slots) - 1
	for h := int(maphash.Bytes(t.seed, name)) & mask; ; h = (h + 1) & mask {
		s := t.slots[h]
		if s == 0 {
			t.slots[h], t.n = uint32(at)+1, t.n+1
			return false
		}
		if sameName(args, int(s-1), name, buf) {
			return true
		}
	}
}

// grow doubles the table.
func (t *memberTable) grow(args []byte, buf *[]byte) {
	old := t.slots
	t.slots = make([]uint32, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := int(maphash.Bytes(t.seed, nameAt(args, int(s-1), buf))) & mask
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = s
	}
}

// failure builds a failed envelope and applies the repetition guard: the
// same failing call seen threshold times or more in a session gets advice
// that points elsewhere instead of the same error again.
func (g *Gateway) failure(tc runtime.ToolContext, op string, ee *EnvelopeError, args json.RawMessage) *Envelope {
	env := &Envelope{Op: op, Error: ee}
	session, known := caller(tc)
	if !known {
		return env // other clients' failures are not this caller's repetitions
	}
	n := g.rep.hit(session, op, string(ee.Code), args)
	if n >= g.cfg.repetitions {
		ee.Details.Repeated = n
		first := fmt.Sprintf(`tool_help({"path":%q}) shows the required args and a ready-to-run example`, op)
		if g.ops[op] == nil {
			first = fmt.Sprintf(`tool_help({"path":%q}) lists the ops that exist`, ee.HelpPath)
		}
		ee.Details.Next = []string{first, `tool_search({"query":"<what you need, in words>"}) finds another op`}
		if ee.Code == runtime.CodePermissionDenied {
			ee.Details.Next = []string{"writes are disabled: tell the user what you would change instead of calling it"}
		}
		ee.Message = fmt.Sprintf("this same call has now failed %d times (%s); stop repeating it unchanged. %s", n, ee.Code, ee.Message)
	}
	return env
}

// caller identifies who is calling, for what the gateway keeps per caller
// (idempotency keys, repeated calls): the session's ID; without a session
// the process serves one caller. A session without an ID (MCP over stdio,
// or stateless HTTP, which makes one per request) is told apart by its
// identity when it is a pointer; known is false for any other, whose
// calls cannot be told apart from other clients'.
func caller(tc runtime.ToolContext) (id string, known bool) {
	s := tc.Session()
	if s == nil {
		return "", true
	}
	if id := s.ID(); id != "" {
		return id, true
	}
	if v := reflect.ValueOf(s); v.Kind() == reflect.Pointer && !v.IsNil() {
		return anonymousSession(v.UnsafePointer()), true
	}
	return "", false
}

// anonymousSessions numbers the sessions without an ID of their own by a
// weak pointer to each: a session keeps its number while it lives, and a
// new one never takes a collected one's, although the allocator may give
// it the same address (a key made of the address handed the new client
// the old one's idempotency answers).
var anonymousSessions struct {
	mu      sync.Mutex
	next    uint64
	ids     map[weak.Pointer[byte]]uint64
	sweepAt int
}

// anonymousSession returns the caller key of the session object at p.
func anonymousSession(p unsafe.Pointer) string {
	w := weak.Make((*byte)(p))
	a := &anonymousSessions
	a.mu.Lock()
	defer a.mu.Unlock()
	n, ok := a.ids[w]
	if !ok {
		if a.ids == nil {
			a.ids = make(map[weak.Pointer[byte]]uint64)
		}
		if len(a.ids) >= a.sweepAt {
			for k := range a.ids {
				if k.Value() == nil {
					delete(a.ids, k)
				}
			}
			a.sweepAt = max(2*len(a.ids), 1024)
		}
		a.next++
		n = a.next
		a.ids[w] = n
	}
	return "\x00session " + strconv.FormatUint(n, 10)
}

// repetitions counts identical failing calls per session.
type repetitions struct {
	mu sync.Mutex
	// m holds each session's counts, by hash of op, code and args; lru
	// orders the sessions by last call, the most recent first.
	m   map[string]*list.Element
	lru list.List
}

// sessionCalls is one session's counts, an element of repetitions.lru.
type sessionCalls struct {
	session string
	calls   map[[sha256.Size]byte]int
}

const (
	// maxRepetitionKeys bounds the calls one session's counts remember;
	// a session past it forgets its own, not every session's.
	maxRepetitionKeys = 4096
	// maxRepetitionSessions bounds the sessions counted; a new session
	// past it forgets the counts of the one idle longest.
	maxRepetitionSessions = 4096
)

func (r *repetitions) hit(session, op, code string, args json.RawMessage) int {
	// Hashed: a key must not keep a copy of up to Limits.ArgsBytes of
	// arguments for each of maxRepetitionKeys calls; and written in parts,
	// without a copy of the arguments. Compacted first, so that the same
	// call spelt with other blanks counts as the same.
	h := sha256.New()
	for _, part := range []string{op, code} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	if bytes.ContainsAny(args, " \t\r\n") {
		if compact, ok := text.AppendCompactJSON(nil, args, false); ok {
			args = compact
		}
	}
	h.Write(args)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = make(map[string]*list.Element)
	}
	e := r.m[session]
	if e == nil {
		if len(r.m) >= maxRepetitionSessions {
			oldest := r.lru.Back()
			delete(r.m, r.lru.Remove(oldest).(*sessionCalls).session)
		}
		e = r.lru.PushFront(&sessionCalls{session: session})
		r.m[session] = e
	}
	r.lru.MoveToFront(e)
	sc := e.Value.(*sessionCalls)
	if sc.calls == nil || len(sc.calls) >= maxRepetitionKeys {
		sc.calls = make(map[[sha256.Size]byte]int)
	}
	sc.calls[key]++
	return sc.calls[key]
}
