package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Hit is one ranked op returned by Index.Search.
type Hit struct {
	Op    string         `json:"op"`
	Tool  string         `json:"tool"`
	Kind  runtime.OpKind `json:"kind"`
	Score float64        `json:"score"`
	Usage string         `json:"usage"`
}

// searchRequest is the argument object of tool_search.
type searchRequest struct {
	Query string `json:"query"`
	// Limit is nil when not sent.
	Limit *int `json:"limit"`
}

// searchDoc is the result of tool_search: each hit's op, its kind when
// it writes, and its arguments as in its usage line, without the query,
// scores or tool names a model does not act on. How to go on from a hit
// is in the gateway tools' descriptions, read once at boot; only an
// answer without hits says what to try next.
type searchDoc struct {
	Hits []searchHit `json:"hits"`
	Next string      `json:"next,omitempty"`
}

type searchHit struct {
	Op   string         `json:"op"`
	Kind runtime.OpKind `json:"kind,omitempty"`
	Args string         `json:"args"`
}

// searchNoneNx is the advice of a tool_search answer without hits.
const searchNoneNx = `no op matched: try other words, or tool_help {"path":""}`

const maxSearchLimit = 20

func (g *Gateway) handleSearch(_ context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	var req searchRequest
	if fail := g.checkRaw(SearchTool, raw); fail != nil {
		return g.failure(tc, SearchTool, fail, raw), nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && string(raw) != "null" {
		if raw[0] == '"' {
			// a bare string is the query, when it is one
			if err := json.Unmarshal(raw, &req.Query); err != nil {
				return g.failure(tc, SearchTool, searchArgsInvalid(err, raw), raw), nil
			}
		} else if fail := repeatedMember(SearchTool, raw, g.cfg.limits, searchShape); fail != nil && json.Valid(raw) {
			return g.failure(tc, SearchTool, fail, raw), nil
		} else if req, fail = decodeSearch(raw); fail != nil {
			return g.failure(tc, SearchTool, fail, raw), nil
		} else if fail := g.unknownSearchArgs(raw, false, req); fail != nil {
			return g.failure(tc, SearchTool, fail, raw), nil
		}
	}
	return g.search(tc, req), nil
}

// The words of tool_search's answers to arguments it cannot read: the
// shape after a repeated member, and the start and the end of the answer
// to arguments that do not decode.
const (
	searchShape   = `: {"query":"<need, in words>"}`
	searchInvalid = "tool_search arguments are not valid: "
	searchSend    = `; send {"query":"<need, in words>"}`
)

// decodeSearch decodes raw, tool_search arguments (not blank, not null,
// not a string), as json.Unmarshal into a searchRequest decodes them
// (decodeRequest).
func decodeSearch(raw []byte) (searchRequest, *EnvelopeError) {
	return decodeRequest(raw, ownSearch, searchInvalid, searchSend, func(item batchItem) searchRequest { return item.searchRequest })
}

// searchArgsInvalid is the answer to tool_search arguments raw that do
// not decode (err).
func searchArgsInvalid(err error, raw json.RawMessage) *EnvelopeError {
	return argsInvalid(searchInvalid, searchSend, err, raw)
}

// searchArgs are the arguments tool_search takes.
var searchArgs = []string{"query", "limit"}

// unknownSearchArgs refuses arguments tool_search does not take ({"q":…}
// for {"query":…}, a "group" filter it does not have) instead of ignoring
// them (unknownArg).
func (g *Gateway) unknownSearchArgs(obj []byte, inItem bool, req searchRequest) *EnvelopeError {
	ee, _ := g.unknownArg(obj, inItem, "tool_search", searchArgs, strings.TrimSpace(req.Query) != "", g.cfg.limits.QueryBytes)
	return ee
}

func (g *Gateway) search(tc runtime.ToolContext, req searchRequest) *Envelope {
	if strings.TrimSpace(req.Query) == "" {
		return g.failure(tc, SearchTool, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `query is empty: describe what you need, e.g. {"query":"update a task's due date"}`,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/query", Code: "required", Message: "query is required"}}}}, nil)
	}
	if e := g.checkLen(SearchTool, "/query", "query", req.Query, g.cfg.limits.QueryBytes); e != nil {
		e.Message += "; describe the need in a few words"
		return g.failure(tc, SearchTool, e, nil)
	}
	limit := DefaultSearchLimit
	if req.Limit != nil && *req.Limit > 0 {
		limit = min(*req.Limit, maxSearchLimit)
	}
	doc := searchDoc{Hits: []searchHit{}}
	for _, h := range g.index.Search(req.Query, limit) {
		sh := searchHit{Op: h.Op, Args: argsOfUsage(h.Op, h.Usage)}
		if h.Kind == runtime.OpWrite {
			sh.Kind = runtime.OpWrite
		}
		doc.Hits = append(doc.Hits, sh)
	}
	if len(doc.Hits) == 0 {
		doc.Next = searchNoneNx
	} else if req.Limit != nil && (*req.Limit < 1 || *req.Limit > maxSearchLimit) {
		// Said, not done silently: a model that asked for 100 would
		// believe it saw every match.
		doc.Next = fmt.Sprintf("limit is 1 to %d; at most %d are shown", maxSearchLimit, limit)
	}
	b, err := text.Marshal(doc)
	if err != nil {
		return &Envelope{Op: SearchTool, Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "search result could not be encoded"}}
	}
	return &Envelope{Op: SearchTool, OK: true, Result: b}
}

// argsOfUsage is a usage line without its op: the arguments alone.
func argsOfUsage(op, usage string) string {
	return strings.TrimSpace(strings.TrimPrefix(usage, op))
}
