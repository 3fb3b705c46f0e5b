package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// The wire names of the gateway tools. Providers reject dots in tool names,
// so these use underscores; op paths inside tool_exec keep their dots.
const (
	HelpTool   = "tool_help"
	SearchTool = "tool_search"
	ExecTool   = "tool_exec"
	BatchTool  = "tool_batch"
)

// Defaults of the options.
const (
	DefaultBatchLimit          = 10
	DefaultBatchConcurrency    = 4
	DefaultRepetitionThreshold = 2
	DefaultIdempotencyTTL      = 24 * time.Hour
	DefaultSearchLimit         = 5
)

// Option configures a Gateway.
type Option func(*config)

type config struct {
	writes      bool
	batchLimit  int
	batchConc   int
	traceID     func() string
	clock       func() time.Time
	idem        IdempotencyStore
	idemTTL     time.Duration
	repetitions int
	rerank      Reranker
	limits      Limits
}

// WithSearchReranker adds a second stage to tool_search: r re-scores the
// lexical index's best 50 candidates for each query (an EmbeddingReranker
// over a user's embedding model, for example). Without it search is purely
// lexical and needs nothing external.
func WithSearchReranker(r Reranker) Option { return func(c *config) { c.rerank = r } }

// WithWrites allows (true) or refuses (false, the default) write ops.
func WithWrites(allow bool) Option { return func(c *config) { c.writes = allow } }

// WithBatchLimit sets the maximum number of items in one tool_batch call.
func WithBatchLimit(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.batchLimit = n
		}
	}
}

// WithBatchConcurrency bounds how many read items of a batch run at once.
func WithBatchConcurrency(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.batchConc = n
		}
	}
}

// WithTraceIDs sets the generator of meta.trace_id values.
func WithTraceIDs(next func() string) Option {
	return func(c *config) {
		if next != nil {
			c.traceID = next
		}
	}
}

// WithClock sets the clock used for latency and idempotency expiry.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithIdempotencyStore replaces the default in-memory idempotency store.
func WithIdempotencyStore(s IdempotencyStore) Option {
	return func(c *config) {
		if s != nil {
			c.idem = s
		}
	}
}

// WithIdempotencyTTL sets how long an idempotency key is remembered.
func WithIdempotencyTTL(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.idemTTL = d
		}
	}
}

// WithRepetitionThreshold sets after how many identical failing calls the
// gateway stops repeating the error and changes its advice (default 2).
func WithRepetitionThreshold(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.repetitions = n
		}
	}
}

// Gateway serves a registry of ops through the four gateway tools. It is
// safe for concurrent use.
type Gateway struct {
	cfg     config
	reg     Registry
	ops     map[string]*binding
	byTool  map[string]*binding
	order   []*binding
	tree    *node
	paths   []string
	index   *Index
	helpc   helpCache
	rep     repetitions
	keys    keyLocks
	traceN  atomic.Uint64
	tracePf string
}

// binding is an op with its tool and what exec needs precomputed.
type binding struct {
	op       Op
	tool     runtime.Tool
	required []string
	props    []string
	closed   bool // unknown arguments are rejected
	// ignored finds the arguments the tool's decoder accepts and drops,
	// which exec then says in a warning.
	ignored *runtime.IgnoredArgs
	example json.RawMessage
	usage   string
	args    []Arg
}

// New builds a gateway over reg whose ops are served by tools (matched by
// Op.Tool against Tool.Name). Every op must resolve to a tool.
func New(reg Registry, tools []runtime.Tool, opts ...Option) (*Gateway, error) {
	g := &Gateway{
		cfg: config{
			batchLimit:  DefaultBatchLimit,
			batchConc:   DefaultBatchConcurrency,
			clock:       time.Now,
			idemTTL:     DefaultIdempotencyTTL,
			repetitions: DefaultRepetitionThreshold,
			limits:      DefaultLimits,
		},
		reg:    reg,
		ops:    make(map[string]*binding, len(reg.Ops)),
		byTool: make(map[string]*binding, len(reg.Ops)),
	}
	for _, o := range opts {
		o(&g.cfg)
	}
	if g.cfg.idem == nil {
		g.cfg.idem = NewMemoryStore(4096)
	}
	if g.cfg.traceID == nil {
		var b [4]byte
		_, _ = rand.Read(b[:])
		g.tracePf = "tr_" + hex.EncodeToString(b[:]) + "_"
		g.cfg.traceID = g.nextTraceID
	}
	byName := make(map[string]runtime.Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	var errs []error
	for _, op := range reg.Ops {
		if op.Path == "" {
			errs = append(errs, fmt.Errorf("op for tool %q has an empty path", op.Tool))
			continue
		}
		if _, dup := g.ops[op.Path]; dup {
			errs = append(errs, fmt.Errorf("op %s: declared twice", op.Path))
			continue
		}
		t, ok := byName[op.Tool]
		if !ok {
			errs = append(errs, fmt.Errorf("op %s: no tool named %q", op.Path, op.Tool))
			continue
		}
		if len(op.Parameters) == 0 {
			op.Parameters = t.Parameters
		}
		if op.Description == "" {
			op.Description = t.Description
		}
		if op.Kind != runtime.OpWrite {
			op.Kind = runtime.OpRead
		}
		b, err := newBinding(op, t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		g.ops[op.Path] = b
		if _, seen := g.byTool[t.Name]; !seen {
			g.byTool[t.Name] = b
		}
		g.order = append(g.order, b)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	g.tree = buildTree(g.order)
	g.paths = g.tree.allPaths()
	ops := make([]Op, len(g.order))
	for i, b := range g.order {
		ops[i] = b.op
		ops[i].Usage = b.usage
		ops[i].Args = b.args
	}
	var iopts []IndexOption
	if g.cfg.rerank != nil {
		iopts = append(iopts, WithReranker(g.cfg.rerank))
	}
	g.index = newIndex(ops, defaultRank, iopts...)
	return g, nil
}

// Tools builds a gateway and returns its four tools.
func Tools(reg Registry, tools []runtime.Tool, opts ...Option) ([]runtime.Tool, error) {
	g, err := New(reg, tools, opts...)
	if err != nil {
		return nil, err
	}
	return g.Tools(), nil
}

// Registry returns the registry the gateway serves.
func (g *Gateway) Registry() Registry { return g.reg }

// Index returns the search index over the gateway's ops.
func (g *Gateway) Index() *Index { return g.index }

func (g *Gateway) nextTraceID() string {
	return g.tracePf + strconv.FormatUint(g.traceN.Add(1), 10)
}

// The gateway tools' descriptions and schemas are the whole boot cost of a
// family served through the gateway: they are kept short.
const (
	helpDesc   = `Browse ops. path "": groups; a group or entity path (%s): its ops and their args; an op path: its args and an example call.%s`
	searchDesc = `Find ops for a need in plain words; returns the best ops with their args.`
	execDesc   = `Run an op: {"op":%s,"args":{...}} with every required arg. Errors say what to fix.`
	batchDesc  = `Run up to %d help/search/exec items at once; results in order. Item: {"tool":"help|search|exec",...its fields}.`

	helpSchema   = `{"type":"object","properties":{"path":{"type":"string"},"format":{"enum":["short","full"]},"include_examples":{"type":"boolean"},"include_schemas":{"type":"boolean"}}}`
	searchSchema = `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"]}`
	execSchema   = `{"type":"object","properties":{"op":{"type":"string"},"args":{"type":"object"},"idempotency_key":{"type":"string"},"dry_run":{"type":"boolean"}},"required":["op","args"]}`
	batchSchema  = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object"}}},"required":["items"]}`
)

// Tools returns tool_help, tool_search, tool_exec and tool_batch.
func (g *Gateway) Tools() []runtime.Tool {
	wrap := func(f func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (*Envelope, error)) runtime.Handler {
		return func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			env, err := f(ctx, tc, args)
			g.cfg.limits.bound(env)
			if env == nil {
				return runtime.Result{Err: err}, err
			}
			return env.result(), err
		}
	}
	w := g.bootWords()
	return []runtime.Tool{
		{Name: HelpTool, Description: fmt.Sprintf(helpDesc, w.dirExamples(), w.groups), Parameters: json.RawMessage(helpSchema), Handler: wrap(g.handleHelp), Annotations: runtime.LookupAnnotations()},
		{Name: SearchTool, Description: searchDesc, Parameters: json.RawMessage(searchSchema), Handler: wrap(g.handleSearch), Annotations: runtime.LookupAnnotations()},
		{Name: ExecTool, Description: fmt.Sprintf(execDesc, text.AppendJSONString(nil, w.op, false)), Parameters: json.RawMessage(execSchema), Handler: wrap(g.handleExec)},
		{Name: BatchTool, Description: fmt.Sprintf(batchDesc, g.cfg.batchLimit), Parameters: json.RawMessage(batchSchema), Handler: wrap(g.handleBatch)},
	}
}

// result converts an envelope into the Result a gateway tool returns: the
// envelope is the value and renders itself as compact JSON.
func (e *Envelope) result() runtime.Result {
	r := runtime.Result{Value: e, Success: e.OK}
	if !e.OK && e.Error != nil {
		r.Err = &runtime.Error{Code: e.Error.Code, Message: e.Error.Message}
	}
	return r
}

// dryRunKey is the context key of the dry-run flag.
type dryRunKey struct{}

// DryRun reports whether the op being executed was called as a dry run;
// handlers of ops with side effects must check it and, when true, report
// what they would do without doing it. tool_exec sets it from the call's
// dry_run argument, defaulting to true for ops with DryRunDefault.
func DryRun(ctx context.Context) bool {
	v, _ := ctx.Value(dryRunKey{}).(bool)
	return v
}

// WithDryRun returns ctx carrying the dry-run flag DryRun reads.
func WithDryRun(ctx context.Context, dry bool) context.Context {
	if !dry && ctx.Value(dryRunKey{}) == nil {
		return ctx
	}
	return context.WithValue(ctx, dryRunKey{}, dry)
}

// newBinding precomputes the argument facts exec and help need.
func newBinding(op Op, t runtime.Tool) (*binding, error) {
	b := &binding{op: op, tool: t}
	var s parameters
	if len(op.Parameters) > 0 {
		var err error
		if s, err = readParameters(op.Parameters); err != nil {
			return nil, fmt.Errorf("op %s: parameters: %v", op.Path, err)
		}
	}
	b.required = append(b.required, s.Required...)
	for name := range s.Properties {
		b.props = append(b.props, name)
	}
	sort.Strings(b.props)
	b.closed = s.closed()
	b.ignored = runtime.NewIgnoredArgs(t)
	b.args = op.Args
	// Help shows an argument's whole description (short help keeps its
	// leading sentences), not the registry's one-sentence summary: a second
	// sentence often holds the format or language the tool requires.
	b.args = slices.Clone(b.args)
	for i, a := range b.args {
		if p := s.Properties[a.Name]; len(strings.TrimSpace(p.Description)) > len(a.Description) {
			b.args[i].Description = strings.TrimSpace(p.Description)
		}
	}
	if len(b.required) == 0 {
		for _, a := range b.args {
			if a.Required {
				b.required = append(b.required, a.Name)
			}
		}
	}
	// Argument summaries, usage lines and examples are the registry's (the
	// generator writes them from the IR); a registry without an example
	// gets an empty args object.
	b.example = json.RawMessage("{}")
	if len(op.Examples) > 0 && len(op.Examples[0].Args) > 0 {
		b.example = op.Examples[0].Args
	}
	// A usage line must start with its own op: a registry whose line names
	// another path (an op moved by a collision) would send a model that
	// copies it to the wrong tool.
	b.usage = op.Usage
	if b.usage != op.Path && !strings.HasPrefix(b.usage, op.Path+" ") {
		b.usage = UsageLine(op.Path, b.args)
	}
	return b, nil
}

// argsLine is the op's usage line without the op: its arguments alone.
func (b *binding) argsLine() string { return argsOfUsage(b.op.Path, b.usage) }

// UsageLine renders an op's CLI-like one-liner from its argument
// summaries: required arguments first and bare, optional ones in brackets,
// defaults after '=', each in summary order:
//
//	onto.task.list project_id:string [limit:integer=20]
//
// The generator writes each op's line into the registry (taxonomy.Usage,
// the same rule; a taxonomy test holds the two equal; the taxonomy cannot
// call this one, since this package's tests import the taxonomy). The
// gateway renders a line itself only for a registry line that does not
// start with its own op.
func UsageLine(path string, args []Arg) string {
	var sb strings.Builder
	sb.WriteString(path)
	for _, req := range []bool{true, false} {
		for _, a := range args {
			if a.Required != req {
				continue
			}
			sb.WriteByte(' ')
			if !req {
				sb.WriteByte('[')
			}
			sb.WriteString(a.Name)
			if a.Type != "" {
				sb.WriteByte(':')
				sb.WriteString(a.Type)
			}
			if a.Default != "" {
				sb.WriteByte('=')
				sb.WriteString(a.Default)
			}
			if !req {
				sb.WriteByte(']')
			}
		}
	}
	return sb.String()
}

// keyLocks serialises concurrent calls that share an idempotency key.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

func (k *keyLocks) lock(key string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = make(map[string]*keyLock)
	}
	l := k.m[key]
	if l == nil {
		l = &keyLock{}
		k.m[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
}
