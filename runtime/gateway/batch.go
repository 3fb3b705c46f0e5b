package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

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
// runs even when an earlier one failed; each has its own envelope.
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
// produced none), or the first error that must propagate.
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
	runReads := func() {
		if len(reads) == 0 {
			return
		}
		sem := make(chan struct{}, g.cfg.batchConc)
		var wg sync.WaitGroup
		for _, p := range reads {
			sem <- struct{}{}
			wg.Add(1)
			go func(p pending) {
				defer func() { <-sem; wg.Done() }()
				env, err := g.batchOne(ctx, tc, p.item)
				if err != nil {
					perrOnce.Do(func() {
						if perr == nil { // a write before this run may have failed first
							perr = err
						}
					})
				}
				out[p.i] = env
			}(p)
		}
		wg.Wait()
		reads = reads[:0]
	}
	for i, rawItem := range items {
		item, fail := parseBatchItem(rawItem, g.cfg.limits)
		if fail != nil {
			out[i] = &Envelope{Op: item.Op, Error: fail}
			continue
		}
		if !g.isWrite(item) {
			reads = append(reads, pending{i, item})
			continue
		}
		runReads()
		env, err := g.batchOne(ctx, tc, item)
		if err != nil && perr == nil {
			perr = err
		}
		out[i] = env
	}
	runReads()
	return out, perr
}

// parseBatchItem decodes one untrusted item.
func parseBatchItem(raw json.RawMessage, lim Limits) (batchItem, *EnvelopeError) {
	item := batchItem{raw: raw}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		// null and other non-objects would decode as an empty item (the
		// root help): an item names what it runs.
		return item, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `item must be an object; items look like {"tool":"exec","op":"<op>","args":{...}}`}
	}
	bad := item.read(raw)
	// {"tool":"exec","op":"todo.delete","tool":"help"} must not be read as
	// either.
	if fail := repeatedMember("the item", raw, lim, `; items look like {"tool":"exec","op":"<op>","args":{...}}`); fail != nil {
		return item, fail
	}
	if bad[ownTool] != nil {
		return item, bad[ownTool]
	}
	item.Tool = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(item.Tool)), "tool_")
	if item.Tool == "" {
		switch {
		case item.Op != "" || bad[ownExec] != nil:
			item.Tool = "exec"
		case item.Query != "" || bad[ownSearch] != nil:
			item.Tool = "search"
		default:
			item.Tool = "help"
		}
	}
	// Only the type errors of the members the item's tool takes are its
	// errors: an exec item's "query":{...} is an argument sent next to op,
	// and a help item's "limit":"x" an argument tool_help does not take.
	switch item.Tool {
	case "help":
		return item, bad[ownHelp]
	case "search":
		return item, bad[ownSearch]
	case "exec":
		// Reuse tool_exec's leniency for args, and its answer to a member
		// of the wrong type; the item's members were found to be sent
		// once above.
		req, warnings, fail := readExec(raw, lim, true)
		if fail != nil {
			return item, fail
		}
		item.execRequest, item.warnings = req, warnings
		return item, nil
	}
	return item, &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf(`unknown item tool %q: use "help", "search" or "exec"`, item.Tool),
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/tool", Code: "enum", Message: "tool must be help, search or exec", Received: item.Tool}}}}
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

// read sets the fields of item from raw, a batch item (a JSON object of
// valid JSON), as decoding raw into item with encoding/json did, but in
// place: the members are read one by one, and only those of
// itemFields are decoded; the others, which the item's tool reads or
// refuses, cost nothing here (encoding/json scanned the item twice and
// allocated for each escaped name: a megabyte of them beside op cost
// 66,000 allocations). As with encoding/json, a member sets a field named
// exactly or else up to case, folded as encoding/json folds it ("TOOL";
// "include_\u017fchemas", U+017F being s), the last one sent wins (a
// repeated member is refused after this), and of the values of the wrong
// type the first sent is the error, once every member is read: the answer
// names the op. The error names the member by its JSON name, not by the
// Go struct that holds it ("limit", not "searchRequest.limit"), with the
// field error tool_help, tool_search and tool_exec give.
func (item *batchItem) read(raw []byte) (bad [owners]*EnvelopeError) {
	for r := text.NewMemberReader(raw); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		f := itemField(m.Name)
		if f < 0 {
			continue
		}
		name, v, o := itemFields[f].name, m.Value, itemFields[f].owner
		err := item.set(name, v)
		if err == nil || bad[o] != nil {
			continue
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			// Not reached: raw is valid JSON.
			bad[o] = itemInvalid(jsonErrText(err))
			continue
		}
		bad[o] = itemInvalid(fmt.Sprintf("%s must be %s, got %s", name, jsonKindOf(te.Type), te.Value))
		// encoding/json matched the member up to case: name the one sent.
		bad[o].Details.FieldErrors = []runtime.FieldError{typeFieldError(string(m.Name), itemFields[f].kind, te.Value, v)}
	}
	return bad
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

// itemInvalid is the answer to a batch item whose members do not decode.
func itemInvalid(why string) *EnvelopeError {
	return &EnvelopeError{Code: runtime.CodeValidation,
		Message: "item is not valid: " + why + `; items look like {"tool":"exec","op":"<op>","args":{...}}`}
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
