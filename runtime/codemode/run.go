package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// RegexpMatchTimeout bounds one regular-expression match of a script that
// goja runs with its backtracking engine (patterns RE2 cannot run): such a
// match runs in Go, where the wall-time interrupt cannot stop it. A match
// that times out finds nothing. It is set on the engine's regexp package
// (regexp2/v2, used by nothing else in toolgen) when this package loads.
const RegexpMatchTimeout = time.Second

func init() {
	if regexp2.DefaultMatchTimeout > RegexpMatchTimeout {
		regexp2.DefaultMatchTimeout = RegexpMatchTimeout
	}
}

// Outcome is the answer of one script run, rendered to the model as
// compact JSON.
type Outcome struct {
	OK bool `json:"ok"`
	// Result is the script's return value as JSON (absent when it
	// returned nothing); when cut, a JSON string holding the start.
	Result json.RawMessage `json:"result,omitempty"`
	// Console is what the script logged, one console.log a line.
	Console string `json:"console,omitempty"`
	// Error says why a failed run failed.
	Error *ScriptError `json:"error,omitempty"`
	// OpCalls counts the op calls the script made.
	OpCalls int `json:"op_calls"`
	// Notes say what was cut.
	Notes []string `json:"notes,omitempty"`
}

// ScriptError is the error member of a failed run.
type ScriptError struct {
	// Code is LIMIT_EXCEEDED, SYNTAX_ERROR, SCRIPT_ERROR (the script threw),
	// an op envelope's code (an op error the script did not catch) or
	// VALIDATION_ERROR (tool_code's own arguments).
	Code    string `json:"code"`
	Message string `json:"message"`
	// Limit names the limit a LIMIT_EXCEEDED run hit.
	Limit string `json:"limit,omitempty"`
	// Line and Column locate the error in the script (1-based), when known.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Op and OpError are the failed op call's path and envelope error, for
	// an op error the script did not catch.
	Op      string                 `json:"op,omitempty"`
	OpError *gateway.EnvelopeError `json:"op_error,omitempty"`
}

// Error codes of a failed run besides the envelope codes.
const (
	CodeLimit  = "LIMIT_EXCEEDED"
	CodeSyntax = "SYNTAX_ERROR"
	CodeScript = "SCRIPT_ERROR"
)

// Limit names.
const (
	LimitWallTime  = "wall_time"
	LimitOpCalls   = "op_calls"
	LimitOutput    = "output"
	LimitScript    = "script_size"
	LimitCallDepth = "call_depth"
	LimitMemory    = "memory"
)

// Render implements runtime.Renderer: compact JSON.
func (o *Outcome) Render() string {
	b, err := text.Marshal(o)
	if err != nil {
		return `{"ok":false,"error":{"code":"INTERNAL","message":"outcome could not be encoded"}}`
	}
	return string(b)
}

// limitHit is the interrupt value of a run that exceeded a limit.
type limitHit struct {
	name, msg string
}

func (l *limitHit) Error() string { return l.msg }

// wrapPrefix turns the script into an async function expression; the
// script's line n is line n+1 of the wrapped source.
const (
	wrapPrefix = "(async function () {\n"
	wrapSuffix = "\n})"
)

// Run runs one script. The returned error is non-nil only when an op's
// handler returned an error that must propagate (runtime.Propagator).
func (m *Mode) Run(ctx context.Context, tc runtime.ToolContext, script string) (*Outcome, error) {
	lim := m.limits
	if len(script) > lim.Script {
		return &Outcome{Error: &ScriptError{Code: CodeLimit, Limit: LimitScript,
			Message: fmt.Sprintf("script is %d bytes; the limit is %d: do less per script", len(script), lim.Script)}}, nil
	}
	depth, chain := sourceShape(script)
	if depth > maxSourceNesting {
		return &Outcome{Error: &ScriptError{Code: CodeLimit, Limit: LimitScript,
			Message: fmt.Sprintf("script nests brackets %d deep; the limit is %d: write flatter code", depth, maxSourceNesting)}}, nil
	}
	if chain > maxExpressionRun {
		return &Outcome{Error: &ScriptError{Code: CodeLimit, Limit: LimitScript,
			Message: fmt.Sprintf("script has an expression of %d operators or commas in a row; the limit is %d: split it into statements, or put the values in an array", chain, maxExpressionRun)}}, nil
	}
	js, serr := transform(script)
	if serr != nil {
		return &Outcome{Error: serr}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, lim.WallTime)
	defer cancel()
	r := &run{m: m, ctx: ctx, tc: tc, lim: lim, vm: goja.New()}
	return r.exec(js)
}

// transform strips TypeScript syntax from the wrapped script.
func transform(script string) (string, *ScriptError) {
	res := api.Transform(wrapPrefix+script+wrapSuffix, api.TransformOptions{
		Loader:    api.LoaderTS,
		Target:    api.ES2017,
		Format:    api.FormatDefault,
		LogLevel:  api.LogLevelSilent,
		Charset:   api.CharsetUTF8,
		Sourcemap: api.SourceMapInline,
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		// The message quotes the token found, which may be most of the
		// script ("x aaa…"): cut as the other messages are.
		se := &ScriptError{Code: CodeSyntax, Message: truncate(e.Text, 500)}
		if loc := e.Location; loc != nil {
			se.Line, se.Column = loc.Line-1, loc.Column+1
			if se.Line < 1 {
				se.Line = 1
			}
			// An error found past the script's last line that is not blank
			// (at the wrapper's closing line: "return 1 +") is at the end
			// of that line, and what was found there is the wrapper's.
			body := strings.TrimRight(script, " \t\r\n")
			if lines := strings.Count(body, "\n") + 1; se.Line > lines {
				last := body[strings.LastIndexByte(body, '\n')+1:]
				se.Line, se.Column = lines, utf8.RuneCountInString(last)+1
				for _, w := range []string{`but found "}"`, `but found ")"`} {
					se.Message = strings.Replace(se.Message, w, "but the script ended", 1)
				}
				for _, w := range []string{`Unexpected "}"`, `Unexpected ")"`} {
					se.Message = strings.Replace(se.Message, w, "Unexpected end of script", 1)
				}
			}
		}
		if strings.Contains(e.Text, "Unexpected") && importLike(script) {
			se.Message += `; a script has no imports or require: the ops are globals (e.g. await todo.list({}))`
		}
		if len(res.Errors) > 1 {
			se.Message += fmt.Sprintf(" (and %d more errors)", len(res.Errors)-1)
		}
		return "", se
	}
	return string(res.Code), nil
}

// importLike reports whether a line of script starts with an import or
// export statement, which the wrapped script cannot hold.
func importLike(script string) bool {
	for line := range strings.Lines(script) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import{") || strings.HasPrefix(line, "export ") {
			return true
		}
	}
	return false
}

// run is the state of one script run.
type run struct {
	m   *Mode
	ctx context.Context
	tc  runtime.ToolContext
	lim Limits
	vm  *goja.Runtime

	mu      sync.Mutex
	hit     *limitHit // the first limit exceeded
	perr    error     // a propagating handler error
	calls   int
	console strings.Builder
	cut     bool
	notes   []string

	errorCtor  *goja.Object
	jsonParse  goja.Callable
	objectKeys goja.Callable // the original Object.keys
	// objectProto and ownDescriptor are the original Object.prototype and
	// Object.getOwnPropertyDescriptor, for reading an op call's options
	// (callOptions).
	objectProto   *goja.Object
	ownDescriptor goja.Callable

	// countKeys counts an object's enumerable properties by a for…in, up
	// to a most (members).
	countKeys goja.Callable

	// rounded are the ops noted for a result holding an integer the
	// script reads rounded (noteRounded).
	rounded map[string]bool

	// regexpReplace is the guarded RegExp.prototype[Symbol.replace], and
	// regexpReplaceOrig the built-in it guards (replaceRegExp).
	regexpReplace     goja.Value
	regexpReplaceOrig goja.Callable

	// unhandled are the rejected promises no handler has been attached
	// to yet, each with its rank in the order of rejection
	// (trackRejection); rejections counts them all.
	unhandled  map[*goja.Promise]int
	rejections int

	// opErrors are the envelopes of the errors op calls rejected with,
	// by error object. They stay in Go: set on the error as a host
	// object, an envelope's fields could be rewritten by the script (a
	// forged code and op in the outcome) and its Go methods called.
	opErrors map[*goja.Object]*gateway.Envelope
}

// stop records the first limit exceeded and interrupts the engine; the
// run ends failed naming it even when the script catches the exception.
func (r *run) stop(name, msg string) {
	r.mu.Lock()
	if r.hit == nil {
		r.hit = &limitHit{name: name, msg: msg}
	}
	h := r.hit
	r.mu.Unlock()
	r.vm.Interrupt(h)
}

func (r *run) exec(js string) (out *Outcome, perr error) {
	out = &Outcome{}
	vm := r.vm
	vm.SetMaxCallStackSize(r.lim.CallDepth)
	done := make(chan struct{})
	defer close(done)
	go r.watch(done)
	defer func() {
		if p := recover(); p != nil {
			// The engine stopped script code that ran from Go after the
			// script (a getter or toJSON of the return value read by
			// marshal) on a limit: the run ends on that limit, as it would
			// have in the script (it ended as an engine failure).
			var so *goja.StackOverflowError
			var ie *goja.InterruptedError
			if err, ok := p.(error); ok && (errors.As(err, &so) || errors.As(err, &ie)) {
				out = r.finish(r.scriptError(err))
				return
			}
			// The engine panicked on something the guards missed; the run
			// fails and the process goes on.
			out = r.finish(&ScriptError{Code: string(runtime.CodeInternal), Message: "the script engine failed: " + runtime.PanicText(p)})
		}
	}()
	if err := r.setup(); err != nil {
		return r.finish(&ScriptError{Code: string(runtime.CodeInternal), Message: err.Error()}), nil
	}
	v, err := vm.RunString(js)
	if err != nil {
		return r.finish(r.scriptError(err)), r.perr
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return r.finish(&ScriptError{Code: CodeScript, Message: "the script must not end the function it runs in"}), nil
	}
	pv, err := fn(goja.Undefined())
	if err != nil {
		return r.finish(r.scriptError(err)), r.perr
	}
	r.mu.Lock()
	stopped := r.hit != nil || r.perr != nil
	r.mu.Unlock()
	if stopped {
		return r.finish(nil), r.perr
	}
	p, ok := pv.Export().(*goja.Promise)
	if !ok {
		return r.finish(&ScriptError{Code: CodeScript, Message: "the script did not run as an async function"}), nil
	}
	r.noteUnhandled(p)
	switch p.State() {
	case goja.PromiseStateFulfilled:
		res := p.Result()
		if res != nil && !goja.IsUndefined(res) {
			b, err := r.marshal(res, r.lim.Output+1024)
			switch {
			case errors.Is(err, errTooBig):
				out.Result = b
			case err != nil:
				return r.finish(&ScriptError{Code: CodeScript, Message: "the return value has no JSON form: " + truncate(err.Error(), 500)}), r.perr
			default:
				out.Result = b
			}
		}
		o := r.finish(nil)
		o.Result = out.Result
		o.OK = o.Error == nil
		o.cutResult(r.lim.Output)
		return o, r.perr
	case goja.PromiseStateRejected:
		return r.finish(r.thrown(p.Result(), nil)), r.perr
	}
	return r.finish(&ScriptError{Code: CodeScript, Message: "the script awaited a promise that never settles (there are no timers or events)"}), r.perr
}

// finish builds the outcome: the limit hit (which wins over se), the
// console output so far and the call count.
func (r *run) finish(se *ScriptError) *Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := &Outcome{Console: r.console.String(), OpCalls: r.calls, Notes: append([]string(nil), r.notes...)}
	if r.cut {
		o.Notes = append(o.Notes, fmt.Sprintf("console output cut at %d bytes", r.lim.Output))
	}
	if r.hit != nil {
		o.Error = &ScriptError{Code: CodeLimit, Limit: r.hit.name, Message: r.hit.msg}
		if se != nil && se.Line > 0 {
			o.Error.Line, o.Error.Column = se.Line, se.Column
		}
		return o
	}
	if r.perr != nil {
		o.Error = &ScriptError{Code: string(runtime.CodeInternal), Message: r.perr.Error()}
		return o
	}
	o.Error = se
	return o
}

// cutResult replaces a return value longer than max with a JSON string
// holding its start, and says so in a note.
func (o *Outcome) cutResult(max int) {
	if len(o.Result) == 0 || len(o.Result) <= max && json.Valid(o.Result) {
		return // nothing returned, or a result that fits
	}
	n := min(max, len(o.Result))
	for n > 0 && n < len(o.Result) && o.Result[n]&0xC0 == 0x80 {
		n--
	}
	for {
		for n > 0 && n < len(o.Result) && o.Result[n]&0xC0 == 0x80 {
			n--
		}
		enc := text.AppendJSONString(nil, string(o.Result[:n]), false)
		if len(enc) <= max+2 || n == 0 {
			o.Notes = append(o.Notes, fmt.Sprintf("result cut after %d bytes, shown as a string; return less (pick fields, slice lists)", n))
			o.Result = enc
			return
		}
		n = n * max / len(enc)
	}
}

// watch interrupts the run at the deadline, on cancellation, or when the
// heap grows past the memory limit (heapWatch).
func (r *run) watch(done <-chan struct{}) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/gogc:percent"}}
	metrics.Read(sample)
	hw := newHeapWatch(heapBytes(sample[0]), uint64(r.lim.Memory))
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-r.ctx.Done():
			if errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
				r.stop(LimitWallTime, fmt.Sprintf("the script ran longer than %s; do less per script or avoid endless loops", r.lim.WallTime))
			} else {
				r.stop(LimitWallTime, "the call was cancelled")
			}
			return
		case <-tick.C:
			metrics.Read(sample)
			if hw.over(heapBytes(sample[0]), heapBytes(sample[1]), heapBytes(sample[2])) {
				r.stop(LimitMemory, fmt.Sprintf("the script used more than %d MiB of memory; build smaller strings and arrays", r.lim.Memory>>20))
				return
			}
		}
	}
}

// heapWatch decides from the runtime's heap metrics whether a run has
// grown the heap past its limit.
//
// The live heap is as the last garbage collection measured it, and one
// step of the engine may allocate much in Go since then (s += s doubles a
// string in one step, in a copy that neither a collection nor the watch,
// stopped with the world while the collection waits for the copy, can
// interrupt): read alone, it let string doubling reach 2.6 to 6.1 times
// the limit (a median of 897 MiB for 256 MiB), the next steps doubling
// again before a collection had measured the last. So the watch also
// reads the heap's objects, live or not yet freed, which an allocation
// raises at once. The collector keeps them about its goal, GOGC percent
// over the live heap it measured (the greater of its last two measures:
// it frees what the last found dead lazily); objects past that goal by
// more than an eighth of the limit were allocated faster than any
// collection could follow, and when they are past the limit too, the run
// is stopped without waiting for a collection to measure them. Garbage
// made at the pace of script steps, each bounded by Limits.Length, stays
// about the goal.
type heapWatch struct {
	base, limit uint64
	// last is the live heap the last collection measured, measured the
	// one before it.
	last, measured uint64
}

func newHeapWatch(base, limit uint64) *heapWatch {
	return &heapWatch{base: base, limit: limit, last: base, measured: base}
}

// over reports whether the heap is past the limit, given the live heap
// (/gc/heap/live:bytes), the heap's objects
// (/memory/classes/heap/objects:bytes) and GOGC (/gc/gogc:percent).
func (w *heapWatch) over(live, objects, gogc uint64) bool {
	if live > w.base && live-w.base > w.limit {
		return true
	}
	if live != w.last {
		w.measured, w.last = w.last, live
	}
	if gogc == 0 || gogc >= 1<<20 {
		// The collector is off (GOGC=off reads as -1), or paces the heap
		// to no goal worth the name: the live heap is all there is.
		return false
	}
	goal := max(live, w.measured)
	goal += goal / 100 * gogc
	return objects > w.base && objects-w.base > w.limit && objects > goal && objects-goal > w.limit/8
}

func heapBytes(s metrics.Sample) uint64 {
	if s.Value.Kind() == metrics.KindUint64 {
		return s.Value.Uint64()
	}
	return 0
}

// scriptError converts an error of the engine into the run's error.
func (r *run) scriptError(err error) *ScriptError {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if h, ok := ie.Value().(*limitHit); ok {
			return &ScriptError{Code: CodeLimit, Limit: h.name, Message: h.msg}
		}
		return &ScriptError{Code: CodeLimit, Limit: LimitWallTime, Message: fmt.Sprint(ie.Value())}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		r.mu.Lock()
		if r.hit == nil {
			r.hit = &limitHit{name: LimitCallDepth, msg: fmt.Sprintf("calls nested deeper than %d; use a loop instead of deep recursion", r.lim.CallDepth)}
		}
		r.mu.Unlock()
		return &ScriptError{Code: CodeLimit, Limit: LimitCallDepth}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return r.thrown(ex.Value(), ex)
	}
	var ce *goja.CompilerSyntaxError
	if errors.As(err, &ce) {
		se := &ScriptError{Code: CodeSyntax, Message: truncate(ce.Message, 500)}
		se.Line, se.Column = ce.File.Position(ce.Offset).Line, ce.File.Position(ce.Offset).Column
		return se
	}
	return &ScriptError{Code: CodeScript, Message: err.Error()}
}

// stackPos finds the first line:column in an Error's stack.
var stackPos = regexp.MustCompile(`:(\d+):(\d+)`)

// opError returns the envelope of v when v is an error an op call
// rejected with; it reads nothing of v, so no script code runs.
func (r *run) opError(v goja.Value) *gateway.Envelope {
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil
	}
	if env := r.opErrors[obj]; env != nil && env.Error != nil {
		return env
	}
	return nil
}

// ownString returns obj's own data property k if it is a string: read from
// its descriptor, running no getter (an inherited "stack" getter ran after
// the script had ended, and one that threw failed the run as an engine
// failure).
func (r *run) ownString(obj *goja.Object, k string) (string, bool) {
	d, err := r.ownDescriptor(goja.Undefined(), obj, r.vm.ToValue(k))
	desc, ok := d.(*goja.Object)
	if err != nil || !ok {
		return "", false
	}
	v := desc.Get("value")
	if v == nil {
		return "", false
	}
	s, ok := primitive(v).(string)
	return s, ok
}

// thrown describes a value the script threw or a promise rejected with.
func (r *run) thrown(v goja.Value, ex *goja.Exception) *ScriptError {
	se := &ScriptError{Code: CodeScript}
	// An op error is never a Proxy, and a thrown one is read by describe
	// only: reading it here ran its traps outside the engine's handler, and
	// a revoked one ended the run as an engine failure.
	obj, _ := v.(*goja.Object)
	if obj != nil && isProxy(obj) {
		obj = nil
	}
	if obj != nil {
		if env := r.opError(obj); env != nil {
			ee := *env.Error
			if ee.Details.FieldErrors == nil {
				ee.Details.FieldErrors = []runtime.FieldError{}
			}
			se.Code, se.Op, se.OpError = string(ee.Code), env.Op, &ee
			se.Message = fmt.Sprintf("uncaught error of %s: %s", env.Op, ee.Message)
		}
	}
	if se.Op == "" {
		se.Message = "uncaught: " + r.describe(v)
		if m := se.Message; strings.Contains(m, "has no member") || strings.Contains(m, "is not a function") || strings.Contains(m, "is not defined") {
			se.Message += "; " + HelpTool + " lists the ops there are"
		}
	}
	if obj != nil && se.Line == 0 {
		if st, ok := r.ownString(obj, "stack"); ok {
			if m := stackPos.FindStringSubmatch(st); m != nil {
				se.Line, _ = strconv.Atoi(m[1])
				se.Column, _ = strconv.Atoi(m[2])
				se.Line--
			}
		}
	}
	if ex != nil && se.Line <= 0 {
		for _, f := range ex.Stack() {
			p := f.Position()
			if p.Line > 1 {
				// Line 1 is the wrapper's.
				se.Line, se.Column = p.Line-1, p.Column
				break
			}
		}
	}
	return se
}

// describe renders a thrown value briefly: an Error's name and message,
// else the value as JSON or text.
func (r *run) describe(v goja.Value) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = "<a value that could not be shown>"
		}
	}()
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if s, ok := v.(*goja.Symbol); ok {
		return truncate("Symbol("+s.String()+")", 500)
	}
	if obj, ok := v.(*goja.Object); ok {
		if obj.ClassName() == "Error" {
			name, msg := obj.Get("name"), obj.Get("message")
			return truncate(safeString(name)+": "+safeString(msg), 500)
		}
	}
	if b, err := r.marshal(v, 600); err == nil {
		return truncate(string(b), 500)
	}
	return truncate(safeString(v), 500)
}

func safeString(v goja.Value) string {
	if v == nil {
		return ""
	}
	switch v.ExportType() {
	case nil:
		return v.String()
	}
	if _, ok := v.(*goja.Object); ok {
		return "[object]"
	}
	return v.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// setup installs the capabilities: console.log, the op bindings and the
// guards; it removes what could wait or load code.
func (r *run) setup() error {
	vm := r.vm
	g := vm.GlobalObject()
	r.errorCtor, _ = g.Get("Error").(*goja.Object)
	parse, ok := goja.AssertFunction(g.Get("JSON").ToObject(vm).Get("parse"))
	if !ok || r.errorCtor == nil {
		return errors.New("engine lacks JSON.parse or Error")
	}
	r.jsonParse = parse
	objectCtor := g.Get("Object").ToObject(vm)
	if r.objectKeys, ok = goja.AssertFunction(objectCtor.Get("keys")); !ok {
		return errors.New("engine lacks Object.keys")
	}
	if r.ownDescriptor, ok = goja.AssertFunction(objectCtor.Get("getOwnPropertyDescriptor")); !ok {
		return errors.New("engine lacks Object.getOwnPropertyDescriptor")
	}
	if r.objectProto, ok = objectCtor.Get("prototype").(*goja.Object); !ok {
		return errors.New("engine lacks Object.prototype")
	}
	vm.SetPromiseRejectionTracker(r.trackRejection)
	console := vm.NewObject()
	if err := console.Set("log", r.log); err != nil {
		return err
	}
	if err := g.Set("console", console); err != nil {
		return err
	}
	if err := r.guard(); err != nil {
		return err
	}
	return r.bind()
}

// log implements console.log: values separated by spaces, strings as they
// are, other values as JSON; past the output limit the run stops.
func (r *run) log(call goja.FunctionCall) goja.Value {
	var b strings.Builder
	for i, a := range call.Arguments {
		if i > 0 {
			b.WriteByte(' ')
		}
		if s, ok := primitive(a).(string); ok {
			b.WriteString(s)
			continue
		}
		if goja.IsUndefined(a) {
			b.WriteString("undefined")
			continue
		}
		if raw, err := r.marshal(a, r.lim.Output+1); err == nil || errors.Is(err, errTooBig) {
			b.Write(raw)
		} else {
			b.WriteString(r.describe(a))
		}
		if b.Len() > r.lim.Output {
			break
		}
	}
	b.WriteByte('\n')
	r.mu.Lock()
	room := r.lim.Output - r.console.Len()
	over := b.Len() > room
	if over {
		s := b.String()
		n := max(room, 0)
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		r.console.WriteString(s[:n])
		r.cut = true
	} else {
		r.console.WriteString(b.String())
	}
	r.mu.Unlock()
	if over {
		r.stop(LimitOutput, fmt.Sprintf("console output passed %d bytes; log less", r.lim.Output))
		panic(r.vm.NewGoError(errors.New("output limit exceeded")))
	}
	return goja.Undefined()
}

// bindNode is a node of a group's op tree: the op named by its path, if
// any, and its children in order of first appearance.
type bindNode struct {
	op       string
	names    []string
	children map[string]*bindNode
}

// bind installs one global constant per group whose members call the ops.
// The tree is built in Go and every member is an own property, so a path
// segment such as "__proto__" or "constructor" is just a name.
func (r *run) bind() error {
	roots := map[string]*bindNode{}
	for _, op := range r.m.decls.Ops {
		n := roots[op.Group]
		if n == nil {
			n = &bindNode{}
			roots[op.Group] = n
		}
		for _, k := range op.Key {
			c := n.children[k]
			if c == nil {
				if n.children == nil {
					n.children = map[string]*bindNode{}
				}
				c = &bindNode{}
				n.children[k] = c
				n.names = append(n.names, k)
			}
			n = c
		}
		if n.op == "" {
			n.op = op.Path
		}
	}
	for _, g := range r.m.decls.Groups {
		n := roots[g.Ident]
		if n == nil {
			continue
		}
		o, err := r.materialize(n)
		if err != nil {
			return err
		}
		if err := r.vm.GlobalObject().DefineDataProperty(g.Ident, o, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// materialize builds a node: the op's function (or a plain object) with
// its children as read-only own properties.
func (r *run) materialize(n *bindNode) (*goja.Object, error) {
	var o *goja.Object
	if n.op != "" {
		o = r.opFunc(n.op)
	} else {
		o = r.vm.NewObject()
	}
	for _, k := range n.names {
		c, err := r.materialize(n.children[k])
		if err != nil {
			return nil, err
		}
		if err := o.DefineDataProperty(k, c, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// opFunc is the binding of one op: it runs the call through tool_exec's
// handler and returns a promise of the result.
func (r *run) opFunc(op string) *goja.Object {
	return r.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		return r.callOp(op, call)
	}).(*goja.Object)
}

// callOp runs one op call. The call's arguments are checked before the op
// runs: at most two (args and options), options a plain object whose
// members are dry_run and idempotency_key only (callOptions), and args
// with a JSON form, holding no Proxy and no string that is not valid
// Unicode (marshalArgs). A call that fails the checks runs nothing and
// returns a rejected promise, as a failed op call does: the script can
// catch it, and an unawaited one is noted (noteUnhandled).
func (r *run) callOp(op string, call goja.FunctionCall) goja.Value {
	vm := r.vm
	r.mu.Lock()
	r.calls++
	n := r.calls
	r.mu.Unlock()
	if n > r.lim.OpCalls {
		r.stop(LimitOpCalls, fmt.Sprintf("the script made more than %d op calls; do fewer per script", r.lim.OpCalls))
		panic(vm.NewGoError(errors.New("op call limit exceeded")))
	}
	if len(call.Arguments) > 2 {
		return r.rejected(vm.NewTypeError(fmt.Sprintf("%s takes (args, options); it got %d arguments", op, len(call.Arguments))))
	}
	opts, bad := r.callOptions(op, call.Argument(1))
	if bad != nil {
		return r.rejected(bad)
	}
	req := []byte(`{"op":`)
	req = strconv.AppendQuote(req, op)
	args := call.Argument(0)
	if !goja.IsUndefined(args) && !goja.IsNull(args) {
		raw, err := r.marshalArgs(args)
		var ee *encodingError
		switch {
		case errors.As(err, &ee):
			fe := runtime.FieldError{Path: ee.ptr, Code: "encoding", Message: ee.message(), Expected: "UTF-8 text"}
			return r.rejected(r.newError(&gateway.Envelope{Op: op, Error: &gateway.EnvelopeError{Code: runtime.CodeValidation,
				Message:  "invalid args for " + op + ": " + fe.String(),
				Details:  gateway.Details{FieldErrors: []runtime.FieldError{fe}},
				HelpPath: op}}))
		case err != nil:
			return r.rejected(vm.NewTypeError("args of " + op + ": " + err.Error()))
		}
		req = append(req, `,"args":`...)
		req = append(req, raw...)
	}
	req = append(req, opts...)
	req = append(req, '}')
	res, err := r.m.exec(r.ctx, r.tc, req)
	if err != nil {
		r.mu.Lock()
		if r.perr == nil {
			r.perr = err
		}
		r.mu.Unlock()
		vm.Interrupt(err)
		panic(vm.NewGoError(err))
	}
	if r.ctx.Err() != nil {
		r.stop(LimitWallTime, fmt.Sprintf("the script ran longer than %s; do less per script", r.lim.WallTime))
	}
	env, _ := res.Value.(*gateway.Envelope)
	if env != nil && env.Meta != nil {
		for _, w := range env.Meta.Warnings {
			r.note(op + ": " + w)
		}
		if env.Meta.DryRun && env.OK {
			r.note(op + " ran as a dry run: its handler was asked to change nothing")
		}
	}
	p, resolve, reject := vm.NewPromise()
	switch {
	case env == nil:
		_ = reject(r.newError(&gateway.Envelope{Op: op, Error: &gateway.EnvelopeError{Code: runtime.CodeInternal, Message: "op gave no answer"}}))
	case env.OK:
		v := goja.Undefined()
		if len(env.Result) > 0 {
			pv, err := r.jsonParse(goja.Undefined(), vm.ToValue(string(env.Result)))
			if err != nil {
				panic(err)
			}
			v = pv
			r.noteRounded(op, env.Result)
		}
		_ = resolve(v)
	default:
		_ = reject(r.newError(env))
	}
	return vm.ToValue(p)
}

// callOptions reads the options of an op call (its second argument) into
// tool_exec's members: `,"dry_run":true` and `,"idempotency_key":"k"`.
// Options are undefined or a plain object: not a Proxy, an array or a
// function, and inheriting from Object.prototype or nothing. Its own
// members, all of them, enumerable or not, are among those two, each an
// enumerable data property of its type, and Object.prototype holds
// neither. They are read once, from their descriptors, so what is checked
// is what is sent: read as properties, an inherited member escaped the
// check of own names (Object.create({dryRun: true}) ran a real write), a
// getter could answer differently on each read, and a Proxy's traps
// answer as they like. Anything else is refused (bad is the error to
// reject with), since an ignored or misread dry_run would run a real
// write. No script code runs here: a Proxy is refused before any of its
// traps, and a getter is never called.
func (r *run) callOptions(op string, v goja.Value) (opts []byte, bad *goja.Object) {
	vm := r.vm
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	const usage = "; options are {dry_run?: boolean, idempotency_key?: string}"
	refuse := func(msg string) ([]byte, *goja.Object) {
		return nil, vm.NewTypeError(msg + usage + "; the call did not run")
	}
	o, ok := v.(*goja.Object)
	if ok && isProxy(o) {
		// Before anything else: even ClassName runs into a revoked one.
		return refuse(fmt.Sprintf("the options (second argument) of %s must be a plain object, got a Proxy", op))
	}
	if _, fn := goja.AssertFunction(v); !ok || fn || o.ClassName() == "Array" {
		got := r.describe(v)
		switch {
		case fn:
			got = "a function"
		case ok:
			got = "an array"
		}
		return nil, vm.NewTypeError(fmt.Sprintf("the options (second argument) of %s must be an object, got %s%s", op, got, usage))
	}
	proto := o.Prototype()
	if proto != nil && proto != r.objectProto {
		return refuse(fmt.Sprintf("the options (second argument) of %s must be a plain object, got one that inherits from another prototype (a class instance, Object.create(…)): options are read from own members only", op))
	}
	if proto != nil {
		// Object.prototype.dry_run = true: a script reading options.dry_run
		// would see it, the own members read here do not. Only the two
		// names are looked up: a misspelt one there is not read by anyone,
		// and the prototype's names are the script's to multiply.
		for _, k := range callOptionNames {
			if d, err := r.ownDescriptor(goja.Undefined(), proto, vm.ToValue(k)); err != nil || !goja.IsUndefined(d) {
				return refuse(fmt.Sprintf("options of %s would inherit %q from Object.prototype; options are read from own members only: give it in the object", op, k))
			}
		}
	}
	values := map[string]goja.Value{}
	for _, k := range o.GetOwnPropertyNames() {
		if !slices.Contains(callOptionNames, k) {
			msg := fmt.Sprintf("options of %s have no member %q", op, text.Truncate(k, 40))
			s := text.Closest(k, callOptionNames)
			if s == "" {
				s = text.Respelled(k, callOptionNames)
			}
			if s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return refuse(msg)
		}
		d, err := r.ownDescriptor(goja.Undefined(), o, vm.ToValue(k))
		if err != nil {
			return refuse(fmt.Sprintf("options.%s of %s could not be read: %v", k, op, err))
		}
		desc, ok := d.(*goja.Object)
		if !ok || !slices.Contains(desc.Keys(), "value") {
			return refuse(fmt.Sprintf("options.%s of %s is a getter or setter; give it as a plain value", k, op))
		}
		if !desc.Get("enumerable").ToBoolean() {
			return refuse(fmt.Sprintf("options.%s of %s is not enumerable; give it as an ordinary member", k, op))
		}
		values[k] = desc.Get("value")
	}
	if v := values["dry_run"]; v != nil && !goja.IsUndefined(v) {
		b, ok := primitive(v).(bool)
		if !ok {
			return nil, vm.NewTypeError("options.dry_run of " + op + " must be a boolean")
		}
		opts = append(opts, `,"dry_run":`...)
		opts = strconv.AppendBool(opts, b)
	}
	if v := values["idempotency_key"]; v != nil && !goja.IsUndefined(v) {
		s, ok := primitive(v).(string)
		if !ok {
			return nil, vm.NewTypeError("options.idempotency_key of " + op + " must be a string")
		}
		if loneSurrogate(v, s) {
			return nil, vm.NewTypeError("options.idempotency_key of " + op + " is not valid Unicode (an unpaired surrogate)")
		}
		opts = append(opts, `,"idempotency_key":`...)
		opts = text.AppendJSONString(opts, s, false)
	}
	return opts, nil
}

// isProxy reports whether o is a Proxy, without running any of its traps
// (a revoked one included).
func isProxy(o *goja.Object) bool {
	return o.ExportType() == proxyType
}

var proxyType = reflect.TypeOf(goja.Proxy{})

// callOptionNames are the members of an op call's options.
var callOptionNames = []string{"dry_run", "idempotency_key"}

// marshalArgs converts an op call's args to JSON, refusing a string or
// member name that is not valid Unicode (*encodingError): the engine would
// export it with U+FFFD in place of the unpaired surrogate, and the
// handler would see text the script did not mean. It refuses a Proxy
// (marshaler.noProxy) and args with no JSON form. The JSON is the one
// reading of the args: what the op validates is what it runs.
func (r *run) marshalArgs(v goja.Value) ([]byte, error) {
	m := &marshaler{vm: r.vm, max: 1 << 20, wellFormed: true, ownKeys: r.objectKeys, noProxy: true}
	ok, err := m.top(v)
	if err != nil {
		return nil, err
	}
	if !ok {
		// A function, a symbol, a toJSON answering undefined: sent as
		// null, they read as args left out ("args are empty").
		what := "its toJSON gave none"
		if _, fn := goja.AssertFunction(v); fn {
			what = "a function"
		} else if _, sym := v.(*goja.Symbol); sym {
			what = "a symbol"
		}
		return nil, fmt.Errorf("they have no JSON form (%s); pass an object", what)
	}
	return m.b, nil
}

// rejected returns a promise rejected with reason: how an op call that
// could not be made fails, like one the op refused.
func (r *run) rejected(reason goja.Value) goja.Value {
	p, _, reject := r.vm.NewPromise()
	_ = reject(reason)
	return r.vm.ToValue(p)
}

// trackRejection is the engine's promise rejection tracker: it keeps the
// rejected promises that have no handler, until one is attached.
func (r *run) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		if r.unhandled == nil {
			r.unhandled = map[*goja.Promise]int{}
		}
		r.rejections++
		r.unhandled[p] = r.rejections
	case goja.PromiseRejectionHandle:
		delete(r.unhandled, p)
	}
}

// noteUnhandled adds a note for each promise rejected without a handler
// when the script ended, other than the script's own (main): an op call
// that failed while the script neither awaited nor caught it
// (todo.create({title: ""}); return "done") would otherwise pass for a
// success. The run's outcome does not change.
func (r *run) noteUnhandled(main *goja.Promise) {
	ps := make([]*goja.Promise, 0, len(r.unhandled))
	for p := range r.unhandled {
		if p != main {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, func(a, b *goja.Promise) int { return r.unhandled[a] - r.unhandled[b] })
	// Notes are bounded (maxNotes): the first few are described, the rest
	// counted.
	const described = 3
	for i, p := range ps {
		if i == described {
			r.note(fmt.Sprintf("%d more promises were rejected and not awaited or caught", len(ps)-described))
			break
		}
		r.note(r.unhandledNote(p.Result()))
	}
}

// unhandledNote describes a rejection nothing handled: for an op error,
// the op and its error.
func (r *run) unhandledNote(reason goja.Value) (note string) {
	defer func() {
		if p := recover(); p != nil {
			note = "a promise was rejected and the script did not await or catch it"
		}
	}()
	const tail = " and the script did not await or catch it"
	if env := r.opError(reason); env != nil {
		return fmt.Sprintf("%s failed%s: %s: %s", env.Op, tail, env.Error.Code, truncate(env.Error.Message, 300))
	}
	return "a promise was rejected" + tail + ": " + truncate(r.describe(reason), 300)
}

// noteRounded notes, once per op, that the result of op holds an integer
// the script reads rounded: a JavaScript number is a float64, exact up to
// ±2^53, and an ID of 19 digits read so is another ID. The value is not
// changed (a BigInt or a string would not be the number its declaration
// promises): the note warns the model off its last digits.
func (r *run) noteRounded(op string, result []byte) {
	if r.rounded[op] {
		return
	}
	lit, ok := roundedInteger(result)
	if !ok {
		return
	}
	if r.rounded == nil {
		r.rounded = map[string]bool{}
	}
	r.rounded[op] = true
	f, _ := strconv.ParseFloat(lit, 64)
	r.note(fmt.Sprintf("%s returned integers beyond ±2^53, which a script reads rounded (%s as %s): their last digits are not the op's", op, text.Truncate(lit, 40), text.Truncate(strconv.FormatFloat(f, 'f', -1, 64), 40)))
}

// roundedInteger returns the first integer of the JSON text b that a
// script reads, and shows, with other digits: written without a fraction
// or an exponent, and not the digits of the float64 JSON.parse reads
// (9007199254740993 reads as 9007199254740992, and 2^60 shows as
// 1152921504606847000; 2^53 and 1e20 written out keep theirs).
func roundedInteger(b []byte) (string, bool) {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			if j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
				for j < len(b) && strings.IndexByte("0123456789.eE+-", b[j]) >= 0 {
					j++
				}
			} else if lit := string(b[i:j]); len(strings.TrimPrefix(lit, "-")) > 15 {
				if f, err := strconv.ParseFloat(lit, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) != lit {
					return lit, true
				}
			}
			i = j - 1
		}
	}
	return "", false
}

// maxNotes bounds the notes of one run.
const maxNotes = 8

// note adds a note for the model (a gateway warning, a dry run), once.
func (r *run) note(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.notes) >= maxNotes {
		return
	}
	for _, n := range r.notes {
		if n == s {
			return
		}
	}
	r.notes = append(r.notes, s)
}

// newError builds the Error an op call rejects with: message, code, op,
// field_errors, help_path and details, defined as own properties (a
// tampered Error.prototype cannot intercept them).
func (r *run) newError(env *gateway.Envelope) goja.Value {
	vm := r.vm
	ee := env.Error
	obj, err := vm.New(r.errorCtor, vm.ToValue(fmt.Sprintf("%s: %s", ee.Code, ee.Message)))
	if err != nil {
		obj = vm.NewObject()
	}
	fe := ee.Details.FieldErrors
	if fe == nil {
		fe = []runtime.FieldError{}
	}
	feJSON, _ := json.Marshal(fe)
	detJSON, _ := json.Marshal(ee.Details)
	parse := func(b []byte) goja.Value {
		v, err := r.jsonParse(goja.Undefined(), vm.ToValue(string(b)))
		if err != nil {
			return goja.Null()
		}
		return v
	}
	for k, v := range map[string]goja.Value{
		"code":         vm.ToValue(string(ee.Code)),
		"op":           vm.ToValue(env.Op),
		"help_path":    vm.ToValue(ee.HelpPath),
		"field_errors": parse(feJSON),
		"details":      parse(detJSON),
		"name":         vm.ToValue("OpError"),
	} {
		_ = obj.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if r.opErrors == nil {
		r.opErrors = map[*goja.Object]*gateway.Envelope{}
	}
	r.opErrors[obj] = env
	return obj
}
