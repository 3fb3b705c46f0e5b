package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// The wire names of the code-mode tools.
const (
	CodeTool = tsdecl.CodeTool
	HelpTool = tsdecl.HelpTool
)

// Defaults of Limits.
const (
	DefaultWallTime  = tsdecl.DefaultWallTime
	DefaultOpCalls   = tsdecl.DefaultOpCalls
	DefaultOutput    = 16 << 10
	DefaultScript    = 64 << 10
	DefaultCallDepth = 256
	DefaultMemory    = 256 << 20
	DefaultLength    = 1 << 20
)

// Limits bound one script run; a zero field keeps its default.
type Limits struct {
	// WallTime bounds the whole run, op calls included.
	WallTime time.Duration
	// OpCalls bounds the number of op calls.
	OpCalls int
	// Output bounds the console output in bytes; the return value shown to
	// the model is cut at the same size.
	Output int
	// Script bounds the script source in bytes.
	Script int
	// CallDepth bounds the JavaScript call stack.
	CallDepth int
	// Memory bounds the heap growth during the run in bytes (sampled
	// process-wide every few milliseconds).
	Memory int64
	// Length bounds the length of a string or array that one built-in call
	// (repeat, padStart, padEnd, Array(n), fill, join, Array.from, split,
	// normalize, JSON.parse) makes.
	Length int
}

func (l Limits) withDefaults() Limits {
	if l.WallTime <= 0 {
		l.WallTime = DefaultWallTime
	}
	if l.OpCalls <= 0 {
		l.OpCalls = DefaultOpCalls
	}
	if l.Output <= 0 {
		l.Output = DefaultOutput
	}
	if l.Script <= 0 {
		l.Script = DefaultScript
	}
	if l.CallDepth <= 0 {
		l.CallDepth = DefaultCallDepth
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.Length <= 0 {
		l.Length = DefaultLength
	}
	return l
}

// Option configures a Mode.
type Option func(*config)

type config struct {
	limits Limits
	gw     []gateway.Option
}

// WithLimits sets the limits of every run (zero fields keep defaults).
func WithLimits(l Limits) Option { return func(c *config) { c.limits = l } }

// WithGateway passes options to the gateway whose tool_exec path every op
// call takes (gateway.WithWrites(true) allows write ops).
func WithGateway(opts ...gateway.Option) Option {
	return func(c *config) { c.gw = append(c.gw, opts...) }
}

// WithWrites allows (true) or refuses (false, the default) write ops; it is
// WithGateway(gateway.WithWrites(allow)).
func WithWrites(allow bool) Option { return WithGateway(gateway.WithWrites(allow)) }

// Mode is a family served as code. It is safe for concurrent use; each run
// has its own engine.
type Mode struct {
	limits Limits
	gw     *gateway.Gateway
	exec   runtime.Handler
	decls  *tsdecl.Decls
	reg    gateway.Registry
	kinds  map[string]runtime.OpKind // op path → kind
}

// New builds a code mode over reg, executing ops with tools through a
// gateway built with the WithGateway options. Every op of decls must be in
// reg.
func New(reg gateway.Registry, tools []runtime.Tool, decls *tsdecl.Decls, opts ...Option) (*Mode, error) {
	if decls == nil {
		return nil, errors.New("codemode: no declarations")
	}
	var c config
	for _, o := range opts {
		o(&c)
	}
	gw, err := gateway.New(reg, tools, c.gw...)
	if err != nil {
		return nil, err
	}
	m := &Mode{limits: c.limits.withDefaults(), gw: gw, decls: decls, reg: reg, kinds: map[string]runtime.OpKind{}}
	for _, t := range gw.Tools() {
		if t.Name == gateway.ExecTool {
			m.exec = t.Handler
		}
	}
	for _, op := range reg.Ops {
		m.kinds[op.Path] = op.Kind
	}
	for _, op := range decls.Ops {
		if _, ok := m.kinds[op.Path]; !ok {
			return nil, fmt.Errorf("codemode: declared op %s is not in the registry", op.Path)
		}
	}
	return m, nil
}

// Tools builds a code mode and returns its tools.
func Tools(reg gateway.Registry, tools []runtime.Tool, decls *tsdecl.Decls, opts ...Option) ([]runtime.Tool, error) {
	m, err := New(reg, tools, decls, opts...)
	if err != nil {
		return nil, err
	}
	return m.Tools(), nil
}

// Limits returns the limits of every run.
func (m *Mode) Limits() Limits { return m.limits }

// Tools returns tool_code and tool_code_help.
func (m *Mode) Tools() []runtime.Tool {
	return []runtime.Tool{
		{Name: CodeTool, Description: m.decls.CodeDescription(m.limits.WallTime, m.limits.OpCalls), Parameters: json.RawMessage(tsdecl.CodeSchema), Handler: m.handleCode},
		{Name: HelpTool, Description: tsdecl.HelpDescription, Parameters: json.RawMessage(tsdecl.HelpSchema), Handler: m.handleHelp},
	}
}

// handleHelp answers tool_code_help: the declarations under a path.
func (m *Mode) handleHelp(_ context.Context, _ runtime.ToolContext, raw json.RawMessage) (runtime.Result, error) {
	var reqPath string
	if len(raw) > 0 && string(raw) != "null" {
		if why, ok := onlyMember(raw, "path", &reqPath, false); !ok {
			return runtime.Failure(&runtime.Error{Code: runtime.CodeValidation, Message: why + `tool_code_help takes {"path":"<group, entity or op path>"}`}), nil
		}
	}
	path := strings.Trim(strings.TrimSpace(reqPath), ".")
	// A script-style path names a group by its identifier.
	for _, g := range m.decls.Groups {
		if path == g.Ident || strings.HasPrefix(path, g.Ident+".") {
			path = g.Name + strings.TrimPrefix(path, g.Ident)
			break
		}
	}
	if path == "" {
		return runtime.Result{Success: true, Value: helpText(m.root())}, nil
	}
	idx := m.decls.Match(path)
	if len(idx) == 0 {
		return runtime.Failure(&runtime.Error{Code: runtime.CodeNotFound,
			Message: fmt.Sprintf("NOT_FOUND: no ops under %q; nearest paths: %s", text.Truncate(path, 120), strings.Join(m.suggest(path), ", "))}), nil
	}
	keep := make(map[int]bool, len(idx))
	for _, i := range idx {
		keep[i] = true
	}
	return runtime.Result{Success: true, Value: helpText(m.decls.RenderOps(func(i int) bool { return keep[i] }))}, nil
}

// helpText is a help answer: shown as is, not as a JSON string.
type helpText string

// Render implements runtime.Renderer.
func (t helpText) Render() string { return string(t) }

// root lists the groups with their entities and op counts.
func (m *Mode) root() string {
	var b strings.Builder
	b.WriteString("Groups (tool_code_help with a path shows its TypeScript declarations):\n")
	for _, g := range m.decls.Groups {
		idx := m.decls.Match(g.Name)
		if len(idx) == 0 {
			continue
		}
		fmt.Fprintf(&b, "- %s: %d ops", g.Ident, len(idx))
		if s := strings.TrimSpace(g.Summary); s != "" {
			b.WriteString(" — " + tsdecl.FirstLine(s, 160))
		}
		var subs []string
		seen := map[string]bool{}
		for _, i := range idx {
			if k := m.decls.Ops[i].Key; len(k) > 1 && !seen[k[0]] {
				seen[k[0]] = true
				subs = append(subs, g.Ident+"."+k[0])
			}
		}
		if len(subs) > 0 {
			b.WriteString(". Paths: " + strings.Join(subs, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// suggest lists the paths nearest to a missing one: the siblings under its
// parent path sharing the longest prefix with it, else the groups.
func (m *Mode) suggest(path string) []string {
	parent := ""
	if i := strings.LastIndex(path, "."); i >= 0 {
		parent = path[:i]
	}
	set := map[string]bool{}
	for _, o := range m.decls.Ops {
		if parent != "" && !strings.HasPrefix(o.Path, parent+".") {
			continue
		}
		rest := strings.TrimPrefix(o.Path, parent+".")
		if i := strings.Index(rest, "."); i >= 0 {
			rest = rest[:i]
		}
		set[parent+"."+rest] = true
	}
	if parent == "" || len(set) == 0 {
		var out []string
		for _, g := range m.decls.Groups {
			out = append(out, g.Name)
		}
		return out
	}
	var all []string
	for p := range set {
		all = append(all, p)
	}
	common := func(a string) int {
		n := 0
		for n < len(a) && n < len(path) && a[n] == path[n] {
			n++
		}
		return n
	}
	sort.Slice(all, func(i, j int) bool {
		ci, cj := common(all[i]), common(all[j])
		if ci != cj {
			return ci > cj
		}
		return all[i] < all[j]
	})
	return all[:min(len(all), 6)]
}

// handleCode answers tool_code.
func (m *Mode) handleCode(ctx context.Context, tc runtime.ToolContext, raw json.RawMessage) (runtime.Result, error) {
	var script string
	if why, ok := onlyMember(raw, "script", &script, true); !ok {
		out := &Outcome{Error: &ScriptError{Code: string(runtime.CodeValidation), Message: why + `tool_code takes {"script":"<TypeScript>"}; the script is an async function body: await op calls and return the answer`}}
		return out.result(), nil
	}
	out, perr := m.Run(ctx, tc, script)
	if perr != nil {
		return runtime.Result{Message: perr.Error(), Err: perr}, perr
	}
	return out.result(), nil
}

// result converts an outcome into the tool's Result.
func (o *Outcome) result() runtime.Result {
	r := runtime.Result{Value: o, Success: o.OK}
	if !o.OK && o.Error != nil {
		r.Err = &runtime.Error{Code: runtime.Code(o.Error.Code), Message: o.Error.Message}
	}
	return r
}

// onlyMember reads the string member name of the JSON object raw into v.
// Member names are exact, as the generated decoders' are, and a member
// other than name, or name sent twice, is refused rather than ignored. ok is false when raw is
// not such an object (or lacks name, when required); why then names the
// unknown or repeated member, if that is the reason, to put before the
// usage line.
func onlyMember(raw json.RawMessage, name string, v *string, required bool) (why string, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return "", false
	}
	// encoding/json keeps the last of a repeated member, while a log or
	// an approval prompt may show the first: refused, as tool_exec does.
	if k, twice := text.RepeatedMember(raw); twice {
		return fmt.Sprintf("%q was sent twice; send each member once: ", text.Truncate(k, 40)), false
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if k != name {
			return fmt.Sprintf("%q is not an argument; ", text.Truncate(k, 40)), false
		}
	}
	m, sent := members[name]
	if !sent || string(m) == "null" {
		return "", !required
	}
	return "", json.Unmarshal(m, v) == nil
}
