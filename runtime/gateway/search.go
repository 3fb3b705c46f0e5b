package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Hit is one ranked op returned by Index.Search.
type Hit struct {
	Op    string  `json:"op"`
	Tool  string  `json:"tool"`
	Kind  string  `json:"kind"`
	Score float64 `json:"score"`
	Usage string  `json:"usage"`
}

// searchRequest is the argument object of tool_search.
type searchRequest struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// searchDoc is the result of tool_search.
type searchDoc struct {
	Query string `json:"query"`
	Hits  []Hit  `json:"hits"`
	Next  string `json:"next"`
}

const maxSearchLimit = 20

func (g *Gateway) handleSearch(_ context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	var req searchRequest
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && string(raw) != "null" {
		if raw[0] == '"' {
			_ = json.Unmarshal(raw, &req.Query)
		} else if err := json.Unmarshal(raw, &req); err != nil {
			return g.failure(tc, SearchTool, &EnvelopeError{Code: runtime.CodeValidation,
				Message: "tool_search arguments are not valid: " + jsonErrText(err) + `; send {"query":"<need, in words>"}`}, raw), nil
		}
	}
	return g.search(tc, req), nil
}

func (g *Gateway) search(tc runtime.ToolContext, req searchRequest) *Envelope {
	if strings.TrimSpace(req.Query) == "" {
		return g.failure(tc, SearchTool, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `query is empty: describe what you need, e.g. {"query":"update a task's due date"}`,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/query", Code: "required", Message: "query is required"}}}}, nil)
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	doc := searchDoc{Query: req.Query, Hits: g.index.Search(req.Query, limit)}
	if doc.Hits == nil {
		doc.Hits = []Hit{}
		doc.Next = `no op matched; try other words or browse with tool_help({"path":""})`
	} else {
		doc.Next = `run one with tool_exec({"op":"<op>","args":{...}}); tool_help({"path":"<op>"}) shows args and an example`
	}
	b, err := marshal(doc)
	if err != nil {
		return &Envelope{Op: SearchTool, Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "search result could not be encoded"}}
	}
	return &Envelope{Op: SearchTool, OK: true, Result: b}
}
