package taxonomy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// OpArgs summarises a tool's top-level arguments in schema order. The
// defaults shown are those the compiled t.Params applies (see
// appliedDefaultsOnly); a tool not compiled shows every default given.
func OpArgs(t *ir.Tool) []ir.Arg {
	args := schemaArgs(summaryNode(t.ParamsSchema))
	dropUnapplied(args, t.Params)
	return args
}

// summaryNode parses a schema for the summaries, once: OpArgs, the usage
// line and the synthesized example all read the same tree. Anything but
// JSON gives nil, which summarises as no arguments.
func summaryNode(raw json.RawMessage) *jsonpos.Node {
	if len(raw) == 0 {
		return nil
	}
	n, err := jsonpos.ParseBare(raw)
	if err != nil {
		return nil
	}
	return n
}

// schemaArgs summarises the properties of an object schema, with every
// default the schema gives. Its allOf conjuncts' properties are its own;
// the properties of the alternatives of a root anyOf or oneOf are
// arguments too, required when every alternative requires them.
func schemaArgs(object *jsonpos.Node) []ir.Arg {
	if object == nil || object.Kind != jsonpos.ObjectNode {
		return nil
	}
	view := merged(object, object, false)
	required := stringSet(view.Get("required"))
	var members []jsonpos.Member
	seen := map[string]bool{}
	addProps := func(s *jsonpos.Node) {
		if props := s.Get("properties"); props != nil && props.Kind == jsonpos.ObjectNode {
			for _, m := range props.Members {
				if !seen[m.Key] {
					seen[m.Key] = true
					members = append(members, m)
				}
			}
		}
	}
	addProps(view)
	if alts := alternatives(object, view); len(alts) > 0 {
		every := map[string]int{}
		for _, a := range alts {
			addProps(a)
			for name := range stringSet(a.Get("required")) {
				every[name]++
			}
		}
		for name, n := range every {
			if n == len(alts) {
				if required == nil {
					required = map[string]bool{}
				}
				required[name] = true
			}
		}
	}
	if members == nil {
		return []ir.Arg{}
	}
	args := make([]ir.Arg, 0, len(members))
	labels := newLabeler(object)
	for _, m := range members {
		p := m.Value
		a := ir.Arg{Name: m.Key, Type: labels.label(p), Required: required[m.Key], Description: firstSentence(nodeString(p.Get("description")))}
		if d := p.Get("default"); d != nil {
			a.Default = string(d.JSON())
		}
		args = append(args, a)
	}
	return args
}

// alternatives are the alternatives of view's anyOf or oneOf (root is
// where their $refs are followed), each with its allOf merged, at most
// maxMerged of them; nil when view has no union.
func alternatives(root, view *jsonpos.Node) []*jsonpos.Node {
	for _, key := range []string{"anyOf", "oneOf"} {
		bs := view.Get(key)
		if !nonEmptyArray(bs) {
			continue
		}
		var out []*jsonpos.Node
		for _, b := range bs.Items[:min(len(bs.Items), maxMerged)] {
			if b = merged(root, b, false); b != nil && b.Kind == jsonpos.ObjectNode {
				out = append(out, b)
			}
		}
		return out
	}
	return nil
}

// dropUnapplied clears the defaults of args that the compiled object
// params does not apply, and reports whether it cleared any. A default
// that does not match its schema is warned about ("not applied") and the
// generated code never fills it in: advertising it would tell the model
// a wrong value (an omitted limit is not "ten"). params nil (a tool not
// compiled) keeps every default.
func dropUnapplied(args []ir.Arg, params *ir.Type) bool {
	if params == nil {
		return false
	}
	var applied map[string]bool // made when a default is first met
	changed := false
	for i, a := range args {
		if a.Default == "" {
			continue
		}
		if applied == nil {
			applied = make(map[string]bool, len(params.Fields))
			for _, f := range params.Fields {
				applied[f.JSONName] = f.Default != nil // nil: the default did not fit
			}
		}
		if !applied[a.Name] {
			args[i].Default = ""
			changed = true
		}
	}
	return changed
}

// appliedDefaultsOnly re-renders op's usage line and argument summary
// without the defaults its tool's compiled parameters do not apply, and
// reports whether anything changed.
func appliedDefaultsOnly(op *ir.Op) bool {
	if op.Tool == nil || !dropUnapplied(op.Arguments, op.Tool.Params) {
		return false
	}
	op.Usage = Usage(op.Path, op.Arguments)
	op.Args = strings.TrimSpace(strings.TrimPrefix(op.Usage, op.Path))
	return true
}

// DropUnappliedDefaults is for a family whose taxonomy was derived while
// its types compiled (DeriveParsed alongside the compile, before the
// compile knew which defaults it applies): once the compile is done, it
// takes the defaults the compile refused out of the ops' usage lines and
// argument summaries, and updates the registry version when any changed.
func DropUnappliedDefaults(f *ir.Family) {
	changed := false
	for _, op := range f.Ops {
		changed = appliedDefaultsOnly(op) || changed
	}
	if changed {
		f.RegistryVersion = RegistryVersion(f)
	}
}

// stringSet is the set of the strings of an array node.
func stringSet(n *jsonpos.Node) map[string]bool {
	if n == nil || n.Kind != jsonpos.ArrayNode || len(n.Items) == 0 {
		return nil
	}
	set := make(map[string]bool, len(n.Items))
	for _, it := range n.Items {
		if it.Kind == jsonpos.StringNode {
			set[it.Str] = true
		}
	}
	return set
}

// nodeString is a string node's value ("" for anything else).
func nodeString(n *jsonpos.Node) string {
	if n == nil || n.Kind != jsonpos.StringNode {
		return ""
	}
	return n.Str
}

// Usage renders the CLI-like one-liner of an op: required args bare,
// optional ones in brackets, defaults after '='. It is the rule
// gateway.UsageLine follows for registries without a line of their own
// (TestUsageMatchesGateway holds the two equal).
//
//	onto.task.list [project_id:string] [limit:integer=20]
func Usage(path string, args []ir.Arg) string {
	var b strings.Builder
	b.WriteString(path)
	for _, req := range []bool{true, false} {
		for _, a := range args {
			if a.Required != req {
				continue
			}
			s := a.Name + ":" + a.Type
			if a.Default != "" {
				s += "=" + a.Default
			}
			if !req {
				s = "[" + s + "]"
			}
			b.WriteByte(' ')
			b.WriteString(s)
		}
	}
	return b.String()
}

// maxRefLabel bounds the label of a $ref's target. A target is labelled
// once, but $refs make the schema a graph: a label that takes in its
// subschemas' labels twice (array<X>|array<array<X>>) would double in
// length at each $ref followed. A longer one is cut to the target's own
// keywords (shallowLabel).
const maxRefLabel = 200

// labeler labels the schemas of one document, root, following the $refs
// that point into it: a $ref to a string enum in $defs reads enum(a|b),
// not object. Each target is labelled once (memo), so labelling every
// property of a tool is linear in its schema's size however many $refs
// share a target; a $ref back into a target being labelled (a cycle)
// reads object.
type labeler struct {
	root  *jsonpos.Node // nil: $refs are not followed
	memo  map[*jsonpos.Node]string
	doing map[*jsonpos.Node]bool
}

func newLabeler(root *jsonpos.Node) *labeler {
	return &labeler{root: root, memo: map[*jsonpos.Node]string{}, doing: map[*jsonpos.Node]bool{}}
}

// resolve returns the schema a local $ref ("#", "#/pointer",
// percent-encoded as in a URI fragment) points to in l.root, or nil for
// any other reference (an anchor, another document).
func (l *labeler) resolve(ref string) *jsonpos.Node {
	return localRef(l.root, ref)
}

// localRef is the schema the local $ref ref points to in root (see
// labeler.resolve), or nil.
func localRef(root *jsonpos.Node, ref string) *jsonpos.Node {
	if root == nil || !strings.HasPrefix(ref, "#") {
		return nil
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil || frag != "" && frag[0] != '/' {
		return nil
	}
	return root.Pointer(frag)
}

// refLabel labels the target of $ref ref: object when it cannot be
// followed (the label a $ref always had) or leads back into itself.
func (l *labeler) refLabel(ref string) string {
	target := l.resolve(ref)
	if target == nil || l.doing[target] {
		return "object"
	}
	if s, ok := l.memo[target]; ok {
		return s
	}
	l.doing[target] = true
	s := l.label(target)
	delete(l.doing, target)
	if len(s) > maxRefLabel {
		s = shallowLabel(target)
	}
	l.memo[target] = s
	return s
}

// typeNames are the names p's "type" keyword gives, one or a list.
func typeNames(p *jsonpos.Node) []string {
	switch ty := p.Get("type"); {
	case ty == nil:
		return nil
	case ty.Kind == jsonpos.StringNode:
		return []string{ty.Str}
	case ty.Kind == jsonpos.ArrayNode:
		types := make([]string, 0, len(ty.Items))
		for _, it := range ty.Items {
			types = append(types, nodeString(it))
		}
		return types
	}
	return nil
}

// shallowLabel labels p by its own keywords alone: "enum" or "const" for
// those, its type names, object when it has properties, else any.
func shallowLabel(p *jsonpos.Node) string {
	switch {
	case p.Kind != jsonpos.ObjectNode:
		return "any"
	case p.Get("enum") != nil:
		return "enum"
	case p.Get("const") != nil:
		return "const"
	}
	types := typeNames(p)
	if s := strings.Join(types, "|"); s != "" && len(s) <= maxRefLabel {
		return s
	}
	if p.Get("properties") != nil {
		return "object"
	}
	return "any"
}

// enumValue is one enum member as an enum label shows it: a string bare
// unless it is empty, "null" or holds a character of the label's syntax
// ('|' between values, the parentheses around them, '"' of a quoted
// value), then as a JSON string, so the label reads back unambiguously;
// other values as JSON (null as null: OpenAI's strict mode writes an
// optional enum as ["a","b",null], which read enum(a|b|) before).
func enumValue(e *jsonpos.Node) string {
	switch e.Kind {
	case jsonpos.StringNode:
		if e.Str == "" || e.Str == "null" || strings.ContainsAny(e.Str, `|()"`) {
			return jsonString(e.Str)
		}
		return e.Str
	case jsonpos.NullNode:
		return "null"
	}
	return string(e.JSON())
}

func (l *labeler) label(p *jsonpos.Node) string {
	if p == nil || p.Kind != jsonpos.ObjectNode {
		return "any"
	}
	if enum := p.Get("enum"); enum != nil && enum.Kind == jsonpos.ArrayNode && len(enum.Items) > 0 {
		vals := make([]string, 0, min(len(enum.Items), 7))
		for i, e := range enum.Items {
			if i == 6 {
				vals = append(vals, "…")
				break
			}
			vals = append(vals, enumValue(e))
		}
		return "enum(" + strings.Join(vals, "|") + ")"
	}
	if c := p.Get("const"); c != nil {
		return "const(" + string(c.JSON()) + ")"
	}
	types := typeNames(p)
	items := p.Get("items")
	if len(types) == 0 {
		switch ref := nodeString(p.Get("$ref")); {
		case ref != "":
			return l.refLabel(ref)
		case nonEmptyArray(p.Get("allOf")):
			// pydantic writes a field of a model type as allOf [$ref].
			if m := merged(l.root, p, false); m != p {
				return l.label(m)
			}
			return "any"
		case nonEmptyArray(p.Get("oneOf")) || nonEmptyArray(p.Get("anyOf")):
			// The first six distinct alternatives, as an enum's values: an
			// 80,000-branch oneOf wrote a usage line of 800 KB.
			var alts []string
			seen := map[string]bool{} // a scan of alts per branch was quadratic
			for _, key := range []string{"oneOf", "anyOf"} {
				if bs := p.Get(key); bs != nil && bs.Kind == jsonpos.ArrayNode {
					for _, b := range bs.Items {
						if alt := l.label(b); !seen[alt] {
							if len(alts) == 6 {
								return strings.Join(alts, "|") + "|…"
							}
							seen[alt] = true
							alts = append(alts, alt)
						}
					}
				}
			}
			return strings.Join(alts, "|")
		case p.Get("properties") != nil:
			return "object"
		case items != nil:
			types = []string{"array"}
		default:
			return "any"
		}
	}
	for i, ty := range types {
		if ty == "array" && items != nil && items.Kind == jsonpos.ObjectNode {
			types[i] = "array<" + l.label(items) + ">"
		}
	}
	return strings.Join(types, "|")
}

func nonEmptyArray(n *jsonpos.Node) bool {
	return n != nil && n.Kind == jsonpos.ArrayNode && len(n.Items) > 0
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	jsonpos.WriteString(&b, s)
	return b.String()
}

// registryRecord is the canonical form of an op hashed into the registry
// version; field order is fixed by the struct.
type registryRecord struct {
	Op            string          `json:"op"`
	Tool          string          `json:"tool_name"`
	Description   string          `json:"description"`
	Parameters    json.RawMessage `json:"parameters_schema"`
	Group         string          `json:"group"`
	Kind          runtime.OpKind  `json:"kind"`
	Entity        string          `json:"entity"`
	Action        string          `json:"action"`
	Usage         string          `json:"usage"`
	Notes         []string        `json:"notes"`
	Examples      []registryEx    `json:"examples"`
	Policy        *ir.Policy      `json:"policy"`
	DryRunDefault bool            `json:"dry_run_default"`
}

type registryEx struct {
	Description string          `json:"description"`
	Args        json.RawMessage `json:"args"`
}

// RegistryVersion is a stable hash (16 hex digits of SHA-256) of the
// canonical JSON of f's groups and ops: object keys sorted, numbers as
// written, independent of map order, machine and run.
func RegistryVersion(f *ir.Family) string {
	return registryVersion(f, nil)
}

// registryVersion is RegistryVersion with the canonical JSON of each op's
// params schema already made (params[i] for f.Ops[i]; nil makes them).
func registryVersion(f *ir.Family, params []json.RawMessage) string {
	// The hash is of json.Marshal of {"groups": f.Groups, "ops": records},
	// written to the hash one record at a time rather than built whole.
	h := sha256.New()
	// One encoder's buffer for every record: json.Marshal would allocate
	// one per op. Encode writes what Marshal returns, then a newline.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	write := func(v any) {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			// Every field is plain data; canonicalJSON guarantees valid JSON.
			h.Write([]byte(fmt.Sprint(err)))
			return
		}
		h.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	h.Write([]byte(`{"groups":`))
	write(f.Groups)
	h.Write([]byte(`,"ops":`))
	if len(f.Ops) == 0 { // none hashes as null
		h.Write([]byte("null"))
	}
	for i, op := range f.Ops {
		r := registryRecord{Op: op.Path, Group: op.Group, Kind: op.Kind, Entity: op.Entity, Action: op.Action,
			Usage: op.Usage, Notes: op.Notes, Policy: op.Policy, DryRunDefault: op.DryRunDefault}
		if op.Tool != nil {
			r.Tool, r.Description = op.Tool.Name, op.Tool.Description
			if params != nil {
				r.Parameters = params[i]
			} else {
				r.Parameters = canonicalJSON(op.Tool.ParamsSchema)
			}
		}
		for _, ex := range op.Examples {
			r.Examples = append(r.Examples, registryEx{Description: ex.Description, Args: canonicalJSON(ex.Args)})
		}
		if i == 0 {
			h.Write([]byte("["))
		} else {
			h.Write([]byte(","))
		}
		write(r)
	}
	if len(f.Ops) > 0 {
		h.Write([]byte("]"))
	}
	h.Write([]byte("}"))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// canonicalJSON re-encodes raw with object keys sorted and numbers kept as
// written, byte for byte what encoding/json's Marshal writes for the value
// decoded with UseNumber (the form registry versions have always hashed);
// invalid or empty input becomes null.
func canonicalJSON(raw json.RawMessage) json.RawMessage {
	return canonicalNode(summaryNode(raw), len(raw))
}

// canonicalNode is canonicalJSON of a parsed value (nil: null); size is a
// capacity hint.
func canonicalNode(n *jsonpos.Node, size int) json.RawMessage {
	if n == nil {
		return json.RawMessage("null")
	}
	return appendCanonical(make([]byte, 0, size), n)
}

func appendCanonical(dst []byte, n *jsonpos.Node) []byte {
	switch n.Kind {
	case jsonpos.ObjectNode:
		ms := make([]*jsonpos.Member, len(n.Members))
		for i := range n.Members {
			ms[i] = &n.Members[i]
		}
		slices.SortFunc(ms, func(a, b *jsonpos.Member) int { return strings.Compare(a.Key, b.Key) })
		dst = append(dst, '{')
		for i, m := range ms {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = text.AppendJSONString(dst, m.Key, true)
			dst = append(dst, ':')
			dst = appendCanonical(dst, m.Value)
		}
		return append(dst, '}')
	case jsonpos.ArrayNode:
		dst = append(dst, '[')
		for i, it := range n.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCanonical(dst, it)
		}
		return append(dst, ']')
	case jsonpos.StringNode:
		return text.AppendJSONString(dst, n.Str, true)
	case jsonpos.NumberNode:
		return append(dst, n.Num...)
	case jsonpos.BoolNode:
		return strconv.AppendBool(dst, n.Bool)
	}
	return append(dst, "null"...)
}

// firstSentence returns the first sentence of s (the sentence rule of
// policy.go), at most 120 runes with an ellipsis. It is not
// runtime/check.FirstSentence, which cuts at a word boundary: schema links
// check (for patterns) but keeps this rule because the argument summaries
// it cuts are hashed into the registry version.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if ss := sentences(s); len(ss) > 0 {
		s = ss[0]
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}
