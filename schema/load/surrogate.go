package load

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// An unpaired surrogate escape ("\ud800") is JSON no UTF-8 text can hold:
// the parser reads it as U+FFFD. In a description, an enum value or a
// property name that would change the definition without a word (the
// model would be shown, and asked for, text the author never wrote), so
// it is a located error, as invalid UTF-8 is. A schema's "default" is the
// exception: the compiler reports one holding such an escape and does not
// apply it (a warning), so it is not reported twice.

// schemaRoot records schema object n (a tool's parameters or output) for
// unpairedSurrogates, when the file may hold such escapes.
func (l *loader) schemaRoot(n *jsonpos.Node) {
	if l.schemas != nil {
		l.schemas[n] = true
	}
}

// unpairedSurrogates reports every unpaired surrogate escape in the
// strings and object keys of the file parsed into root from src, but for
// those in a schema's default value.
func (l *loader) unpairedSurrogates(root *jsonpos.Node, src *jsonpos.Source) {
	// A file's $defs are schemas too (other files' $refs reach them).
	for _, k := range []string{"$defs", "definitions"} {
		if defs := root.Get(k); defs != nil && defs.Kind == jsonpos.ObjectNode {
			for _, m := range defs.Members {
				l.schemaRoot(m.Value)
			}
		}
	}
	w := surrogateWalk{l: l, src: src}
	w.node(root, false)
}

type surrogateWalk struct {
	l   *loader
	src *jsonpos.Source
}

// node walks n; schema is whether n is at a schema's place.
func (w *surrogateWalk) node(n *jsonpos.Node, schema bool) {
	schema = schema || w.l.schemas[n]
	switch n.Kind {
	case jsonpos.StringNode:
		if n.Replaced {
			w.report(n.Pos, "string", true)
		}
	case jsonpos.ArrayNode:
		for _, it := range n.Items {
			w.node(it, false)
		}
	case jsonpos.ObjectNode:
		for _, m := range n.Members {
			w.key(m)
			v := m.Value
			switch {
			case !schema:
				w.node(v, false)
			case m.Key == "default":
				// The compiler's (see above).
			case v.Kind == jsonpos.ArrayNode && slices.Contains(schemaListKeywords, m.Key):
				for _, it := range v.Items {
					w.node(it, true)
				}
			case slices.Contains(schemaKeywords, m.Key):
				w.node(v, true)
			case v.Kind == jsonpos.ObjectNode && slices.Contains(schemaMapKeywords, m.Key):
				for _, p := range v.Members {
					w.key(p)
					w.node(p.Value, true)
				}
			default:
				w.node(v, false)
			}
		}
	}
}

// key reports an unpaired surrogate escape in a parsed member's key. The
// parser does not mark keys: one holding U+FFFD is looked at in the
// source, where it may also have been written as itself.
func (w *surrogateWalk) key(m jsonpos.Member) {
	if m.KeyLine > 0 && strings.ContainsRune(m.Key, utf8.RuneError) {
		w.report(m.KeyPos(), "object key", false)
	}
}

// report reports the unpaired surrogate escape of the string starting at
// at (what it is: a string, an object key); replaced is whether the
// parser marked it as having one, so that it is reported even where the
// source cannot show it.
func (w *surrogateWalk) report(at ir.Pos, what string, replaced bool) {
	pos, esc, ok := w.src.UnpairedSurrogate(at)
	switch {
	case ok:
		w.l.errorf(pos, "unpaired surrogate escape %s in %s: no UTF-8 text holds it (it would be read as U+FFFD); write the character itself, or a high and low surrogate pair", esc, what)
	case replaced:
		w.l.errorf(at, "%s holds an unpaired surrogate escape: no UTF-8 text holds it (it would be read as U+FFFD); write the character itself, or a high and low surrogate pair", what)
	}
}
