// Package tsdecl assembles the TypeScript declarations of a family's ops for
// code mode. The generator (generator/typescript.go) computes every piece of
// text from the IR and emits it as a Decls value in the generated package;
// this package puts pieces together, for the whole family (the .d.ts text a
// compiler checks) or for the ops under one help path (what tool_code_help
// answers). It has no dependencies beyond the standard library, so that both
// the generator and the code-mode runtime can use it.
//
// Layout of the rendered text: a preamble (console, the call options type),
// then per group a namespace holding the group's named types and a constant
// of the same name whose members are the group's ops, nested by op path:
//
//	declare namespace onto {
//	  interface ListOntoTasksParams { project_id?: string; limit?: number }
//	}
//	/** Ontology of projects, tasks, ... */
//	declare const onto: {
//	  task: {
//	    /** List tasks ... */
//	    list(args: onto.ListOntoTasksParams): Promise<unknown>;
//	  };
//	};
//
// so that a script calls await onto.task.list({limit: 5}), the same path
// tool_exec takes. Op path segments that are not identifiers are quoted
// property names; the namespace holds only types, so it merges with the
// constant.
package tsdecl

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Decls are the declaration pieces of one family.
type Decls struct {
	Groups []Group
	Types  []Type
	Ops    []Op
}

// Group is one top-level group: a namespace of types and a constant of ops.
type Group struct {
	// Name is the group's name in op paths ("onto").
	Name string
	// Ident is the JavaScript identifier the group is bound to: Name when
	// that is a usable identifier, else a sanitized form.
	Ident string
	// Summary is the group's one-line summary (raw text).
	Summary string
}

// Type is one named type declaration.
type Type struct {
	// Group is the Ident of the namespace holding the type.
	Group string
	// Name is the type's name inside its namespace.
	Name string
	// Text is the declaration, JSDoc included, unindented:
	// "interface X {\n  a?: string;\n}" or "type Y = \"a\" | \"b\";".
	Text string
	// Uses are the indexes in Decls.Types of the types Text refers to.
	Uses []int
}

// Op is one op's member declaration.
type Op struct {
	// Path is the dotted op path ("onto.task.list").
	Path string
	// Group is the Ident of the group constant holding the op.
	Group string
	// Key are the property names from the group constant down to the op
	// ("task", "list"); empty for an op named like its group.
	Key []string
	// Doc is the JSDoc block, unindented, or "".
	Doc string
	// Sig is the call signature: "(args: onto.X): Promise<unknown>".
	Sig string
	// Uses are the indexes in Decls.Types of the types Sig refers to.
	Uses []int
}

// Preamble is the global declarations every rendering starts with: the
// console the script may log to and the options of write-op calls.
const Preamble = `/** Logs values; the script's answer shows the output. */
declare const console: { log(...values: unknown[]): void };
/** Options of a write op call. */
interface CallOptions {
  /** true: report what the op would do without doing it. */
  dry_run?: boolean;
  /** A repeat of the same call with the same key replays the first answer. */
  idempotency_key?: string;
}
/** What a failed op call throws. */
interface OpError extends Error {
  code: "VALIDATION_ERROR" | "NOT_FOUND" | "CONFLICT" | "PERMISSION_DENIED" | "INTERNAL" | string;
  op: string;
  field_errors: { path: string; code: string; message: string; expected?: string; received?: string; suggestion?: string }[];
  help_path: string;
  details: unknown;
}
`

// Render returns the declarations of every op and type.
func (d *Decls) Render() string { return d.RenderOps(nil) }

// RenderOps returns the declarations of the ops whose index keep accepts
// (all when keep is nil) and of the types they use; with keep nil, every
// type. The preamble comes first.
func (d *Decls) RenderOps(keep func(i int) bool) string {
	var ops []int
	for i := range d.Ops {
		if keep == nil || keep(i) {
			ops = append(ops, i)
		}
	}
	types := make([]bool, len(d.Types))
	if keep == nil {
		for i := range types {
			types[i] = true
		}
	} else {
		var mark func(i int)
		mark = func(i int) {
			if i < 0 || i >= len(d.Types) || types[i] {
				return
			}
			types[i] = true
			for _, u := range d.Types[i].Uses {
				mark(u)
			}
		}
		for _, i := range ops {
			for _, u := range d.Ops[i].Uses {
				mark(u)
			}
		}
	}
	var b strings.Builder
	b.WriteString(Preamble)
	for _, g := range d.Groups {
		first := true
		for i, t := range d.Types {
			if !types[i] || t.Group != g.Ident {
				continue
			}
			if first {
				b.WriteString("declare namespace " + g.Ident + " {\n")
				first = false
			}
			writeIndented(&b, t.Text, "  ")
		}
		if !first {
			b.WriteString("}\n")
		}
	}
	for _, g := range d.Groups {
		var mine []int
		for _, i := range ops {
			if d.Ops[i].Group == g.Ident {
				mine = append(mine, i)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if s := strings.TrimSpace(g.Summary); s != "" {
			b.WriteString(Comment(s, ""))
		}
		b.WriteString("declare const " + g.Ident + ": ")
		root := &member{}
		for _, i := range mine {
			root.add(d.Ops[i].Key, &d.Ops[i])
		}
		root.write(&b, "")
		b.WriteString(";\n")
	}
	return b.String()
}

// member is a node of a group's op tree.
type member struct {
	op       *Op
	names    []string
	children map[string]*member
}

func (m *member) add(key []string, op *Op) {
	if len(key) == 0 {
		if m.op == nil {
			m.op = op
		}
		return
	}
	if m.children == nil {
		m.children = map[string]*member{}
	}
	c := m.children[key[0]]
	if c == nil {
		c = &member{}
		m.children[key[0]] = c
		m.names = append(m.names, key[0])
	}
	c.add(key[1:], op)
}

// write renders m as an object type: its own call signature (an op named
// like the node), then its children in order of first appearance.
func (m *member) write(b *strings.Builder, indent string) {
	b.WriteString("{\n")
	in := indent + "  "
	if m.op != nil {
		writeIndented(b, m.op.Doc, in)
		b.WriteString(in + m.op.Sig + ";\n")
	}
	for _, n := range m.names {
		c := m.children[n]
		if c.op != nil && len(c.children) == 0 {
			writeIndented(b, c.op.Doc, in)
			b.WriteString(in + PropertyName(n) + c.op.Sig + ";\n")
			continue
		}
		b.WriteString(in + PropertyName(n) + ": ")
		c.write(b, in)
		b.WriteString(";\n")
	}
	b.WriteString(indent + "}")
}

func writeIndented(b *strings.Builder, text, indent string) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + l + "\n")
	}
}

// Comment renders text as a JSDoc block at indent. Text is shown as given
// except that "*/" cannot close the comment (written "*\/"), line breaks
// (CR, LF, CRLF, U+2028, U+2029, U+0085) start new comment lines, and other
// control characters are shown as \uXXXX. TypeScript reads the last line
// of a comment that starts with @ts-ignore or @ts-expect-error (after any
// "*" and "/") as a directive on the next line, so such a text never takes
// the one-line form, whose last line is the text: the block's is " */".
func Comment(text, indent string) string {
	lines := commentLines(text)
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	if len(lines) == 1 && !tsDirective(lines[0]) {
		b.WriteString(indent + "/** " + lines[0] + " */\n")
		return b.String()
	}
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		if l == "" {
			b.WriteString(indent + " *\n")
			continue
		}
		b.WriteString(indent + " * " + l + "\n")
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

// tsDirective reports whether a comment line read as a comment's last
// line may be a TypeScript directive: past "*", "/" and white space
// (JavaScript's \s, which counts U+00A0 and the other spaces), "@ts-".
func tsDirective(l string) bool {
	l = strings.TrimLeftFunc(l, func(r rune) bool { return r == '*' || r == '/' || unicode.IsSpace(r) })
	return strings.HasPrefix(l, "@ts-")
}

// lineBreaks turns every line break a description may hold into "\n".
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", "\u0085", "\n")

func commentLines(text string) []string {
	text = lineBreaks.Replace(text)
	text = strings.Trim(text, "\n \t")
	if text == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, commentSafe(strings.TrimRight(l, " \t")))
	}
	return out
}

// commentSafe escapes one comment line.
func commentSafe(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '/' && i > 0 && s[i-1] == '*':
			b.WriteString(`\/`)
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfeff || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			b.WriteString(`\u` + hex4(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// String renders s as a TypeScript string literal (a literal type or a
// value): double quotes, with quotes, backslashes, line terminators and
// other control and format characters escaped; invalid UTF-8 shows as
// U+FFFD.
func String(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\ufffd") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0xfeff || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			b.WriteString(`\u` + hex4(r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// PropertyName renders a property name: bare when it is an identifier name
// (reserved words included: they are valid property names), else quoted.
func PropertyName(s string) string {
	if IsIdentifierName(s) {
		return s
	}
	return String(s)
}

// IsIdentifierName reports whether s is an ASCII identifier name.
func IsIdentifierName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// reserved are names a group constant or a type may not take: keywords,
// strict-mode reserved words, the globals declarations or the runtime
// refer to, and ECMAScript's other globals (a group named escape would
// have replaced the global function for scripts), and goja's GoError.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`break case catch class const continue debugger default delete do else
		enum export extends false finally for function if import in instanceof new null return super
		switch this throw true try typeof var void while with yield let static implements interface
		package private protected public await async of arguments eval undefined NaN Infinity
		any unknown never string number boolean symbol object bigint type namespace declare module
		globalThis console Promise Error Object Array JSON Math String Number Boolean Symbol
		CallOptions OpError Record Date RegExp Map Set
		Reflect Proxy Function BigInt WeakMap WeakSet WeakRef FinalizationRegistry Iterator Intl Atomics
		ArrayBuffer SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array
		Uint16Array Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array
		TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError
		parseInt parseFloat isNaN isFinite decodeURI decodeURIComponent encodeURI encodeURIComponent
		escape unescape GoError`) {
		reserved[w] = true
	}
}

// Ident turns name into a JavaScript identifier that is not reserved:
// characters other than letters, digits, _ and $ become _, a leading digit
// or a reserved result gets a _ suffix or prefix. Distinct names may map to
// the same identifier; Idents resolves that.
func Ident(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	if reserved[s] {
		s += "_"
	}
	return s
}

// Idents maps each name to a distinct identifier (Ident, then numeric
// suffixes in order for collisions).
func Idents(names []string) []string {
	out := make([]string, len(names))
	used := map[string]bool{}
	for i, n := range names {
		id := Ident(n)
		for k := 2; used[id]; k++ {
			id = Ident(n) + strconv.Itoa(k)
		}
		used[id] = true
		out[i] = id
	}
	return out
}

// Match returns the indexes of the ops under a help path: the op itself, or
// every op whose path starts with path + "."; "" matches all. Sorted.
func (d *Decls) Match(path string) []int {
	var out []int
	for i, o := range d.Ops {
		if path == "" || o.Path == path || strings.HasPrefix(o.Path, path+".") {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}
