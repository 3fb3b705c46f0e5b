package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// delegated renders subschemas the embedded validator checks as one
// self-contained draft 2020-12 schema: older spellings rewritten, every
// $ref (local, cross-file, $dynamicRef) pointed at a copy of its target
// under $defs, and $id/$anchor dropped since no reference needs them. A
// $dynamicRef resolved by dynamic scope is the exception: see dynState.
func (c *compiler) delegated(nodes []*jsonpos.Node) json.RawMessage {
	if len(nodes) == 0 {
		return nil
	}
	// The embedded validator applies an if, a then or else, each anyOf
	// branch, a not … to the same value: through $ref, a chain of them
	// doubles its work at each link (40 links of 4 KB ran for minutes a
	// call). Such a schema is refused here.
	if c.apps == nil {
		// Shared by the family's delegated schemas: a subschema reached
		// from several is counted and checked once.
		c.apps = &applications{c: c, memo: map[*jsonpos.Node]int{}, seen: map[*jsonpos.Node]bool{}}
	}
	cost := c.apps
	for _, n := range nodes {
		if cost.failed {
			break // one such error says it (a chain repeats it at every link)
		}
		if worst, at := cost.worst(n); worst > maxApplications {
			cost.failed = true
			c.errs = append(c.errs, jsonpos.Errorf(at.Pos, "the embedded validator would apply subschemas to one value %s times here (if/then/else, anyOf, oneOf, allOf, not and dependentSchemas nested through $ref); the limit is %d", cost.text(worst), maxApplications))
			return nil
		}
	}
	w := &delegWriter{c: c, keys: map[*jsonpos.Node]string{}}
	var b bytes.Buffer
	if len(nodes) == 1 && nodes[0].Kind == jsonpos.ObjectNode {
		w.members(&b, nodes[0], true)
	} else {
		b.WriteString(`{"allOf":[`)
		for i, n := range nodes {
			if i > 0 {
				b.WriteByte(',')
			}
			w.schema(&b, n)
		}
		b.WriteString("]")
		if len(w.queue) > 0 {
			b.WriteByte(',')
			w.defs(&b)
		}
		b.WriteString("}")
	}
	if why := c.delegatedInvalid(b.String()); why != "" {
		// Generated code compiles it when the package loads, and a schema
		// the embedded validator refuses would panic there.
		c.errs = append(c.errs, jsonpos.Errorf(nodes[0].Pos, "the embedded validator refuses this schema: %s", why))
		return nil
	}
	return b.Bytes()
}

// delegatedInvalid says why the embedded validator cannot compile a
// delegated schema (a keyword of the wrong kind inside not, if/then/else,
// dependentSchemas or unevaluated*, which no Go check reads), or "".
func (c *compiler) delegatedInvalid(schemaJSON string) string {
	// A schema compiled before says why not, kept compiled or not.
	if cs, ok := c.schemas[schemaJSON]; ok {
		return cs.why
	}
	_, why := c.compiledSchema(schemaJSON)
	return why
}

// maxSchemasKept bounds the schemas a compile keeps compiled for the
// embedded validator; past it, a schema met again is compiled again.
const maxSchemasKept = 1024

// compiledSchema is a schema compiled by the embedded validator, or why
// it did not compile.
type compiledSchema struct {
	s   *check.Schema
	why string
}

// compiledSchema compiles schemaJSON for the embedded validator, once per
// distinct text (catalogues repeat their schemas across tools, and
// defaults are checked against them), or says why it cannot: the
// innermost cause, on one line ("at '/not/minLength': got string, want
// integer").
//
// Once the limit on patterns' size is spent (reported already), nothing
// is compiled, and it returns nil and "": the validator would parse the
// patterns past it, which takes time growing faster than their length.
func (c *compiler) compiledSchema(schemaJSON string) (*check.Schema, string) {
	if cs, ok := c.schemas[schemaJSON]; ok && (cs.s != nil || cs.why != "") {
		return cs.s, cs.why
	}
	if c.patternSizeSpent {
		return nil, ""
	}
	var cs compiledSchema
	s, err := check.CompileSchema(schemaJSON)
	if err != nil {
		lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
		cs.why = strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), "- ")
	} else if c.schemasKept < maxSchemasKept {
		cs.s = s
		c.schemasKept++
	}
	if c.schemas == nil {
		c.schemas = map[string]compiledSchema{}
	}
	c.schemas[schemaJSON] = cs
	return s, cs.why
}

// delegatedPattern counts pattern p of a delegated schema, written at
// pos, toward limits.PatternSize: the embedded validator compiles it when
// the generated package starts, as generated code does its own. Only the
// limit's error is reported here; the embedded validator's refusal says
// why an invalid pattern is.
func (c *compiler) delegatedPattern(pos ir.Pos, p string) {
	spent := c.patternSizeSpent
	if _, why := c.regexp(p); why != "" && !spent && c.patternSizeSpent {
		c.errs = append(c.errs, jsonpos.Errorf(pos, "%s", why))
	}
}

type delegWriter struct {
	c     *compiler
	keys  map[*jsonpos.Node]string
	queue []*jsonpos.Node
}

// schema writes one subschema.
func (w *delegWriter) schema(b *bytes.Buffer, n *jsonpos.Node) {
	if n.Kind != jsonpos.ObjectNode {
		b.Write(n.JSON())
		return
	}
	w.members(b, n, false)
}

// members writes a schema object; top adds the collected $defs.
func (w *delegWriter) members(b *bytes.Buffer, n *jsonpos.Node, top bool) {
	if w.c.external[n] {
		b.Write(n.JSON())
		return
	}
	res := w.c.resOf[n]
	ms := w.c.normalize(n)
	if res != nil && res.draft == 7 {
		for _, m := range ms {
			if m.Key == "$ref" {
				ms = []jsonpos.Member{m} // draft-07: $ref siblings are ignored
				break
			}
		}
	}
	b.WriteByte('{')
	first := true
	sep := func(k string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		jsonpos.WriteString(b, k)
		b.WriteByte(':')
	}
	for _, m := range ms {
		k, v := m.Key, m.Value
		switch {
		case k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef":
			if v.Kind != jsonpos.StringNode || res == nil {
				continue
			}
			if k == "$dynamicRef" && w.c.dynamicRef(n) {
				// Checked from the root of its dynamic scope (dynState).
				sep("$ref")
				jsonpos.WriteString(b, "#/$defs/"+w.key(w.c.evalAll()))
				continue
			}
			target, _, err := w.c.resolveRef(v, res)
			if err != nil {
				w.c.errs = append(w.c.errs, err)
				continue
			}
			sep("$ref")
			jsonpos.WriteString(b, "#/$defs/"+w.key(target))
		case k == "$defs" || k == "definitions" || (slices.Contains(compileCore, k) && k != "allOf"):
		case k == "format" || k == "default":
			sep(k)
			b.Write(v.JSON())
		case isAnnotation(k):
		case slices.Contains(refSchemaKeywords, k) || k == "items":
			sep(k)
			w.schema(b, v)
		case (slices.Contains(refSchemaListKeywords, k) || k == "allOf") && v.Kind == jsonpos.ArrayNode:
			sep(k)
			b.WriteByte('[')
			for i, it := range v.Items {
				if i > 0 {
					b.WriteByte(',')
				}
				w.schema(b, it)
			}
			b.WriteByte(']')
		case k == "pattern" && v.Kind == jsonpos.StringNode:
			w.c.delegatedPattern(v.Pos, v.Str)
			sep(k)
			b.Write(v.JSON())
		case slices.Contains(refSchemaMapKeywords, k) && v.Kind == jsonpos.ObjectNode:
			sep(k)
			b.WriteByte('{')
			for i, mm := range v.Members {
				if k == "patternProperties" {
					w.c.delegatedPattern(mm.KeyPos(), mm.Key)
				}
				if i > 0 {
					b.WriteByte(',')
				}
				jsonpos.WriteString(b, mm.Key)
				b.WriteByte(':')
				w.schema(b, mm.Value)
			}
			b.WriteByte('}')
		default:
			sep(k)
			b.Write(v.JSON())
		}
	}
	if top && len(w.queue) > 0 {
		if !first {
			b.WriteByte(',')
		}
		w.defs(b)
	}
	b.WriteByte('}')
}

// key names the $defs entry of a reference target.
func (w *delegWriter) key(target *jsonpos.Node) string {
	if k, ok := w.keys[target]; ok {
		return k
	}
	k := "d" + strconv.Itoa(len(w.keys)+1)
	w.keys[target] = k
	w.queue = append(w.queue, target)
	return k
}

// defs writes "$defs":{...} with the collected reference targets.
func (w *delegWriter) defs(b *bytes.Buffer) {
	b.WriteString(`"$defs":{`)
	w.defBodies(b)
	b.WriteByte('}')
}

// defBodies writes the queued targets; writing one may queue more.
func (w *delegWriter) defBodies(b *bytes.Buffer) {
	for i := 0; i < len(w.queue); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		t := w.queue[i]
		jsonpos.WriteString(b, w.keys[t])
		b.WriteByte(':')
		w.schema(b, t)
	}
}

// maxApplications bounds how many times the embedded validator may apply
// subschemas to one value of the arguments (about 2 µs each: 10,000
// take some 20 ms).
const maxApplications = 10_000

// applications counts, for a delegated subschema, how many times the
// embedded validator applies subschemas to one value: itself, what its
// $ref, allOf, anyOf, oneOf, not, if, the longer of then and else, and
// dependentSchemas apply, counted once per path (a reference cycle counts
// once; the validator stops it). Keywords that descend into members and
// items apply to other values, whose own counts are bounded alike.
type applications struct {
	c    *compiler
	memo map[*jsonpos.Node]int
	// seen are the subschemas worst has reached (in this or an earlier
	// call): their counts were checked already.
	seen map[*jsonpos.Node]bool
	// failed is set once a count over the limit was reported.
	failed bool
}

// inPlace is n's count, saturated past maxApplications.
func (a *applications) inPlace(n *jsonpos.Node) int {
	if n == nil || n.Kind != jsonpos.ObjectNode {
		return 1
	}
	if v, ok := a.memo[n]; ok {
		return v
	}
	a.memo[n] = 1 // a cycle back here counts once
	total := 1
	add := func(k int) { total = min(total+k, maxApplications+1) }
	res := a.c.resOf[n]
	var then, els int
	for _, m := range n.Members {
		switch m.Key {
		case "$ref", "$dynamicRef", "$recursiveRef":
			if m.Value.Kind == jsonpos.StringNode && res != nil {
				if target, _, err := a.c.resolveRef(m.Value, res); err == nil {
					add(a.inPlace(target))
				}
			}
		case "allOf", "anyOf", "oneOf":
			for _, it := range m.Value.Items {
				add(a.inPlace(it))
			}
		case "not", "if":
			add(a.inPlace(m.Value))
		case "then":
			then = a.inPlace(m.Value)
		case "else":
			els = a.inPlace(m.Value)
		case "dependentSchemas":
			for _, mm := range m.Value.Members {
				add(a.inPlace(mm.Value))
			}
		}
	}
	add(max(then, els))
	a.memo[n] = total
	return total
}

// worst is the largest count of n and every subschema it reaches that an
// earlier call did not, and where that is.
func (a *applications) worst(n *jsonpos.Node) (int, *jsonpos.Node) {
	best, at := 0, n
	var walk func(n *jsonpos.Node)
	walk = func(n *jsonpos.Node) {
		if n == nil || n.Kind != jsonpos.ObjectNode || a.seen[n] || best > maxApplications {
			return
		}
		a.seen[n] = true
		if c := a.inPlace(n); c > best {
			best, at = c, n
		}
		res := a.c.resOf[n]
		for _, m := range n.Members {
			switch {
			case m.Key == "$ref" || m.Key == "$dynamicRef" || m.Key == "$recursiveRef":
				if m.Value.Kind == jsonpos.StringNode && res != nil {
					if target, _, err := a.c.resolveRef(m.Value, res); err == nil {
						walk(target)
					}
				}
			case m.Key == "$defs" || m.Key == "definitions":
			case slices.Contains(refSchemaKeywords, m.Key) || m.Key == "items":
				if m.Value.Kind == jsonpos.ArrayNode {
					for _, it := range m.Value.Items {
						walk(it)
					}
				} else {
					walk(m.Value)
				}
			case slices.Contains(refSchemaListKeywords, m.Key):
				for _, it := range m.Value.Items {
					walk(it)
				}
			case slices.Contains(refSchemaMapKeywords, m.Key):
				for _, mm := range m.Value.Members {
					walk(mm.Value)
				}
			}
		}
	}
	walk(n)
	return best, at
}

// text shows a count, saturated ones as "more than" the limit.
func (a *applications) text(n int) string {
	if n > maxApplications {
		return fmt.Sprintf("more than %d", maxApplications)
	}
	return fmt.Sprint(n)
}
