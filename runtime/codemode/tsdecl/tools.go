package tsdecl

import (
	"fmt"
	"strings"
	"time"
)

// The wire names of the code-mode tools.
const (
	CodeTool = "tool_code"
	HelpTool = "tool_code_help"
)

// Defaults of the code-mode limits the tool description states.
const (
	DefaultWallTime = 5 * time.Second
	DefaultOpCalls  = 32
)

// The code-mode tools' parameter schemas and tool_code_help's description:
// with CodeDescription, the whole boot cost of a family in code mode.
const (
	CodeSchema      = `{"type":"object","properties":{"script":{"type":"string","description":"TypeScript: the body of an async function; await op calls, return the answer"}},"required":["script"]}`
	HelpSchema      = `{"type":"object","properties":{"path":{"type":"string","description":"group, entity or op path; \"\" lists groups"}}}`
	HelpDescription = "TypeScript declarations of the ops under a path (group, entity or op), with JSDoc and examples; read them before writing a script."
)

// CodeDescription is tool_code's description: how to write a script, the
// limits, and the groups with their op counts and summaries.
func (d *Decls) CodeDescription(wall time.Duration, opCalls int) string {
	var b strings.Builder
	call := "group.entity.op({...})"
	if len(d.Ops) > 0 {
		call = d.Ops[0].Group + Access(d.Ops[0].Key) + "({...})"
	}
	b.WriteString("Run a TypeScript script that calls ops: `const r = await " + call + "`. ")
	b.WriteString("The script is an async function body; `return` the answer (shown as JSON), console.log for notes. ")
	b.WriteString("A failed op throws an Error with code, field_errors, help_path. No I/O, no timers, no imports. ")
	fmt.Fprintf(&b, "Limits: %s, %d op calls. Groups:", wall, opCalls)
	for _, g := range d.Groups {
		n := len(d.Match(g.Name))
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, " %s (%d ops", g.Ident, n)
		if s := strings.TrimSpace(g.Summary); s != "" {
			b.WriteString(": " + FirstLine(s, 160))
		}
		b.WriteString(");")
	}
	b.WriteString(" Declarations: " + HelpTool + ".")
	return b.String()
}

// FirstLine is s up to its first line break, cut at n bytes with "…".
func FirstLine(s string, n int) string {
	if i := strings.IndexAny(s, "\r\n\u2028\u2029"); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}

// Access renders a property path as member accesses (.task.list, or
// ["create-x"] for a name that is not an identifier).
func Access(key []string) string {
	var b strings.Builder
	for _, k := range key {
		if IsIdentifierName(k) {
			b.WriteString("." + k)
		} else {
			b.WriteString("[" + String(k) + "]")
		}
	}
	return b.String()
}
