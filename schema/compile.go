package schema

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/rootschema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/names"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// CompileOptions control Compile.
type CompileOptions struct {
	// Package is the Go package name of the output.
	Package string
	// Formats maps a format name to its Go representation (the manifest's
	// formats: key; FormatTargets lists what is allowed). A string type
	// whose format maps to "time" becomes a time.Time (ir.ReprTime),
	// also as an item, map value or union branch; formats not listed stay
	// strings checked by Validate.
	Formats map[string]string
	// Limits bound the compilation (zero fields take limits.Default).
	Limits limits.Limits
	// Results are result schemas by tool name for tools whose definition
	// has no outputSchema (the manifest's ops.*.result_schema); they are
	// compiled into the tools' Go result types like an outputSchema.
	Results map[string]*jsonpos.Node
	// Reserved are further package-level names no generated type may
	// take: those the package's own files declare (the scaffold's
	// Service).
	Reserved []string
	// unplaced are result schemas of the manifest's ops that no tool's
	// result is compiled from (the op names a tool the family lacks):
	// compiled for their errors alone, which BuildFamily reports with the
	// errors that left them unplaced.
	unplaced []*jsonpos.Node
}

// BuildOptions control Build: the Load options plus the Compile ones.
type BuildOptions struct {
	load.Options
	Package string
	// Formats is CompileOptions.Formats.
	Formats map[string]string
	// Results is CompileOptions.Results.
	Results map[string]*jsonpos.Node
	// Reserved is CompileOptions.Reserved.
	Reserved []string
	// unplaced is CompileOptions.unplaced.
	unplaced []*jsonpos.Node
}

// SchemaOptions control CompileSchema.
type SchemaOptions struct {
	// Name is the Go name of the root type when it is named ("Root" if
	// empty).
	Name string
	// Draft7 reads the schema with draft-07 rules ($ref siblings ignored)
	// unless its $schema says otherwise.
	Draft7 bool
	// Resources are further documents by absolute URI (without fragment):
	// a $ref to the URI, or to an $id inside the document, resolves into
	// it. They are read like the schema (Draft7 applies) and are not
	// compiled unless referenced.
	Resources map[string]*jsonpos.Node
	// Limits bound the compilation (zero fields take limits.Default).
	Limits limits.Limits
}

// generatedNames are package-level identifiers of a generated package that
// no type may take (TestGeneratedNamesReserved reads them off the emitted
// files).
var generatedNames = []string{
	"Handlers", "UnimplementedHandlers", "Tools", "DecodeArgs", "Registry",
	"Gateway", "GatewayDefinitions", "Facades", "Sections", "Deferred",
	"Code", "CodeDeclarations", "CodeDefinitions",
}

// GeneratedNames returns the exported package-level names every generated
// package declares whatever its tools.
func GeneratedNames() []string { return slices.Clone(generatedNames) }

// Build loads the tool definition files of one family and compiles them
// into IR.
func Build(inputs []load.Input, opts BuildOptions) (*ir.Family, error) {
	if err := manifest.CheckFormats(opts.Formats); err != nil {
		return nil, err
	}
	fam, errs := build(inputs, opts, nil)
	if len(errs) > 0 {
		return nil, errs
	}
	return fam, nil
}

// build loads and compiles, returning the family compiled from what
// loaded and every error of both phases (MergeErrors order). alongside,
// when set, runs while the types compile (compileDoc).
func build(inputs []load.Input, opts BuildOptions, alongside alongsideFunc) (*ir.Family, jsonpos.ErrorList) {
	doc, loadErrs := load.Decode(inputs, opts.Options)
	fam, compileErrs := compileDoc(doc, CompileOptions{Package: opts.Package, Formats: opts.Formats, Limits: opts.Limits, Results: opts.Results, Reserved: opts.Reserved, unplaced: opts.unplaced}, alongside)
	return fam, jsonpos.MergeErrors(doc.Sources, loadErrs, compileErrs)
}

// Compile turns the JSON Schemas of a loaded Document into an ir.Family:
// named types, Go names, constraints and delegated subschemas. Every
// problem is reported, as an ErrorList of located errors.
func Compile(doc *load.Document, opts CompileOptions) (*ir.Family, error) {
	if err := manifest.CheckFormats(opts.Formats); err != nil {
		return nil, err
	}
	fam, errs := compileDoc(doc, opts, nil)
	if len(errs) > 0 {
		return nil, errs
	}
	return fam, nil
}

// codeRootType is the code of the warning that a tool's parameters are
// served with a root "type" they do not say (servedRoot).
const codeRootType = "root-type"

// codeOutputType is the code of the warning that an output schema's root
// is not of "type": "object", which MCP requires.
const codeOutputType = "output-root-type"

// codeRootKeyword is the code of the warning that a tool's parameters
// root holds a keyword a provider refuses there (rootKeywords).
const codeRootKeyword = "root-keyword"

// rootKeywords warns about a keyword of the parameters root n that a
// provider refuses there and that the provider adapters cannot loosen
// into a schema it accepts (rootschema.Flatten), so that the tool is not
// first refused when it is served: runtime/openai and runtime/anthropic
// return an error naming it instead of sending it. Once per tool, at
// what cannot be loosened; or once per provider when they fail apart.
func (c *compiler) rootKeywords(n *jsonpos.Node) {
	if n == nil || n.Kind != jsonpos.ObjectNode || !slices.ContainsFunc(n.Members, func(m jsonpos.Member) bool {
		return rootschema.RefusedBy(m.Key) != 0
	}) {
		return
	}
	raw := n.AppendJSON(nil)
	type failure struct {
		err *rootschema.Error
		by  rootschema.Provider
	}
	var fails []failure
	for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
		_, err := rootschema.Flatten(raw, p)
		e, ok := err.(*rootschema.Error)
		if !ok {
			continue
		}
		if len(fails) > 0 && *fails[0].err == *e {
			fails[0].by |= p
			continue
		}
		fails = append(fails, failure{e, p})
	}
	for _, f := range fails {
		at := n.Pointer(f.err.Pointer)
		if at == nil {
			at = n
		}
		verb, adapters, accepts := "refuses", "runtime/openai refuses", "it accepts"
		switch f.by {
		case rootschema.OpenAI | rootschema.Anthropic:
			verb, adapters, accepts = "refuse", "runtime/openai and runtime/anthropic refuse", "they accept"
		case rootschema.Anthropic:
			adapters = "runtime/anthropic refuses"
		}
		c.warnf(at, codeRootKeyword, "%s %s %q at the root of a tool's parameters, and it cannot be loosened into a schema %s (%s), so %s this tool instead of sending it; the generated validation still applies it",
			f.by, verb, f.err.Keyword, accepts, f.err.Reason, adapters)
	}
}

// servedRoot is the parameters schema n as toolgen serves it to models and
// clients (ir.Tool.ParamsSchema). The MCP, OpenAI and Anthropic APIs all
// refuse a tool whose parameters' root is not of "type": "object", and
// arguments are a JSON object whatever the schema says. So a root without
// "type", or whose list of types holds "object" (["object", "null"]), is
// served with "type": "object"; the compile reads such a root as an object
// already. Any other root is n itself, unchanged.
func servedRoot(n *jsonpos.Node) *jsonpos.Node {
	typ := n.Get("type")
	if typ != nil && (typ.Kind != jsonpos.ArrayNode || !slices.ContainsFunc(typ.Items, func(e *jsonpos.Node) bool {
		return e.Kind == jsonpos.StringNode && e.Str == "object"
	})) {
		return n
	}
	pos := n.Pos
	pos.Pointer += "/type"
	object := &jsonpos.Node{Kind: jsonpos.StringNode, Pos: pos, Str: "object"}
	members := make([]jsonpos.Member, 0, len(n.Members)+1)
	if typ == nil {
		members = append(members, jsonpos.Member{Key: "type", Value: object})
	}
	for _, m := range n.Members {
		if m.Key == "type" {
			m.Value = object
		}
		members = append(members, m)
	}
	served := *n
	served.Members = members
	return &served
}

// alongsideFunc is work done on a family while its types compile (see
// compileDoc): parsed(t) is t.ParamsSchema as the tree it was written
// from, which alongside may read and must not change.
type alongsideFunc func(fam *ir.Family, parsed func(*ir.Tool) *jsonpos.Node)

// compileDoc is Compile returning what it compiled along with the errors
// (opts.Formats must have passed checkFormats). alongside, when set, is
// called on another goroutine while the types compile, once the tools'
// names, descriptions and schemas (as JSON) are in the family: it may read
// those and write the family's ops, groups, surfaces, registry version and
// warnings, which the compile leaves alone until it returns; its warnings
// come after the compile's.
func compileDoc(doc *load.Document, opts CompileOptions, alongside alongsideFunc) (*ir.Family, jsonpos.ErrorList) {

	c := newCompiler()
	c.formats = opts.Formats
	c.limits = opts.Limits.WithDefaults()
	c.servedLeft = c.limits.OutputBytes
	c.types.MaxLen = c.limits.IdentifierLength
	c.types.Reserve(opts.Reserved...)
	fam := &ir.Family{Package: opts.Package, Sources: doc.Sources}
	fam.Warnings = append(fam.Warnings, doc.Warnings...)
	for i, root := range doc.Roots {
		if root == nil || i >= len(doc.Sources) {
			continue
		}
		c.addFile(doc.Sources[i], root)
	}

	tools := names.NewScope(slices.Concat(generatedNames, opts.Reserved)...)
	type pending struct {
		def  *load.ToolDef
		tool *ir.Tool
		// result is the key def.Output was given under: the tool's
		// outputSchema, or the manifest's result_schema.
		result string
	}
	tools.MaxLen = c.limits.IdentifierLength
	goNames := toolGoNames(tools, doc.Tools)
	var todo []pending
	for _, d := range doc.Tools {
		result := "outputSchema"
		if d.Output == nil && opts.Results[d.Name] != nil {
			withResult := *d
			withResult.Output = opts.Results[d.Name]
			d, result = &withResult, "result_schema"
		}
		t := &ir.Tool{
			Name:        d.Name,
			GoName:      goNames[d.Name],
			Title:       d.Title,
			Description: d.Description,
			Pos:         d.Pos,
			Format:      d.Format,
			Annotations: d.Annotations,
		}
		fam.Tools = append(fam.Tools, t)
		todo = append(todo, pending{d, t, result})
	}
	// Params and result names go first so nested types never take them.
	type rootNames struct{ params, result string }
	roots := make([]rootNames, len(todo))
	for i, p := range todo {
		roots[i].params = c.types.Unique(p.tool.GoName + "Params")
		// Without an output schema the name is the json.RawMessage alias's.
		roots[i].result = c.types.Unique(p.tool.GoName + "Result")
		p.tool.ResultName = roots[i].result
	}
	params := make([]*jsonpos.Node, len(todo))
	for i, p := range todo {
		params[i] = p.def.Params
		if params[i] == nil {
			params[i] = &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: p.def.Pos}
		}
	}
	// Every schema is indexed before any is compiled, so references and
	// dynamic anchors see all of them.
	for i, p := range todo {
		c.index(params[i], refFileURI(params[i].Pos.File), 2020)
		if p.def.Output != nil {
			c.index(p.def.Output, refFileURI(p.def.Output.Pos.File), 2020)
		}
	}
	for _, n := range opts.unplaced {
		c.index(n, refFileURI(n.Pos.File), 2020)
	}
	// The tools' schemas as JSON, as they are served, are written on
	// another goroutine while the schemas are compiled (both only read
	// the nodes, which nothing changes), then alongside runs there over
	// the served trees. A served schema is made self-contained first
	// (bundle), which needs every schema indexed.
	served := make([]*jsonpos.Node, len(todo))
	servedOutput := make([]*jsonpos.Node, len(todo))
	rootTyped := make([]bool, len(todo)) // servedRoot set the root's type
	byTool := make(map[*ir.Tool]*jsonpos.Node, len(todo))
	for i, p := range todo {
		bundled := c.bundle(params[i])
		served[i] = servedRoot(bundled)
		rootTyped[i] = served[i] != bundled
		byTool[p.tool] = served[i]
		if p.def.Output != nil {
			servedOutput[i] = c.bundle(p.def.Output)
		}
	}
	var wg sync.WaitGroup
	var later []ir.Diagnostic
	var panicked any // a panic on that goroutine, with its stack
	wg.Go(func() {
		defer func() {
			if v := recover(); v != nil {
				panicked = fmt.Sprintf("%v\n\n(on the goroutine that derives the taxonomy alongside the compile:)\n%s", v, debug.Stack())
			}
		}()
		// Each schema is written into one buffer, then copied out at its
		// size: 10,000 buffers grown one by one take a third more.
		var buf []byte
		for i, p := range todo {
			buf = served[i].AppendJSON(buf[:0])
			p.tool.ParamsSchema = bytes.Clone(buf)
			if p.def.Output != nil {
				buf = servedOutput[i].AppendJSON(buf[:0])
				p.tool.ResultSchema = bytes.Clone(buf)
			}
		}
		if alongside != nil {
			n := len(fam.Warnings)
			alongside(fam, func(t *ir.Tool) *jsonpos.Node { return byTool[t] })
			later = slices.Clone(fam.Warnings[n:])
			fam.Warnings = fam.Warnings[:n]
		}
	})
	// The compile makes about one type, and at most one field, per schema
	// indexed: its maps and the fields' pending defaults start at that
	// size instead of growing to it step by step.
	if len(c.memo) == 0 && len(c.ids) == 0 && len(c.fieldDefaults) == 0 {
		c.memo = make(map[*jsonpos.Node]*ir.Type, len(c.resOf))
		c.ids = make(map[string]int, len(c.resOf))
		c.fieldDefaults = make([]pendingDefault, 0, len(c.resOf))
	}
	cycleRoots := make([]*jsonpos.Node, 0, 2*len(todo))
	for i, p := range todo {
		cycleRoots = append(cycleRoots, params[i])
		if p.def.Output != nil {
			cycleRoots = append(cycleRoots, p.def.Output)
		}
	}
	cycleRoots = append(cycleRoots, opts.unplaced...)
	c.checkCycles(cycleRoots)
	for i, p := range todo {
		p.tool.Params = c.compileRoot(params[i], naming{name: roots[i].params, stem: p.tool.GoName}, paramsRoot, "parameters")
		if rootTyped[i] {
			if typ := params[i].Get("type"); typ != nil {
				c.warnf(typ, codeRootType, "providers require \"type\": \"object\" at the root of a tool's parameters; the definitions toolgen serves say \"object\" here")
			} else if p.def.Params != nil {
				c.warnf(params[i], codeRootType, "parameters have no \"type\"; providers require \"type\": \"object\" at the root, so the definitions toolgen serves add it")
			}
		}
		c.rootKeywords(params[i])
		if p.def.Output != nil {
			p.tool.Result = c.compileRoot(p.def.Output, naming{name: roots[i].result, stem: roots[i].result}, resultRoot, p.result)
			if typ := p.def.Output.Get("type"); typ == nil || typ.Kind != jsonpos.StringNode || typ.Str != "object" {
				at := p.def.Output
				if typ != nil {
					at = typ
				}
				c.warnf(at, codeOutputType, "MCP requires \"type\": \"object\" at the root of an outputSchema: this one is not listed to MCP clients, whose calls get the result as text (the typed result and its validation stay)")
			}
		}
	}
	for _, n := range opts.unplaced {
		// Named last, after every tool's types; no tool refers to them.
		name := c.types.Unique("UnplacedResult")
		c.compileRoot(n, naming{name: name, stem: name}, resultRoot, "result_schema")
	}
	wg.Wait()
	if panicked != nil {
		// A bug in toolgen: raised here, where the caller can recover it.
		panic(panicked)
	}
	c.finish()
	for i, p := range todo {
		p.tool.Params = c.entry(p.tool.Params, params[i], roots[i].params)
		if p.def.Output != nil {
			p.tool.Result = c.entry(p.tool.Result, p.def.Output, roots[i].result)
		}
	}
	for _, t := range fam.Tools {
		c.collect(t.Params)
		c.collect(t.Result)
	}
	fam.Types = c.order
	fam.Warnings = append(fam.Warnings, c.warns...)
	fam.Warnings = append(fam.Warnings, later...)
	sortWarnings(fam.Warnings, doc.Sources)
	if len(c.errs) > 0 {
		return fam, c.sortedErrors(doc.Sources)
	}
	return fam, nil
}

// toolGoNames declares the Go names of tools in sorted order of their
// names, so that tools whose names collide (get_item, Get_Item) get the
// same Go names whatever their order in the input.
func toolGoNames(scope *names.Scope, tools []*load.ToolDef) map[string]string {
	sorted := make([]string, 0, len(tools))
	for _, d := range tools {
		sorted = append(sorted, d.Name)
	}
	slices.Sort(sorted)
	out := make(map[string]string, len(sorted))
	for _, n := range sorted {
		if _, dup := out[n]; !dup {
			out[n] = scope.Declare(n)
		}
	}
	return out
}

// CompileSchema compiles one bare JSON Schema document (of any kind) into
// a type; the family holds the named types reachable from it. It serves
// conformance tests and schema files outside tool definitions.
func CompileSchema(file string, root *jsonpos.Node, opts SchemaOptions) (*ir.Type, *ir.Family, error) {
	c := newCompiler()
	c.limits = opts.Limits.WithDefaults()
	c.types.MaxLen = c.limits.IdentifierLength
	draft := 2020
	if opts.Draft7 {
		draft = 7
	}
	res := c.index(root, refFileURI(file), draft)
	c.files[path.Base(res.uri)] = res
	c.byURI[res.uri] = res
	uris := make([]string, 0, len(opts.Resources))
	for u := range opts.Resources {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	for _, u := range uris {
		if n := opts.Resources[u]; n != nil {
			r := c.index(n, u, draft)
			if _, dup := c.byURI[u]; !dup {
				c.byURI[u] = r
			}
		}
	}
	name := opts.Name
	if name == "" {
		name = "Root"
	}
	c.checkCycles([]*jsonpos.Node{root})
	t := c.compile(root, naming{name: name, stem: name})
	c.finish()
	t = c.entry(t, root, name)
	c.collect(t)
	fam := &ir.Family{Sources: []string{file}, Types: c.order, Warnings: c.warns}
	if len(c.errs) > 0 {
		return nil, nil, c.sortedErrors([]string{file})
	}
	return t, fam, nil
}

// compiler holds the state of one Compile call.
type compiler struct {
	errs  jsonpos.ErrorList
	warns []ir.Diagnostic
	// apps counts the embedded validator's work on delegated schemas.
	apps *applications
	// schemas are the schemas compiled for the embedded validator so far
	// (compiledSchema), by text; schemasKept counts those kept compiled.
	schemas     map[string]compiledSchema
	schemasKept int
	// misfits are the defaults' values judged against types (misfit).
	misfits map[misfitKey]string
	// types is the family-wide scope of type names.
	types *names.Scope
	// resOf maps every indexed schema node to its resource.
	resOf map[*jsonpos.Node]*resource
	// refs is set once an indexed schema has a $ref (or $dynamicRef):
	// without one, a schema tree has no cycle to look for (checkCycles)
	// and a served schema nothing to copy (bundle).
	refs bool
	// servedLeft is what copies of schemas may still add to the served
	// schemas (bundle), in bytes, from the output limit: the generated
	// files hold each served schema (twice: the flat tool list and the
	// registry), so a 1 MB definition that 10,000 tools reach would be
	// 20 GB of output. servedSizes memoizes the copies' sizes.
	servedLeft  int64
	servedSizes map[*jsonpos.Node]int
	byURI       map[string]*resource
	// files are input file resources by base name.
	files map[string]*resource
	// memo maps schema nodes to their compiled types.
	memo       map[*jsonpos.Node]*ir.Type
	inProgress map[*ir.Type]naming
	// cyclic types were reached again while being compiled.
	cyclic map[*ir.Type]naming
	// refStack are the bare $refs being compiled (compile).
	refStack nodeStack
	// conjStack are the schemas being listed by conjuncts.
	conjStack nodeStack
	// mergeAt is mergeSchemaMap's index of keys, reused.
	mergeAt  map[string]int
	interned map[[2]*jsonpos.Node]*jsonpos.Node
	// aliases are types whose content is another type's, copied when every
	// type is complete (cycles may pass through them).
	aliases []alias
	// defaults of types, then of fields, checked by finish.
	defaults      []pendingDefault
	fieldDefaults []pendingDefault
	// lenient marks synthetic union branches: contradictions make them
	// never match instead of being errors.
	lenient   map[*jsonpos.Node]bool
	restNodes map[*jsonpos.Node]*jsonpos.Node
	// stringHint marks schemas only ever applied to strings
	// (propertyNames).
	stringHint map[*jsonpos.Node]bool
	// externals are the schemas standing for metaschema $refs (by URI).
	externals map[string]*jsonpos.Node
	external  map[*jsonpos.Node]bool
	// delegNodes are the subschemas delegated for each type so far.
	delegNodes map[*ir.Type][]*jsonpos.Node
	ids        map[string]int
	// named maps GoName to the declared type (copies share the name).
	named map[string]*ir.Type
	// order is Family.Types, filled by collect.
	order []*ir.Type
	seen  map[*ir.Type]bool
	// formats is CompileOptions.Formats.
	formats map[string]string
	dyn     dynState
	// limits bound the compilation; depth is the current schema nesting
	// and expansions counts views and conjuncts built so far.
	limits     limits.Limits
	depth      int
	expansions int
	// exhausted is set once the expansion budget is spent: compilation
	// then stops descending.
	exhausted bool
	// badRefs are $ref (or applicator) nodes that close a cycle applying
	// a schema to the same value; they compile as any value.
	badRefs map[*jsonpos.Node]bool
	// unread are the types of schemas an error left unread (unreadType).
	unread map[*ir.Type]bool
	// conjSeen are the schemas met by the conjunction being listed.
	conjSeen nodeSet
	// warnSeen are the warnings given so far.
	warnSeen map[ir.Diagnostic]bool
	// patterns are the patterns compiled so far (regexp), by source.
	patterns map[string]compiledPattern
	// patternSize is the size of the RE2 programs of patterns together;
	// patternSizeSpent is set once a pattern has passed its limit.
	patternSize      int
	patternSizeSpent bool
	// fieldSets are the Go field names given so far, by set of property
	// names (fieldNames).
	fieldSets map[string]fieldSet
}

type alias struct {
	t, target *ir.Type
	nullable  bool
	at        *jsonpos.Node
}

// naming is how a type is named if it needs a name (name) and the prefix
// of its nested types' names (stem).
type naming struct{ name, stem string }

func (n naming) child(suffix string) naming {
	s := n.stem + suffix
	return naming{name: s, stem: s}
}

func newCompiler() *compiler {
	return &compiler{
		types:      names.NewScope(generatedNames...),
		resOf:      map[*jsonpos.Node]*resource{},
		byURI:      map[string]*resource{},
		files:      map[string]*resource{},
		memo:       map[*jsonpos.Node]*ir.Type{},
		inProgress: map[*ir.Type]naming{},
		cyclic:     map[*ir.Type]naming{},
		interned:   map[[2]*jsonpos.Node]*jsonpos.Node{},
		named:      map[string]*ir.Type{},
		seen:       map[*ir.Type]bool{},
		lenient:    map[*jsonpos.Node]bool{},
		restNodes:  map[*jsonpos.Node]*jsonpos.Node{},
		stringHint: map[*jsonpos.Node]bool{},
		externals:  map[string]*jsonpos.Node{},
		external:   map[*jsonpos.Node]bool{},
		delegNodes: map[*ir.Type][]*jsonpos.Node{},
		ids:        map[string]int{},
		badRefs:    map[*jsonpos.Node]bool{},
		unread:     map[*ir.Type]bool{},
		limits:     limits.Default,
	}
}

// addFile registers an input file's root for cross-file $refs.
func (c *compiler) addFile(file string, root *jsonpos.Node) {
	res := c.index(root, refFileURI(file), 2020)
	if _, ok := c.byURI[res.uri]; !ok {
		c.byURI[res.uri] = res
	}
	base := path.Base(res.uri)
	if _, ok := c.files[base]; !ok {
		c.files[base] = res
	}
}

// declare gives t a family-unique name.
func (c *compiler) declare(t *ir.Type, name string) {
	if t.GoName != "" {
		return
	}
	t.GoName = c.types.Unique(names.GoName(name))
	c.named[t.GoName] = t
}

// finish completes aliases, names types reached through cycles and checks
// defaults, once every type is complete.
func (c *compiler) finish() {
	done := map[*ir.Type]bool{}
	var resolve func(a alias, depth int)
	byT := map[*ir.Type]alias{}
	for _, a := range c.aliases {
		byT[a.t] = a
	}
	resolve = func(a alias, depth int) {
		if done[a.t] {
			return
		}
		if depth > len(c.aliases) {
			c.errorf(a.at, "circular $ref")
			done[a.t] = true
			return
		}
		if next, ok := byT[a.target]; ok {
			resolve(next, depth+1)
		}
		keep := a.t.Nullable || a.nullable
		own := *a.t
		*a.t = *a.target
		a.t.Nullable = a.t.Nullable || keep
		a.t.ID, a.t.Pos = own.ID, own.Pos
		if own.Doc != "" {
			a.t.Doc = own.Doc
		}
		if own.GoName != "" {
			a.t.GoName = own.GoName // a root keeps its own name
		}
		done[a.t] = true
	}
	for _, a := range c.aliases {
		resolve(a, 0)
	}
	// A cycle through an unnamed type (an array of itself, ...) needs a
	// name to be expressible in Go.
	var cyc []*ir.Type
	for t := range c.cyclic {
		if t.GoName == "" {
			cyc = append(cyc, t)
		}
	}
	slices.SortFunc(cyc, func(a, b *ir.Type) int { return cmp.Compare(a.ID, b.ID) })
	for _, t := range cyc {
		c.declare(t, c.cyclic[t].name)
	}
	for _, d := range c.defaults {
		if c.defaultHeld(d) {
			c.checkDefault(d)
		}
	}
	for _, d := range c.fieldDefaults {
		if c.defaultHeld(d) {
			c.checkDefault(d)
		}
	}
}

// collect appends the named types reachable from t, depth first.
func (c *compiler) collect(t *ir.Type) {
	if t == nil || c.seen[t] {
		return
	}
	c.seen[t] = true
	if t.GoName != "" {
		orig := c.named[t.GoName]
		if orig == nil {
			orig = t
		}
		// Every type in order is seen, and orig is added only when it
		// was not (orig == t was unseen on entry): order needs no
		// membership test, which made this quadratic in the types.
		if !c.seen[orig] || orig == t {
			c.seen[orig] = true
			c.order = append(c.order, orig)
		}
	}
	for sub := range t.Subtypes() {
		c.collect(sub)
	}
}

func (c *compiler) sortedErrors(sources []string) jsonpos.ErrorList {
	order := map[string]int{}
	for i, s := range sources {
		if _, ok := order[s]; !ok {
			order[s] = i
		}
	}
	errs := slices.Clone(c.errs)
	slices.SortStableFunc(errs, func(a, b *jsonpos.Error) int {
		return cmp.Or(
			cmp.Compare(order[a.Pos.File], order[b.Pos.File]),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(errs, func(a, b *jsonpos.Error) bool { return a.Error() == b.Error() })
}

// warnf records a located warning.
func (c *compiler) warnf(n *jsonpos.Node, code, format string, args ...any) {
	d := ir.Diagnostic{Pos: n.Pos, Code: code, Message: jsonpos.Errorf(n.Pos, format, args...).Message}
	if c.warnSeen[d] {
		return // a schema compiled into several views says it once
	}
	if c.warnSeen == nil {
		c.warnSeen = map[ir.Diagnostic]bool{}
	}
	c.warnSeen[d] = true
	c.warns = append(c.warns, d)
}

// BuildFamily is the whole front end: Build, then Taxonomy with the
// manifest m (nil for none). Every error of every phase is reported
// together, sorted by position, as one ErrorList; the family is returned
// only without errors. Result schemas the manifest gives for tools without
// an outputSchema (ops.*.result_schema) become typed results: the family
// is compiled a second time with them, since which tool an op names is
// known only after the taxonomy. A run with errors compiles them too
// (those of ops no tool maps to alone), so that their errors come with
// the others.
func BuildFamily(inputs []load.Input, opts BuildOptions, m *manifest.Manifest) (*ir.Family, error) {
	if err := manifest.CheckFormats(opts.Formats); err != nil {
		return nil, err
	}
	fam, errs := buildFamily(inputs, opts, m)
	results, unplaced := manifestResults(fam, m)
	if len(errs) > 0 {
		if len(results) == 0 && len(unplaced) == 0 {
			return nil, errs
		}
		opts.unplaced = unplaced
	} else if len(results) == 0 {
		return fam, nil
	}
	opts.Results = results
	if fam, errs = buildFamily(inputs, opts, m); len(errs) > 0 {
		return nil, errs
	}
	return fam, nil
}

// manifestResults are the result schemas of m's ops: by tool name those of
// the ops of fam whose tool has no outputSchema, and apart those of the
// ops no tool of fam maps to (unless the family may be a part of the
// manifest's, when that is no error).
func manifestResults(fam *ir.Family, m *manifest.Manifest) (byTool map[string]*jsonpos.Node, unplaced []*jsonpos.Node) {
	if fam == nil || m == nil {
		return nil, nil
	}
	ops := make(map[string]*ir.Op, len(fam.Ops))
	for _, op := range fam.Ops {
		ops[op.Path] = op
	}
	byTool = map[string]*jsonpos.Node{}
	for _, mo := range m.Ops {
		switch op := ops[mo.Path]; {
		case mo.ResultNode == nil:
		case op == nil:
			if !m.Partial {
				unplaced = append(unplaced, mo.ResultNode)
			}
		case op.Tool.Result == nil:
			byTool[op.Tool.Name] = mo.ResultNode
		}
	}
	return byTool, unplaced
}

// buildFamily is build and Taxonomy, with the errors of all phases. The
// taxonomy reads only the tools' names, descriptions and schemas, so it
// runs while the types compile.
func buildFamily(inputs []load.Input, opts BuildOptions, m *manifest.Manifest) (*ir.Family, jsonpos.ErrorList) {
	var err error
	fam, errs := build(inputs, opts, func(fam *ir.Family, parsed func(*ir.Tool) *jsonpos.Node) {
		err = taxonomy.DeriveParsed(fam, m, parsed)
	})
	if fam == nil {
		return nil, errs
	}
	if err == nil {
		// The taxonomy ran before the compile knew which defaults it
		// refuses: usage lines must not advertise those.
		taxonomy.DropUnappliedDefaults(fam)
	}
	if err != nil {
		var list jsonpos.ErrorList
		if !errors.As(err, &list) {
			list = jsonpos.ErrorList{{Pos: ir.Pos{File: "toolgen"}, Message: err.Error()}}
		}
		errs = jsonpos.MergeErrors(fam.Sources, errs, list)
	}
	if m != nil && m.File != "" {
		// The manifest's warnings first, as its errors are.
		sortWarnings(fam.Warnings, append([]string{m.File}, fam.Sources...))
	}
	return fam, errs
}

// sortWarnings puts ds in the order of their positions in files
// (jsonpos.ComparePos; equal positions keep their order), the unlocated
// ones, of the family as a whole, last.
func sortWarnings(ds []ir.Diagnostic, files []string) {
	at := jsonpos.ComparePos(files)
	slices.SortStableFunc(ds, func(a, b ir.Diagnostic) int {
		switch {
		case (a.Pos.File == "") == (b.Pos.File == ""):
			return at(a.Pos, b.Pos)
		case a.Pos.File == "":
			return 1
		}
		return -1
	})
}
