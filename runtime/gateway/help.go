package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// node is one path of the op tree: the root, a group, an entity, any
// prefix of an op path, or an op itself (a path may be both).
type node struct {
	name     string
	path     string
	children map[string]*node
	names    []string // sorted child names
	op       *binding
	reads    int // ops at or under this node, by kind
	writes   int
}

func buildTree(ops []*binding) *node {
	root := &node{children: map[string]*node{}}
	for _, b := range ops {
		n := root
		n.count(b)
		for i, seg := range strings.Split(b.op.Path, ".") {
			c := n.children[seg]
			if c == nil {
				path := seg
				if i > 0 {
					path = n.path + "." + seg
				}
				c = &node{name: seg, path: path, children: map[string]*node{}}
				n.children[seg] = c
				n.names = append(n.names, seg)
			}
			n = c
			n.count(b)
		}
		n.op = b
	}
	root.sortNames()
	return root
}

func (n *node) count(b *binding) {
	if b.op.Kind == runtime.OpWrite {
		n.writes++
	} else {
		n.reads++
	}
}

func (n *node) sortNames() {
	sort.Strings(n.names)
	for _, c := range n.children {
		c.sortNames()
	}
}

func (n *node) allPaths() []string {
	var out []string
	var walk func(*node)
	walk = func(x *node) {
		if x.path != "" {
			out = append(out, x.path)
		}
		for _, name := range x.names {
			walk(x.children[name])
		}
	}
	walk(n)
	return out
}

// ops returns the ops at or under n matching kind ("" for all), in path
// order.
func (n *node) ops(kind runtime.OpKind) []*binding {
	var out []*binding
	var walk func(*node)
	walk = func(x *node) {
		if x.op != nil && (kind == "" || x.op.op.Kind == kind) {
			out = append(out, x.op)
		}
		for _, name := range x.names {
			walk(x.children[name])
		}
	}
	walk(n)
	return out
}

// lookup is the node at path (n itself for ""), nil when there is none. It
// reads path segment by segment, as strings.Split(path, ".") cuts it,
// without allocating.
func (n *node) lookup(path string) *node {
	if path == "" {
		return n
	}
	x := n
	for {
		seg, rest, more := strings.Cut(path, ".")
		if x = x.children[seg]; x == nil || !more {
			return x
		}
		path = rest
	}
}

// helpRequest is the argument object of tool_help.
type helpRequest struct {
	Path            string `json:"path"`
	Format          string `json:"format"`
	IncludeExamples *bool  `json:"include_examples"`
	IncludeSchemas  bool   `json:"include_schemas"`
}

type helpKey struct {
	version           string
	target            helpTarget
	format            string
	examples, schemas bool
}

// helpTarget is what a help path names: an op, or a directory with the
// kind of op its listing shows ("" for all).
type helpTarget struct {
	op   *binding
	dir  *node
	kind runtime.OpKind
}

// helpCache holds encoded help documents keyed by registry version, what
// the path names, format and include flags (spec 004 §8.1): the spellings
// of a path (case, an op's tool name) share one document, so that a model
// cannot fill the cache with copies of a large listing.
type helpCache struct {
	mu sync.RWMutex
	m  map[helpKey]json.RawMessage
}

func (c *helpCache) get(k helpKey) (json.RawMessage, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *helpCache) put(k helpKey, v json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[helpKey]json.RawMessage)
	}
	if len(c.m) >= maxHelpCache {
		// Case and spelling variants of known paths could otherwise grow
		// the cache without bound.
		clear(c.m)
	}
	c.m[k] = v
}

// maxHelpCache bounds the help documents kept in the cache.
const maxHelpCache = 1024

func (g *Gateway) handleHelp(_ context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	var req helpRequest
	if fail := g.checkRaw(HelpTool, raw); fail != nil {
		return g.failure(tc, HelpTool, fail, raw), nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && string(raw) != "null" {
		if fail := repeatedMember(HelpTool, raw, g.cfg.limits, helpShape); fail != nil && json.Valid(raw) {
			return g.failure(tc, HelpTool, fail, raw), nil
		}
		var fail *EnvelopeError
		if req, fail = decodeHelp(raw); fail != nil {
			return &Envelope{Op: HelpTool, Error: fail}, nil
		}
		if fail := g.unknownHelpArgs(raw, false, req); fail != nil {
			return g.failure(tc, HelpTool, fail, raw), nil
		}
	}
	return g.help(tc, req), nil
}

// The words of tool_help's answers to arguments it cannot read: the shape
// after a repeated member, and the start and the end of the answer to a
// member of the wrong type.
const (
	helpShape   = `: {"path":"<group, entity or op>"}`
	helpInvalid = "tool_help arguments are not valid: "
	helpSend    = `; send {"path":"<group, entity or op>"}`
)

// decodeHelp decodes raw, tool_help arguments (not blank, not null), as
// json.Unmarshal into a helpRequest decodes them (decodeRequest).
func decodeHelp(raw []byte) (helpRequest, *EnvelopeError) {
	return decodeRequest(raw, ownHelp, helpInvalid, helpSend, func(item batchItem) helpRequest { return item.helpRequest })
}

// bootGroupsLen bounds the list of groups in tool_help's description.
const bootGroupsLen = 240

// sharedOps is the number of ops an entity needs to be named where a
// group is summarised (boot descriptions, a catch-all group at the root):
// an entity of one op says no more than the op.
const sharedOps = 2

// shared returns n's entities (children with children of their own) that
// hold at least sharedOps ops, in name order, and whether they hold at
// least half of the ops under n's entities; when they do not, n is a
// catch-all of single ops (a family's ungrouped tools) and a few of its
// names would misrepresent it.
func (n *node) shared() (entities []*node, representative bool) {
	held, all := 0, 0
	for _, name := range n.names {
		c := n.children[name]
		if len(c.children) == 0 {
			continue
		}
		all += c.reads + c.writes
		if c.reads+c.writes >= sharedOps {
			entities = append(entities, c)
			held += c.reads + c.writes
		}
	}
	return entities, 2*held >= all
}

// exampleOps is the number of ops an entity needs to be the boot text's
// example directory: a smaller listing teaches little about browsing.
const exampleOps = 3

// bootWords are the family's own words in the gateway tools' boot
// descriptions: example paths taken from its largest entity, and its
// groups with their largest entities, so that a model can often go
// straight to a group, an entity or an op without the root listing.
type bootWords struct {
	dir    string // a group or entity path
	dirOps string // dir's ops of one kind: dir + ".write" or ".read"; "" when both are ops
	op     string // an op under dir, for tool_exec's example
	groups string // " Groups: …." or ""
}

// dirExamples are the directory paths tool_help's description gives as
// examples: dir, and dir's ops of one kind when that is no op's path.
func (w bootWords) dirExamples() string {
	if w.dirOps == "" {
		return w.dir
	}
	return w.dir + ", " + w.dirOps
}

func (g *Gateway) bootWords() bootWords {
	size := func(n *node) int { return n.reads + n.writes }
	bySize := func(n *node) []*node {
		out := make([]*node, 0, len(n.names))
		for _, name := range n.names {
			out = append(out, n.children[name])
		}
		sort.SliceStable(out, func(i, j int) bool { return size(out[i]) > size(out[j]) })
		return out
	}
	// entities are a group's shared entities, largest first; none for a
	// catch-all group.
	entities := func(gr *node) []*node {
		es, ok := gr.shared()
		if !ok {
			return nil
		}
		sort.SliceStable(es, func(i, j int) bool { return size(es[i]) > size(es[j]) })
		return es
	}
	groups := bySize(g.tree)
	if len(groups) == 0 {
		return bootWords{dir: "a", dirOps: "a.read", op: "a.b"}
	}
	// The example directory: the largest entity of any group (the first
	// group's on a tie) if it lists a few ops, else the largest group that
	// is neither an op alone nor a catch-all.
	var ex *node
	for _, gr := range groups {
		if es := entities(gr); len(es) > 0 && size(es[0]) >= exampleOps && (ex == nil || size(es[0]) > size(ex)) {
			ex = es[0]
		}
	}
	for _, gr := range groups {
		if _, ok := gr.shared(); ex == nil && len(gr.children) > 0 && ok {
			ex = gr
		}
	}
	if ex == nil {
		ex = groups[0]
	}
	// The kind filter shown is one that is not an op's own path: in a
	// family with an op file.write, "file.write" is that op.
	w := bootWords{dir: ex.path}
	for _, kind := range []runtime.OpKind{runtime.OpWrite, runtime.OpRead} {
		p := ex.path + "." + string(kind)
		if _, op := g.ops[p]; !op && (kind == runtime.OpRead || ex.writes > 0) && w.dirOps == "" {
			w.dirOps = p
		}
	}
	if reads := ex.ops(runtime.OpRead); len(reads) > 0 {
		w.op = reads[0].op.Path
	} else {
		w.op = ex.ops("")[0].op.Path
	}
	var b strings.Builder
	b.WriteString(" Groups: ")
	for i, gr := range groups {
		var part strings.Builder
		if i > 0 {
			part.WriteString("; ")
		}
		part.WriteString(gr.name)
		if es := entities(gr); len(es) > 0 {
			part.WriteString(" (")
			for j, e := range es[:min(4, len(es))] {
				if j > 0 {
					part.WriteString(", ")
				}
				part.WriteString(e.name)
			}
			if len(es) > 4 {
				part.WriteString(", …")
			}
			part.WriteString(")")
		}
		if b.Len()+part.Len() > bootGroupsLen {
			fmt.Fprintf(&b, "; and %d more", len(groups)-i)
			break
		}
		b.WriteString(part.String())
	}
	b.WriteByte('.')
	w.groups = b.String()
	return w
}

// helpArgs are the arguments tool_help takes.
var helpArgs = []string{"path", "format", "include_examples", "include_schemas"}

// unknownHelpArgs refuses arguments tool_help does not take ({"op":…}
// for {"path":…}) instead of answering the root listing (unknownArg), with
// the nearest paths when the value names none.
func (g *Gateway) unknownHelpArgs(obj []byte, inItem bool, req helpRequest) *EnvelopeError {
	ee, v := g.unknownArg(obj, inItem, "tool_help", helpArgs, req.Path != "", g.cfg.limits.PathBytes)
	if v = strings.TrimSpace(v); v != "" {
		if b, _ := g.resolve(v); b == nil && g.tree.lookup(v) == nil {
			ee.Details.DidYouMean = g.nearHelpPaths(v)
		}
	}
	return ee
}

// typeErrors are the field errors of err, a json.Unmarshal error of raw
// into a gateway tool's request: the member whose value has the wrong
// type, what it takes and what was sent; nil for other errors.
func typeErrors(err error, raw json.RawMessage) []runtime.FieldError {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" || strings.Contains(te.Field, ".") {
		return nil
	}
	want := "a " + te.Type.String()
	switch te.Type.Kind() {
	case reflect.String:
		want = "string"
	case reflect.Bool, reflect.Pointer:
		want = "boolean"
	case reflect.Int, reflect.Int64:
		want = "integer"
	}
	// encoding/json matched the member up to case: name the one sent.
	// The member is the first one matching up to case whose value does
	// not decode ({"Path":5,"path":"x"} is wrong at /Path, not /path).
	name, value := te.Field, []byte(nil)
	text.Members(raw, func(k, v []byte) bool {
		if strings.EqualFold(string(k), te.Field) && json.Unmarshal(v, reflect.New(te.Type).Interface()) != nil {
			name, value = string(k), v
			return false
		}
		return true
	})
	return []runtime.FieldError{typeFieldError(name, want, te.Value, value)}
}

// typeFieldError is the field error of member name, whose value (JSON
// text; got its JSON type, as encoding/json words it) is not of type want.
func typeFieldError(name, want, got string, value []byte) runtime.FieldError {
	return runtime.FieldError{Path: "/" + text.PointerToken(name), Code: "type",
		Message: "expected " + want + ", received " + got, Expected: want,
		Received: text.Truncate(string(bytes.TrimSpace(value)), text.ReceivedLimit)}
}

// unknownArg refuses the first member of the JSON object obj (in name
// order) that tool, which takes known, does not take, or returns nil when
// there is none; a batch item's "tool" member is not one of tool's
// (inItem). The error names the argument and lists known. When the name
// is a misspelling or a shortening of one of known ("fmt", "Format" for
// format), it says so and gives the call with that name; else, when the
// value is a string of at most maxValue bytes and the tool's first
// argument (known[0]) was not sent (firstSent), it gives the call
// {known[0]: value} and returns that value. The call is in the message and
// in details.example, both JSON. The members are read in place: a
// megabyte of them costs no map of them.
func (g *Gateway) unknownArg(obj []byte, inItem bool, tool string, known []string, firstSent bool, maxValue int) (*EnvelopeError, string) {
	var first, value []byte
	found := false
	for r := text.NewMemberReader(obj); ; {
		m, ok := r.Next()
		if !ok {
			break
		}
		if inItem && string(m.Name) == "tool" || isOneOf(m.Name, known) {
			continue
		}
		if !found || bytes.Compare(m.Name, first) < 0 {
			first, value, found = append(first[:0], m.Name...), m.Value, true
		}
	}
	if !found {
		return nil, ""
	}
	name0 := string(first)
	k := truncBytes(name0, g.cfg.limits.EchoBytes)
	ee := &EnvelopeError{Code: runtime.CodeValidation,
		Message: fmt.Sprintf(`%s has no argument %s; its arguments are %s`, tool, jsonQuote(k), strings.Join(known, ", ")),
		Details: Details{FieldErrors: []runtime.FieldError{{Path: "/" + text.PointerToken(k), Code: "unknown", Message: "unknown argument"}}}}
	raw := bytes.TrimSpace(value)
	if name := text.CloseName(name0, known); name != "" && name != known[0] {
		ee.Details.FieldErrors[0].Suggestion = name
		ee.Message = fmt.Sprintf(`%s has no argument %s; did you mean %s?`, tool, jsonQuote(k), jsonQuote(name))
		if len(raw) > 0 && len(raw) <= maxValue {
			call := []byte(`{` + jsonQuote(name) + `:` + string(raw) + `}`)
			ee.Message += " send " + string(call)
			ee.Details.Example = call
		}
		return ee, ""
	}
	var v string
	if json.Unmarshal(raw, &v) != nil || firstSent || strings.TrimSpace(v) == "" || len(v) > maxValue {
		return ee, ""
	}
	call := []byte(`{` + jsonQuote(known[0]) + `:` + jsonQuote(v) + `}`)
	ee.Message = fmt.Sprintf(`%s has no argument %s: send %s`, tool, jsonQuote(k), call)
	ee.Details.Example = call
	return ee, v
}

// isOneOf reports whether name is one of names.
func isOneOf(name []byte, names []string) bool {
	for _, n := range names {
		if string(name) == n {
			return true
		}
	}
	return false
}

// jsonQuote is s as a JSON string.
func jsonQuote(s string) string { return string(text.AppendJSONString(nil, s, false)) }

// help answers one tool_help request.
func (g *Gateway) help(tc runtime.ToolContext, req helpRequest) *Envelope {
	if e := g.checkLen(HelpTool, "/path", "path", req.Path, g.cfg.limits.PathBytes); e != nil {
		e.Message += `; help paths are short dotted names: start from tool_help({"path":""})`
		return g.failure(tc, HelpTool, e, nil)
	}
	path := strings.Trim(strings.TrimSpace(req.Path), ".")
	if strings.EqualFold(path, "root") || path == "/" {
		path = ""
	}
	format := "short"
	if strings.EqualFold(req.Format, "full") {
		format = "full"
	}
	examples := req.IncludeExamples == nil || *req.IncludeExamples
	target, ok := g.helpTarget(path)
	if !ok {
		return g.failure(tc, HelpTool, g.noHelpPath(path), []byte(path))
	}
	key := helpKey{g.reg.Version, target, format, examples, req.IncludeSchemas}
	doc, ok := g.helpc.get(key)
	if !ok {
		var fail *EnvelopeError
		doc, fail = g.targetDoc(target, format == "full", examples, req.IncludeSchemas)
		if fail != nil {
			return g.failure(tc, HelpTool, fail, []byte(path))
		}
		g.helpc.put(key, doc)
	}
	env := &Envelope{Op: HelpTool, OK: true, Result: doc}
	if n := g.helpRepeats(tc, path, format); n >= g.cfg.repetitions {
		where := "an op path from the listing above"
		if path != "" {
			where = "an op from this listing"
		}
		env.Meta = &Meta{Warnings: []string{fmt.Sprintf("you asked for this help %d times; it has not changed. Pick %s and call tool_exec, or use tool_search", n, where)}}
	}
	return env
}

// helpDoc builds and encodes the help document for a path.
func (g *Gateway) helpDoc(path string, full, examples, schemas bool) (json.RawMessage, *EnvelopeError) {
	t, ok := g.helpTarget(path)
	if !ok {
		return nil, g.noHelpPath(path)
	}
	return g.targetDoc(t, full, examples, schemas)
}

// helpTarget is what path names, and false when it names nothing.
func (g *Gateway) helpTarget(path string) (helpTarget, bool) {
	if b, _ := g.resolve(path); b != nil {
		return helpTarget{op: b}, true
	}
	if n := g.tree.lookup(path); n != nil {
		return helpTarget{dir: n}, true
	}
	if i := strings.LastIndexByte(path, '.'); i > 0 && (runtime.OpKind(path[i+1:]) == runtime.OpRead || runtime.OpKind(path[i+1:]) == runtime.OpWrite) && g.tree.lookup(path[:i]) != nil {
		return helpTarget{dir: g.tree.lookup(path[:i]), kind: runtime.OpKind(path[i+1:])}, true
	}
	if n := g.tree.lookup(strings.ToLower(path)); n != nil {
		return helpTarget{dir: n}, true
	}
	return helpTarget{}, false
}

// noHelpPath is the answer to a help path that names nothing.
func (g *Gateway) noHelpPath(path string) *EnvelopeError {
	return &EnvelopeError{Code: runtime.CodeNotFound,
		Message:  fmt.Sprintf("no help path %q; paths are groups, entities and ops such as %s", truncBytes(path, g.cfg.limits.EchoBytes), strings.Join(g.tree.names[:min(3, len(g.tree.names))], ", ")),
		Details:  Details{DidYouMean: g.nearHelpPaths(path)},
		HelpPath: g.nearestDir(path)}
}

// targetDoc builds and encodes the help document of t.
func (g *Gateway) targetDoc(t helpTarget, full, examples, schemas bool) (json.RawMessage, *EnvelopeError) {
	var doc any
	if t.op != nil {
		doc = g.opDoc(t.op, full, examples, schemas)
	} else {
		doc = g.dirDoc(t.dir, t.kind, full)
	}
	b, err := text.Marshal(doc)
	if err != nil {
		return nil, &EnvelopeError{Code: runtime.CodeInternal, Message: "help could not be encoded", HelpPath: ""}
	}
	return b, nil
}

// nearHelpPaths are up to five paths near path: by spelling, then ops by
// their words.
func (g *Gateway) nearHelpPaths(path string) []string {
	sugg := nearest(path, g.paths, 3)
	for _, s := range g.suggestOps(path, 3) {
		if len(sugg) >= 5 {
			break
		}
		if !slices.Contains(sugg, s) {
			sugg = append(sugg, s)
		}
	}
	return sugg
}

// nearestDir is the longest existing directory prefix of path ("" for the
// root), the help path of errors about path. The prefixes are path itself
// and path up to each of its dots; as every prefix of an existing path
// exists, one walk down the tree finds the longest, in time linear in
// path (an unknown op or help path may be long when the limits are
// lifted).
func (g *Gateway) nearestDir(path string) string {
	x, best, end := g.tree, 0, 0
	for rest, more := path, path != ""; more; {
		var seg string
		seg, rest, more = strings.Cut(rest, ".")
		if x = x.children[seg]; x == nil {
			break
		}
		end += len(seg) // path[:end] is x's path
		if end > 0 && x.op == nil {
			best = end
		}
		end++ // the dot
	}
	return path[:best]
}

// dirDoc is the help of a non-op path: a directory listing.
type dirDoc struct {
	Path     string         `json:"path"`
	Summary  string         `json:"summary,omitempty"`
	Filter   runtime.OpKind `json:"filter,omitempty"`
	Children []dirEntry     `json:"children,omitempty"`
	Ops      []opEntry      `json:"ops,omitempty"`
	// Next says how to go deeper from a listing of children; a listing of
	// ops has none (running an op and asking for its help are in the
	// gateway tools' descriptions).
	Next string `json:"next,omitempty"`
}

// dirEntry summarises a child directory in one line: its op counts by
// kind, its sub-entities and the actions under it, so one help call covers
// a group.
type dirEntry struct {
	Name     string   `json:"name"`
	Summary  string   `json:"summary,omitempty"`
	Read     int      `json:"read,omitempty"`
	Write    int      `json:"write,omitempty"`
	Entities []string `json:"entities,omitempty"`
	// MoreEntities counts the entities of one op each that the root
	// listing leaves out of a catch-all group (its own help lists them).
	MoreEntities int      `json:"more_entities,omitempty"`
	Actions      []string `json:"actions,omitempty"`
}

// opEntry is one op of a listing: its op once, its kind when it writes
// (as in search answers), a summary and its arguments as in its usage
// line.
type opEntry struct {
	Op      string          `json:"op"`
	Kind    runtime.OpKind  `json:"kind,omitempty"`
	Summary string          `json:"summary,omitempty"`
	Args    string          `json:"args"`
	Example json.RawMessage `json:"example,omitempty"`
}

// flatLimit is the number of ops under a directory up to which its help
// lists every op with its args instead of summarising children.
const flatLimit = 25

func (g *Gateway) dirDoc(n *node, kind runtime.OpKind, full bool) dirDoc {
	d := dirDoc{Path: n.path, Filter: kind}
	if n.path == "" {
		d.Path = "root"
	}
	d.Summary = g.groupSummary(n)
	all := n.ops(kind)
	if len(all) <= flatLimit {
		for _, b := range all {
			d.Ops = append(d.Ops, g.opEntry(b, full))
		}
		return d
	}
	for _, name := range n.names {
		c := n.children[name]
		if c.op != nil && len(c.children) == 0 {
			if kind == "" || c.op.op.Kind == kind {
				d.Ops = append(d.Ops, g.opEntry(c.op, full))
			}
			continue
		}
		e := dirEntry{Name: name, Summary: g.groupSummary(c), Read: c.reads, Write: c.writes}
		switch kind {
		case runtime.OpRead:
			e.Write = 0
		case runtime.OpWrite:
			e.Read = 0
		}
		if e.Read+e.Write == 0 {
			continue
		}
		if n.path == "" {
			// At the root, list the entities of each group; of a catch-all
			// group, only those that several ops share.
			shared, representative := c.shared()
			for _, en := range c.names {
				switch sub := c.children[en]; {
				case len(sub.children) == 0:
					e.Actions = append(e.Actions, en)
				case representative || slices.Contains(shared, sub):
					e.Entities = append(e.Entities, en)
				default:
					e.MoreEntities++
				}
			}
		} else {
			for _, b := range c.ops(kind) {
				e.Actions = append(e.Actions, strings.TrimPrefix(b.op.Path, c.path+"."))
			}
		}
		d.Children = append(d.Children, e)
	}
	if n.path == "" {
		d.Next = `tool_help({"path":"<group>"}) lists a group's entities and ops in one call; tool_search({"query":"<need>"}) finds ops by words`
	} else {
		d.Next = fmt.Sprintf(`tool_help({"path":"%s.<entity>"}) lists an entity's ops and their args; the op path is %s.<entity>.<action>`, n.path, n.path)
	}
	return d
}

// groupSummary is the registry's summary of the group at n, unless it
// only names n and its children, which the listing shows anyway
// ("Operations on task, goal and plan.").
func (g *Gateway) groupSummary(n *node) string {
	for _, gr := range g.reg.Groups {
		if gr.Name == n.path {
			if namesOnly(gr.Summary, n) {
				return ""
			}
			return gr.Summary
		}
	}
	return ""
}

// listingWords are the words a summary may use besides a listing's names
// and still say nothing the listing does not.
var listingWords = map[string]bool{"operations": true, "ops": true, "tools": true, "on": true, "for": true,
	"of": true, "and": true, "or": true, "the": true, "a": true, "an": true, "with": true}

// namesOnly reports whether summary is made of n's name, its children's
// names and listingWords alone.
func namesOnly(summary string, n *node) bool {
	names := map[string]bool{}
	for _, name := range append([]string{n.name}, n.names...) {
		for _, w := range splitName(name) {
			names[w] = true
		}
	}
	words := strings.FieldsFunc(strings.ToLower(summary), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, w := range words {
		if !names[w] && !listingWords[w] {
			return false
		}
	}
	return len(words) > 0
}

// splitName splits an op path segment into its lower-cased words
// ("data_source" → data, source).
func splitName(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == '-' })
}

// listSummaryLen bounds an op's summary in a short listing: its first
// sentence, whole up to this length (a cut at 80 bytes left most
// one-sentence descriptions without their end).
const listSummaryLen = 160

func (g *Gateway) opEntry(b *binding, full bool) opEntry {
	e := opEntry{Op: b.op.Path, Args: b.argsLine()}
	if b.op.Kind == runtime.OpWrite {
		e.Kind = runtime.OpWrite
	}
	if full {
		e.Summary = text.FirstSentence(b.op.Description, 200)
		e.Example = b.call()
	} else {
		e.Summary = text.FirstSentence(b.op.Description, listSummaryLen)
	}
	return e
}

// opDoc is the help of one op (spec 004 §4.1): its op once, its usage
// line (which starts with the op), its arguments with their own required
// flags, and examples as ready-to-run args for this op.
type opDoc struct {
	Op            string          `json:"op"`
	Kind          runtime.OpKind  `json:"kind"`
	Summary       string          `json:"summary"`
	Usage         string          `json:"usage"`
	Args          []helpArg       `json:"args"`
	Notes         []string        `json:"notes,omitempty"`
	Policy        *Policy         `json:"policy,omitempty"`
	DryRunDefault bool            `json:"dry_run_default,omitempty"`
	Examples      []exampleCall   `json:"examples,omitempty"`
	Schema        json.RawMessage `json:"schema,omitempty"`
}

// helpArg is one argument in op help; required is shown only when true.
type helpArg struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required,omitempty"`
	Default     string `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
}

// exampleCall is a ready-to-run args object for the op of the help it is
// in: tool_exec({"op":<op>,"args":<args>}).
type exampleCall struct {
	Description string          `json:"description,omitempty"`
	Args        json.RawMessage `json:"args"`
}

func (g *Gateway) opDoc(b *binding, full, examples, schemas bool) opDoc {
	d := opDoc{Op: b.op.Path, Kind: b.op.Kind, Usage: b.usage, Args: make([]helpArg, 0, len(b.args)),
		Notes: b.op.Notes, Policy: b.op.Policy, DryRunDefault: b.op.DryRunDefault}
	for _, a := range b.args {
		d.Args = append(d.Args, helpArg(a))
	}
	if full {
		d.Summary = strings.TrimSpace(b.op.Description)
	} else {
		s := shorten(b.op.Description, b.args, b.op.Policy)
		d.Summary = s.summary
		for i := range d.Args {
			d.Args[i].Description = s.args[i]
		}
		if s.cut {
			d.Notes = append(append([]string(nil), d.Notes...), `the description is longer than shown: "format":"full" shows all of it`)
		}
	}
	if b.op.Kind == runtime.OpWrite && !g.cfg.writes {
		d.Notes = append(append([]string(nil), d.Notes...), "writes are disabled in this session: tool_exec refuses this op (dry_run:true still shows what it would do)")
	}
	if b.op.DryRunDefault {
		d.Notes = append(append([]string(nil), d.Notes...), `dry_run defaults to true: send "dry_run":false to apply changes`)
	}
	if examples {
		for _, ex := range b.op.Examples {
			if len(ex.Args) == 0 {
				continue
			}
			desc := ex.Description
			if strings.HasPrefix(desc, "Call "+b.op.Path) {
				desc = "" // the synthesised description says nothing the args do not
			}
			d.Examples = append(d.Examples, exampleCall{Description: desc, Args: ex.Args})
		}
		if len(d.Examples) == 0 {
			d.Examples = append(d.Examples, exampleCall{Args: b.example})
		}
	}
	if schemas {
		d.Schema = b.op.Parameters
	}
	return d
}

// helpRepeats counts the same help asked by this caller (0 when the
// caller cannot be told apart from others).
func (g *Gateway) helpRepeats(tc runtime.ToolContext, path, format string) int {
	session, known := caller(tc)
	if !known {
		return 0
	}
	return g.rep.hit(session, HelpTool, "ok", []byte(path+"\x00"+format))
}
