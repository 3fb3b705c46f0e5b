package matryoshka

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Unfolded is the value of a facade's result when it unfolds: the tools it
// exposes. It renders for the model as their names and one-line usages;
// Unfold turns it into a ToolInjectionResult.
type Unfolded struct {
	// Facade is the name of the facade that unfolded.
	Facade string
	// Category is the selected category, "" for all inner tools.
	Category string
	// Tools are the exposed tools in inner order.
	Tools []runtime.Tool
	// RemoveOnInvoke reports whether the facade leaves the toolbox.
	RemoveOnInvoke bool

	lines map[string]string
}

// Render implements runtime.Renderer.
func (u *Unfolded) Render() string {
	var b strings.Builder
	what := "tools"
	if len(u.Tools) == 1 {
		what = "tool"
	}
	if u.Category != "" {
		what = strconv.Quote(u.Category) + " " + what
	}
	fmt.Fprintf(&b, "%s unfolded into %d %s:\n", u.Facade, len(u.Tools), what)
	for _, t := range u.Tools {
		b.WriteString("- ")
		if line, ok := u.lines[t.Name]; ok {
			b.WriteString(line)
		} else {
			b.WriteString(UsageLine(t))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "If these tools are not offered to you, call %s with {\"tool\": \"<name>\", \"args\": {...}} to run one directly.", u.Facade)
	return b.String()
}

// Names returns the names of the exposed tools.
func (u *Unfolded) Names() []string {
	out := make([]string, len(u.Tools))
	for i, t := range u.Tools {
		out[i] = t.Name
	}
	return out
}

// MarshalJSON encodes the facade, category and tool names (tools carry
// handlers, which do not encode).
func (u *Unfolded) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Facade   string   `json:"facade"`
		Category string   `json:"category,omitempty"`
		Tools    []string `json:"tools"`
	}{u.Facade, u.Category, u.Names()})
}

// line is t's entry in the facade's answer: usage, a group marker for
// nested facades, and the first sentence of the description.
func (d *FacadeDef) line(t runtime.Tool) string {
	var b strings.Builder
	if sub, ok := Of(t); ok {
		// A nested facade: its shortcut is explained once in the answer.
		b.WriteString(t.Name)
		if cats := sub.Categories(); len(cats) > 0 {
			quoted := make([]string, len(cats))
			for i, c := range cats {
				quoted[i] = strconv.Quote(c)
			}
			fmt.Fprintf(&b, "(category?: %s)", strings.Join(quoted, "|"))
		} else {
			b.WriteString("()")
		}
		fmt.Fprintf(&b, " [group of %d tools]", len(sub.inner))
	} else if line := d.usage[t.Name]; line != "" {
		b.WriteString(line)
	} else {
		b.WriteString(UsageLine(t))
	}
	if desc := text.FirstSentence(t.Description, 120); desc != "" {
		b.WriteString(" — ")
		b.WriteString(lineBreaks.Replace(desc))
	}
	return b.String()
}

// lineBreaks shows escaped the line breaks a usage line or description
// holds: the facade's answer gives each tool one line, and a break would
// start a line of its own (a heading, a list item) there. The generator
// escapes the usage lines it passes to Usage the same way.
var lineBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\u0085", `\u0085`, "\u2028", `\u2028`, "\u2029", `\u2029`)

// UsageLine derives a one-line usage from t's parameters schema, e.g.
// `query_table(sql: string, limit?: integer)`: properties in schema order,
// optional ones marked with "?", enums of up to four values spelled out
// (as compact JSON). It is one line: line breaks the schema's names hold
// are shown escaped ("\n").
func UsageLine(t runtime.Tool) string {
	props, required := schemaProperties(t.Parameters)
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	var b strings.Builder
	b.WriteString(t.Name)
	b.WriteByte('(')
	for i, p := range props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.name)
		if !req[p.name] {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		b.WriteString(p.typ)
	}
	b.WriteByte(')')
	return lineBreaks.Replace(b.String())
}

type property struct {
	name string
	typ  string
}

// schemaProperties reads the top-level properties (in document order) and
// required list of a JSON Schema object; malformed input yields nothing.
func schemaProperties(schema json.RawMessage) ([]property, []string) {
	var top struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &top) != nil || len(top.Properties) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(top.Properties))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, top.Required
	}
	var out []property
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out, top.Required
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out, top.Required
		}
		out = append(out, property{name: name, typ: typeName(raw, maxArrayNesting)})
	}
	return out, top.Required
}

// maxArrayNesting bounds the "array of" a usage line spells out: each
// level decodes the items schema below it again, so that a definition
// nesting arrays thousands deep took time quadratic in its size and gave
// a line as long.
const maxArrayNesting = 4

// typeName summarises a property schema: a short enum, the type (or types
// joined by "|"), "array of T" (items spelled out at most depth levels
// deep, then plain "array"), or "any".
func typeName(raw json.RawMessage, depth int) string {
	var s struct {
		Type  json.RawMessage   `json:"type"`
		Enum  []json.RawMessage `json:"enum"`
		Const json.RawMessage   `json:"const"`
		Items json.RawMessage   `json:"items"`
		Ref   string            `json:"$ref"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return "any"
	}
	if len(s.Const) > 0 {
		return compact(s.Const)
	}
	if n := len(s.Enum); n > 0 && n <= 4 {
		parts := make([]string, n)
		for i, e := range s.Enum {
			parts[i] = compact(e)
		}
		return strings.Join(parts, "|")
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(s.Type, &one) == nil && one != "":
		if one == "array" && len(s.Items) > 0 && depth > 0 {
			return "array of " + typeName(s.Items, depth-1)
		}
		return one
	case json.Unmarshal(s.Type, &many) == nil && len(many) > 0:
		return strings.Join(many, "|")
	case s.Ref != "":
		return s.Ref[strings.LastIndexByte(s.Ref, '/')+1:]
	}
	return "any"
}

// compact is the JSON value raw without insignificant whitespace.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
