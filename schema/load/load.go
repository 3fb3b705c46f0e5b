package load

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
)

// Input is one tool definition file.
type Input struct {
	// Name is the file name used in positions and errors.
	Name string
	// Data is the input's text. The parsed document keeps parts of it, so
	// it is a string, which a caller can read a file into without the
	// copy a []byte would need (ReadFile).
	Data string
}

// ReadFile reads the named file as an Input.
func ReadFile(name string) (Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return Input{}, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < math.MaxInt32 {
		size = int(fi.Size())
	}
	return readInput(name, f, size)
}

// ReadInput reads r to its end as the Input called name (standard input,
// a git revision's file).
func ReadInput(name string, r io.Reader) (Input, error) {
	return readInput(name, r, 0)
}

// readInput reads r, of about size bytes, straight into the string the
// Input holds.
func readInput(name string, r io.Reader, size int) (Input, error) {
	var b strings.Builder
	b.Grow(size + 1) // room for the read that finds the end
	if _, err := io.Copy(&b, r); err != nil {
		return Input{}, err
	}
	return Input{Name: name, Data: b.String()}, nil
}

// Options control Tools and Decode.
type Options struct {
	// Lenient rewrites non-standard schema type names ("dict", "float",
	// "any", ...) to JSON Schema and moves draft-3 booleans ("required":
	// true on a property) into the object's "required" array, instead of
	// rejecting them, with one warning per kind of rewrite; and serves a
	// tool whose name has characters providers reject ("geo.distance")
	// under the name with each replaced by '_' (geo_distance), with a
	// warning.
	Lenient bool
	// Limits bound the input (zero fields take limits.Default); Build
	// passes them on to schema.Compile.
	Limits limits.Limits
}

// ToolDef is one tool definition as found in an input file.
type ToolDef struct {
	// Name is the tool name exactly as given.
	Name        string
	Title       string
	Description string
	// Pos is the position of the tool's name.
	Pos    ir.Pos
	Format ir.InputFormat
	// Params is the parameters schema; an empty object schema when the
	// definition has none.
	Params *jsonpos.Node
	// Output is the MCP outputSchema, or nil.
	Output      *jsonpos.Node
	Annotations ir.Annotations
	// Node is the whole definition element.
	Node *jsonpos.Node
}

// Document is every tool definition of a family, in input order.
type Document struct {
	// Sources are the input names, in the order given.
	Sources []string
	// Roots are the parsed input files, parallel to Sources (nil for a
	// file that did not parse); schema.Compile resolves cross-file $refs
	// ("other.json#/$defs/X") against them.
	Roots    []*jsonpos.Node
	Tools    []*ToolDef
	Warnings []ir.Diagnostic
}

// Tools decodes the tool definition files of one family. Each file holds an
// array of tools or an object with a "tools" array; each tool is in OpenAI
// chat, OpenAI responses, Anthropic or MCP shape. All problems are
// reported together as an ErrorList of located errors.
func Tools(inputs []Input, opts Options) (*Document, error) {
	doc, errs := Decode(inputs, opts)
	if len(errs) > 0 {
		return nil, errs
	}
	return doc, nil
}

// Decode is Tools returning the usable part of the document along with the
// errors, so later phases can report theirs in the same run.
func Decode(inputs []Input, opts Options) (*Document, jsonpos.ErrorList) {
	l := &loader{
		doc:    &Document{},
		byName: map[string]*ToolDef{},
		types:  newTypeChecker(opts.Lenient, opts.Limits.WithDefaults().JSONDepth()),
	}
	for _, in := range inputs {
		l.doc.Sources = append(l.doc.Sources, in.Name)
		if strings.Trim(strings.TrimPrefix(in.Data, "\uFEFF"), " \t\r\n") == "" {
			// The parser's "unexpected end of input" would point past
			// the file's last blank.
			l.errorf(ir.Pos{File: in.Name, Line: 1, Col: 1}, `the file is empty: expected an array of tools or an object with a "tools" array`)
			l.doc.Roots = append(l.doc.Roots, nil)
			continue
		}
		lim := opts.Limits.WithDefaults()
		root, err := jsonpos.ParseText(in.Name, in.Data, lim.JSONDepth(),
			fmt.Sprintf(" (%d × limits.max_depth; raise max_depth in the manifest)", limits.JSONDepthFactor))
		if err != nil {
			e, ok := err.(*jsonpos.Error)
			if !ok {
				e = jsonpos.Errorf(ir.Pos{File: in.Name}, "%v", err)
			}
			l.errs = append(l.errs, e)
			// Roots stay parallel to Sources: a file that did not parse
			// has no root, and no $ref resolves into it.
			l.doc.Roots = append(l.doc.Roots, nil)
			continue
		}
		l.doc.Roots = append(l.doc.Roots, root)
		l.schemas = nil
		if jsonpos.MayHoldSurrogates(in.Data) {
			l.schemas = map[*jsonpos.Node]bool{}
		}
		l.file(root)
		if l.schemas != nil {
			l.unpairedSurrogates(root, jsonpos.NewSource(in.Data))
		}
	}
	l.doc.Warnings = append(l.types.warnings(), l.warns...)
	l.doc.Warnings = append(l.doc.Warnings, l.memberWarnings()...)
	if len(l.doc.Tools) == 0 && len(l.errs) == 0 && len(inputs) > 0 {
		l.doc.Warnings = append(l.doc.Warnings, ir.Diagnostic{Code: codeNoTools,
			Message: "the inputs define no tools: the generated package serves none"})
	}
	if len(l.errs) > 0 {
		order := map[string]int{}
		for i, s := range l.doc.Sources {
			if _, ok := order[s]; !ok {
				order[s] = i
			}
		}
		slices.SortStableFunc(l.errs, func(a, b *jsonpos.Error) int {
			return cmp.Or(
				cmp.Compare(order[a.Pos.File], order[b.Pos.File]),
				cmp.Compare(a.Pos.Line, b.Pos.Line),
				cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
	}
	return l.doc, l.errs
}

type loader struct {
	doc    *Document
	errs   jsonpos.ErrorList
	warns  []ir.Diagnostic
	byName map[string]*ToolDef
	types  *typeChecker
	// notes are the summarised member warnings (members.go).
	notes tally[memberNote]
	// schemas are the schema objects of the file being read (tool
	// parameters and outputs, the file's $defs), collected when the file
	// may hold an unpaired surrogate escape (surrogate.go); nil otherwise.
	schemas map[*jsonpos.Node]bool
}

func (l *loader) errorf(pos ir.Pos, format string, args ...any) {
	l.errs = append(l.errs, jsonpos.Errorf(pos, format, args...))
}

// file reads the tool list of one parsed input, and checks the schemas
// of its $defs.
func (l *loader) file(root *jsonpos.Node) {
	l.fileDefs(root)
	l.tools(root)
}

// fileDefs applies the lenient rewrites to the schemas in the $defs and
// definitions of a file's top-level object: other files' $refs reach
// them ("shared.json#/$defs/Query"), and they are read as the tools' own
// schemas are. What cannot be rewritten is left to the compiler, which
// reports it in the schemas a $ref reaches: a file of shared $defs may
// hold more than the tools use.
func (l *loader) fileDefs(root *jsonpos.Node) {
	if !l.types.lenient {
		return
	}
	for _, k := range []string{"$defs", "definitions"} {
		if defs := root.Get(k); defs != nil && defs.Kind == jsonpos.ObjectNode {
			for _, m := range defs.Members {
				l.types.walk(m.Value)
			}
		}
	}
}

// tools reads the tool list of one parsed input.
func (l *loader) tools(root *jsonpos.Node) {
	list := root
	if root.Kind == jsonpos.ObjectNode {
		list = root.Get("tools")
		if fns := root.Get("functions"); fns != nil && list != nil {
			// A request of the legacy OpenAI API lists its tools in
			// "functions": beside "tools", it would be dropped.
			l.errorf(fns.Pos, `a second tool list: the file has "tools" and the legacy "functions"; keep one (its entries may go into "tools" as they are)`)
		}
		page := root
		if list == nil {
			if res := root.Get("result"); res != nil {
				list = res.Get("tools") // an MCP tools/list response
				page = res
			}
		} else if other := root.Get("result").Get("tools"); other != nil {
			// Only one of the two lists would be read.
			l.errorf(other.Pos, `a second tool list: the file has a top-level "tools" and a "tools" in "result" (an MCP tools/list response); keep one`)
		}
		l.morePages(page)
		if list == nil {
			if e := root.Get("error"); e != nil && e.Kind == jsonpos.ObjectNode {
				l.errorf(e.Pos, "a JSON-RPC error reply, not a tool list (%s): the server refused the request; save the result of a tools/list call that succeeds", rpcError(e))
				return
			}
			if res := root.Get("result"); res != nil {
				l.errorf(res.Pos, `a JSON-RPC result without a "tools" array: the reply of another method than tools/list? Its result holds the tools ({"result": {"tools": [...]}})`)
				return
			}
			if fns := root.Get("functions"); fns != nil {
				l.errorf(fns.Pos, `the legacy "functions" list is not read: name it "tools" (its entries may stay as they are)`)
				return
			}
			l.errorf(root.Pos, `expected an array of tools or an object with a "tools" array%s`, listHint(root))
			return
		}
	}
	if list.Kind != jsonpos.ArrayNode {
		l.errorf(list.Pos, "expected an array of tools, found %s", kindName(list))
		return
	}
	for _, el := range list.Items {
		if t := l.tool(el); t != nil {
			l.doc.Tools = append(l.doc.Tools, t)
		}
	}
}

// listHint says what an object without a "tools" array (or a JSON-RPC
// result) may be instead: a file of shared $defs, one tool, a tool list
// under a misspelt key or one level down; "" when nothing tells.
func listHint(root *jsonpos.Node) string {
	switch {
	case root.Get("$defs") != nil || root.Get("definitions") != nil:
		return `; a file of shared $defs has an empty one ("tools": [])`
	case root.Get("name") != nil || slices.ContainsFunc(shapeKeys, func(k string) bool { return root.Get(k) != nil }):
		return "; this is one tool: put it in an array ([{...}])"
	}
	for _, m := range root.Members {
		if m.Value.Kind == jsonpos.ArrayNode && text.Closest(m.Key, []string{"tools"}) != "" {
			return fmt.Sprintf("; did you mean \"tools\" for %q?", m.Key)
		}
	}
	for _, m := range root.Members {
		if m.Value.Get("tools") != nil {
			return fmt.Sprintf(`; its member %q holds one: save that object as the file`, m.Key)
		}
	}
	return ""
}

// codeNoTools is the warning that the inputs define no tool at all (a
// file saved before its tools were, the tools/list of a server without
// any): the package would serve nothing. One input without tools is
// ordinary (a file of shared $defs).
const codeNoTools = "no-tools"

// codeMorePages is the warning that an input is one page of a paginated
// MCP tools/list result.
const codeMorePages = "more-pages"

// morePages warns when page, an object holding a "tools" array, is an MCP
// tools/list result with a non-empty "nextCursor": the server has more
// tools than this page lists, and the generated package would silently
// lack them. It is a warning, not an error: a family may be meant to be
// a subset of a server's tools.
func (l *loader) morePages(page *jsonpos.Node) {
	cur := page.Get("nextCursor")
	if cur == nil || cur.Kind == jsonpos.NullNode || cur.Kind == jsonpos.StringNode && cur.Str == "" {
		return
	}
	l.warns = append(l.warns, ir.Diagnostic{Pos: cur.Pos, Code: codeMorePages,
		Message: "this is one page of an MCP tools/list result (nextCursor is set): only its tools are read; fetch the further pages (tools/list with the cursor) and give them as inputs too"})
}

// tool decodes one tool definition element, or returns nil after
// reporting why it cannot.
func (l *loader) tool(el *jsonpos.Node) *ToolDef {
	if el.Kind != jsonpos.ObjectNode {
		l.errorf(el.Pos, "expected a tool definition object, found %s", kindName(el))
		return nil
	}
	t := &ToolDef{Node: el}
	body, schemaKey := l.toolShape(el, t)
	if body == nil {
		return nil
	}
	ok := l.toolName(body, t)
	t.Description = l.optString(body, "description")
	l.descriptionLength(body.Get("description"), t.Description)
	t.Title = l.optString(body, "title")

	params := body.Get(schemaKey)
	// A schema under another format's key would be dropped.
	othersOK, reported := l.otherSchemas(el, body, t, schemaKey, params != nil)
	ok = othersOK && ok
	switch {
	case params == nil:
		t.Params = emptyObjectSchema(body.Pos, body.Pos.Pointer+"/"+schemaKey)
		for _, m := range body.Members {
			if m.Key != schemaKey && !slices.Contains(schemaKeys, m.Key) && text.Closest(m.Key, []string{schemaKey}) != "" {
				// The schema under a misspelt key would be dropped: the tool
				// would take no arguments.
				l.errorf(m.Value.Pos, "unknown member %q; did you mean %q? (without it the tool takes no arguments)", m.Key, schemaKey)
				reported = append(reported, m.Key)
				ok = false
			}
		}
	case params.Kind != jsonpos.ObjectNode:
		l.errorf(params.Pos, "%q must be a JSON Schema object, found %s", schemaKey, kindName(params))
		ok = false
	default:
		t.Params = params
		l.schemaRoot(params)
		l.checkSchema(params)
	}
	l.unknownMembers(el, body, t, reported)
	if t.Format != ir.FormatMCP {
		l.ignoredResultSchema(el, body)
	}
	if t.Format == ir.FormatMCP {
		if out := el.Get("outputSchema"); out != nil {
			if out.Kind != jsonpos.ObjectNode {
				l.errorf(out.Pos, `"outputSchema" must be a JSON Schema object, found %s`, kindName(out))
				ok = false
			} else {
				t.Output = out
				l.schemaRoot(out)
				l.checkSchema(out)
			}
		}
		l.annotations(t, el.Get("annotations"))
	}
	if !ok {
		return nil
	}
	return t
}

// resultSchemaKeys are the members a definition outside MCP may carry
// its result's schema under; only MCP's tool shape has one (outputSchema).
var resultSchemaKeys = []string{"outputSchema", "output_schema", "resultSchema", "result_schema",
	"responseSchema", "response_schema", "returns"}

// ignoredResultSchema warns about a result schema under a member that
// el's format does not have (body is the object holding the name): the
// tool would lose its typed result without a word.
func (l *loader) ignoredResultSchema(el, body *jsonpos.Node) {
	for _, n := range []*jsonpos.Node{el, body} {
		for _, key := range resultSchemaKeys {
			if m := n.Get(key); m != nil {
				l.warns = append(l.warns, ir.Diagnostic{Pos: m.Pos, Code: codeIgnoredResult,
					Message: fmt.Sprintf("%q is not part of this tool format and is ignored; give the result's schema as the manifest's ops.<op>.result_schema (or as outputSchema in an MCP tool list)", key)})
			}
		}
		if n == body {
			break
		}
	}
}

// toolShape recognises the format of tool element el, sets t.Format and
// returns the object holding name, description and the parameters schema
// with the schema's key; a nil body after reporting why it cannot tell.
func (l *loader) toolShape(el *jsonpos.Node, t *ToolDef) (body *jsonpos.Node, schemaKey string) {
	if !l.oneShape(el) {
		return nil, ""
	}
	typ := el.Get("type")
	switch {
	case el.Get("function") != nil:
		if typ != nil && (typ.Kind != jsonpos.StringNode || typ.Str != "function") {
			l.errorf(typ.Pos, `"type" must be "function"`)
		}
		body = el.Get("function")
		if body.Kind != jsonpos.ObjectNode {
			l.errorf(body.Pos, `"function" must be an object, found %s`, kindName(body))
			return nil, ""
		}
		t.Format = ir.FormatOpenAIChat
		return body, "parameters"
	case el.Get("inputSchema") != nil:
		t.Format = ir.FormatMCP
		return el, "inputSchema"
	case el.Get("input_schema") != nil:
		t.Format = ir.FormatAnthropic
		return el, "input_schema"
	case typ != nil && typ.Kind == jsonpos.StringNode && typ.Str == "function":
		t.Format = ir.FormatOpenAIResponses
		return el, "parameters"
	case typ == nil && el.Get("name") != nil:
		// The legacy OpenAI "functions" entry: the chat shape's inner object.
		t.Format = ir.FormatOpenAIChat
		return el, "parameters"
	case typ != nil && typ.Kind == jsonpos.StringNode && providerTool(typ.Str) && el.Get("parameters") == nil:
		l.warns = append(l.warns, ir.Diagnostic{Pos: typ.Pos, Code: codeProviderTool,
			Message: fmt.Sprintf("a tool of type %s is run by the model provider (a server or hosted tool) and has no parameters schema: nothing is generated for it; give it to the provider beside the generated tools", typ.JSON())})
	case typ != nil:
		l.errorf(typ.Pos, "unsupported tool type %s; expected \"function\", an Anthropic or an MCP tool (a provider's server or hosted tool, such as web_search, has no schema to generate from: remove it)", typ.JSON())
	default:
		l.errorf(el.Pos, `cannot tell the tool format: expected "function", "input_schema" or "inputSchema"`)
	}
	return nil, ""
}

// codeDescriptionLength is the warning that a tool's description is
// longer than OpenAI Chat Completions has accepted.
const codeDescriptionLength = "description-length"

// maxChatDescription is the longest function description, in characters,
// OpenAI Chat Completions has accepted: it refused longer ones with
// "Invalid 'tools[N].function.description': string too long. Expected a
// string with maximum length 1024" (code string_above_max_length). Later
// models were reported to accept longer ones; the Responses API has not
// been reported to refuse them.
const maxChatDescription = 1024

// descriptionLength warns at the description node n when desc, the tool's
// description, is longer than maxChatDescription characters.
func (l *loader) descriptionLength(n *jsonpos.Node, desc string) {
	if n == nil || len(desc) <= maxChatDescription {
		return
	}
	if c := utf8.RuneCountInString(desc); c > maxChatDescription {
		l.warns = append(l.warns, ir.Diagnostic{Pos: n.Pos, Code: codeDescriptionLength,
			Message: fmt.Sprintf("description is %d characters long; OpenAI Chat Completions has refused function descriptions over %d characters (string_above_max_length), so a Chat Completions request offering this tool may be refused; the Responses API is not known to limit them",
				c, maxChatDescription)})
	}
}

// codeProviderTool is the warning that a tool element is one the model
// provider runs itself (Anthropic's server tools, OpenAI's hosted tools).
const codeProviderTool = "provider-tool"

// providerTools are the type names, up to a version suffix, of the tools
// Anthropic and OpenAI run themselves; a tool list written for their APIs
// holds them beside function tools.
var providerTools = []string{"web_search", "web_fetch", "file_search", "code_interpreter", "code_execution",
	"computer", "bash", "text_editor", "image_generation", "mcp", "local_shell", "tool_search", "memory"}

// providerTool reports whether typ names a tool the provider runs
// ("web_search_20250305", "web_search_preview", "computer_use_preview").
func providerTool(typ string) bool {
	for _, p := range providerTools {
		if typ == p || strings.HasPrefix(typ, p+"_") {
			return true
		}
	}
	return false
}

// shapeKeys are the members of a tool element that each decide its
// format and where its parameters schema is: the chat shape's "function",
// MCP's "inputSchema", Anthropic's "input_schema" and the responses
// shape's top-level "parameters".
var shapeKeys = []string{"function", "inputSchema", "input_schema", "parameters"}

// oneShape reports whether tool element el has at most one of the
// shapeKeys (and, with "function", no top-level "name" either), after
// reporting the conflict when it has more. toolShape picks one shape by
// the first key it finds, so a second would be dropped without a word:
// its schema (or name) is lost, and which one the author meant cannot be
// told.
func (l *loader) oneShape(el *jsonpos.Node) bool {
	var found []jsonpos.Member
	for _, m := range el.Members {
		if slices.Contains(shapeKeys, m.Key) {
			found = append(found, m)
		}
	}
	if len(found) == 1 && found[0].Key == "function" {
		// The chat shape names its tool inside "function"; a name beside
		// it is the responses shape's, or the legacy functions entry's.
		for _, m := range el.Members {
			if m.Key == "name" {
				found = append(found, m)
			}
		}
		slices.SortFunc(found, func(a, b jsonpos.Member) int {
			return cmp.Or(cmp.Compare(a.KeyLine, b.KeyLine), cmp.Compare(a.KeyCol, b.KeyCol))
		})
	}
	if len(found) < 2 {
		return true
	}
	l.errorf(found[1].KeyPos(), "tool has both %q and %q; keep one (each belongs to a different tool shape, and one would be ignored)", found[0].Key, found[1].Key)
	return false
}

// toolName reads and checks the tool's name (provider rule, uniqueness in
// the document) into t; false when there is no usable name.
func (l *loader) toolName(body *jsonpos.Node, t *ToolDef) bool {
	name := body.Get("name")
	switch {
	case name == nil:
		l.errorf(body.Pos, `tool has no "name"`)
		return false
	case name.Kind != jsonpos.StringNode:
		l.errorf(name.Pos, `"name" must be a string, found %s`, kindName(name))
		return false
	}
	t.Name, t.Pos = name.Str, name.Pos
	if msg := checkToolName(name.Str); msg != "" {
		if served := servedName(name.Str); l.types.lenient && served != "" {
			// --lenient: "geo.distance" (BFCL, MCP servers) is served as
			// geo_distance; the handler gets the call under that name.
			l.warns = append(l.warns, ir.Diagnostic{Pos: name.Pos, Code: "renamed-tool", Message: fmt.Sprintf("%s; served as %q (--lenient), the name its handler and ops are made from", msg[:strings.Index(msg, "; rename the tool")], served)})
			t.Name = served
		} else {
			l.errorf(name.Pos, "%s", msg)
		}
	}
	if first, dup := l.byName[t.Name]; dup && t.Name != name.Str {
		l.errorf(name.Pos, "tool %q served as %q (--lenient) has the name of another tool (defined at %s); rename one of them in its definition", name.Str, t.Name, first.Pos)
	} else if dup {
		l.errorf(name.Pos, "duplicate tool name %q (first defined at %s)", t.Name, first.Pos)
	} else {
		l.byName[t.Name] = t
	}
	return true
}

// checkSchema checks type names in a schema, collecting errors (or
// rewriting them when lenient).
func (l *loader) checkSchema(n *jsonpos.Node) {
	l.errs = append(l.errs, l.types.walk(n)...)
}

func (l *loader) optString(obj *jsonpos.Node, key string) string {
	v := obj.Get(key)
	if v == nil {
		return ""
	}
	if v.Kind != jsonpos.StringNode {
		l.errorf(v.Pos, "%q must be a string, found %s", key, kindName(v))
		return ""
	}
	return v.Str
}

// annotations decodes MCP tool annotations.
func (l *loader) annotations(t *ToolDef, a *jsonpos.Node) {
	if a == nil || a.Kind == jsonpos.NullNode {
		return
	}
	if a.Kind != jsonpos.ObjectNode {
		l.errorf(a.Pos, `"annotations" must be an object, found %s`, kindName(a))
		return
	}
	l.unknownAnnotations(a)
	hint := func(key string) *bool {
		v := a.Get(key)
		if v == nil || v.Kind == jsonpos.NullNode {
			return nil
		}
		if v.Kind != jsonpos.BoolNode {
			l.errorf(v.Pos, "%q must be a boolean, found %s", key, kindName(v))
			return nil
		}
		b := v.Bool
		return &b
	}
	t.Annotations = ir.Annotations{
		ReadOnly:    hint("readOnlyHint"),
		Destructive: hint("destructiveHint"),
		Idempotent:  hint("idempotentHint"),
		OpenWorld:   hint("openWorldHint"),
	}
	// The tool's own title takes precedence (MCP); the annotations' one
	// is checked all the same.
	if title := l.optString(a, "title"); t.Title == "" {
		t.Title = title
	}
}

// servedName is name with each character providers reject replaced by
// '_' ("geo.distance" is geo_distance), or "" when that is no valid name
// either (too long).
func servedName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if runtime.CheckName(string(b)) != nil {
		return ""
	}
	return string(b)
}

// checkToolName returns why providers reject name (runtime.CheckName, the
// one copy of the rule), or "".
func checkToolName(name string) string {
	var ne *runtime.NameError
	switch {
	case !errors.As(runtime.CheckName(name), &ne):
		return ""
	case name == "":
		return "tool name is empty"
	case ne.At >= 0:
		msg := fmt.Sprintf("tool name %q is rejected by model providers: %s; rename the tool in its definition", name, runtime.NameChars)
		if served := servedName(name); served != "" {
			msg += fmt.Sprintf(", or generate with --lenient to serve it as %q", served)
		}
		return msg
	default:
		return fmt.Sprintf("tool name %q is rejected by model providers: %d bytes long, at most %d are allowed", name, len(name), runtime.MaxNameLen)
	}
}

// emptyObjectSchema is the schema of a tool without parameters:
// {"type":"object","properties":{}}, located where the schema would be.
func emptyObjectSchema(at ir.Pos, ptr string) *jsonpos.Node {
	pos := at
	pos.Pointer = ptr
	sub := func(key string) ir.Pos {
		p := pos
		p.Pointer = ptr + "/" + key
		return p
	}
	return &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: pos, Members: []jsonpos.Member{
		{Key: "type", Value: &jsonpos.Node{Kind: jsonpos.StringNode, Pos: sub("type"), Str: "object"}},
		{Key: "properties", Value: &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: sub("properties")}},
	}}
}

// rpcError describes a JSON-RPC error object by its code and message,
// the message cut to 200 bytes and quoted: the reply is untrusted text.
func rpcError(e *jsonpos.Node) string {
	code, msg := "no code", "no message"
	if c := e.Get("code"); c != nil && c.Kind == jsonpos.NumberNode && len(c.Num) <= 20 {
		code = "code " + c.Num
	}
	if m := e.Get("message"); m != nil && m.Kind == jsonpos.StringNode {
		s := m.Str
		if len(s) > 200 {
			cut := 200
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut] + "…"
		}
		msg = strconv.Quote(s)
	}
	return code + ", " + msg
}

// kindName names a node's JSON kind for error messages ("an array").
func kindName(n *jsonpos.Node) string {
	switch n.Kind {
	case jsonpos.NullNode:
		return "null"
	case jsonpos.ArrayNode, jsonpos.ObjectNode:
		return "an " + n.Kind.String()
	default:
		return "a " + n.Kind.String()
	}
}
