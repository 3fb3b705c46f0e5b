package manifest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/names"
)

// Schema is the published JSON Schema (2020-12) of toolgen.yaml.
//
//go:embed toolgen.schema.json
var Schema []byte

// Manifest is a decoded toolgen.yaml: where the inputs are, where the output
// goes, and how tools map to ops.
type Manifest struct {
	// File is the manifest's path as given to Load.
	File string
	// Partial is set by a caller whose family is not the manifest's
	// (toolgen diff of one input, or of a revision): an op entry no tool
	// maps to is then not an error. It is not read from the file.
	Partial bool
	// Package is the Go package name of the output.
	Package string
	// Inputs are the tool definition files, relative to the manifest
	// (slash-separated), each file once.
	Inputs []string
	// InputsPos are the positions of Inputs in the manifest (one per
	// input).
	InputsPos []ir.Pos
	// Output is the output directory, relative to the manifest
	// (slash-separated).
	Output string
	// Stubs is the user-owned handler file that generate creates and
	// appends stubs to, relative to the manifest ("" = none); StubsPos is
	// where the manifest names it.
	Stubs    string
	StubsPos ir.Pos
	// DefaultGroup holds tools that carry no group token ("tools" if empty).
	DefaultGroup string
	// Groups in manifest order.
	Groups []Group
	// Ops are per-op settings in manifest order.
	Ops []Op
	// Overrides map tool names to op paths, in manifest order.
	Overrides []Override
	// Surfaces to emit, each once; empty (surfaces: absent) means all but
	// code.
	Surfaces []string
	// Lenient turns recoverable schema problems into warnings.
	Lenient bool
	// Tables is one of TableModes: when objects are decoded and validated
	// from runtime/shape tables instead of generated methods ("" = auto).
	Tables string
	// Formats maps format names to Go representations (date-time: time);
	// nil when not given. Pass it to schema.BuildOptions.Formats.
	Formats map[string]string
	// Limits are the limits: settings (zero fields: limits.Default). Pass
	// them to schema.BuildOptions.Limits.
	Limits limits.Limits
	// LimitsPos is where the limits: mapping is, OutputBytesPos where its
	// max_output_bytes is and InputBytesPos where its max_input_bytes is
	// (zero when absent), for the error a limit ends in.
	LimitsPos, OutputBytesPos, InputBytesPos ir.Pos
}

// Group is one entry of groups: a top-level op group, its summary
// and the tool-name tokens that select it.
type Group struct {
	Name    string
	Summary string
	// Prefix are leading name tokens ("github" in github_list_issues).
	Prefix []string
	// Infix are tokens right after the verb ("onto" in list_onto_tasks).
	Infix []string
	Pos   ir.Pos
}

// Op is one entry of ops.
type Op struct {
	// Path is the op path (the key of the entry).
	Path string
	// Tool, when set, maps this tool to Path (like an override); ToolPos
	// is where the manifest names it.
	Tool    string
	ToolPos ir.Pos
	// Kind is runtime.OpRead, runtime.OpWrite or "" (derived).
	Kind     runtime.OpKind
	Policy   *ir.Policy
	Examples []ir.Example
	// ExampleArgs are the args of Examples with their positions in the
	// manifest (ExampleArgs[i] is Examples[i].Args, nil where that example
	// has none), so that a check of an example can locate what it finds.
	ExampleArgs   []*jsonpos.Node
	Notes         []string
	DryRunDefault *bool
	// ResultSchema is the JSON Schema of the tool's result (compact JSON);
	// ResultNode is the same schema with its positions in the manifest,
	// compiled into the tool's Go result type by BuildFamily.
	ResultSchema json.RawMessage
	ResultNode   *jsonpos.Node
	// Title and Annotations override the MCP title and hints of the op's
	// tool (annotations: {read_only, destructive, idempotent, open_world}).
	Title       string
	Annotations ir.Annotations
	Pos         ir.Pos
}

// Override maps one tool to an op path.
type Override struct {
	Tool string
	Op   string
	Pos  ir.Pos
}

// SurfaceNames are the surfaces a manifest may list.
var SurfaceNames = []string{"flat", "gateway", "facades", "sections", "deferred", "code"}

// TableModes are the values of tables: (generator.TableMode).
var TableModes = []string{"auto", "always", "never"}

// Op returns the manifest settings for op path, or nil.
func (m *Manifest) Op(path string) *Op {
	if m == nil {
		return nil
	}
	for i := range m.Ops {
		if m.Ops[i].Path == path {
			return &m.Ops[i]
		}
	}
	return nil
}

// InputPaths returns Inputs resolved against the manifest's directory.
func (m *Manifest) InputPaths() []string {
	out := make([]string, len(m.Inputs))
	for i, in := range m.Inputs {
		out[i] = m.Resolve(in)
	}
	return out
}

// Resolve returns p relative to the manifest's directory (absolute paths
// are kept).
func (m *Manifest) Resolve(p string) string {
	if filepath.IsAbs(p) || m.File == "" {
		return p
	}
	return filepath.Join(filepath.Dir(m.File), p)
}

// Load decodes and validates a manifest. data may be YAML or JSON;
// every problem is reported as a located error (an ErrorList).
func Load(file string, data []byte) (*Manifest, error) {
	m, errs := Decode(file, data)
	if len(errs) > 0 {
		return nil, errs
	}
	return m, nil
}

// Decode is Load returning what it could decode along with
// the errors (settings with an error are left out), so that a run can go on
// to report the errors of the inputs too. The manifest is never nil.
func Decode(file string, data []byte) (*Manifest, jsonpos.ErrorList) {
	d := &manifestDecoder{file: file, m: &Manifest{File: file}, ptrBudget: pointerBudgetBase + pointerBudgetFactor*len(data)}
	if trimmed := strings.TrimSpace(string(data)); strings.HasPrefix(trimmed, "{") {
		data = untab(data)
		var lone *jsonpos.Error
		if data, lone = jsonEscapes(file, data); lone != nil {
			return d.m, jsonpos.ErrorList{lone}
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) { // no document: nothing but comments
			return d.m, nil
		}
		return d.m, jsonpos.ErrorList{yamlSyntaxError(file, data, err)}
	}
	if len(doc.Content) > 0 {
		d.root(doc.Content[0])
	}
	// A manifest is one document: a second one would be read by nothing.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		d.errs = append(d.errs, jsonpos.Errorf(ir.Pos{File: file, Line: next.Line, Col: next.Column},
			"a manifest is one YAML document, but a second one starts here; merge it into the first or delete it"))
	} else if !errors.Is(err, io.EOF) {
		d.errs = append(d.errs, yamlSyntaxError(file, data, err))
	}
	return d.m, d.errs
}

// untab returns a JSON manifest with its tabs between tokens made spaces
// (columns are unchanged): YAML does not accept them as indentation. A
// tab inside a double-quoted string is kept, which YAML reads as a tab: a
// space would change the text without a word.
func untab(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case inString && c == '\\':
			i++ // the escaped character
		case c == '"':
			inString = !inString
		case c == '\t' && !inString:
			out[i] = ' '
		}
	}
	return out
}

// jsonEscapes returns a JSON manifest with the JSON escapes of its
// double-quoted strings that yaml.v3 refuses written as it reads them: a
// surrogate pair ("\ud83d\ude00", as JSON writers escape a character past
// U+FFFF) as one escape ("\U0001F600"), and an escaped slash ("\/", as
// PHP writes every slash) as the slash. Either is shorter, so a column
// yaml.v3 gives later on its line is a little too small. An unpaired
// surrogate escape no text can hold is a located error, as in a tool
// definition.
func jsonEscapes(file string, data []byte) ([]byte, *jsonpos.Error) {
	if !bytes.Contains(data, []byte(`\u`)) && !bytes.Contains(data, []byte(`\/`)) {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	inString := false
	line, lineStart := 1, 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line, lineStart = line+1, i+1
		case c == '"':
			inString = !inString
		case inString && c == '\\' && i+1 < len(data) && data[i+1] == 'u':
			r, ok := text.Hex4(string(data[i:min(i+6, len(data))]), 2)
			if !ok || !utf16.IsSurrogate(r) {
				break
			}
			if i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				if r2, ok := text.Hex4(string(data[i+6:i+12]), 2); ok {
					if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
						out = fmt.Appendf(out, `\U%08X`, p)
						i += 11
						continue
					}
				}
			}
			col := utf8.RuneCount(data[lineStart:i]) + 1
			return nil, jsonpos.Errorf(ir.Pos{File: file, Line: line, Col: col},
				"unpaired surrogate escape %s in a string: no UTF-8 text holds it; write the character itself, or a high and low surrogate pair", data[i:i+6])
		case inString && c == '\\' && i+1 < len(data) && data[i+1] == '/':
			out = append(out, '/')
			i++
			continue
		case inString && c == '\\':
			out = append(out, c)
			i++
			if i < len(data) {
				out = append(out, data[i])
			}
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// yamlParserProblems are the problems yaml.v3's parser (rather than its
// scanner) reports. Their "line N" is 0-based (the line before the one
// meant), and it is the line where the enclosing collection starts when
// that is not the first line, else the problem's own; construct names that
// collection.
var yamlParserProblems = map[string]string{
	"did not find expected ',' or '}'":       "flow mapping {…}",
	"did not find expected ',' or ']'":       "flow sequence […]",
	"did not find expected key":              "block mapping",
	"did not find expected '-' indicator":    "block sequence",
	"did not find expected node content":     "",
	"did not find expected <stream-start>":   "",
	"did not find expected <document start>": "",
	"found duplicate %YAML directive":        "",
	"found duplicate %TAG directive":         "",
	"found incompatible YAML document":       "",
	"found undefined tag handle":             "",
}

// yamlReaderProblems are the problems yaml.v3's reader reports, with no
// line: the first character it cannot read is located here instead.
var yamlReaderProblems = []string{
	"control characters are not allowed",
	"invalid leading UTF-8 octet",
	"incomplete UTF-8 octet sequence",
	"invalid trailing UTF-8 octet",
	"invalid length of a UTF-8 sequence",
	"invalid Unicode character",
}

// yamlSyntaxError turns a yaml.v3 error ("yaml: line 3: ...") into a
// located error. yaml.v3 gives a line at most, and an approximate one: a
// parser error names the line where the enclosing collection starts (and
// one too few), a tab in the indentation the line of the enclosing block, a
// character the reader refuses or an alias of an unknown anchor no line at
// all. Those are located here exactly (line and column); the others get
// the line yaml.v3 means and no column (0), none being known.
func yamlSyntaxError(file string, data []byte, err error) *jsonpos.Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if l, err := strconv.Atoi(n); err == nil && l > 0 {
				line, msg = l, after
			}
		}
	}
	pos := ir.Pos{File: file}
	construct, parser := yamlParserProblems[msg]
	note := ""
	switch {
	case slices.Contains(yamlReaderProblems, msg):
		if l, c, r, ok := unreadable(data); ok {
			pos.Line, pos.Col = l, c
			if r >= 0 {
				msg = fmt.Sprintf("%s: found %U; write it as an escape (\\u%04X) in a double-quoted string", msg, r, r)
			} else {
				msg = fmt.Sprintf("%s: found byte 0x%02X; a manifest is UTF-8 text", msg, -r-1)
			}
		}
		return &jsonpos.Error{Pos: pos, Message: msg}
	case strings.HasPrefix(msg, "unknown anchor '") && strings.HasSuffix(msg, "' referenced"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		pos.Line, pos.Col = aliasAt(data, name)
		return &jsonpos.Error{Pos: pos, Message: fmt.Sprintf("alias *%s names no anchor: a value marked &%s must come before it", name, name)}
	case strings.Contains(msg, "tab character"):
		if l, c := indentTab(data, max(line, 1)); l > 0 {
			pos.Line, pos.Col = l, c
			return &jsonpos.Error{Pos: pos, Message: msg}
		}
		pos.Line = max(line, 1)
	case msg == "found character that cannot start any token":
		// A tab starting a line (as indentation) is one.
		pos.Line = max(line, 1)
		if l, c := indentTab(data, pos.Line); l == pos.Line {
			pos.Col = c
			msg = "found a tab character where an indentation space is expected"
		}
	case parser:
		// Without a line, both the collection and the problem are on
		// the first line.
		pos.Line = line + 1
		if line > 0 && construct != "" {
			note = " (in the " + construct + " open on this line: the problem is here or below)"
		}
	case line > 0:
		pos.Line = line
	case strings.HasPrefix(msg, "did not find ") || strings.HasPrefix(msg, "found ") || strings.HasPrefix(msg, "could not find ") ||
		strings.HasSuffix(msg, "not allowed in this context") || strings.HasPrefix(msg, "exceeded max depth"):
		// A scanner error without a line is on the first line; anything
		// else is not located by yaml.v3.
		pos.Line = 1
	}
	if last := lastLine(data); pos.Line > last {
		// The problem is the end of the input.
		pos.Line = last
		if note = ""; !strings.Contains(msg, "end of stream") {
			note = " before the end of the file"
		}
	}
	return &jsonpos.Error{Pos: pos, Message: msg + note}
}

// yamlLines splits data into lines at the line breaks of YAML (\n, \r\n,
// \r, and U+0085, U+2028 and U+2029 as yaml.v3 reads them).
func yamlLines(data []byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch r {
		case '\r', '\n', 0x85, 0x2028, 0x2029:
			out = append(out, string(data[start:i]))
			if r == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				size++
			}
			start = i + size
		}
		i += size
	}
	return append(out, string(data[start:]))
}

// lastLine is the number of the last line of data holding anything (1
// for empty data).
func lastLine(data []byte) int {
	lines := yamlLines(data)
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		return len(lines) - 1
	}
	return len(lines)
}

// unreadable locates the first character yaml.v3's reader refuses: a
// control character (r is it) or a byte that is not UTF-8 (r is -1-byte).
// The column counts characters, as yaml.v3's do. ok is false when there is
// none, or the input is UTF-16 (which the reader decodes).
func unreadable(data []byte) (line, col int, r rune, ok bool) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return 0, 0, 0, false
	}
	for i, l := range yamlLines(data) {
		col := 1
		for j := 0; j < len(l); col++ {
			c, size := utf8.DecodeRuneInString(l[j:])
			switch {
			case c == utf8.RuneError && size == 1:
				return i + 1, col, -1 - rune(l[j]), true
			case !yamlPrintable(c):
				return i + 1, col, c, true
			}
			j += size
		}
	}
	return 0, 0, 0, false
}

// yamlPrintable reports whether YAML text may hold r as it is (YAML 1.2
// §5.1, as yaml.v3 reads it).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r >= 0x20 && r <= 0x7E, r == 0x85:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// aliasAt returns the line and column of the first alias *name in data
// (outside a comment or quotes on its line, as far as a line alone tells),
// or 0, 0.
func aliasAt(data []byte, name string) (line, col int) {
	for i, l := range yamlLines(data) {
		for j := 0; j < len(l); j++ {
			switch l[j] {
			case '#':
				if j == 0 || l[j-1] == ' ' || l[j-1] == '\t' {
					j = len(l) // a comment to the end of the line
					continue
				}
			case '\'', '"':
				if end := strings.IndexByte(l[j+1:], l[j]); end >= 0 {
					j += end + 1
				}
				continue
			case '*':
				rest := l[j+1:]
				if !strings.HasPrefix(rest, name) || len(rest) > len(name) && anchorChar(rest[len(name)]) {
					continue
				}
				if j > 0 && !strings.ContainsRune(" \t[{,", rune(l[j-1])) {
					continue
				}
				return i + 1, utf8.RuneCountInString(l[:j]) + 1
			}
		}
	}
	return 0, 0
}

// anchorChar reports whether c may continue an anchor name (yaml.v3 reads
// letters, digits, '_' and '-').
func anchorChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// indentTab returns the line and column of the first tab in the
// indentation of a line at or after from (1-based), or 0, 0.
func indentTab(data []byte, from int) (line, col int) {
	for i, l := range yamlLines(data) {
		if i+1 < from {
			continue
		}
		for j := 0; j < len(l) && (l[j] == ' ' || l[j] == '\t'); j++ {
			if l[j] == '\t' {
				return i + 1, j + 1
			}
		}
	}
	return 0, 0
}

type manifestDecoder struct {
	file string
	m    *Manifest
	errs jsonpos.ErrorList
	// expanded counts the values YAML aliases have stood for so far
	// (maxAliasExpansion), and sizes memoises the size of each aliased
	// value.
	expanded      int
	sizes         map[*yaml.Node]int
	aliasRefusing bool
	// ptrBudget is how many bytes of JSON pointers the nodes of the
	// schemas and arguments may still take (pointerBudgetBase plus
	// pointerBudgetFactor per manifest byte, as jsonpos allows an input
	// file): every node keeps its pointer, so long keys nested deep made
	// them quadratic in the manifest's size (400 KB took 800 MB). Past it
	// the nodes are refused, as aliases are.
	ptrBudget int
	ptrSpent  bool
}

// The JSON pointers of a manifest's nodes may take pointerBudgetBase plus
// pointerBudgetFactor bytes per manifest byte.
const (
	pointerBudgetBase   = 32 << 20
	pointerBudgetFactor = 16
)

// maxAliasExpansion bounds the values the aliases of one manifest may
// stand for in all, a scalar counting one per 64 bytes: nested aliases
// expand exponentially (a kilobyte of them stood for 43 million values,
// 28 s and 1.4 GB).
const maxAliasExpansion = 100_000

// alias reports whether the alias n may be expanded, charging the size
// of its value; past the bound it reports the alias once and refuses it
// and every later one.
func (d *manifestDecoder) alias(n *yaml.Node, ptr string) bool {
	if !d.aliasRefusing {
		d.expanded += d.size(n.Alias)
		if d.expanded <= maxAliasExpansion {
			return true
		}
		d.aliasRefusing = true
		d.errorf(n, ptr, "YAML aliases here and before stand for more than %d values; write the values out or use fewer aliases", maxAliasExpansion)
	}
	return false
}

// size is the number of values n stands for, aliases expanded, capped
// just past maxAliasExpansion.
func (d *manifestDecoder) size(n *yaml.Node) int {
	if n == nil {
		return 1
	}
	if s, ok := d.sizes[n]; ok {
		return s
	}
	if d.sizes == nil {
		d.sizes = map[*yaml.Node]int{}
	}
	d.sizes[n] = maxAliasExpansion + 1 // an alias of its own ancestor
	// A scalar counts a value per 64 bytes: an alias of a long string
	// costs what it writes (a thousand aliases of a megabyte took 51 s
	// and 6.8 GB).
	s := 1 + len(n.Value)/64
	if n.Kind == yaml.AliasNode {
		s = d.size(n.Alias)
	}
	for _, c := range n.Content {
		s = min(s+d.size(c), maxAliasExpansion+1)
	}
	d.sizes[n] = s
	return s
}

func (d *manifestDecoder) pos(n *yaml.Node, ptr string) ir.Pos {
	return ir.Pos{File: d.file, Line: n.Line, Col: n.Column, Pointer: ptr}
}

func (d *manifestDecoder) errorf(n *yaml.Node, ptr, format string, args ...any) {
	d.errs = append(d.errs, jsonpos.Errorf(d.pos(n, ptr), format, args...))
}

// pointerToken escapes a JSON pointer reference token.
func mfPointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// mfKeys are the top-level keys, in documentation order.
var mfKeys = []string{"package", "inputs", "output", "stubs", "default_group", "groups", "ops", "overrides", "surfaces", "lenient", "tables", "formats", "limits"}

// mapping walks a mapping node, reporting unknown and duplicate keys, and
// calls f for every known key.
func (d *manifestDecoder) mapping(n *yaml.Node, ptr string, known []string, f func(key string, k, v *yaml.Node, ptr string)) {
	if !d.expect(n, ptr, yaml.MappingNode, "an object") {
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !d.plainKey(k, ptr) {
			continue
		}
		kp := ptr + "/" + mfPointerToken(k.Value)
		if seen[k.Value] {
			d.errorf(k, kp, "duplicate key %q", k.Value)
			continue
		}
		seen[k.Value] = true
		if known != nil && !slices.Contains(known, k.Value) {
			if s := text.Closest(k.Value, known); s != "" {
				d.errorf(k, kp, "unknown key %q; did you mean %q?", k.Value, s)
			} else {
				d.errorf(k, kp, "unknown key %q", k.Value)
			}
			continue
		}
		f(k.Value, k, v, kp)
	}
}

// plainKey reports whether the key k of the mapping at ptr is one the
// manifest reads: a scalar written out. An alias as a key (*a) would be
// read as its anchor's name, not the key it stands for, a merge key (<<)
// as a member named "<<" rather than the members it merges, and a
// complex key (? [a, b]) has no text: each is reported.
func (d *manifestDecoder) plainKey(k *yaml.Node, ptr string) bool {
	switch {
	case k.Kind == yaml.AliasNode:
		d.errorf(k, ptr, "a YAML alias (*%s) is not read as a key: write the key out", k.Value)
	case k.Kind != yaml.ScalarNode:
		d.errorf(k, ptr, "a key must be a string, not a YAML sequence or mapping")
	case k.Tag == "!!merge":
		d.errorf(k, ptr, "a YAML merge key (<<) is not read: write the members out")
	default:
		return true
	}
	return false
}

func (d *manifestDecoder) expect(n *yaml.Node, ptr string, kind yaml.Kind, what string) bool {
	if n.Kind == kind && !(kind == yaml.ScalarNode && n.Tag == "!!null") {
		return true
	}
	if n.Kind == yaml.AliasNode {
		d.errorf(n, ptr, "must be %s written out here: a YAML alias (*%s) is read only within a schema or within an example's arguments", what, n.Value)
		return false
	}
	d.errorf(n, ptr, "must be %s", what)
	return false
}

func (d *manifestDecoder) str(n *yaml.Node, ptr string) (string, bool) {
	if !d.expect(n, ptr, yaml.ScalarNode, "a string") {
		return "", false
	}
	if n.Tag != "!!str" {
		d.errorf(n, ptr, "must be a string")
		return "", false
	}
	return n.Value, true
}

func (d *manifestDecoder) nonEmpty(n *yaml.Node, ptr string) (string, bool) {
	s, ok := d.str(n, ptr)
	if ok && s == "" {
		d.errorf(n, ptr, "must not be empty")
		return "", false
	}
	return s, ok
}

func (d *manifestDecoder) boolean(n *yaml.Node, ptr string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.errorf(n, ptr, "must be true or false")
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		d.errorf(n, ptr, "must be true or false")
		return false, false
	}
	return b, true
}

// seenBefore records it under key in first and returns the node recorded
// there before, nil the first time: a list's repeated value is located at
// its second place and names the first.
func seenBefore(first map[string]*yaml.Node, key string, it *yaml.Node) *yaml.Node {
	if prev, ok := first[key]; ok {
		return prev
	}
	first[key] = it
	return nil
}

// strings decodes a list of non-empty strings, each listed once: every
// list of the manifest is a set (prefixes, infixes, notes, policy lines),
// and a repeated note or rule would be shown to the model twice.
func (d *manifestDecoder) strings(n *yaml.Node, ptr string) []string {
	if !d.expect(n, ptr, yaml.SequenceNode, "an array of strings") {
		return nil
	}
	out := []string{}
	first := map[string]*yaml.Node{}
	for i, it := range n.Content {
		ip := fmt.Sprintf("%s/%d", ptr, i)
		s, ok := d.nonEmpty(it, ip)
		if !ok {
			continue
		}
		if prev := seenBefore(first, s, it); prev != nil {
			d.errorf(it, ip, "%q is listed twice (first at %d:%d); list each value once", s, prev.Line, prev.Column)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (d *manifestDecoder) root(n *yaml.Node) {
	m := d.m
	d.mapping(n, "", mfKeys, func(key string, k, v *yaml.Node, ptr string) {
		switch key {
		case "package":
			if s, ok := d.nonEmpty(v, ptr); ok {
				if why := names.CheckPackageName(s); why != "" {
					d.errorf(v, ptr, "must be a Go package name: %s", why)
				}
				m.Package = s
			}
		case "inputs":
			d.inputs(v, ptr)
		case "output":
			m.Output, _ = d.path(v, ptr)
		case "stubs":
			m.Stubs, _ = d.path(v, ptr)
			m.StubsPos = d.pos(v, ptr)
		case "default_group":
			if s, ok := d.nonEmpty(v, ptr); ok {
				d.checkSegment(v, ptr, s, "group name")
				m.DefaultGroup = s
			}
		case "groups":
			d.groups(v, ptr)
		case "ops":
			d.ops(v, ptr)
		case "overrides":
			d.overrides(v, ptr)
		case "surfaces":
			d.surfaces(v, ptr)
		case "lenient":
			m.Lenient, _ = d.boolean(v, ptr)
		case "tables":
			if t, ok := d.str(v, ptr); ok {
				if !slices.Contains(TableModes, t) {
					d.errorf(v, ptr, "must be one of %s", strings.Join(TableModes, ", "))
				} else {
					m.Tables = t
				}
			}
		case "formats":
			d.formats(v, ptr)
		case "limits":
			d.limits(v, ptr)
		}
	})
}

// inputs decodes inputs: at least one path, each file once (paths are
// compared cleaned, so that sub/../tools.json is tools.json).
func (d *manifestDecoder) inputs(n *yaml.Node, ptr string) {
	if !d.expect(n, ptr, yaml.SequenceNode, "an array of strings") {
		return
	}
	if len(n.Content) == 0 {
		d.errorf(n, ptr, "must list at least one input file (omit inputs to name the files as arguments)")
		return
	}
	first := map[string]*yaml.Node{} // by cleaned path
	for i, it := range n.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		s, ok := d.path(it, ip)
		if !ok {
			continue
		}
		clean := path.Clean(s)
		if prev := seenBefore(first, clean, it); prev != nil {
			if prev.Value == s {
				d.errorf(it, ip, "input %q is listed twice (first at %d:%d); list each input once", s, prev.Line, prev.Column)
			} else {
				d.errorf(it, ip, "input %q is the file %q listed before (at %d:%d); list each input once", s, prev.Value, prev.Line, prev.Column)
			}
			continue
		}
		d.m.Inputs = append(d.m.Inputs, s)
		d.m.InputsPos = append(d.m.InputsPos, d.pos(it, ip))
	}
}

// path decodes a file or folder path: slash-separated on every system, so
// that a manifest means the same everywhere, and relative to the manifest
// (an absolute /path is kept; a Windows drive letter is refused).
func (d *manifestDecoder) path(n *yaml.Node, ptr string) (string, bool) {
	s, ok := d.nonEmpty(n, ptr)
	if !ok {
		return "", false
	}
	if len(s) >= 2 && s[1] == ':' && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		d.errorf(n, ptr, "must not start with a drive letter (%s): paths in the manifest are slash-separated and relative to the manifest's folder", s[:2])
		return "", false
	}
	if strings.Contains(s, `\`) {
		d.errorf(n, ptr, `must separate folders with /, not \ (paths in the manifest are slash-separated on every system): write %q`, strings.ReplaceAll(s, `\`, "/"))
		return "", false
	}
	return s, true
}

// surfaces decodes surfaces: at least one of SurfaceNames, each once.
func (d *manifestDecoder) surfaces(n *yaml.Node, ptr string) {
	if !d.expect(n, ptr, yaml.SequenceNode, "an array of strings") {
		return
	}
	if len(n.Content) == 0 {
		d.errorf(n, ptr, "must list at least one surface (omit surfaces to emit all but code)")
		return
	}
	first := map[string]*yaml.Node{}
	for i, it := range n.Content {
		ip := ptr + "/" + strconv.Itoa(i)
		s, ok := d.nonEmpty(it, ip)
		if !ok {
			continue
		}
		if !slices.Contains(SurfaceNames, s) {
			d.errorf(it, ip, "must be one of %s", strings.Join(SurfaceNames, ", "))
			continue
		}
		if prev := seenBefore(first, s, it); prev != nil {
			d.errorf(it, ip, "surface %q is listed twice (first at %d:%d)", s, prev.Line, prev.Column)
			continue
		}
		d.m.Surfaces = append(d.m.Surfaces, s)
	}
}

// minIdentifierLength is the least limits.max_identifier_length: room for
// a prefix, a hash and a suffix.
const minIdentifierLength = 32

// maxLimitDepth is the greatest limits.max_depth (toolgen.schema.json
// says so).
const maxLimitDepth = 1 << 20

// limits decodes the limits: mapping (LimitKeys to positive integers).
func (d *manifestDecoder) limits(n *yaml.Node, ptr string) {
	l := &d.m.Limits
	d.m.LimitsPos = d.pos(n, ptr)
	d.mapping(n, ptr, LimitKeys, func(key string, _, v *yaml.Node, ptr string) {
		var x int64
		least := int64(1)
		if key == "max_identifier_length" {
			least = minIdentifierLength
		}
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&x) != nil || x < least {
			if least > 1 {
				d.errorf(v, ptr, "must be an integer of at least %d", least)
			} else {
				d.errorf(v, ptr, "must be a positive integer")
			}
			return
		}
		const maxInt = int64(^uint(0) >> 1)
		if x > maxInt {
			x = maxInt
		}
		if key == "max_depth" && x > maxLimitDepth {
			// Input files may nest JSON JSONDepthFactor times as deep,
			// and are parsed recursively.
			d.errorf(v, ptr, "must be at most %d", maxLimitDepth)
			return
		}
		switch key {
		case "max_depth":
			l.Depth = int(x)
		case "max_properties":
			l.Properties = int(x)
		case "max_enum":
			l.Enum = int(x)
		case "max_ref_expansions":
			l.RefExpansions = int(x)
		case "max_pattern_size":
			l.PatternSize = int(x)
		case "max_identifier_length":
			l.IdentifierLength = int(x)
		case "max_output_bytes":
			l.OutputBytes = x
			d.m.OutputBytesPos = d.pos(v, ptr)
		case "max_input_bytes":
			l.InputBytes = x
			d.m.InputBytesPos = d.pos(v, ptr)
		}
	})
}

// formats decodes the formats: mapping (format name to Go representation,
// both from FormatTargets).
func (d *manifestDecoder) formats(n *yaml.Node, ptr string) {
	d.m.Formats = map[string]string{}
	d.mapping(n, ptr, nil, func(name string, k, v *yaml.Node, ptr string) {
		targets, ok := FormatTargets[name]
		if !ok {
			d.errorf(k, ptr, "format %q cannot be mapped; mappable formats are %s", name, strings.Join(MappableFormats(), ", "))
			return
		}
		if s, ok := d.str(v, ptr); ok {
			if !slices.Contains(targets, s) {
				d.errorf(v, ptr, "unknown target %q for %s; use one of %s", s, name, strings.Join(targets, ", "))
				return
			}
			d.m.Formats[name] = s
		}
	})
}

var mfGroupKeys = []string{"summary", "prefix", "infix"}

func (d *manifestDecoder) groups(n *yaml.Node, ptr string) {
	d.mapping(n, ptr, nil, func(name string, k, v *yaml.Node, ptr string) {
		d.checkSegment(k, ptr, name, "group name")
		g := Group{Name: name, Pos: d.pos(k, ptr)}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
			g.Summary = v.Value
		} else {
			d.mapping(v, ptr, mfGroupKeys, func(key string, _, v *yaml.Node, ptr string) {
				switch key {
				case "summary":
					g.Summary, _ = d.str(v, ptr)
				case "prefix":
					g.Prefix = d.strings(v, ptr)
				case "infix":
					g.Infix = d.strings(v, ptr)
				}
			})
		}
		d.m.Groups = append(d.m.Groups, g)
	})
}

var mfOpKeys = []string{"tool", "kind", "policy", "examples", "notes", "dry_run_default", "result_schema", "title", "annotations"}

var mfAnnotationKeys = []string{"read_only", "destructive", "idempotent", "open_world"}

func (d *manifestDecoder) ops(n *yaml.Node, ptr string) {
	d.mapping(n, ptr, nil, func(path string, k, v *yaml.Node, ptr string) {
		d.checkOpPath(k, ptr, path)
		op := Op{Path: path, Pos: d.pos(k, ptr)}
		d.mapping(v, ptr, mfOpKeys, func(key string, _, v *yaml.Node, ptr string) {
			switch key {
			case "tool":
				op.Tool, _ = d.nonEmpty(v, ptr)
				op.ToolPos = d.pos(v, ptr)
			case "kind":
				if s, ok := d.str(v, ptr); ok {
					if k := runtime.OpKind(s); k != runtime.OpRead && k != runtime.OpWrite {
						d.errorf(v, ptr, "must be read or write")
					} else {
						op.Kind = k
					}
				}
			case "policy":
				op.Policy = d.policy(v, ptr)
			case "examples":
				op.Examples, op.ExampleArgs = d.examples(v, ptr)
			case "notes":
				op.Notes = d.strings(v, ptr)
			case "dry_run_default":
				if b, ok := d.boolean(v, ptr); ok {
					op.DryRunDefault = &b
				}
			case "result_schema":
				if d.expect(v, ptr, yaml.MappingNode, "a JSON Schema object") {
					op.ResultNode = d.node(v, ptr)
					op.ResultSchema = op.ResultNode.JSON()
				}
			case "title":
				op.Title, _ = d.nonEmpty(v, ptr)
			case "annotations":
				op.Annotations = d.annotations(v, ptr)
			}
		})
		d.m.Ops = append(d.m.Ops, op)
	})
}

// annotations decodes an op's MCP hint overrides.
func (d *manifestDecoder) annotations(n *yaml.Node, ptr string) ir.Annotations {
	var a ir.Annotations
	d.mapping(n, ptr, mfAnnotationKeys, func(key string, _, v *yaml.Node, ptr string) {
		b, ok := d.boolean(v, ptr)
		if !ok {
			return
		}
		switch key {
		case "read_only":
			a.ReadOnly = &b
		case "destructive":
			a.Destructive = &b
		case "idempotent":
			a.Idempotent = &b
		case "open_world":
			a.OpenWorld = &b
		}
	})
	return a
}

var mfPolicyKeys = []string{"do", "dont", "edge_cases"}

func (d *manifestDecoder) policy(n *yaml.Node, ptr string) *ir.Policy {
	p := &ir.Policy{}
	d.mapping(n, ptr, mfPolicyKeys, func(key string, _, v *yaml.Node, ptr string) {
		switch key {
		case "do":
			p.Do = d.strings(v, ptr)
		case "dont":
			p.Dont = d.strings(v, ptr)
		case "edge_cases":
			p.EdgeCases = d.strings(v, ptr)
		}
	})
	return p
}

var mfExampleKeys = []string{"description", "args"}

func (d *manifestDecoder) examples(n *yaml.Node, ptr string) ([]ir.Example, []*jsonpos.Node) {
	if !d.expect(n, ptr, yaml.SequenceNode, "an array of examples") {
		return nil, nil
	}
	var out []ir.Example
	var nodes []*jsonpos.Node
	for i, it := range n.Content {
		ip := fmt.Sprintf("%s/%d", ptr, i)
		var ex ir.Example
		var args *jsonpos.Node
		hasArgs := false
		d.mapping(it, ip, mfExampleKeys, func(key string, _, v *yaml.Node, ptr string) {
			switch key {
			case "description":
				ex.Description, _ = d.str(v, ptr)
			case "args":
				hasArgs = true
				if d.expect(v, ptr, yaml.MappingNode, "an object") {
					args = d.node(v, ptr)
					ex.Args = args.JSON()
				}
			}
		})
		if it.Kind == yaml.MappingNode && !hasArgs {
			d.errorf(it, ip, "missing required key \"args\"")
		}
		out = append(out, ex)
		nodes = append(nodes, args)
	}
	return out, nodes
}

func (d *manifestDecoder) overrides(n *yaml.Node, ptr string) {
	d.mapping(n, ptr, nil, func(tool string, k, v *yaml.Node, ptr string) {
		if s, ok := d.nonEmpty(v, ptr); ok {
			d.checkOpPath(v, ptr, s)
			d.m.Overrides = append(d.m.Overrides, Override{Tool: tool, Op: s, Pos: d.pos(k, ptr)})
		}
	})
}

// json converts a YAML subtree to compact JSON with keys in source order.
func (d *manifestDecoder) json(n *yaml.Node, ptr string) json.RawMessage {
	var b strings.Builder
	d.writeJSON(&b, n, ptr)
	return json.RawMessage(b.String())
}

func (d *manifestDecoder) writeJSON(b *strings.Builder, n *yaml.Node, ptr string) {
	switch n.Kind {
	case yaml.AliasNode:
		if !d.alias(n, ptr) {
			b.WriteString("null")
			return
		}
		d.writeJSON(b, n.Alias, ptr)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(n.Content[i].Value)
			b.Write(key)
			b.WriteByte(':')
			d.writeJSON(b, n.Content[i+1], ptr+"/"+mfPointerToken(n.Content[i].Value))
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, it := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			d.writeJSON(b, it, fmt.Sprintf("%s/%d", ptr, i))
		}
		b.WriteByte(']')
	default:
		switch n.Tag {
		case "!!null":
			b.WriteString("null")
		case "!!int", "!!float", "!!str":
			// A number written as JSON writes one is kept as written:
			// exact past float64 (123456789012345678901234567890), and
			// read as a number where YAML could not hold it (1e400,
			// which it resolves as a string unless quoted).
			if (n.Tag != "!!str" || n.Style == 0) && jsonNumber(n.Value) {
				b.WriteString(n.Value)
				return
			}
			if n.Tag == "!!str" {
				out, _ := json.Marshal(n.Value)
				b.Write(out)
				return
			}
			fallthrough
		case "!!bool":
			var v any
			if err := n.Decode(&v); err != nil {
				d.errorf(n, ptr, "invalid %s", strings.TrimPrefix(n.Tag, "!!"))
				b.WriteString("null")
				return
			}
			out, err := json.Marshal(v)
			if err != nil { // NaN or infinity
				d.errorf(n, ptr, "number not representable in JSON")
				b.WriteString("null")
				return
			}
			b.Write(out)
		default:
			out, _ := json.Marshal(n.Value)
			b.Write(out)
		}
	}
}

// jsonNumber reports whether s is a JSON number's text.
func jsonNumber(s string) bool {
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s))
}

// node converts a YAML value into a positioned schema Node, so that errors
// in a schema written in the manifest point into the manifest.
func (d *manifestDecoder) node(n *yaml.Node, ptr string) *jsonpos.Node {
	if d.ptrBudget -= len(ptr); d.ptrBudget < 0 {
		if !d.ptrSpent {
			d.ptrSpent = true
			d.errorf(n, ptr, "JSON pointers of the manifest's schemas and arguments exceed %d bytes plus %d per manifest byte: long keys are nested too deep", pointerBudgetBase, pointerBudgetFactor)
		}
		return &jsonpos.Node{Pos: d.pos(n, ptr), Kind: jsonpos.NullNode}
	}
	if n.Kind == yaml.AliasNode {
		if !d.alias(n, ptr) {
			return &jsonpos.Node{Pos: d.pos(n, ptr), Kind: jsonpos.NullNode}
		}
		return d.node(n.Alias, ptr)
	}
	out := &jsonpos.Node{Pos: d.pos(n, ptr)}
	switch n.Kind {
	case yaml.MappingNode:
		out.Kind = jsonpos.ObjectNode
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !d.plainKey(k, ptr) {
				continue
			}
			p := ptr + "/" + mfPointerToken(k.Value)
			if prev := seenBefore(first, k.Value, k); prev != nil {
				// A JSON object has each key once; a schema or arguments
				// holding two would be read by their first.
				d.errorf(k, p, "duplicate key %q (first at %d:%d)", k.Value, prev.Line, prev.Column)
				continue
			}
			out.Members = append(out.Members, jsonpos.NewMember(k.Value, d.pos(k, p), d.node(n.Content[i+1], p)))
		}
	case yaml.SequenceNode:
		out.Kind = jsonpos.ArrayNode
		for i, it := range n.Content {
			out.Items = append(out.Items, d.node(it, fmt.Sprintf("%s/%d", ptr, i)))
		}
	default:
		js := d.json(n, ptr)
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var raw any
		if err := dec.Decode(&raw); err != nil {
			return out // reported by json
		}
		switch v := raw.(type) {
		case nil:
			out.Kind = jsonpos.NullNode
		case bool:
			out.Kind, out.Bool = jsonpos.BoolNode, v
		case json.Number:
			if len(js) > jsonpos.MaxNumberLen {
				// The bound of numbers in input files (exact comparisons
				// cost the square of the digits) holds here too.
				d.errorf(n, ptr, "number of %d characters: numbers are read up to %d characters (every int64 and float64 is written in far fewer)", len(js), jsonpos.MaxNumberLen)
				out.Kind = jsonpos.NullNode
				break
			}
			// The JSON text of the value (as written, or 31 and 1000
			// for 0x1F and 1_000).
			out.Kind, out.Num = jsonpos.NumberNode, string(js)
		case string:
			out.Kind, out.Str = jsonpos.StringNode, v
		}
	}
	return out
}

// checkSegment reports names that cannot be an op path segment.
func (d *manifestDecoder) checkSegment(n *yaml.Node, ptr, s, what string) {
	if !mfValidSegment(s) {
		d.errorf(n, ptr, "%s %q must be lowercase letters, digits and underscores", what, text.Truncate(s, 80))
		return
	}
	if what == "group name" {
		d.checkGroupLength(n, ptr, s, fmt.Sprintf("group name %q", text.Truncate(s, 40)))
	}
}

func (d *manifestDecoder) checkOpPath(n *yaml.Node, ptr, path string) {
	if !ValidOpPath(path) {
		d.errorf(n, ptr, "op path %q must be dot-separated lowercase segments (onto.task.list)", text.Truncate(path, 80))
		return
	}
	group, _, _ := strings.Cut(path, ".")
	d.checkGroupLength(n, ptr, group, fmt.Sprintf("op path %q: its group", text.Truncate(path, 40)))
}

// checkGroupLength refuses a group name longer than a tool name may be:
// the deferred surface sends it as an OpenAI namespace and the sections
// surface as a section key, both provider names.
// what names the group in the error.
func (d *manifestDecoder) checkGroupLength(n *yaml.Node, ptr, group, what string) {
	if len(group) > runtime.MaxNameLen {
		d.errorf(n, ptr, "%s is %d bytes long; at most %d (the deferred surface sends a group as an OpenAI namespace, the sections surface as a section key: provider names, like a tool's)", what, len(group), runtime.MaxNameLen)
	}
}

// ValidOpPath reports whether path is dot-separated segments of lowercase
// letters, digits and underscores, each starting with a letter.
func ValidOpPath(path string) bool {
	if path == "" {
		return false
	}
	for _, seg := range strings.Split(path, ".") {
		if !mfValidSegment(seg) {
			return false
		}
	}
	return true
}

func mfValidSegment(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
