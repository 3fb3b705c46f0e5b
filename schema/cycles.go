package schema

import "github.com/toolgen-go/toolgen/schema/jsonpos"

// In-place applicators apply a subschema to the same value as the schema
// holding them. A cycle of them ({"$defs":{"u":{"anyOf":[{"$ref":
// "#/$defs/u"}, ...]}}}) makes a validator loop forever and a generated
// decoder recurse without end, so it is an error. Cycles through $ref and
// allOf alone are reported as "circular $ref" while views are merged;
// checkCycles reports the ones that pass through another applicator.

// inPlaceEdge is one subschema applied to the same value.
type inPlaceEdge struct {
	to *jsonpos.Node
	// at is where the edge is written (the $ref string or the subschema).
	at *jsonpos.Node
	// merged marks $ref and allOf edges, which views merge (their cycles
	// are reported there).
	merged bool
}

// inPlaceEdges lists the in-place subschemas of n, resolving its static
// $ref ($dynamicRef is resolved by scope and left out).
func (c *compiler) inPlaceEdges(n *jsonpos.Node) []inPlaceEdge {
	if n == nil || n.Kind != jsonpos.ObjectNode || c.external[n] {
		return nil
	}
	var out []inPlaceEdge
	res := c.resOf[n]
	if ref := n.Get("$ref"); ref != nil && ref.Kind == jsonpos.StringNode && res != nil {
		if t, _, err := c.resolveRef(ref, res); err == nil {
			out = append(out, inPlaceEdge{to: t, at: ref, merged: true})
		}
		if res.draft == 7 {
			return out // siblings of $ref are ignored
		}
	}
	for _, m := range n.Members {
		switch m.Key {
		case "allOf", "anyOf", "oneOf":
			if m.Value.Kind == jsonpos.ArrayNode {
				for _, it := range m.Value.Items {
					out = append(out, inPlaceEdge{to: it, at: it, merged: m.Key == "allOf"})
				}
			}
		case "not", "if", "then", "else":
			out = append(out, inPlaceEdge{to: m.Value, at: m.Value})
		case "dependentSchemas":
			if m.Value.Kind == jsonpos.ObjectNode {
				for _, d := range m.Value.Members {
					out = append(out, inPlaceEdge{to: d.Value, at: d.Value})
				}
			}
		}
	}
	return out
}

// checkCycles reports every in-place cycle reachable from roots that
// passes through an applicator other than $ref and allOf, once, at the
// edge that closes it; that edge is then compiled as any value (the
// compilation fails anyway) so nothing downstream recurses on it.
func (c *compiler) checkCycles(roots []*jsonpos.Node) {
	if !c.refs {
		// Only a static $ref makes an edge back into a tree
		// (inPlaceEdges): no $ref, no cycle.
		return
	}
	const (
		onStack = 1 << iota
		done
		walked
	)
	state := map[*jsonpos.Node]uint8{}
	edges := map[*jsonpos.Node][]inPlaceEdge{}
	edgesOf := func(n *jsonpos.Node) []inPlaceEdge {
		es, ok := edges[n]
		if !ok {
			es = c.inPlaceEdges(n)
			edges[n] = es
		}
		return es
	}
	type frame struct {
		n      *jsonpos.Node
		merged bool // the edge that led to n
	}
	var stack []frame
	var visit func(n *jsonpos.Node)
	visit = func(n *jsonpos.Node) {
		state[n] |= onStack
		for _, e := range edgesOf(n) {
			switch state[e.to] &^ walked {
			case onStack:
				onlyMerged := e.merged
				for i := len(stack) - 1; i >= 0 && onlyMerged; i-- {
					if stack[i].n == e.to {
						break
					}
					onlyMerged = stack[i].merged
				}
				if !onlyMerged && !c.badRefs[e.at] {
					c.badRefs[e.at] = true
					c.errorf(e.at, "circular schema: this applies %s to the same value again (through anyOf, oneOf, not, if/then/else or dependentSchemas) and can never be decided", describePointer(e.to))
				}
			case 0:
				stack = append(stack, frame{e.to, e.merged})
				visit(e.to)
				stack = stack[:len(stack)-1]
			}
		}
		state[n] = state[n]&^onStack | done
	}
	// Every schema below the roots (and below what they reference) starts
	// a search.
	var walk func(n *jsonpos.Node)
	walk = func(n *jsonpos.Node) {
		if n == nil || state[n]&walked != 0 {
			return
		}
		state[n] |= walked
		if state[n]&^walked == 0 {
			stack = append(stack[:0], frame{n, true})
			visit(n)
		}
		refSubschemas(n, walk)
		for _, e := range edgesOf(n) {
			walk(e.to)
		}
	}
	for _, r := range roots {
		walk(r)
	}
}

// describePointer names a schema by its JSON pointer for messages.
func describePointer(n *jsonpos.Node) string {
	if n.Pos.Pointer == "" {
		return "the root schema"
	}
	return n.Pos.Pointer
}
