package taxonomy

import (
	"bytes"
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/manifest"
)

// DefaultGroup names the group of tools without a group token when the
// manifest names none.
const DefaultGroup = "tools"

// Op sources recorded in ir.Op.Source.
const (
	SourceRule     = "rule"
	SourceManifest = "manifest"
)

// Derive derives the op taxonomy of f (spec 004 §3, §5): one op per tool,
// the groups, and the registry version. m may be nil. Manifest problems
// (overrides naming unknown tools, ops no tool maps to, duplicate op paths)
// are located errors; unknown verbs are warnings in f.Warnings.
func Derive(f *ir.Family, m *manifest.Manifest) error { return DeriveParsed(f, m, nil) }

// DeriveParsed is Derive for a caller that holds the tools' parameters
// schemas parsed already, as the compile does: parsed(t) is the tree of
// t.ParamsSchema (the same value), or nil to have it parsed here. A
// 10,000-tool family is spared parsing every schema a second time.
func DeriveParsed(f *ir.Family, m *manifest.Manifest, parsed func(*ir.Tool) *jsonpos.Node) error {
	if m == nil {
		m = &manifest.Manifest{}
	}
	t := &taxonomy{f: f, m: m, defaultGroup: m.DefaultGroup, explicitDefault: m.DefaultGroup != ""}
	if t.defaultGroup == "" {
		t.defaultGroup = DefaultGroup
	}
	t.vocabulary()
	t.rules()
	t.groupToks = t.groupTokens()
	t.manifestOps = make(map[string]*manifest.Op, len(m.Ops))
	for i := len(m.Ops) - 1; i >= 0; i-- {
		t.manifestOps[m.Ops[i].Path] = &m.Ops[i] // the first entry of a path, as m.Op
	}
	t.overrides()
	f.Ops = nil
	ops := make([]*ir.Op, len(f.Tools))
	derivs := make([]derived, len(f.Tools))
	files := t.fileGroups()
	for i, tool := range f.Tools {
		derivs[i] = t.derive(tool.Name, tool.Description)
		derivs[i].fileGroup = files[tool.Pos.File]
	}
	t.qualifiers(derivs)
	t.placeUngrouped(derivs)
	t.inverses(derivs)
	for i, tool := range f.Tools {
		ops[i] = t.opPath(tool, derivs[i])
	}
	// Ops the manifest names claim their paths first, then rule-derived
	// ops in order of tool name, so which tool keeps a contested path
	// depends on the set of tools, not on their order in the input.
	order := make([]int, len(ops))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		oa, ob := ops[order[a]], ops[order[b]]
		if (oa.Source == SourceManifest) != (ob.Source == SourceManifest) {
			return oa.Source == SourceManifest
		}
		return oa.Tool.Name < ob.Tool.Name
	})
	byPath := map[string]*ir.Op{}
	next := map[string]int{} // the next suffix to try per collision path
	for _, i := range order {
		op, tool := ops[i], ops[i].Tool
		if prev := byPath[op.Path]; prev != nil {
			if op.Source != SourceRule {
				// Two manifest entries asked for one path: only the
				// manifest can say which tool gets it.
				t.errs = append(t.errs, jsonpos.Errorf(tool.Pos, "tool %q maps to op %q, already used by tool %q; add an override in the manifest", tool.Name, op.Path, prev.Tool.Name))
				ops[i] = nil
				continue
			}
			// Two tools read as one op (list_user / list_users, a-b /
			// A_B): the later one by name gets a path from its own name,
			// numbered if that is taken too, with a warning.
			alt := uniquePath(byPath, next, collisionPath(op.Path, tool.Name))
			f.Warnings = append(f.Warnings, ir.Diagnostic{Pos: tool.Pos, Code: "op-collision", Message: fmt.Sprintf("tool %q maps to op %q, already used by tool %q; using %q (add an override in the manifest to choose)", tool.Name, op.Path, prev.Tool.Name, alt)})
			op.Path = alt
		}
		byPath[op.Path] = op
	}
	for i, op := range ops {
		if op != nil {
			f.Ops = append(f.Ops, t.op(op, derivs[i]))
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var unmapped suggester
	var byAction map[string][]string // made when first needed
	for _, mo := range m.Ops {
		if byPath[mo.Path] == nil && !t.rejected[mo.Path] && !m.Partial {
			msg := fmt.Sprintf("no tool maps to op %q", mo.Path)
			s := unmapped.closest(mo.Path, paths)
			if s == "" {
				// Another group's op of the same last segment
				// (tools.ping for misc.ping), when it is one.
				if byAction == nil {
					byAction = map[string][]string{}
					for _, p := range paths {
						last := p[strings.LastIndexByte(p, '.')+1:]
						byAction[last] = append(byAction[last], p)
					}
				}
				if same := byAction[mo.Path[strings.LastIndexByte(mo.Path, '.')+1:]]; len(same) == 1 {
					s = same[0]
				}
			}
			if s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; toolgen inspect without -c lists the ops the tools map to"
			}
			t.errs = append(t.errs, &jsonpos.Error{Pos: mo.Pos, Message: msg})
		}
	}
	for _, mo := range m.Ops {
		if op := byPath[mo.Path]; op != nil {
			t.errs = append(t.errs, checkExamples(mo, op.Tool)...)
		}
	}
	f.Warnings = append(f.Warnings, renamedBuiltins(f.Tools, m.Surfaces)...)
	if len(t.errs) > 0 {
		return t.errs
	}
	// Each op's summaries depend on it alone: they are made in parallel.
	params := make([]json.RawMessage, len(f.Ops))
	forEach(len(f.Ops), func(i int) {
		var tree *jsonpos.Node
		if parsed != nil {
			tree = parsed(f.Ops[i].Tool)
		}
		if tree == nil {
			tree = summaryNode(f.Ops[i].Tool.ParamsSchema)
		}
		params[i] = finishOp(f.Ops[i], tree)
		if parsed == nil {
			// Called on a built family, whose compile is done: the
			// defaults it refused are known now (else the compile
			// calls DropUnappliedDefaults when it is done).
			appliedDefaultsOnly(f.Ops[i])
		}
	})
	used := make(map[string]bool)
	for _, op := range f.Ops {
		used[op.Group] = true
	}
	for _, g := range m.Groups {
		if !used[g.Name] {
			f.Warnings = append(f.Warnings, ir.Diagnostic{Pos: g.Pos, Code: "unused-group", Message: fmt.Sprintf("group %q matches no tool; name tools after it (list_%ss) or give it prefix or infix rules", g.Name, g.Name)})
		}
	}
	f.Groups = t.groups()
	if generates(m.Surfaces, "facades") {
		f.Warnings = append(f.Warnings, renamedFacades(f, m)...)
	}
	f.RegistryVersion = registryVersion(f, params)
	if len(m.Surfaces) > 0 && len(f.Surfaces) == 0 {
		f.Surfaces = append([]string(nil), m.Surfaces...)
	}
	return nil
}

// reservedToolNames are the usual names of the tools a surface adds beside
// the family's own. A family tool of that name keeps it, and the surface's
// tool takes another, by runtime.FreeName as the runtime names it
// (deferred.Surface.SearchName, prompt.Prompt.OpenSectionsName), as a
// facade is (ir.Family.FacadeNames, renamedFacades). (The names are
// runtime/prompt.OpenSectionsName and runtime/deferred.SearchToolName,
// spelled out: runtime/gateway's tests import this package.)
var reservedToolNames = []struct{ surface, name, tool string }{
	{"sections", "open_sections", "its open_sections tool"},
	{"deferred", "tool_search", "the tool search tool it adds"},
}

// renamedBuiltins tells, at the family tool that has its usual name, of
// each tool a generated surface adds under another name.
func renamedBuiltins(tools []*ir.Tool, surfaces []string) []ir.Diagnostic {
	var out []ir.Diagnostic
	var taken map[string]bool
	for _, r := range reservedToolNames {
		if !generates(surfaces, r.surface) {
			continue
		}
		for _, tool := range tools {
			if tool.Name != r.name {
				continue
			}
			if taken == nil {
				taken = make(map[string]bool, len(tools))
				for _, t := range tools {
					taken[t.Name] = true
				}
			}
			name := runtime.FreeName(r.name, func(n string) bool { return taken[n] })
			out = append(out, ir.Diagnostic{Pos: tool.Pos, Code: "builtin-renamed",
				Message: fmt.Sprintf("tool %q has the name of the %s surface's own tool (%s), so that tool is named %q; rename the tool to give the %s surface's tool its usual name", tool.Name, r.surface, r.tool, name, r.surface)})
		}
	}
	return out
}

// generates reports whether surface is generated: the manifest lists it,
// or lists none and it is not code, which is opt-in.
func generates(surfaces []string, surface string) bool {
	return len(surfaces) == 0 && surface != "code" || slices.Contains(surfaces, surface)
}

// renamedFacades tells of each facade not named after its group (see
// ir.Family.FacadeNames), at the tool that has the group's name, or at
// the group too long to be a tool name (in the manifest, or at its first
// tool).
func renamedFacades(f *ir.Family, m *manifest.Manifest) []ir.Diagnostic {
	var out []ir.Diagnostic
	var byName map[string]*ir.Tool
	for i, name := range f.FacadeNames() {
		g := f.Groups[i]
		if name == g.Name {
			continue
		}
		if byName == nil {
			byName = make(map[string]*ir.Tool, len(f.Tools))
			for _, t := range f.Tools {
				byName[t.Name] = t
			}
		}
		d := ir.Diagnostic{Code: "facade-renamed"}
		if t := byName[g.Name]; t != nil {
			d.Pos = t.Pos
			d.Message = fmt.Sprintf("tool %q has the name of group %q, so the group's facade (the facades surface's tool) is named %q; rename the tool or the group (the manifest's groups or default_group) to name the facade after its group", t.Name, g.Name, name)
		} else {
			d.Pos = groupPos(f, m, g.Name)
			d.Message = fmt.Sprintf("group %q is longer than the 64 bytes a tool name may have, so its facade (the facades surface's tool) is named %q", g.Name, name)
		}
		out = append(out, d)
	}
	return out
}

// groupPos locates group name: its manifest entry, else its first tool.
func groupPos(f *ir.Family, m *manifest.Manifest, name string) ir.Pos {
	for _, g := range m.Groups {
		if g.Name == name {
			return g.Pos
		}
	}
	for _, op := range f.Ops {
		if op.Group == name && op.Tool != nil {
			return op.Tool.Pos
		}
	}
	return ir.Pos{}
}

// collisionPath is the op path of a tool whose derived path is taken: the
// derived path with its last segment replaced by the tool's whole name.
func collisionPath(path, toolName string) string {
	alt := toolSlug(toolName)
	if alt == "" || alt[0] < 'a' || alt[0] > 'z' {
		alt = "op_" + alt
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		alt = path[:i] + "." + alt
	}
	return alt
}

// uniquePath returns path, or path with the first free suffix _2, _3, ...
// when it is taken; next remembers where to resume per path, so many
// tools colliding on one path stay linear.
func uniquePath(taken map[string]*ir.Op, next map[string]int, path string) string {
	if taken[path] == nil {
		return path
	}
	for n := max(next[path], 2); ; n++ {
		p := path + "_" + strconv.Itoa(n)
		if taken[p] == nil {
			next[path] = n + 1
			return p
		}
	}
}

// toolSlug is a tool name as one op path segment: lowercase letters,
// digits and underscores.
func toolSlug(name string) string {
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

type taxonomy struct {
	f            *ir.Family
	m            *manifest.Manifest
	defaultGroup string
	// prefix and infix map a name token to its group.
	prefix, infix map[string]string
	// named are declared groups without prefix or infix rules; each
	// claims the tools whose entity is its name.
	named map[string]bool
	// override maps a tool name to its manifest op path.
	override map[string]manifest.Override
	// rejected are op paths of overrides already reported as errors.
	rejected map[string]bool
	// compounds maps the first word of a multi-word entity to its second
	// (pull → request), detected from how name tokens co-occur.
	compounds map[string]string
	// words are the singular-candidate tokens of every name of the family.
	words map[string]bool
	// leads counts the names each word starts.
	leads map[string]int
	// groupToks are the prefix and infix tokens in sorted order
	// (groupTokens), made once rules has run.
	groupToks []string
	// manifestOps maps an op path to its entry in the manifest's ops
	// (manifest.Manifest.Op, without a scan of the list per op).
	manifestOps map[string]*manifest.Op
	// explicitDefault reports whether the manifest names default_group.
	explicitDefault bool
	errs            jsonpos.ErrorList
}

// rules collects the group-selecting tokens: the manifest's, or, when the
// manifest declares none, tokens detected across the family.
func (t *taxonomy) rules() {
	t.prefix, t.infix, t.named = map[string]string{}, map[string]string{}, map[string]bool{}
	for _, g := range t.m.Groups {
		if len(g.Prefix) == 0 && len(g.Infix) == 0 {
			t.named[strings.ToLower(g.Name)] = true
		}
		for _, p := range g.Prefix {
			t.prefix[strings.ToLower(p)] = g.Name
		}
		for _, in := range g.Infix {
			t.infix[strings.ToLower(in)] = g.Name
		}
	}
	if len(t.prefix) > 0 || len(t.infix) > 0 {
		return
	}
	t.detectGroups()
}

// detectGroups finds group tokens in names with no manifest rules:
//
//   - an infix: a token right after a known verb, used by at least three
//     tools with at least two verbs and two different following tokens, and
//     never the last token of a name (onto in list_onto_tasks,
//     create_onto_goal, get_onto_plan_details);
//   - a prefix: a first token before a known verb shared by at least two
//     tools (slack in slack_post_message, slack_list_channels).
func (t *taxonomy) detectGroups() {
	type stat struct {
		tools       int
		verbs, next map[string]bool
		last        bool
	}
	infix := map[string]*stat{}
	prefix := map[string]int{}
	var order []string
	for _, tool := range t.f.Tools {
		toks := t.joinCompounds(nameTokens(tool.Name))
		if len(toks) == 0 {
			continue // a name of separators only ("_"): no words to count
		}
		// The last word, also in its singular (list_pull_requests ends
		// with pull_request), is an entity, not a group word.
		for _, tok := range []string{toks[len(toks)-1], t.singular(toks[len(toks)-1])} {
			if s := infix[tok]; s != nil {
				s.last = true
			} else {
				infix[tok] = &stat{verbs: map[string]bool{}, next: map[string]bool{}, last: true}
			}
		}
		if len(toks) >= 3 && verbKind(toks[0]) != "" {
			s := infix[toks[1]]
			if s == nil {
				s = &stat{verbs: map[string]bool{}, next: map[string]bool{}}
				infix[toks[1]] = s
				order = append(order, toks[1])
			} else if s.tools == 0 {
				order = append(order, toks[1])
			}
			s.tools++
			s.verbs[toks[0]] = true
			s.next[toks[2]] = true
		}
		if len(toks) >= 3 && verbKind(toks[0]) == "" && verbKind(toks[1]) != "" {
			prefix[toks[0]]++
		}
	}
	for _, tok := range order {
		s := infix[tok]
		if s.tools >= 3 && len(s.verbs) >= 2 && len(s.next) >= 2 && !s.last {
			t.infix[tok] = tok
		}
	}
	for tok, n := range prefix {
		if n >= 2 && verbKind(tok) == "" {
			t.prefix[tok] = tok
		}
	}
}

// overrides indexes manifest overrides and ops with a tool, checking that
// each names a tool of the family.
func (t *taxonomy) overrides() {
	t.override, t.rejected = map[string]manifest.Override{}, map[string]bool{}
	names := make([]string, 0, len(t.f.Tools))
	known := map[string]bool{}
	for _, tool := range t.f.Tools {
		names = append(names, tool.Name)
		known[tool.Name] = true
	}
	byOp := map[string]manifest.Override{} // the override that took each op
	var unknown suggester
	add := func(o manifest.Override) {
		if !known[o.Tool] {
			msg := fmt.Sprintf("unknown tool %q", o.Tool)
			if s := unknown.closest(o.Tool, names); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			t.errs = append(t.errs, &jsonpos.Error{Pos: o.Pos, Message: msg})
			t.rejected[o.Op] = true
			return
		}
		if prev, ok := t.override[o.Tool]; ok && prev.Op != o.Op {
			t.errs = append(t.errs, &jsonpos.Error{Pos: o.Pos, Message: fmt.Sprintf("tool %q is already mapped to op %q", o.Tool, prev.Op)})
			t.rejected[o.Op] = true
			return
		}
		if prev, ok := byOp[o.Op]; ok && prev.Tool != o.Tool {
			// Located at the later entry of the manifest, not at a tool:
			// the manifest alone says which tool is to have the op.
			at := ""
			if prev.Pos.Line > 0 {
				at = fmt.Sprintf(" (%d:%d)", prev.Pos.Line, prev.Pos.Col)
			}
			t.errs = append(t.errs, &jsonpos.Error{Pos: o.Pos, Message: fmt.Sprintf(
				"override of tool %q names op %q, as the override of tool %q does%s; an op serves one tool: map one of them to another op",
				o.Tool, o.Op, prev.Tool, at)})
			return
		}
		byOp[o.Op] = o
		t.override[o.Tool] = o
	}
	for _, o := range t.m.Overrides {
		add(o)
	}
	for _, mo := range t.m.Ops {
		if mo.Tool != "" {
			add(manifest.Override{Tool: mo.Tool, Op: mo.Path, Pos: mo.ToolPos})
		}
	}
}

// derived is the result of reading a tool name.
type derived struct {
	group, entity, action string
	// path are the segments between group and action.
	path []string
	// verb is the name's verb; known reports whether the verb tables
	// know it.
	verb  string
	known bool
	// fileGroup is the group the tool's input file names, if any.
	fileGroup string
}

// derive reads a tool name by the rules documented in docs/TAXONOMY.md.
// A tool without a group token leaves group empty; placeUngrouped decides.
func (t *taxonomy) derive(name, desc string) derived {
	toks := t.joinCompounds(nameTokens(name))
	if len(toks) == 0 {
		return derived{group: t.defaultGroup, action: "call", verb: "call"}
	}
	var d derived
	if g, ok := t.prefix[toks[0]]; ok && len(toks) > 1 {
		d.group = g
		toks = toks[1:]
	}
	vi := -1
	for i, tok := range toks {
		if verbKind(tok) != "" {
			vi = i
			break
		}
	}
	if m := methodVerb(name); m != "" {
		// Class_method names (PlanAdjustment_adjustRehabPlan): the
		// method's verb.
		for i := len(toks) - 1; i >= 0; i-- {
			if toks[i] == m {
				vi = i
				break
			}
		}
	} else if starts := segmentStarts(name); vi >= 0 && !starts[toks[vi]] {
		// A verb that starts a part of the name wins over one inside a
		// noun before it: ChangeLog_getEntries is a get, not a log.
		for i := vi + 1; i < len(toks); i++ {
			if verbKind(toks[i]) != "" && starts[toks[i]] {
				vi = i
				break
			}
		}
	}
	mi := -1 // the method head of a Class_method name without a known verb
	if vi < 0 {
		mi = methodAt(toks, name)
	}
	var rest []string
	switch {
	case vi < 0 && len(toks) > 1 && descriptionKind(desc) != "" && !leadsWith(desc, toks[0]):
		// No known verb: the name is a noun phrase whose last word says
		// what the op gives (math_factorial is math.factorial,
		// browser_mouse_down is browser.mouse.down) when the description
		// starts with a known verb other than its first word ("Calculates
		// the factorial…"). The first word is reported as the unknown verb.
		d.verb, rest = toks[0], toks[:len(toks)-1]
		d.action = toks[len(toks)-1]
	case vi < 0 && mi >= 0 && leadsWith(desc, toks[mi]):
		// No known verb, but a method's first word that the description
		// leads with is a verb all the same (DataGuard_encryptBusinessData,
		// "Encrypts business data…").
		d.verb, d.action = toks[mi], toks[mi]
		rest = append(append([]string(nil), toks[:mi]...), toks[mi+1:]...)
	case vi < 0:
		d.verb, rest = toks[0], toks[1:]
	case vi == len(toks)-1 && vi > 0: // web_search
		d.verb, rest, d.known = toks[vi], toks[:vi], true
	case vi+3 < len(toks) && (toks[vi+1] == "or" || toks[vi+1] == "and") && verbKind(toks[vi+2]) != "":
		// Two verbs joined make one action: create_or_update_file is
		// file.create_or_update. The op writes when either verb does.
		d.verb, d.known = toks[vi], true
		if verbKind(toks[vi]) == runtime.OpRead {
			d.verb = toks[vi+2]
		}
		d.action = strings.Join(toks[vi:vi+3], "_")
		rest = append(append([]string(nil), toks[:vi]...), toks[vi+3:]...)
	case vi+2 < len(toks) && slices.Contains(phrasalParticles, toks[vi+1]):
		// A phrasal verb keeps its particle: turn_off_wifi is
		// wifi.turn_off, not off.wifi.turn.
		d.verb, d.known = toks[vi], true
		d.action = toks[vi] + "_" + toks[vi+1]
		rest = append(append([]string(nil), toks[:vi]...), toks[vi+2:]...)
	default: // list_onto_tasks, slack_post_message
		d.verb, d.known = toks[vi], true
		rest = append(append([]string(nil), toks[:vi]...), toks[vi+1:]...)
	}
	if d.action == "" {
		d.action = d.verb
	}
	if d.group == "" && len(rest) > 1 {
		if g, ok := t.infix[rest[0]]; ok {
			d.group, rest = g, rest[1:]
		}
	}
	if slices.Contains(joinVerbs, d.verb) {
		// What is added to a thing becomes part of it: the thing comes
		// first (add_reply_to_pull_request_comment is
		// pull_request.comment.reply.add).
		for i, w := range rest {
			if i > 0 && i+1 < len(rest) && (w == "to" || w == "into") {
				rest = append(append([]string(nil), rest[i+1:]...), rest[:i]...)
				break
			}
		}
	}
	// Particles carry no meaning in a path: move_document_in_tree is
	// document.tree.move.
	kept := rest[:0:0]
	for _, w := range rest {
		if !slices.Contains(particles, w) {
			kept = append(kept, w)
		}
	}
	rest = kept
	if d.action == "get" && len(rest) > 1 && slices.Contains(detailSuffixes, rest[len(rest)-1]) {
		rest = rest[:len(rest)-1]
	}
	for i := range rest {
		rest[i] = t.singular(rest[i])
	}
	if len(rest) > 1 && len(rest[0]) > 4 && strings.HasSuffix(rest[0], "ed") {
		// A participle of a write verb (a relation made: linked, assigned)
		// qualifies the entity after it:
		// get_linked_entities reads the entity's links (entity.links.get).
		for _, stem := range []string{rest[0][:len(rest[0])-2], rest[0][:len(rest[0])-1]} {
			if verbKind(stem) == runtime.OpWrite {
				rest = append(rest[1:], stem+"s")
				break
			}
		}
	}
	if d.action == "get" && len(rest) > 1 && slices.Contains(documentNouns, rest[len(rest)-1]) {
		// A get of a document-like noun names the document as its action:
		// get_buildos_usage_guide is buildos.usage_guide.
		d.action, rest = strings.Join(rest[1:], "_"), rest[:1]
	}
	if d.group == "" && len(rest) == 1 && !strings.Contains(rest[0], "_") {
		// A name whose only noun spells out a group token names the group
		// itself: search_ontology is onto.search.
		if g := shortestPrefix(t.groupToks, rest[0], 3); g != "" {
			if d.group = t.infix[g]; d.group == "" {
				d.group = t.prefix[g]
			}
			rest = nil
		}
	}
	if len(rest) > 0 {
		d.entity = rest[0]
	}
	if d.group == "" && len(rest) > 0 && t.named[rest[0]] {
		// A declared group without prefix or infix rules claims the
		// tools whose entity is its own name: todo claims list_todos as
		// todo.list, not tools.todo.list.
		d.group, rest = rest[0], rest[1:]
	}
	d.path = rest
	return d
}

// methodAt is the index in toks of the method head of name (methodHead),
// -1 when it has none.
func methodAt(toks []string, name string) int {
	w, _ := methodHead(name)
	for i := len(toks) - 1; w != "" && i >= 0; i-- {
		if toks[i] == w {
			return i
		}
	}
	return -1
}

// methodVerb is the known verb that starts the last part of a name made
// of several parts when that part is a camelCase method of at least two
// words (adjustRehabPlan in PlanAdjustment_adjustRehabPlan), else "".
func methodVerb(name string) string {
	if w, n := methodHead(name); n >= 2 && verbKind(w) != "" {
		return w
	}
	return ""
}

// methodHead is the first word of the last part of a Class_method name
// and the number of words of that part: the last part starts in lower
// case and an earlier one is camelCase (DataGuard_encryptBusinessData
// gives encrypt, 3). It is "" for other names.
func methodHead(name string) (string, int) {
	parts := nameParts(name)
	if len(parts) < 2 {
		return "", 0
	}
	last := parts[len(parts)-1]
	if !unicode.IsLower([]rune(last)[0]) || !strings.ContainsFunc(strings.Join(parts[:len(parts)-1], ""), unicode.IsUpper) {
		return "", 0
	}
	toks := nameTokens(last)
	if len(toks) == 0 || len(toks[0]) < 3 {
		return "", 0
	}
	return toks[0], len(toks)
}

// nameParts splits a name at underscores, hyphens, dots, spaces, slashes
// and colons, not at camelCase boundaries.
func nameParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// segmentStarts are the first words of the parts of a name split at
// underscores, hyphens, dots, spaces, slashes and colons (not at camelCase
// boundaries), lowercased.
func segmentStarts(name string) map[string]bool {
	out := map[string]bool{}
	for _, part := range nameParts(name) {
		if toks := nameTokens(part); len(toks) > 0 {
			out[toks[0]] = true
		}
	}
	return out
}

// leadsWith reports whether the description's first word is w or w with
// a verb ending (frobnicate: "Frobnicates…", "Frobnicated…").
func leadsWith(desc, w string) bool {
	first := strings.ToLower(strings.TrimLeft(desc, " \t\n\"'`*#-"))
	if i := strings.IndexFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		first = first[:i]
	}
	if first == "" || w == "" {
		return false
	}
	return first == w || strings.TrimSuffix(first, "s") == w || strings.TrimSuffix(first, "es") == w ||
		strings.TrimSuffix(first, "ed") == w || strings.TrimSuffix(first, "d") == w
}

// groupTokens are the prefix and infix tokens in sorted order.
func (t *taxonomy) groupTokens() []string {
	var out []string
	for g := range t.infix {
		out = append(out, g)
	}
	for g := range t.prefix {
		if t.infix[g] == "" {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

// shortestPrefix returns the shortest string of sorted (ascending, no
// two alike) that is at least min bytes long and a prefix of s, "" when
// none is: the first such in sorted order, as a prefix sorts before the
// strings it starts. It narrows the range of strings that share s's
// first i bytes one byte at a time, so that a family with thousands of
// group tokens costs each tool O(len(s) log len(sorted)), not a scan of
// them all.
func shortestPrefix(sorted []string, s string, min int) string {
	lo, hi := 0, len(sorted)
	for i := 0; lo < hi; i++ {
		// sorted[lo:hi] start with s[:i]; one of exactly i bytes sorts
		// first.
		if len(sorted[lo]) == i {
			if i >= min {
				return sorted[lo]
			}
			lo++
		}
		if i == len(s) || lo == hi {
			break
		}
		r, c := sorted[lo:hi], s[i]
		a := sort.Search(len(r), func(j int) bool { return r[j][i] >= c })
		b := sort.Search(len(r), func(j int) bool { return r[j][i] > c })
		lo, hi = lo+a, lo+b
	}
	return ""
}

// placeUngrouped gives each tool without a group token a group: the group
// that owns its entity (get_document_tree joins onto, which holds
// onto.document.*), else the manifest's default_group, else its entity as
// a group of its own when enough ungrouped tools share it (list_issues,
// get_issue, close_issue make issue.list, ...), and otherwise the default
// group.
//
// A group holds an entity through its ops on it (onto.document.get) and,
// for a group an ungrouped noun becomes, through the noun after it
// (create_pull_request_review holds review for pull_request). It owns the
// entity when it holds it at least twice as often as any other group and
// at least half as often as the ungrouped tools name it — as often, when
// they would make it a group of their own (in a pool of many vendors, six
// cultural_event_* tools do not claim a dozen event tools): onto's six
// document ops claim get_document_tree; pull_request's five review ops
// claim resolve_review_thread over copilot's one; browser_file_upload does
// not claim the six file tools of a filesystem server in one pool.
func (t *taxonomy) placeUngrouped(ds []derived) {
	homeless := map[string]int{}
	for _, d := range ds {
		if d.group == "" && len(d.path) > 0 {
			homeless[d.path[0]]++
		}
	}
	minShared := 1
	if len(homeless) > maxSoloGroups {
		minShared = minEntityGroup
	}
	owners := map[string]map[string]int{}
	hold := func(m map[string]map[string]int, entity, group string, n int) {
		if m[entity] == nil {
			m[entity] = map[string]int{}
		}
		m[entity][group] += n
	}
	subs := map[string]map[string]int{}
	for _, d := range ds {
		switch {
		case d.group != "" && d.entity != "":
			hold(owners, d.entity, d.group, 1)
		case d.group == "" && !t.explicitDefault && len(d.path) > 1 && homeless[d.path[0]] >= minShared:
			hold(subs, d.path[1], d.path[0], 1)
		}
	}
	// A noun after another is weaker evidence than an op on it: it takes
	// minSubHold tools (update_pull_request_branch alone does not claim
	// list_branches), and a qualifier is no entity.
	for entity, gs := range subs {
		for g, n := range gs {
			if n >= minSubHold && !slices.Contains(qualifierWords, entity) {
				hold(owners, entity, g, n)
			}
		}
	}
	// owner sorts the groups holding an entity: once per entity, not
	// once per tool on it.
	owned := map[string]string{}
	for i := range ds {
		d := &ds[i]
		if d.group != "" {
			continue
		}
		if d.fileGroup != "" && !t.explicitDefault {
			d.group = d.fileGroup
			continue
		}
		g, ok := owned[d.entity]
		if !ok {
			g = owner(owners[d.entity], d.entity)
			owned[d.entity] = g
		}
		if g != "" && t.owns(owners[d.entity][g], homeless[d.entity], minShared) {
			d.group = g
			continue
		}
		if t.explicitDefault || len(d.path) == 0 || homeless[d.path[0]] < minShared {
			d.group = t.defaultGroup
			continue
		}
		// The entity stays the group's noun, as for a declared group
		// (todo.list has entity todo).
		d.group, d.path = d.path[0], d.path[1:]
	}
}

// fileGroups maps each input file of a family read from several files to
// the group its name gives, when it gives one: the file holds two tools or
// more, and its base name without extensions, less verbs (read, write) and
// words that say nothing (tools, mcp, server, chat, ...), is one word. The
// author who put web_search and get_buildos_overview in util.json grouped
// them as util; a pool of servers in notion-mcp-server.tools.json,
// server-memory.tools.json, ... groups each server's tools. A family in
// one file gets nothing from it, nor does a word that cannot be a tool
// name.
func (t *taxonomy) fileGroups() map[string]string {
	out := map[string]string{}
	tools := map[string]int{}
	for _, tool := range t.f.Tools {
		out[tool.Pos.File] = ""
		tools[tool.Pos.File]++
	}
	if len(out) < 2 {
		return nil
	}
	for file := range out {
		if tools[file] < 2 {
			continue // a group of one tool says nothing
		}
		base := file[strings.LastIndexAny(file, "/\\")+1:]
		if i := strings.IndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		var words []string
		for _, w := range nameTokens(base) {
			if verbKind(w) == "" && !slices.Contains(fileNoise, w) && w[0] >= 'a' && w[0] <= 'z' {
				words = append(words, w)
			}
		}
		// A word longer than a tool name may be, or not of lowercase ASCII
		// letters and digits, names no group: providers take a group as a
		// namespace or section key.
		if len(words) == 1 && len(words[0]) <= runtime.MaxNameLen && manifest.ValidOpPath(words[0]) {
			out[file] = t.singular(words[0])
			if g := t.infix[words[0]]; g != "" {
				out[file] = g
			} else if g := t.prefix[words[0]]; g != "" {
				out[file] = g
			}
		}
	}
	return out
}

// fileNoise are words of input file names that name no group.
var fileNoise = []string{"tools", "tool", "functions", "function", "defs", "definitions", "schema", "schemas",
	"spec", "specs", "mcp", "server", "api", "all", "index", "main", "default", "test", "data",
	// the shapes and vendors of tool definitions
	"openai", "anthropic", "claude", "gemini", "chat", "completion", "completions", "response", "responses",
	"openapi", "swagger", "langchain", "bedrock", "vertex", "ollama"}

// owns reports whether a group holding an entity n times claims the
// ungrouped tools naming it homeless times: when they are at most twice n,
// and, where they would make the entity a group of its own (minShared of
// them, no default group), at most n.
func (t *taxonomy) owns(n, homeless, minShared int) bool {
	if 2*n < homeless {
		return false
	}
	return t.explicitDefault || homeless < minShared || n >= homeless
}

// owner is the group of gs that holds entity at least twice as often as
// any other, "" if none does; a noun never owns itself.
func owner(gs map[string]int, entity string) string {
	best, second := "", 0
	names := make([]string, 0, len(gs))
	for g := range gs {
		if g != entity {
			names = append(names, g)
		}
	}
	sort.Strings(names)
	for _, g := range names {
		switch n := gs[g]; {
		case best == "" || n > gs[best]:
			best, second = g, max(second, gs[best])
		case n > second:
			second = n
		}
	}
	if best == "" || gs[best] < 2*second {
		return ""
	}
	return best
}

// qualifiers moves a word that qualifies the entity after it to the end
// of the path: a first word that reads as an adjective (adjectival) and
// never stands alone as a tool's whole object, followed by one that does
// (or names a group). get_latest_release
// is release.latest.get beside list_releases; list_starred_repositories is
// repository.starred.list beside create_repository; list_task_documents
// keeps task first, as list_onto_tasks has task alone.
func (t *taxonomy) qualifiers(ds []derived) {
	alone := map[string]bool{}
	for _, d := range ds {
		if len(d.path) == 1 {
			alone[d.path[0]] = true
		}
		if d.group != "" {
			alone[d.group] = true
		}
	}
	for i := range ds {
		d := &ds[i]
		if len(d.path) < 2 || d.path[0] != d.entity || alone[d.entity] || !alone[d.path[1]] || !adjectival(d.entity) {
			continue
		}
		d.path = append(append([]string(nil), d.path[1:]...), d.path[0])
		d.entity = d.path[0]
	}
}

// adjectival reports whether w reads as an adjective: a participle or
// superlative (starred, latest) or a word of qualifiers. Nouns before a
// noun (company culture, text analysis) stay first.
func adjectival(w string) bool {
	return len(w) > 4 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "est")) || slices.Contains(qualifierWords, w)
}

// qualifierWords are adjectives and determiners that qualify the noun
// after them in tool names.
var qualifierWords = []string{
	"active", "all", "available", "best", "current", "custom", "default", "global", "multiple",
	"nearby", "new", "next", "old", "open", "pending", "popular", "previous", "private", "public",
	"recent", "top", "trending", "upcoming",
}

// inverses puts a verb and its un- inverse in one group on one entity:
// the inverse's, when the verb's own entity differs and the verb's
// description names the inverse's (link_onto_entities, "Link two entities
// with a typed edge", is onto.edge.link beside unlink_onto_edge). What an
// undo removes is what the verb makes.
func (t *taxonomy) inverses(ds []derived) {
	undo := map[string]int{} // group + "." + verb → index of its un- op
	for i, d := range ds {
		if d.known && strings.HasPrefix(d.verb, "un") && d.entity != "" {
			undo[d.group+"."+d.verb[2:]] = i
		}
	}
	for i := range ds {
		d := &ds[i]
		j, ok := undo[d.group+"."+d.verb]
		if !ok || !d.known || len(d.path) == 0 || d.path[0] != d.entity || d.entity == ds[j].entity {
			continue
		}
		if mentions(t.f.Tools[i].Description, ds[j].entity) {
			d.path = append([]string{ds[j].entity}, d.path[1:]...)
			d.entity = ds[j].entity
		}
	}
}

// mentions reports whether desc has the word w, singular or plural.
func mentions(desc, w string) bool {
	for _, f := range strings.FieldsFunc(strings.ToLower(desc), func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) {
		if f == w || singularWord(f) == w {
			return true
		}
	}
	return false
}

// A noun of ungrouped tools becomes a group of its own when the family
// has at most maxSoloGroups such nouns; beyond that, only when at least
// minEntityGroup tools share it, and rarer nouns stay in the default group.
// The surfaces that show one entry per group (facades, sections, code
// help, provider namespaces) are made for listings of a few dozen entries:
// one group per noun on a 2,307-tool pool made 849 groups and grew the
// facades boot text fifteenfold.
const (
	maxSoloGroups  = 30
	minEntityGroup = 3
	minSubHold     = 3
)

// documentNouns end get ops that read one document about the entity
// rather than the entity itself (get_buildos_overview is buildos.overview).
var documentNouns = []string{"overview", "guide", "readme", "manual", "documentation", "instructions", "faq", "changelog", "cheatsheet"}

// phrasalParticles follow a verb as part of it (turn on, log out).
var phrasalParticles = []string{"on", "off", "up", "down", "out"}

// joinVerbs add a thing to another that then holds it (add X to Y).
var joinVerbs = []string{"add", "append", "attach"}

// particles are prepositions and particles dropped from op paths.
var particles = []string{"in", "into", "to", "from", "of", "for", "by", "with", "on", "at", "as", "the", "a", "an", "and", "or"}

// vocabulary collects the family's name tokens and detects multi-word
// entities: a word that occurs in at least two names, is never a verb or
// the last token, and is always followed by the same word (pull in
// create_pull_request, list_pull_requests; sub in add_sub_issue,
// list_sub_issues) forms one entity with it (pull_request, sub_issue).
func (t *taxonomy) vocabulary() {
	t.words, t.compounds, t.leads = map[string]bool{}, map[string]string{}, map[string]int{}
	type stat struct {
		n    int
		next map[string]bool
		bad  bool
	}
	stats := map[string]*stat{}
	var order []string
	for _, g := range t.m.Groups {
		// The manifest's group words stay words: onto in list_onto_items
		// selects group onto, however the family uses it.
		for _, w := range append(append([]string{g.Name}, g.Prefix...), g.Infix...) {
			stats[strings.ToLower(w)] = &stat{bad: true, next: map[string]bool{}}
		}
	}
	for _, tool := range t.f.Tools {
		toks := nameTokens(tool.Name)
		if len(toks) > 0 {
			t.leads[toks[0]]++
		}
		seen := map[string]bool{}
		for i, w := range toks {
			t.words[w] = true
			s := stats[w]
			if s == nil {
				s = &stat{next: map[string]bool{}}
				stats[w] = s
				order = append(order, w)
			}
			if i == len(toks)-1 || verbKind(w) != "" || slices.Contains(particles, w) || slices.Contains(particles, toks[i+1]) ||
				verbKind(toks[i+1]) != "" && !otherVerb(toks, i+1) {
				s.bad = true
				continue
			}
			s.next[singularWord(toks[i+1])] = true
			if !seen[w] {
				s.n++
				seen[w] = true
			}
		}
	}
	for _, w := range order {
		if s := stats[w]; !s.bad && s.n >= 2 && len(s.next) == 1 {
			for nx := range s.next {
				if nx != w {
					t.compounds[w] = nx
				}
			}
		}
	}
}

// otherVerb reports whether toks has a known verb other than at skip, so
// that the word at skip may be a noun (request in list_pull_requests).
func otherVerb(toks []string, skip int) bool {
	for i, w := range toks {
		if i != skip && verbKind(w) != "" {
			return true
		}
	}
	return false
}

// joinCompounds joins the words of detected multi-word entities into one
// token (pull request → pull_request).
func (t *taxonomy) joinCompounds(toks []string) []string {
	if len(t.compounds) == 0 {
		return toks
	}
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		w := toks[i]
		// A compound whose second word starts another one makes a longer
		// entity: secret scanning alert, global security advisory.
		for head := toks[i]; i+1 < len(toks); head = toks[i] {
			nx, ok := t.compounds[head]
			if !ok || singularWord(toks[i+1]) != nx {
				break
			}
			i++
			w += "_" + toks[i]
		}
		out = append(out, w)
	}
	return out
}

// singular is singularWord for one token of this family, which may join
// words with underscores (sub_issues → sub_issue). A word ending in -os
// is made singular only when the family also uses the singular (repos
// with repo) or it is a known plural, so buildos stays buildos.
func (t *taxonomy) singular(w string) string {
	if i := strings.LastIndexByte(w, '_'); i >= 0 {
		return w[:i+1] + t.singular(w[i+1:])
	}
	if strings.HasSuffix(w, "os") && len(w) > 3 {
		if t.words[w[:len(w)-1]] || slices.Contains(pluralOs, w) {
			return w[:len(w)-1]
		}
		return w
	}
	return singularWord(w)
}

// pluralOs are plurals ending in -os that names use without the singular.
var pluralOs = []string{"repos", "todos", "photos", "videos", "memos", "logos", "demos", "infos", "promos", "combos", "cameos"}

// opPath starts the op record of one tool: its path (from the manifest
// or derived from the name), group, entity and action.
func (t *taxonomy) opPath(tool *ir.Tool, d derived) *ir.Op {
	op := &ir.Op{Tool: tool, Source: SourceRule}
	if o, ok := t.override[tool.Name]; ok {
		segs := strings.Split(o.Op, ".")
		op.Path, op.Group, op.Action = o.Op, segs[0], segs[len(segs)-1]
		if len(segs) >= 3 {
			op.Entity = segs[1]
		}
		op.Source = SourceManifest
	} else {
		op.Group, op.Entity, op.Action = d.group, d.entity, d.action
		op.Path = strings.Join(append(append([]string{d.group}, d.path...), d.action), ".")
	}
	return op
}

// op completes the op record of one tool once its path is final.
func (t *taxonomy) op(op *ir.Op, d derived) *ir.Op {
	tool := op.Tool
	mo := t.manifestOps[op.Path]
	switch a := tool.Annotations; {
	case mo != nil && mo.Kind != "":
		op.Kind = mo.Kind
	case a.ReadOnly != nil && *a.ReadOnly:
		op.Kind = runtime.OpRead
	case a.ReadOnly != nil || a.Destructive != nil && *a.Destructive:
		op.Kind = runtime.OpWrite
	default:
		op.Kind = t.evidence(tool, d)
		if op.Kind == "" {
			op.Kind = runtime.OpWrite
			t.f.Warnings = append(t.f.Warnings, ir.Diagnostic{
				Pos:     tool.Pos,
				Code:    "unknown-verb",
				Message: fmt.Sprintf("tool %q: unknown verb %q and no other evidence of what it does; op %s is kind write until ops.%s.kind in the manifest says read", tool.Name, d.verb, op.Path, op.Path),
			})
		}
	}
	if mo != nil && mo.Policy != nil {
		op.Policy = mo.Policy
	} else {
		op.Policy = ExtractPolicy(tool.Description)
	}
	if mo != nil {
		op.Notes = append([]string(nil), mo.Notes...)
		op.Examples = append([]ir.Example(nil), mo.Examples...)
		if mo.DryRunDefault != nil {
			op.DryRunDefault = *mo.DryRunDefault
		}
		if mo.ResultSchema != nil && tool.ResultSchema == nil {
			tool.ResultSchema = mo.ResultSchema
		}
	}
	deriveAnnotations(tool, op.Kind, d.verb, mo)
	return op
}

// evidence is the kind the tool's name and description give, "" when
// they give none: the name's verb (after run, perform and the like, the
// noun made from a verb: runSimulation reads); else the description's
// leading verbs ("Calculates the factorial…" reads; "API to search and
// book hostels" writes); else a noun of the name made from a verb
// (NearbyAttractionsFinder reads, LectureBookingAssistant writes).
func (t *taxonomy) evidence(tool *ir.Tool, d derived) runtime.OpKind {
	if d.known {
		if k := pathNominalKind(d.path); k != "" && slices.Contains(auxVerbs, d.verb) {
			return k
		}
		if slices.Contains(eitherVerbs, d.verb) && mutates(tool.Description) {
			return runtime.OpWrite
		}
		return verbKind(d.verb)
	}
	if k := descriptionEvidence(tool.Description); k != "" {
		return k
	}
	return t.nameEvidence(tool.Name)
}

// eitherVerbs read in most names (format_date, generate_report,
// convert_currency, export_csv) and change state in some (format_disk,
// generate_api_key, snapshot_volume, load_fixtures): their tools are reads
// unless the description says the tool removes, stores or sends
// something (mutates).
var eitherVerbs = []string{
	"convert", "download", "export", "format", "generate", "load", "print", "render", "scrape",
	"snapshot", "track",
}

// mutationVerbs are the verbs whose forms in a description say a tool
// changes state: it removes, overwrites, stores or sends something.
// Creating is not among them: "Creates a menu…" is how a generator that
// computes one describes itself.
var mutationVerbs = []string{
	"delete", "destroy", "drop", "erase", "overwrite", "purge", "remove", "reset", "revoke", "wipe",
	"truncate", "terminate", "persist", "publish", "save", "send", "store", "upload",
}

// mutates reports whether the first two sentences of a description use a
// form of a mutation verb ("erasing all data", "saves it to", "and
// publishes").
func mutates(desc string) bool {
	words := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(firstSentences(desc, 2)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		if words++; words > 80 {
			return false
		}
		for _, v := range mutationVerbs {
			if rest, ok := strings.CutPrefix(w, strings.TrimSuffix(v, "e")); ok {
				switch rest {
				case "e", "es", "ed", "ing", "s", "d":
					return true
				case "":
					if !strings.HasSuffix(v, "e") {
						return true
					}
				}
			}
		}
	}
	return false
}

// firstSentences is the text of s up to the end of its n-th sentence.
func firstSentences(s string, n int) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
			if n--; n == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// pathNominalKind is the kind of the first noun of path made from a
// known verb (simulation, assessment, analysis), "" if none is.
func pathNominalKind(path []string) runtime.OpKind {
	for _, seg := range path {
		for _, w := range strings.Split(seg, "_") {
			if k := nominalKind(w); k != "" {
				return k
			}
		}
	}
	return ""
}

// nameEvidence is the kind the words of a name give through the verbs
// they are forms of (finder, booking): write when any writes. Group words
// and words that start several names say nothing of one tool (browser in
// browser_handle_dialog beside browser_click).
func (t *taxonomy) nameEvidence(name string) runtime.OpKind {
	var kind runtime.OpKind
	for i, w := range t.joinCompounds(nameTokens(name)) {
		if t.prefix[w] != "" || t.infix[w] != "" || i == 0 && t.leads[w] > 1 {
			continue
		}
		if k := stemKind(w); k == runtime.OpWrite || k == runtime.OpRead && kind == "" {
			kind = k
		}
	}
	return kind
}

// destructiveVerbs are write verbs that remove or overwrite state
// (MCP destructiveHint); other writes are additive.
var destructiveVerbs = []string{
	"ban", "cancel", "clear", "close", "delete", "destroy", "detach", "disable", "discard", "drop",
	"erase", "evict", "kill", "merge", "overwrite", "purge", "refund", "remove", "replace", "reset",
	"revert", "revoke", "rollback", "shutdown", "stop", "terminate", "trash", "truncate", "uninstall",
	"unassign", "unlink", "unpublish", "unsubscribe", "wipe",
}

// nondestructiveVerbs are write verbs that add state, or change a field
// as the call says (MCP destructiveHint false, as the GitHub MCP server's
// maintainers mark update_issue_title): a write by any other verb leaves
// the hint unsaid, which MCP reads as destructive. Saying false of
// drop_table or wipe_disk told clients they could run it without asking.
var nondestructiveVerbs = []string{
	"add", "append", "assign", "attach", "book", "change", "clone", "comment", "copy", "create",
	"duplicate", "edit", "enable", "follow", "fork", "insert", "invite", "label", "link", "log",
	"make", "mark", "modify", "move", "new", "patch", "post", "record", "register", "rename",
	"reply", "reserve", "restore", "schedule", "send", "set", "star", "submit", "subscribe", "tag",
	"update", "upload",
}

// idempotentVerbs are write verbs whose repeats with the same arguments
// change nothing more (MCP idempotentHint).
var idempotentVerbs = []string{
	"assign", "archive", "clear", "delete", "disable", "enable", "mark", "move", "put", "remove",
	"rename", "replace", "reset", "restore", "set", "unassign", "unlink", "update", "upsert",
}

// deriveAnnotations completes tool's MCP hints: the manifest's overrides
// win, then the input's annotations, then the kind (reads are read-only)
// and, for writes, the verb (destructive, idempotent). The open-world
// hint and the title come only from the input or the manifest.
func deriveAnnotations(tool *ir.Tool, kind runtime.OpKind, verb string, mo *manifest.Op) {
	a := &tool.Annotations
	if mo != nil {
		if mo.Title != "" {
			tool.Title = mo.Title
		}
		for _, p := range []struct{ dst, src **bool }{
			{&a.ReadOnly, &mo.Annotations.ReadOnly}, {&a.Destructive, &mo.Annotations.Destructive},
			{&a.Idempotent, &mo.Annotations.Idempotent}, {&a.OpenWorld, &mo.Annotations.OpenWorld},
		} {
			if *p.src != nil {
				*p.dst = *p.src
			}
		}
	}
	hint := func(dst **bool, v bool) {
		if *dst == nil {
			*dst = &v
		}
	}
	hint(&a.ReadOnly, kind == runtime.OpRead)
	if *a.ReadOnly {
		return
	}
	switch {
	case slices.Contains(destructiveVerbs, verb):
		hint(&a.Destructive, true)
	case slices.Contains(nondestructiveVerbs, verb):
		hint(&a.Destructive, false)
	}
	hint(&a.Idempotent, slices.Contains(idempotentVerbs, verb))
}

// finishOp derives the op's usage line, argument summary and, when the
// manifest gives none, its example from its final path (after collisions
// moved it), so that each names its own op.
//
// It returns the canonical JSON of the params schema, which the registry
// version hashes: params, the schema parsed, serves all of them.
func finishOp(op *ir.Op, params *jsonpos.Node) json.RawMessage {
	args := schemaArgs(params)
	op.Usage = Usage(op.Path, args)
	op.Args = strings.TrimSpace(strings.TrimPrefix(op.Usage, op.Path))
	if len(args) > 0 {
		op.Arguments = args
	}
	if len(op.Examples) == 0 {
		if ex, ok := synthesizeExample(op.Path, params); ok {
			op.Examples = []ir.Example{ex}
		}
	}
	return canonicalNode(params, len(op.Tool.ParamsSchema))
}

// forEach calls fn(i) for every i in [0, n), on GOMAXPROCS goroutines when
// n is large enough to pay for them.
func forEach(n int, fn func(i int)) {
	workers := min(goruntime.GOMAXPROCS(0), n/64)
	if workers < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value
	for range workers {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					next.Store(int64(n)) // the other workers stop too
					panicked.CompareAndSwap(nil, fmt.Sprintf("%v\n\n(on a taxonomy worker goroutine:)\n%s", v, debug.Stack()))
				}
			}()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
	if v := panicked.Load(); v != nil {
		// A bug in toolgen: raised on the caller's goroutine, which can
		// recover it, rather than killing the process from a worker.
		panic(v)
	}
}

// groups lists the groups that hold ops: manifest groups first in manifest
// order, then the others in order of first use.
func (t *taxonomy) groups() []*ir.Group {
	entities := map[string][]string{}
	type held struct{ group, entity string }
	seen := map[held]bool{}
	var order []string
	for _, op := range t.f.Ops {
		if _, ok := entities[op.Group]; !ok {
			order = append(order, op.Group)
			entities[op.Group] = nil
		}
		if h := (held{op.Group, op.Entity}); op.Entity != "" && !seen[h] {
			seen[h] = true
			entities[op.Group] = append(entities[op.Group], op.Entity)
		}
	}
	var out []*ir.Group
	done := map[string]bool{}
	for _, g := range t.m.Groups {
		if _, used := entities[g.Name]; used && !done[g.Name] {
			summary := g.Summary
			if summary == "" {
				summary = groupSummary(entities[g.Name])
			}
			out = append(out, &ir.Group{Name: g.Name, Summary: summary})
			done[g.Name] = true
		}
	}
	for _, name := range order {
		if !done[name] {
			out = append(out, &ir.Group{Name: name, Summary: groupSummary(entities[name])})
			done[name] = true
		}
	}
	return out
}

func groupSummary(entities []string) string {
	if len(entities) == 0 {
		return "Operations."
	}
	return "Operations on " + strings.Join(entities, ", ") + "."
}

// nameTokens splits a tool name into lowercase tokens at underscores,
// hyphens, dots, spaces, slashes, colons and camelCase boundaries.
func nameTokens(name string) []string {
	var toks []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			toks = append(toks, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 &&
			(unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1]) ||
				i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return toks
}

// singular turns a plural English noun into its singular for entity names
// (tasks → task, entities → entity, statuses → status).
func singular(w string) string { return singularWord(w) }

// singularWord turns a plural English noun into its singular. Words ending
// in -ss, -us, -is and -os (status, analysis, buildos) are kept.
func singularWord(w string) string {
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "uses"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"), strings.HasSuffix(w, "os"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// checkExamples refuses a manifest example whose args the op's tool would
// refuse: help shows examples as ready-to-run calls. The embedded
// validator judges them against the tool's parameters as served; each
// violation is located at the value it is about (an additional property
// at its key, a missing one at its object), in source order.
func checkExamples(mo manifest.Op, tool *ir.Tool) []*jsonpos.Error {
	if len(mo.Examples) == 0 || len(tool.ParamsSchema) == 0 {
		return nil
	}
	s, err := check.CompileSchema(string(tool.ParamsSchema))
	if err != nil {
		return nil // a schema the embedded validator cannot read alone ($ref to another file)
	}
	var errs []*jsonpos.Error
	for i, ex := range mo.Examples {
		var args any
		dec := json.NewDecoder(bytes.NewReader(ex.Args))
		dec.UseNumber()
		if dec.Decode(&args) != nil {
			continue // the manifest decoder already reported it
		}
		found := s.Validate(args, "")
		if len(found) == 0 {
			continue
		}
		var node *jsonpos.Node
		if i < len(mo.ExampleArgs) {
			node = mo.ExampleArgs[i]
		}
		prefix := fmt.Sprintf("example %d is not a valid call of %s: ", i, tool.Name)
		var exErrs []*jsonpos.Error
		add := func(ptr string, key bool, msg string) {
			if node == nil { // located at the op: the message says where
				where := ptr
				if where == "" {
					where = "(root)"
				}
				msg = where + ": " + msg
			}
			exErrs = append(exErrs, &jsonpos.Error{Pos: examplePos(mo, node, ptr, key), Message: prefix + msg})
		}
		for _, f := range found {
			// A property the schema does not allow is reported at its
			// own pointer: located at its key.
			key := f.Code == "additionalProperties" || f.Code == "unevaluatedProperties"
			add(f.Path, key, f.Message)
		}
		// The validator's order is not stable (it walks maps).
		sort.SliceStable(exErrs, func(a, b int) bool {
			pa, pb := exErrs[a].Pos, exErrs[b].Pos
			if pa.Line != pb.Line {
				return pa.Line < pb.Line
			}
			if pa.Col != pb.Col {
				return pa.Col < pb.Col
			}
			if pa.Pointer != pb.Pointer {
				return pa.Pointer < pb.Pointer
			}
			return exErrs[a].Message < exErrs[b].Message
		})
		errs = append(errs, exErrs...)
	}
	return errs
}

// examplePos locates ptr (a JSON pointer into an example's args) in the
// manifest: at the value it names (at its key, when key is set), else at
// the nearest enclosing value that is there (a missing property's object).
// Without args positions it is the op's entry.
func examplePos(mo manifest.Op, args *jsonpos.Node, ptr string, key bool) ir.Pos {
	if args == nil {
		return mo.Pos
	}
	for {
		if n := args.Pointer(ptr); n != nil {
			if key && ptr != "" {
				slash := strings.LastIndexByte(ptr, '/')
				name := unescapeToken(ptr[slash+1:])
				if parent := args.Pointer(ptr[:slash]); parent != nil {
					for _, m := range parent.Members {
						if m.Key == name {
							return m.KeyPos()
						}
					}
				}
			}
			return n.Pos
		}
		if ptr == "" {
			return args.Pos
		}
		ptr, key = ptr[:strings.LastIndexByte(ptr, '/')], false
	}
}

// unescapeToken undoes the escapes of a JSON pointer reference token.
func unescapeToken(s string) string { return pointerUnescaper.Replace(s) }

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// maxSuggestions is the most unknown names of one kind (tools, ops) the
// taxonomy looks for a near name for: each look compares the name with
// every tool or op, and a manifest of thousands of unknown names made
// that quadratic (20,000 took 40 s; a manifest may hold 16 MiB). No one
// reads that far: toolgen prints the first 100 errors.
const maxSuggestions = 100

// suggester looks for near names for the first maxSuggestions names it
// is asked about, and returns "" for the others.
type suggester struct{ asked int }

// closest is text.Closest(s, candidates) while the suggester has looks
// left.
func (g *suggester) closest(s string, candidates []string) string {
	if g.asked >= maxSuggestions {
		return ""
	}
	g.asked++
	return text.Closest(s, candidates)
}
