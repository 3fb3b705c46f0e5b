package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// batchItem is one element of tool_batch's items: the fields of the named
// tool, flattened next to "tool".
type batchItem struct {
	Tool string `json:"tool"`
	helpRequest
	searchRequest
	execRequest
	// members are a help or search item's members but "tool": what its
	// tool would get, checked for arguments it does not take as tool_help
	// and tool_search check theirs.
	members map[string]json.RawMessage
	// raw is the item as sent: a failing help or search item is counted
	// as a repetition of the same item only.
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
	var items []json.RawMessage
	if fail := g.checkRaw(BatchTool, raw); fail != nil {
		env := g.failure(tc, BatchTool, fail, raw)
		g.stamp(env, start, nil)
		return env, nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		raw = append(append([]byte(`{"items":`), raw...), '}')
	}
	// Members are named exactly, and one other than items is refused by
	// name, not ignored.
	var members map[string]json.RawMessage
	err := json.Unmarshal(raw, &members)
	if fail := repeatedMember(BatchTool, raw, g.cfg.limits, ""); fail != nil && err == nil {
		env := g.failure(tc, BatchTool, fail, raw)
		g.stamp(env, start, nil)
		return env, nil
	}
	if err == nil {
		for _, k := range slices.Sorted(maps.Keys(members)) {
			if k != "items" {
				k = truncBytes(k, g.cfg.limits.EchoBytes)
				fail := &EnvelopeError{Code: runtime.CodeValidation,
					Message: fmt.Sprintf(`tool_batch has no argument %q; it takes {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`, k),
					Details: Details{FieldErrors: []runtime.FieldError{{Path: "/" + text.PointerToken(k), Code: "additionalProperties",
						Message: fmt.Sprintf("unknown argument %q", k), Suggestion: "items"}}}}
				env := g.failure(tc, BatchTool, fail, raw)
				g.stamp(env, start, nil)
				return env, nil
			}
		}
		if m, ok := members["items"]; ok {
			if json.Unmarshal(m, &items) != nil || items == nil {
				m = bytes.TrimSpace(m)
				env := g.failure(tc, BatchTool, &EnvelopeError{Code: runtime.CodeValidation,
					Message: `tool_batch items must be an array: {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`,
					Details: Details{FieldErrors: []runtime.FieldError{{Path: "/items", Code: "type", Message: "items must be an array",
						Expected: "array", Received: text.Truncate(string(m), text.ReceivedLimit)}}}}, raw)
				g.stamp(env, start, nil)
				return env, nil
			}
		}
	}
	if err != nil || items == nil {
		msg := `tool_batch takes {"items":[{"tool":"exec","op":"<op>","args":{...}}, ...]}`
		if err != nil {
			msg = "tool_batch arguments are not valid: " + jsonErrText(err) + "; " + msg
		}
		env := g.failure(tc, BatchTool, &EnvelopeError{Code: runtime.CodeValidation, Message: msg,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/items", Code: "required", Message: "items is required"}}}}, raw)
		g.stamp(env, start, nil)
		return env, nil
	}
	if len(items) > g.cfg.batchLimit {
		env := g.failure(tc, BatchTool, &EnvelopeError{Code: runtime.CodeValidation,
			Message: fmt.Sprintf("tool_batch takes at most %d items, got %d; split the work into several calls", g.cfg.batchLimit, len(items)),
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

// runBatch runs the items of one tool_batch call in the order handleBatch
// describes and returns their envelopes in input order (nil where an item
// produced none), or the first error that must propagate.
func (g *Gateway) runBatch(ctx context.Context, tc runtime.ToolContext, items []json.RawMessage) ([]*Envelope, error) {
	out := make([]*Envelope, len(items))
	type pending struct {
		i    int
		item batchItem
	}
	var reads []pending
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
					perrOnce.Do(func() { perr = err })
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
	if err := json.Unmarshal(raw, &item); err != nil {
		return item, &EnvelopeError{Code: runtime.CodeValidation,
			Message: "item is not valid: " + jsonErrText(err) + `; items look like {"tool":"exec","op":"<op>","args":{...}}`}
	}
	// {"tool":"exec","op":"todo.delete","tool":"help"} must not be read as
	// either.
	if fail := repeatedMember("the item", raw, lim, `; items look like {"tool":"exec","op":"<op>","args":{...}}`); fail != nil {
		return item, fail
	}
	item.Tool = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(item.Tool)), "tool_")
	if item.Tool == "" {
		switch {
		case item.Op != "":
			item.Tool = "exec"
		case item.Query != "":
			item.Tool = "search"
		default:
			item.Tool = "help"
		}
	}
	switch item.Tool {
	case "help", "search":
		// The item's own members, as its tool would get them.
		if json.Unmarshal(raw, &item.members) == nil {
			delete(item.members, "tool")
		}
		return item, nil
	case "exec":
		// Reuse tool_exec's leniency for args.
		req, warnings, fail := parseExec(raw, lim)
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
		if fail := g.unknownHelpArgs(item.members, item.helpRequest); fail != nil {
			return g.failure(tc, HelpTool, fail, item.raw), nil
		}
		return g.help(tc, item.helpRequest), nil
	case "search":
		if fail := g.unknownSearchArgs(item.members, item.searchRequest); fail != nil {
			return g.failure(tc, SearchTool, fail, item.raw), nil
		}
		return g.search(tc, item.searchRequest), nil
	}
	return g.exec(ctx, tc, item.execRequest, item.warnings, g.cfg.clock())
}
