package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// batchItem is one element of tool_batch's items: the fields of the named
// tool, flattened next to "tool", set by read.
type batchItem struct {
	Tool string `json:"tool"`
	helpRequest
	searchRequest
	execRequest
	// raw is the item as sent: its members but "tool" are what a help or
	// search item's tool gets, checked for arguments it does not take as
	// tool_help and tool_search check theirs; a failing help or search
	// item is counted as a repetition of the same item only.
	raw json.RawMessage
	// warnings are an exec item's, as tool_exec gives them (arguments
	// sent next to op).
	warnings []string
}

// batchDoc is the result of tool_batch: one envelope per item, in input
// order.
type batchDoc struct {
	Results []*Envelope `json:"results"`
}

// handleBatch runs the items of one tool_batch call.
//
// Ordering: items are cut into runs at each write op. The reads of a run
// (help, search, exec of read ops) run concurrently, at most
// WithBatchConcurrency at a time; a write runs alone, after every item
// before it has finished and before any item after it starts. So writes run
// in input order and never concurrently with each other or with reads, and
// every read sees the effect of the writes listed before it. Every item
// runs even when an earlier one failed; each has its own envelope. An
// error that must propagate halts the batch (runBatch).
func (g *Gateway) handleBatch(ctx context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	start := g.cfg.clock()
	if fail := g.checkRaw(BatchTool, raw); fail != nil {
		env := g.failure(tc, BatchTool, fail, raw)
		g.stamp(env, start, nil)
		return env, nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' && json.Valid(raw) {
		// Only a valid array is wrapped: `[] ,"x":1` wrapped would be
		// valid JSON with a member the model never sent.
		raw = append(append([]byte(`{"items":`), raw...), '}')
	}
	items, n, fail := g.batchItems(raw)
	if fail != nil {
		env := g.failure(tc, BatchTool, fail, raw)
		g.stamp(env, start, nil)
		return env, nil
	}
	if n > g.cfg.batchLimit {
		env := g.failure(tc, BatchTool, &EnvelopeError{Code: runtime.CodeValidation,
			Message: fmt.Sprintf("tool_batch takes at most %d items, got %d; split the work into several calls", g.cfg.batchLimit, n),
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/items", Code: "maxItems", Message: fmt.Sprintf("at most %d items", g.cfg.batchLimit)}}}}, nil)
		g.stamp(env, start, nil)
		return env, nil
	}
	out, perr := g.runBatch(ctx, tc, items)
	if perr != nil {
		return nil, perr
	}
	ok := true
	for i, e := range out {
		if e == nil {
			out[i] = &Envelope{Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "item produced no answer"}}
			e = out[i]
		}
		g.cfg.limits.bound(e)
		ok = ok && e.OK
	}
	b, err := text.Marshal(batchDoc{Results: out})
	if err != nil {
		env := &Envelope{Op: BatchTool, Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "batch result could not be encoded"}}
		g.stamp(env, start, nil)
		return env, nil
	}
	env := &Envelope{Op: BatchTool, OK: ok, Result: b}
	g.stamp(env, start, nil)
	return env, nil
}

// batchItems reads the items of raw, tool_batch's arguments as sent (an
// array already wrapped as {"items": [...]}), in place: the items, at most
// batchLimit+1 of them, as subslices of raw, and how many there are. The
// members are named exactly, and one other than items is refused by name,
// not ignored; when several are, the first by name.
func (g *Gateway) batchItems(raw []byte) (items []json.RawMessage, n int, fail *EnvelopeError) {
	if !json.Valid(raw) || raw[0] != '{' {
		// null or not an object: encoding/json's words for what is wrong.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, 0, batchRequired("tool_batch arguments are not valid: " + jsonErrText(err) + "; ")
		}
		return nil, 0, batchRequired("")
	}
	if fail := repeatedMember(BatchTool, raw, g.cfg.limits, ""); fail != nil {
		return nil, 0, fail
	}
	var unknown, list []byte
	sent, other := false, false
	for r := text.NewMemberReader(raw); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		switch {
		case string(m.Name) == "items":
			list, sent = m.Value, true
		case !other || bytes.Compare(m.Name, unknown) < 0:
			// One buffer, reused: names sent in decreasing order cost
			// no allocation each.
			unknown, other = append(unknown[:0], m.Name...), true
		}
	}
	if other {
		k := truncBytes(string(unknown), g.cfg.limits.EchoBytes)
		return nil, 0, &EnvelopeError{Code: runtime.CodeValidation,
			Message: fmt.Sprintf(`tool_batch has no argument %q; it takes {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`, k),
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/" + text.PointerToken(k), Code: "additionalProperties",
				Message: fmt.Sprintf("unknown argument %q", k), Suggestion: "items"}}}}
	}
	if !sent {
		return nil, 0, batchRequired("")
	}
	if list[0] != '[' {
		return nil, 0, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `tool_batch items must be an array: {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/items", Code: "type", Message: "items must be an array",
				Expected: "array", Received: text.Truncate(string(list), text.ReceivedLimit)}}}}
	}
	// The array is valid JSON: each element ends where SkipValue says.
	items = []json.RawMessage{}
	for i := text.SkipBlanks(list, 1); list[i] != ']'; n++ {
		end, _ := text.SkipValue(list, i)
		if n <= g.cfg.batchLimit {
			items = append(items, list[i:end:end])
		}
		if i = text.SkipBlanks(list, end); list[i] == ',' {
			i = text.SkipBlanks(list, i+1)
		}
	}
	return items, n, nil
}

// batchRequired is the error of tool_batch arguments without items, after
// what is wrong with them (why, empty when they are null or {}).
func batchRequired(why string) *EnvelopeError {
	msg := `tool_batch takes {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`
	if why != "" {
		msg = why + msg
	}
	return &EnvelopeError{Code: runtime.CodeValidation, Message: msg,
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/items", Code: "required", Message: "items is required"}}}}
}

// runBatch runs the items of one tool_batch call in the order handleBatch
// describes and returns their envelopes in input order (nil where an item
// produced none), or the first error that must propagate. That error
// halts the batch as it halts an agent turn: no item after the run or
// the write that returned it starts (reads of its run may have). Nor does
// any item once ctx is done: the call is abandoned, and a write started
// then would change what its caller never learns of.
func (g *Gateway) runBatch(ctx context.Context, tc runtime.ToolContext, items []json.RawMessage) ([]*Envelope, error) {
	out := make([]*Envelope, len(items))
	type pending struct {
		i    int
		item batchItem
	}
	// A run holds at most every item: one allocation, where appending
	// doubled a slice of items of some 200 bytes seven times for a
	// hundred of them.
	reads := make([]pending, 0, len(items))
	var perr error
	var perrOnce sync.Once
	notRun := func(item batchItem) *Envelope {
		return g.itemFailure(item, &EnvelopeError{Code: runtime.CodeInternal,
			Message: "not run: the call was cancelled before this item started (" + ctx.Err().Error() + ")"}, g.cfg.clock())
	}
	runReads := func() {
		if len(reads) == 0 {
			return
		}
		sem := make(chan struct{}, g.cfg.batchConc)
		var wg sync.WaitGroup
		for _, p := range reads {
			sem <- struct{}{}
			if ctx.Err() != nil {
				<-sem
				out[p.i] = notRun(p.item)
				continue
			}
			wg.Add(1)
			go func(p pending) {
				defer func() { <-sem; wg.Done() }()
				env, err := g.batchOne(ctx, tc, p.item)
				if err != nil {
					perrOnce.Do(func() { perr = err })
				}
				out[p.i] = env
			}(p)
		}
		wg.Wait()
		reads = reads[:0]
	}
	for i, rawItem := range items {
		item, env := g.parseItem(tc, rawItem)
		if env != nil {
			out[i] = env
			continue
		}
		if !g.isWrite(item) {
			reads = append(reads, pending{i, item})
			continue
		}
		runReads()
		if perr != nil {
			// The batch is halted: its answer is the error, so an item
			// after it must not run, least of all a write whose result
			// the model would never see.
			return out, perr
		}
		if ctx.Err() != nil {
			out[i] = notRun(item)
			continue
		}
		env, err := g.batchOne(ctx, tc, item)
		if err != nil {
			return out, err
		}
		out[i] = env
	}
	runReads()
	return out, perr
}

// itemShape is how a batch item looks, the advice of an item's errors
// when the item names no tool it can run.
const itemShape = `items look like {"tool":"exec","op":"<op>","args":{...}}`

// parseItem decodes one untrusted item. An item that does not parse is
// answered (env) as the direct call of its tool answers the same
// members: the same error, in the same words, counted as a repetition
// as that call's is, and with meta where that call's envelope has it (an
// exec item's). An item that names no tool it can run (not an object,
// "tool" sent twice or not a string, a tool other than help, search and
// exec) is answered in the item's words, with meta, as every item result
// that is not a document.
func (g *Gateway) parseItem(tc runtime.ToolContext, raw json.RawMessage) (item batchItem, env *Envelope) {
	start := g.cfg.clock()
	lim := g.cfg.limits
	item.raw = raw
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		// null and other non-objects would decode as an empty item (the
		// root help): an item names what it runs.
		return item, g.itemFailure(item, &EnvelopeError{Code: runtime.CodeValidation,
			Message: "item must be an object; " + itemShape}, start)
	}
	bad, tools := item.read(raw)
	if tools <= 1 && bad[ownTool] == nil {
		item.Tool = item.tool(bad)
	} else {
		item.Tool = "" // {"tool":"exec","op":"todo.delete","tool":"help"} is read as neither
	}
	// Only the type errors of the members the item's tool takes are its
	// errors: an exec item's "query":{...} is an argument sent next to op,
	// and a help item's "limit":"x" an argument tool_help does not take.
	switch item.Tool {
	case "help":
		if fail := repeatedMember(HelpTool, raw, lim, helpShape); fail != nil {
			return item, g.failure(tc, HelpTool, fail, raw)
		}
		if b := bad[ownHelp]; b != nil {
			return item, &Envelope{Op: HelpTool, Error: b.invalid(helpInvalid, helpSend)}
		}
		return item, nil
	case "search":
		fail := repeatedMember(SearchTool, raw, lim, searchShape)
		if b := bad[ownSearch]; fail == nil && b != nil {
			fail = b.invalid(searchInvalid, searchSend)
		}
		if fail != nil {
			return item, g.failure(tc, SearchTool, fail, raw)
		}
		return item, nil
	case "exec":
		// Reuse tool_exec's leniency for args, and its answer to a member
		// of the wrong type.
		var req execRequest
		var warnings []string
		fail := repeatedMember(ExecTool, raw, lim, execShape)
		if fail == nil {
			req, warnings, fail = readExec(raw, lim, true)
		}
		if fail != nil {
			fail.HelpPath = ""
			env := g.failure(tc, req.Op, fail, raw)
			g.stamp(env, start, warnings)
			return item, env
		}
		item.execRequest, item.warnings = req, warnings
		return item, nil
	}
	if fail := repeatedMember("the item", raw, lim, "; "+itemShape); fail != nil {
		return item, g.itemFailure(item, fail, start)
	}
	if b := bad[ownTool]; b != nil {
		return item, g.itemFailure(item, b.invalid("item is not valid: ", "; "+itemShape), start)
	}
	return item, g.itemFailure(item, &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf(`unknown item tool %q: use "help", "search" or "exec"`, item.Tool),
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/tool", Code: "enum", Message: "tool must be help, search or exec", Received: item.Tool}}}}, start)
}

// tool is the tool an item read without a type error in its "tool"
// member runs: the one it names ("help", "tool_help", " Search "), or, when
// it names none, exec for an item with an op, search for one with a query,
// help for the others.
func (item *batchItem) tool(bad [owners]*badMember) string {
	tool := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(item.Tool)), "tool_")
	if tool != "" {
		return tool
	}
	switch {
	case item.Op != "" || bad[ownExec] != nil:
		return "exec"
	case item.Query != "" || bad[ownSearch] != nil:
		return "search"
	}
	return "help"
}

// itemFailure is the result of an item that names no tool it can run:
// the error, with meta.
func (g *Gateway) itemFailure(item batchItem, fail *EnvelopeError, start time.Time) *Envelope {
	env := &Envelope{Op: item.Op, Error: fail}
	g.stamp(env, start, nil)
	return env
}

// itemFields are the members of a batch item that batchItem holds (its
// own and those of the requests it embeds), by JSON name, each with the
// JSON type its field error names.
var itemFields = []struct {
	name, kind string
	owner      int // ownTool, ownExec, ownHelp or ownSearch
}{
	{"tool", "string", ownTool}, {"op", "string", ownExec}, {"args", "object", ownExec}, {"idempotency_key", "string", ownExec}, {"dry_run", "boolean", ownExec},
	{"path", "string", ownHelp}, {"format", "string", ownHelp}, {"include_examples", "boolean", ownHelp}, {"include_schemas", "boolean", ownHelp},
	{"query", "string", ownSearch}, {"limit", "integer", ownSearch},
}

// The owners of itemFields: the item itself and the tool whose field it is.
const (
	ownTool = iota
	ownExec
	ownHelp
	ownSearch
	owners
)

// read sets the fields of item from raw, a batch item or the arguments of
// tool_help or tool_search (a JSON object of valid JSON), as decoding raw
// into item with encoding/json did, but in place: the members are read
// one by one, and only those of itemFields are decoded; the others, which
// the item's tool reads or refuses, cost nothing here (encoding/json
// scanned the item twice and allocated for each escaped name: a megabyte
// of them beside op cost 66,000 allocations). As with encoding/json, a
// member sets a field named exactly or else up to case, folded as
// encoding/json folds it ("TOOL"; "include_\u017fchemas", U+017F being
// s), the last one sent wins (a repeated member is refused after this),
// and of the values of the wrong type the first sent is the error, once
// every member is read: the answer names the op. bad holds that member
// for each owner of itemFields; tools counts the members named "tool"
// exactly.
func (item *batchItem) read(raw []byte) (bad [owners]*badMember, tools int) {
	for r := text.NewMemberReader(raw); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		if string(m.Name) == "tool" {
			tools++
		}
		f := itemField(m.Name)
		if f < 0 {
			continue
		}
		err := item.set(itemFields[f].name, m.Value)
		if o := itemFields[f].owner; err != nil && bad[o] == nil {
			// encoding/json matched the member up to case: the answer
			// names the one sent.
			bad[o] = &badMember{field: f, name: string(m.Name), value: m.Value, err: err}
		}
	}
	return bad, tools
}

// badMember is the first member of a request, in the order sent, whose
// value does not decode into the field it sets.
type badMember struct {
	field int    // the field it sets: an index in itemFields
	name  string // its name as sent, decoded
	value []byte // its value as sent
	err   error  // the decoding error
}

// invalid is the answer to a request whose member m does not decode, in
// the words of the call that reads it: what the call is (what, "tool_help
// arguments are not valid: "), what is wrong, and the advice (send, "; send
// {...}"). It names the member by its JSON name, not by the Go struct that
// holds it ("limit", not "searchRequest.limit"), as json.Unmarshal of the
// call's request named it, with the field error at the member as sent.
func (m *badMember) invalid(what, send string) *EnvelopeError {
	var te *json.UnmarshalTypeError
	if !errors.As(m.err, &te) {
		// Not reached: the request is valid JSON.
		return &EnvelopeError{Code: runtime.CodeValidation, Message: what + jsonErrText(m.err) + send}
	}
	f := itemFields[m.field]
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: what + fmt.Sprintf("%s must be %s, got %s", f.name, jsonKindOf(te.Type), te.Value) + send,
		Details: Details{FieldErrors: []runtime.FieldError{typeFieldError(m.name, f.kind, te.Value, m.value)}}}
}

// decodeRequest decodes raw, the arguments of tool_help or tool_search
// (not blank, not null), into R, the request whose fields of itemFields
// own holds (field takes them from a batchItem), as json.Unmarshal
// into an R decodes them, and gives the tool's answer (what, send: as
// badMember.invalid) when they do not decode. The members of an object
// are read in place (batchItem.read); json.Unmarshal decodes only other
// values and text that is not JSON, which it refuses before reading any
// member. Decoding an object with it cost an allocation per escaped
// member name: 66,000 for a megabyte of names the request does not have.
func decodeRequest[R any](raw []byte, own int, what, send string, field func(batchItem) R) (R, *EnvelopeError) {
	if raw[0] != '{' || !json.Valid(raw) {
		var req R
		if err := json.Unmarshal(raw, &req); err != nil {
			return req, argsInvalid(what, send, err, raw)
		}
		return req, nil
	}
	var item batchItem
	bad, _ := item.read(raw)
	if bad[own] != nil {
		return field(item), bad[own].invalid(what, send)
	}
	return field(item), nil
}

// argsInvalid is the answer to arguments raw that json.Unmarshal does not
// decode (err), in the words of the tool that reads them (what, send).
func argsInvalid(what, send string, err error, raw json.RawMessage) *EnvelopeError {
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: what + jsonErrText(err) + send,
		Details: Details{FieldErrors: typeErrors(err, raw)}}
}

// set decodes v, the value of the member of JSON name name (one of
// itemFields), into the field of item that holds it. Each field is decoded
// through decodeField with its own type, not through a pointer to it in an
// interface: that pointer would escape to encoding/json and move every
// item to the heap, when most members are strings decoded in place.
func (item *batchItem) set(name string, v []byte) error {
	switch name {
	case "tool":
		return decodeString(&item.Tool, v)
	case "op":
		return decodeString(&item.Op, v)
	case "args":
		item.Args = v // an exec item's, read again by readExec
		return nil
	case "idempotency_key":
		return decodeString(&item.IdempotencyKey, v)
	case "dry_run":
		return decodeField(&item.DryRun, v)
	case "path":
		return decodeString(&item.Path, v)
	case "format":
		return decodeString(&item.Format, v)
	case "include_examples":
		return decodeField(&item.IncludeExamples, v)
	case "include_schemas":
		return decodeField(&item.IncludeSchemas, v)
	case "query":
		return decodeString(&item.Query, v)
	case "limit":
		return decodeField(&item.Limit, v)
	}
	return nil
}

// decodeString sets *p from v as decodeField does, without decoding a
// string that is its own text.
func decodeString(p *string, v []byte) error {
	if len(v) > 1 && v[0] == '"' && text.Unescaped(v[1:len(v)-1]) {
		*p = string(v[1 : len(v)-1])
		return nil
	}
	return decodeField(p, v)
}

// decodeField sets *p from v, the text of a JSON value, as encoding/json
// sets a struct field it decodes the value into: null leaves a string or
// a boolean as it is and sets a pointer to nil, a value of the wrong type
// leaves the field as it is (but for a nil pointer, which then points to
// a zero value), and a pointer already set has its value overwritten. The
// value is decoded into a copy of *p, so that only the copy escapes to
// encoding/json, and only on the rare paths that reach it.
func decodeField[T any](p *T, v []byte) error {
	x := *p
	err := json.Unmarshal(v, &x)
	*p = x
	return err
}

// itemField returns the index in itemFields of the field a member named
// name sets, or -1.
func itemField(name []byte) int {
	for i, f := range itemFields {
		if string(name) == f.name {
			return i
		}
	}
	// A letter folds from a code point of three bytes at most (U+212A,
	// the Kelvin sign, is k): a longer name is none of them.
	if len(name) > 3*len("include_examples") {
		return -1
	}
	for i, f := range itemFields {
		if bytes.EqualFold(name, []byte(f.name)) {
			return i
		}
	}
	return -1
}

// isWrite reports whether an item executes a write op.
func (g *Gateway) isWrite(item batchItem) bool {
	if item.Tool != "exec" {
		return false
	}
	b, _ := g.resolve(strings.TrimSpace(item.Op))
	return b != nil && b.op.Kind == runtime.OpWrite
}

func (g *Gateway) batchOne(ctx context.Context, tc runtime.ToolContext, item batchItem) (*Envelope, error) {
	switch item.Tool {
	case "help":
		if fail := g.unknownHelpArgs(item.raw, true, item.helpRequest); fail != nil {
			return g.failure(tc, HelpTool, fail, item.raw), nil
		}
		return g.help(tc, item.helpRequest), nil
	case "search":
		if fail := g.unknownSearchArgs(item.raw, true, item.searchRequest); fail != nil {
			return g.failure(tc, SearchTool, fail, item.raw), nil
		}
		return g.search(tc, item.searchRequest), nil
	}
	return g.exec(ctx, tc, item.execRequest, item.warnings, g.cfg.clock())
}
