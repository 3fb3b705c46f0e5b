package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

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
	return b.Bytes()
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
		case slices.Contains(refSchemaMapKeywords, k) && v.Kind == jsonpos.ObjectNode:
			sep(k)
			b.WriteByte('{')
			for i, mm := range v.Members {
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
