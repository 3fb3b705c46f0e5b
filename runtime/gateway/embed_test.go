package gateway

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// conceptEmbedder embeds a text as counts of a few concepts, the way a
// real model puts "automobile" next to "car".
type conceptEmbedder struct {
	calls int
	fail  bool
}

func (e *conceptEmbedder) Embed(texts []string) ([][]float32, error) {
	e.calls++
	if e.fail {
		return nil, errors.New("model offline")
	}
	concepts := [][]string{{"car", "automobile", "vehicle"}, {"bike", "bicycle"}, {"rent", "rental", "hire"}}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(concepts))
		for _, w := range splitWords(t) {
			for c, ws := range concepts {
				for _, x := range ws {
					if w == x {
						v[c]++
					}
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

func rentalOps() ([]Op, []runtime.Tool) {
	ops := []Op{
		{Path: "rent.bike", Tool: "rent_bike", Description: "Rent a bicycle. Rent by the hour, rent by the day."},
		{Path: "rent.car", Tool: "rent_car", Description: "Hire a vehicle."},
	}
	var tools []runtime.Tool
	for _, o := range ops {
		tools = append(tools, runtime.Tool{Name: o.Tool, Description: o.Description, Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	return ops, tools
}

// TestEmbeddingReranker: an Embedder plugged into the gateway re-orders
// the lexical candidates by meaning; when it fails, the lexical order
// stands.
func TestEmbeddingReranker(t *testing.T) {
	ops, tools := rentalOps()
	const q = "rent an automobile"
	if hits := NewIndex(ops).Search(q, 2); len(hits) != 2 || hits[0].Op != "rent.bike" {
		t.Fatalf("lexical order: %v (the test needs the bike first)", hits)
	}
	emb := &conceptEmbedder{}
	g, err := New(Registry{Ops: ops}, tools, WithSearchReranker(&EmbeddingReranker{Embedder: emb, Weight: 0.8}))
	if err != nil {
		t.Fatal(err)
	}
	if hits := g.Index().Search(q, 2); len(hits) != 2 || hits[0].Op != "rent.car" {
		t.Errorf("with embeddings: %v, want rent.car first", hits)
	}
	g.Index().Search(q, 2)
	if emb.calls != 2 {
		t.Errorf("Embed called %d times, want 2 (op vectors cached)", emb.calls)
	}
	emb.fail = true
	if hits := g.Index().Search(q, 2); len(hits) != 2 || hits[0].Op != "rent.bike" {
		t.Errorf("failing embedder: %v, want the lexical order", hits)
	}
	res := g.search(runtime.ToolContext{}, searchRequest{Query: q})
	if !res.OK || !strings.Contains(string(res.Result), `"op":"rent.bike"`) {
		t.Errorf("tool_search with a failing embedder: %s", res.Result)
	}
}
