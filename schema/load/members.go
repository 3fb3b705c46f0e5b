package load

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// Diagnostic codes of the members of a tool definition that are not read.
const (
	// codeUnknownMember is a member no tool format has (a misspelling,
	// a vendor extension), or one in the wrong place.
	codeUnknownMember = "unknown-member"
	// codeNotCarried is a member of some provider's tool format that the
	// generated package does not serve (OpenAI's strict, Anthropic's
	// cache_control, MCP's _meta).
	codeNotCarried = "member-not-carried"
	// codeIgnoredType is a "type" that does not change how the tool is
	// read (an Anthropic or MCP tool's).
	codeIgnoredType = "ignored-tool-type"
)

// schemaKeys are the members under which a tool format, or a framework
// converting to one, holds a tool's parameters schema. A schema under
// another format's key than the tool's own would be dropped without a
// word, and the tool would take no arguments.
var schemaKeys = []string{
	"parameters", "input_schema", "inputSchema", // the formats' own: ownSchemaKeys
	"schema", "parametersJsonSchema", "parameters_json_schema", "jsonSchema", "json_schema",
	"argsSchema", "args_schema", "params",
}

// ownSchemaKeys is how many of schemaKeys, first, are a format's own.
const ownSchemaKeys = 3

// The members read from the object holding a tool's name, by format.
var (
	readOpenAI    = []string{"name", "description", "title", "parameters"}
	readAnthropic = []string{"name", "description", "title", "input_schema"}
	readMCP       = []string{"name", "description", "title", "inputSchema", "outputSchema", "annotations"}
)

// readMembers are the members toolgen reads from the object holding the
// name of a tool of format f.
func readMembers(f ir.InputFormat) []string {
	switch f {
	case ir.FormatAnthropic:
		return readAnthropic
	case ir.FormatMCP:
		return readMCP
	default:
		return readOpenAI
	}
}

// notCarried are members of some provider's tool definition that the
// generated package does not carry: its tools are served without them.
// The value names whose member it is.
var notCarried = map[string]string{
	"strict":                "OpenAI's and Anthropic's",
	"defer_loading":         "OpenAI's and Anthropic's",
	"cache_control":         "Anthropic's",
	"eager_input_streaming": "Anthropic's",
	"input_examples":        "Anthropic's",
	"allowed_callers":       "Anthropic's",
	"_meta":                 "MCP's",
	"icons":                 "MCP's",
	"execution":             "MCP's",
}

// notCarriedNames are the keys of notCarried, sorted, for suggestions.
var notCarriedNames = slices.Sorted(maps.Keys(notCarried))

// annotationMembers are the members of MCP tool annotations toolgen reads.
var annotationMembers = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// memberNote is the key of a summarised member warning.
type memberNote struct {
	code, msg string
}

// note counts one occurrence of a member warning; warnings with the same
// code and message are summarised as one (memberWarnings), so a member
// every tool of a catalogue has is one line, not hundreds.
func (l *loader) note(pos ir.Pos, code, format string, args ...any) {
	l.notes.add(memberNote{code: code, msg: fmt.Sprintf(format, args...)}, pos)
}

// memberWarnings returns the summarised member warnings, in first-seen
// order, each at its first occurrence.
func (l *loader) memberWarnings() []ir.Diagnostic {
	var ds []ir.Diagnostic
	for _, n := range l.notes.entries {
		msg := n.key.msg
		if n.count > 1 {
			msg += fmt.Sprintf(" (in %d tools; this is the first)", n.count)
		}
		ds = append(ds, ir.Diagnostic{Pos: n.first, Code: n.key.code, Message: msg})
	}
	return ds
}

// formatPhrase names the shape of tool t for messages ("an OpenAI chat
// tool"); chat is whether it has the chat shape's "function" object.
func formatPhrase(t *ToolDef, chat bool) string {
	switch t.Format {
	case ir.FormatOpenAIChat:
		if chat {
			return "an OpenAI chat tool"
		}
		return `an OpenAI function definition (a "functions" entry)`
	case ir.FormatOpenAIResponses:
		return "an OpenAI responses tool"
	case ir.FormatAnthropic:
		return "an Anthropic tool"
	default:
		return "an MCP tool"
	}
}

// otherSchemas reports a schema under another schema key than the
// format's own (schemaKey) in body, the object holding the tool's name,
// and in the chat shape beside "function" in el: a located error, as the
// schema would be dropped. A value that cannot be a schema (not an object
// or a boolean) is left to unknownMembers. hasParams is whether body has schemaKey. It
// returns false after reporting, and the keys it reported.
func (l *loader) otherSchemas(el, body *jsonpos.Node, t *ToolDef, schemaKey string, hasParams bool) (ok bool, reported []string) {
	ok = true
	chat := el != body
	where := formatPhrase(t, chat)
	scan := func(n *jsonpos.Node, outer bool) {
		for _, m := range n.Members {
			if k := m.Value.Kind; m.Key == schemaKey || !slices.Contains(schemaKeys, m.Key) || k != jsonpos.ObjectNode && k != jsonpos.BoolNode {
				continue // not a schema: an unknown member at most
			}
			if outer && (hasParams || slices.Contains(shapeKeys, m.Key)) {
				// Beside "function": oneShape's conflict, or with the
				// parameters in place an unknown member.
				continue
			}
			own := slices.Contains(schemaKeys[:ownSchemaKeys], m.Key)
			switch {
			case !hasParams:
				l.errorf(m.Value.Pos, "%q is not read as the tool's schema: %s takes its parameters schema from %q; rename it (without it the tool takes no arguments)", m.Key, where, schemaKey)
			case own:
				l.errorf(m.Value.Pos, "%q is not read: %s takes its parameters schema from %q, which it has too; keep one", m.Key, where, schemaKey)
			default:
				continue // an unknown member, warned about
			}
			ok = false
			reported = append(reported, m.Key)
		}
	}
	scan(body, false)
	if chat {
		scan(el, true)
	}
	return ok, reported
}

// unknownMembers warns about the members of tool element el and, in the
// chat shape, of its "function" object body that are not read: unknown
// ones (with a did-you-mean for a misspelling), ones in the wrong place,
// and ones known in some provider's format that the generated package
// does not carry. Members already reported (the schema keys of
// otherSchemas, result schemas, shape conflicts) are skipped.
func (l *loader) unknownMembers(el, body *jsonpos.Node, t *ToolDef, skip []string) {
	chat := el != body
	where := formatPhrase(t, chat)
	read := readMembers(t.Format)
	// A set: a tool may have a misspelt schema key per member, and a
	// scan of them per member was quadratic.
	skipped := make(map[string]bool, len(skip))
	for _, k := range skip {
		skipped[k] = true
	}
	check := func(n *jsonpos.Node, known []string) {
		for _, m := range n.Members {
			k := m.Key
			switch {
			case slices.Contains(known, k), skipped[k]:
			case t.Format != ir.FormatMCP && slices.Contains(resultSchemaKeys, k):
				// ignoredResultSchema's
			case k == "type" && n == el:
				l.toolType(m, t)
			case k == "annotations":
				l.note(m.Value.Pos, codeNotCarried, `"annotations" are read from MCP tools (with "inputSchema") only; in %s they are ignored`, where)
			case notCarried[k] != "":
				if v := m.Value; v.Kind == jsonpos.NullNode || v.Kind == jsonpos.BoolNode && !v.Bool {
					break // off, as the generated package serves it
				}
				l.note(m.Value.Pos, codeNotCarried, "%q (%s) is not carried: the generated package serves its tools without it", k, notCarried[k])
			case chat && n == el && slices.Contains(read, k):
				l.note(m.Value.Pos, codeUnknownMember, `%q beside "function" is ignored: %s has it inside "function"`, k, where)
			default:
				candidates := slices.Concat(known, notCarriedNames)
				if chat && n == el {
					candidates = append(candidates, read...)
				}
				msg := fmt.Sprintf("unknown tool member %q is ignored", k)
				if s := text.Closest(k, candidates); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				l.note(m.Value.Pos, codeUnknownMember, "%s", msg)
			}
		}
	}
	if chat {
		check(el, []string{"type", "function"})
		check(body, read)
	} else {
		check(el, read)
	}
}

// toolType warns about a "type" member that does not change how tool t
// is read. The OpenAI shapes need theirs ("function", checked by
// toolShape); an Anthropic tool may say "custom", and a tool with either
// schema key may say "function" (frameworks write that), but another type
// (a server tool's) is ignored: the tool is read as a client tool.
func (l *loader) toolType(m jsonpos.Member, t *ToolDef) {
	if t.Format != ir.FormatAnthropic && t.Format != ir.FormatMCP {
		return
	}
	v := m.Value
	if v.Kind == jsonpos.StringNode && (v.Str == "function" || v.Str == "custom" && t.Format == ir.FormatAnthropic) {
		return
	}
	key := map[ir.InputFormat]string{ir.FormatAnthropic: "input_schema", ir.FormatMCP: "inputSchema"}[t.Format]
	l.note(v.Pos, codeIgnoredType, "\"type\" %s is ignored: a tool with %q is read as a client tool that the generated package serves", v.JSON(), key)
}

// unknownAnnotations warns about the members of MCP annotations a that
// are not read (a misspelt hint would silently leave it unset).
func (l *loader) unknownAnnotations(a *jsonpos.Node) {
	for _, m := range a.Members {
		if slices.Contains(annotationMembers, m.Key) {
			continue
		}
		msg := fmt.Sprintf("unknown annotation %q is ignored", m.Key)
		if s := text.Closest(m.Key, annotationMembers); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		l.note(m.Value.Pos, codeUnknownMember, "%s", msg)
	}
}
