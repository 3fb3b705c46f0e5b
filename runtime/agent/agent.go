package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Role says who wrote a message.
type Role string

// The message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation.
type Message struct {
	Role Role
	// Content is the text: the rendered prompt, the user's or model's words,
	// or a tool result rendered with runtime.RenderResult.
	Content string
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []runtime.ToolCall
	// ToolCallID and ToolName identify the call a tool message answers;
	// providers pair the result with its call by ToolCallID. ToolName is
	// the called tool's, cut short (text.Truncate) when the model named a
	// tool that was not offered.
	ToolCallID string
	ToolName   string
	// IsError reports that the call a tool message answers failed
	// (runtime.Result.Success false), for providers that mark a failed
	// result (Anthropic's is_error).
	IsError bool
	// Native is the provider's own form of an assistant turn (Response.Native),
	// kept so the adapter that produced it can send it back verbatim: server
	// tool calls and results, reasoning items, namespaces. The loop never reads it.
	Native any
}

// User returns a user message.
func User(text string) Message { return Message{Role: RoleUser, Content: text} }

// Request is what the model is given at each turn.
type Request struct {
	Messages []Message
	// Tools are the tools offered this turn: the rendered prompt's, then the
	// toolbox's.
	Tools []runtime.Tool
}

// Response is the model's turn: text, tool calls, or both.
type Response struct {
	// Text is the model's text; for a refusal, the model's words of refusal
	// when it gave any.
	Text      string
	ToolCalls []runtime.ToolCall
	// Stop says why the model ended the turn. The zero value counts as
	// StopComplete, for models that do not say.
	Stop Stop
	// Native is the provider's own form of the turn, copied into the
	// assistant message (Message.Native); nil for models that need none.
	Native any
}

// Stop says why a model ended its turn, in the same words for every
// provider. Every value but StopComplete (and the zero value) marks a turn
// the model did not finish: Run dispatches none of its calls and ends with
// an error wrapping ErrIncomplete. An adapter meeting a provider reason it
// does not map reports it as Stop(reason), the provider's own word, which
// counts as incomplete too.
type Stop string

// The stop reasons.
const (
	// StopComplete: the model finished its turn, with a final answer or
	// calls to run (Anthropic end_turn, tool_use, stop_sequence; Chat stop,
	// tool_calls; Responses completed).
	StopComplete Stop = "complete"
	// StopLength: the output token limit cut the turn off (Anthropic
	// max_tokens, Chat length, Responses max_output_tokens).
	StopLength Stop = "length"
	// StopContextWindow: the context window filled up during the turn
	// (Anthropic model_context_window_exceeded).
	StopContextWindow Stop = "context_window"
	// StopRefusal: the model declined to answer (Anthropic refusal, an
	// OpenAI refusal); Text holds its words of refusal, if any.
	StopRefusal Stop = "refusal"
	// StopFiltered: the provider's content filter withheld output (Chat and
	// Responses content_filter).
	StopFiltered Stop = "content_filter"
	// StopPaused: the provider paused the turn and the adapter stopped
	// continuing it (Anthropic pause_turn after MaxContinuations).
	StopPaused Stop = "paused"
)

// Complete reports whether s is StopComplete or the zero value.
func (s Stop) Complete() bool { return s == "" || s == StopComplete }

// Model produces the next turn of a conversation.
type Model interface {
	Next(ctx context.Context, req Request) (Response, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, req Request) (Response, error)

// Next implements Model.
func (f ModelFunc) Next(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// Errors wrapped by Run when a limit is reached.
var (
	ErrMaxTurns        = errors.New("turn limit reached")
	ErrRetryLimit      = errors.New("expansion retry limit reached")
	ErrExpansionBudget = errors.New("expansion budget exceeded")
)

// Errors wrapped by Run when a model's turn cannot be carried out.
var (
	// ErrIncomplete: the model did not finish its turn (Response.Stop is not
	// StopComplete). Outcome.Stop says why and Outcome.Text holds the
	// turn's partial text; none of the turn's calls ran.
	ErrIncomplete = errors.New("model turn incomplete")
	// ErrRepeatedCallID: two calls of one turn share an id, or a call has
	// the id of an earlier one, so their results could not be told apart
	// (Anthropic rejects a repeated tool_use or tool_result id); none of
	// the turn's calls ran.
	ErrRepeatedCallID = errors.New("repeated tool call id")
	// ErrTooManyCalls: a turn holds more calls than MaxCalls allows; none
	// of them ran.
	ErrTooManyCalls = errors.New("too many tool calls in one turn")
)

// Defaults of the limits.
const (
	DefaultMaxTurns   = 20
	DefaultMaxRetries = 4
	// DefaultMaxCalls is the most tool calls one turn may hold: far more
	// than models send in parallel, few enough that a turn's calls, and
	// the names suggested for those that name no offered tool, stay
	// bounded work.
	DefaultMaxCalls = 128
)

// Agent runs evaluations of one model over one prompt and toolbox. Its
// configuration is fixed by New; each Run starts from it afresh with its
// own toolbox and overrides, so Runs may proceed concurrently when the
// model, the strategy and the handlers allow it.
type Agent struct {
	model      Model
	prompt     *prompt.Prompt
	params     []any
	overrides  prompt.Overrides
	tools      []runtime.Tool
	strategy   matryoshka.Strategy
	bus        *runtime.EventBus
	session    runtime.Session
	adapter    runtime.Adapter
	maxTurns   int
	maxRetries int
	maxCalls   int
	budget     int
}

// Option configures an Agent.
type Option func(*Agent)

// WithPrompt renders p with params into the system message and offers its
// tools (open_sections among them when a section is summarized).
func WithPrompt(p *prompt.Prompt, params ...any) Option {
	return func(a *Agent) { a.prompt, a.params = p, params }
}

// WithOverrides sets the caller's visibility overrides; they win over the
// declared visibility and lose to those open_sections requests.
func WithOverrides(o prompt.Overrides) Option { return func(a *Agent) { a.overrides = o } }

// WithTools sets the toolbox's initial tools (plain tools, facades).
func WithTools(tools ...runtime.Tool) Option {
	return func(a *Agent) { a.tools = append(a.tools, tools...) }
}

// WithStrategy replaces the injection strategy (default
// matryoshka.Unfold{}).
func WithStrategy(s matryoshka.Strategy) Option { return func(a *Agent) { a.strategy = s } }

// WithBus publishes ToolInvoked events on b instead of the agent's own bus.
func WithBus(b *runtime.EventBus) Option { return func(a *Agent) { a.bus = b } }

// WithSession sets the session handlers see in their ToolContext.
func WithSession(s runtime.Session) Option { return func(a *Agent) { a.session = s } }

// WithAdapter sets the adapter handlers see in their ToolContext.
func WithAdapter(ad runtime.Adapter) Option { return func(a *Agent) { a.adapter = ad } }

// MaxTurns caps the model calls of a run, retried turns included; values
// below 1 keep DefaultMaxTurns.
func MaxTurns(n int) Option {
	return func(a *Agent) {
		if n >= 1 {
			a.maxTurns = n
		}
	}
}

// MaxCalls caps the tool calls of one turn: a turn with more ends the run,
// before any of its calls runs, with an error wrapping ErrTooManyCalls.
// Values below 1 keep DefaultMaxCalls.
func MaxCalls(n int) Option {
	return func(a *Agent) {
		if n >= 1 {
			a.maxCalls = n
		}
	}
}

// MaxRetries caps the expansion retries of a run (0 allows none); negative
// values keep DefaultMaxRetries.
func MaxRetries(n int) Option {
	return func(a *Agent) {
		if n >= 0 {
			a.maxRetries = n
		}
	}
}

// ExpansionBudget caps the number of sections open_sections may open in a
// run (0 allows none); by default there is no cap.
func ExpansionBudget(n int) Option {
	return func(a *Agent) {
		if n >= 0 {
			a.budget = n
		}
	}
}

// New returns an agent over model.
func New(model Model, opts ...Option) *Agent {
	a := &Agent{
		model:      model,
		strategy:   matryoshka.Unfold{},
		bus:        &runtime.EventBus{},
		maxTurns:   DefaultMaxTurns,
		maxRetries: DefaultMaxRetries,
		maxCalls:   DefaultMaxCalls,
		budget:     -1,
	}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Bus is the event bus ToolInvoked events are published on.
func (a *Agent) Bus() *runtime.EventBus { return a.bus }

// Outcome is the record of a run, returned also when a run fails.
type Outcome struct {
	// Text is the model's final answer; when Run fails with ErrIncomplete,
	// the partial text of the turn the model did not finish.
	Text string
	// Stop is why the model ended its last turn.
	Stop Stop
	// Messages is the conversation, system message first when there is a
	// prompt; retried turns are not in it.
	Messages []Message
	// Turns counts model calls, retried ones included.
	Turns int
	// Retries counts expansion retries.
	Retries int
	// Requested are the overrides open_sections requested.
	Requested prompt.Overrides
	// Tools are the toolbox's tool names at the end.
	Tools []string
}

// run is the state of one Run.
type run struct {
	a         *Agent
	out       *Outcome
	toolbox   *matryoshka.Toolbox
	rendered  *prompt.Rendered
	requested prompt.Overrides
	// ignored finds, per tool name, the arguments a generated tool
	// accepted and dropped (runtime.IgnoredArgs), said in a note.
	ignored map[string]*runtime.IgnoredArgs
}

// Run evaluates the conversation that starts with input until the model
// answers with text only. A turn the model did not finish ends the run
// with an error wrapping ErrIncomplete (Outcome.Stop says why, Outcome.Text
// holds the partial text); two calls of a turn sharing an id, or a call
// with the id of an earlier one, end it with one wrapping
// ErrRepeatedCallID.
func (a *Agent) Run(ctx context.Context, input ...Message) (*Outcome, error) {
	out := &Outcome{Requested: prompt.Overrides{}}
	if a.model == nil {
		return out, errors.New("agent: no model")
	}
	tb, err := matryoshka.NewToolbox(a.tools...)
	if err != nil {
		return out, fmt.Errorf("agent: %w", err)
	}
	r := &run{a: a, out: out, toolbox: tb, requested: out.Requested}
	defer func() { out.Tools = r.toolbox.Names() }()
	if err := r.render(); err != nil {
		return out, err
	}
	if r.rendered != nil {
		out.Messages = append(out.Messages, Message{Role: RoleSystem, Content: r.rendered.Text()})
	}
	out.Messages = append(out.Messages, input...)
	for {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("agent: %w", err)
		}
		if out.Turns >= a.maxTurns {
			return out, fmt.Errorf("agent: no final answer after %d turns: %w", out.Turns, ErrMaxTurns)
		}
		done, err := r.turn(ctx)
		if done || err != nil {
			return out, err
		}
	}
}

// render renders the prompt with the merged overrides.
func (r *run) render() error {
	if r.a.prompt == nil {
		return nil
	}
	rendered, err := r.a.prompt.Render(prompt.Merge(r.a.overrides, r.requested), r.a.params...)
	if err != nil {
		return fmt.Errorf("agent: render: %w", err)
	}
	r.rendered = rendered
	return nil
}

// offered lists the tools of this turn: the rendered prompt's, then the
// toolbox's; a name offered by both is an error.
func (r *run) offered() ([]runtime.Tool, error) {
	var tools []runtime.Tool
	if r.rendered != nil {
		tools = r.rendered.Tools()
	}
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		seen[t.Name] = true
	}
	for _, t := range r.toolbox.Tools() {
		if seen[t.Name] {
			return nil, fmt.Errorf("agent: tool %q is offered by both the prompt and the toolbox", t.Name)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// turn asks the model once and runs its calls; it reports whether the run
// is done.
func (r *run) turn(ctx context.Context) (bool, error) {
	tools, err := r.offered()
	if err != nil {
		return false, err
	}
	resp, err := r.a.model.Next(ctx, Request{Messages: append([]Message(nil), r.out.Messages...), Tools: tools})
	r.out.Turns++
	if err != nil {
		return false, fmt.Errorf("agent: model: %w", err)
	}
	r.out.Stop = resp.Stop
	if r.out.Stop == "" {
		r.out.Stop = StopComplete
	}
	if !resp.Stop.Complete() {
		return true, r.incomplete(resp)
	}
	if len(resp.ToolCalls) == 0 {
		r.out.Messages = append(r.out.Messages, Message{Role: RoleAssistant, Content: resp.Text, Native: resp.Native})
		r.out.Text = resp.Text
		return true, nil
	}
	if n := len(resp.ToolCalls); n > r.a.maxCalls {
		return true, fmt.Errorf("agent: turn %d holds %d tool calls, more than the limit of %d (MaxCalls); none of them was run: %w", r.out.Turns, n, r.a.maxCalls, ErrTooManyCalls)
	}
	earlier := r.earlierIDs()
	// An id the loop gives is one neither the conversation nor this turn
	// holds: a model's call_1_1 beside a call without an id is no repeat.
	taken := make(map[string]bool, len(resp.ToolCalls))
	for _, c := range resp.ToolCalls {
		taken[c.ID] = true
	}
	calls := make([]runtime.ToolCall, len(resp.ToolCalls))
	for i, c := range resp.ToolCalls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%d", r.out.Turns, i+1)
			for n := 2; earlier[c.ID] > 0 || taken[c.ID]; n++ {
				c.ID = fmt.Sprintf("call_%d_%d_%d", r.out.Turns, i+1, n)
			}
			taken[c.ID] = true
		}
		calls[i] = c
	}
	if err := r.repeatedIDs(calls, earlier); err != nil {
		return true, err
	}
	byName := make(map[string]runtime.Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	snapshot := r.toolbox.Clone()
	msgs := []Message{{Role: RoleAssistant, Content: resp.Text, ToolCalls: calls, Native: resp.Native}}
	suggest := maxSuggested
	for i, c := range calls {
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("agent: turn %d: call %d (%s) and those after it were not run: %w", r.out.Turns, i+1, text.Truncate(c.Name, maxEchoed), err)
		}
		tool, ok := byName[c.Name]
		if !ok {
			tool = notOffered(c.Name, tools, suggest > 0)
			suggest--
		}
		res, perr := runtime.Dispatch(ctx, tool, r.toolContext(c), c.Args)
		if perr != nil {
			var exp *prompt.VisibilityExpansionRequired
			if errors.As(perr, &exp) {
				r.toolbox = snapshot
				return false, r.expand(exp)
			}
			return false, fmt.Errorf("agent: tool %s: %w", c.Name, perr)
		}
		msgs = append(msgs, Message{Role: RoleTool, Content: r.withNote(tool, c, res), ToolCallID: c.ID, ToolName: tool.Name, IsError: !res.Success})
		r.toolbox.Apply(r.a.strategy.Evaluate(matryoshka.InjectionContext{Toolbox: r.toolbox, Call: c, Result: res}))
	}
	r.out.Messages = append(r.out.Messages, msgs...)
	return false, nil
}

// incomplete ends the run on a turn the model did not finish: its partial
// text becomes the outcome's, and a final answer joins the conversation.
// A turn with calls does not, as its calls get no results; none runs, since
// a cut-off call may carry cut-off arguments.
func (r *run) incomplete(resp Response) error {
	r.out.Text = resp.Text
	if len(resp.ToolCalls) == 0 {
		r.out.Messages = append(r.out.Messages, Message{Role: RoleAssistant, Content: resp.Text, Native: resp.Native})
		return fmt.Errorf("agent: turn %d stopped early (%s): %w", r.out.Turns, text.Truncate(string(resp.Stop), maxEchoed), ErrIncomplete)
	}
	return fmt.Errorf("agent: turn %d stopped early (%s); none of its calls was run: %w", r.out.Turns, text.Truncate(string(resp.Stop), maxEchoed), ErrIncomplete)
}

// earlierIDs maps the id of every call in the conversation so far to the
// index of its message plus one.
func (r *run) earlierIDs() map[string]int {
	ids := map[string]int{}
	for i, m := range r.out.Messages {
		for _, c := range m.ToolCalls {
			if ids[c.ID] == 0 {
				ids[c.ID] = i + 1
			}
		}
	}
	return ids
}

// repeatedIDs refuses a turn in which two calls share an id, or a call
// has the id of one earlier in the conversation (earlier, from
// earlierIDs): their results could not be told apart, and providers reject
// the conversation.
func (r *run) repeatedIDs(calls []runtime.ToolCall, earlier map[string]int) error {
	first := make(map[string]int, len(calls))
	for i, c := range calls {
		if j, ok := first[c.ID]; ok {
			return fmt.Errorf("agent: turn %d: calls %d (%s) and %d (%s) share the id %q; none of the turn's calls was run: %w",
				r.out.Turns, j+1, text.Truncate(calls[j].Name, maxEchoed), i+1, text.Truncate(c.Name, maxEchoed), text.Truncate(c.ID, maxEchoed), ErrRepeatedCallID)
		}
		if m := earlier[c.ID]; m > 0 {
			return fmt.Errorf("agent: turn %d: call %d (%s) has the id %q of a call in message %d; none of the turn's calls was run: %w",
				r.out.Turns, i+1, text.Truncate(c.Name, maxEchoed), text.Truncate(c.ID, maxEchoed), m, ErrRepeatedCallID)
		}
		first[c.ID] = i
	}
	return nil
}

// withNote is the text of a tool result for the model: runtime.RenderResult,
// then a note naming the arguments the tool accepted and dropped, if any
// (a misspelt "per_pag" would otherwise leave the default while the model
// believes it was sent).
func (r *run) withNote(tool runtime.Tool, c runtime.ToolCall, res runtime.Result) string {
	text := runtime.RenderResult(res)
	if text == "" && !res.Success {
		// An empty error result reads as nothing happened (the MCP
		// server and the gateway say so too).
		text = tool.Name + " failed"
	}
	if r.ignored == nil {
		r.ignored = map[string]*runtime.IgnoredArgs{}
	}
	ia, ok := r.ignored[tool.Name]
	if !ok {
		ia = runtime.NewIgnoredArgs(tool)
		r.ignored[tool.Name] = ia
	}
	ws := ia.Warnings(tool.Name, c.Args, res.Err)
	switch {
	case len(ws) == 0:
		return text
	case text == "":
		return "note: " + strings.Join(ws, "; ")
	}
	return text + "\n\nnote: " + strings.Join(ws, "; ")
}

// expand merges an expansion request, checks the limits and re-renders the
// system message.
func (r *run) expand(exp *prompt.VisibilityExpansionRequired) error {
	if r.out.Retries >= r.a.maxRetries {
		return fmt.Errorf("agent: open_sections requested retry %d, limit is %d: %w: %w", r.out.Retries+1, r.a.maxRetries, ErrRetryLimit, exp)
	}
	for path, v := range exp.RequestedOverrides {
		r.requested[path] = v
	}
	if r.a.budget >= 0 && len(r.requested) > r.a.budget {
		return fmt.Errorf("agent: %d sections requested, budget is %d: %w: %w", len(r.requested), r.a.budget, ErrExpansionBudget, exp)
	}
	r.out.Retries++
	if err := r.render(); err != nil {
		return err
	}
	if len(r.out.Messages) > 0 && r.out.Messages[0].Role == RoleSystem {
		r.out.Messages[0].Content = r.rendered.Text()
	}
	return nil
}

func (r *run) toolContext(c runtime.ToolCall) runtime.ToolContext {
	parts := runtime.ContextParts{Adapter: r.a.adapter, Session: r.a.session, Bus: r.a.bus, Call: c}
	if r.a.prompt != nil {
		parts.Prompt = r.a.prompt
	}
	if r.rendered != nil {
		parts.Rendered = r.rendered
	}
	return runtime.NewToolContext(parts)
}

// Bounds of the answer to a call of a tool that was not offered, so that
// one wrong name against a large (deferred) surface costs a few lines, not
// the catalogue.
const (
	// maxEchoed is the number of characters of a model's name or id
	// echoed back.
	maxEchoed = 64
	// listAllUpTo is the number of offered tools up to which all are named.
	listAllUpTo = 12
	// maxNearest is the number of nearest names suggested otherwise.
	maxNearest = 3
	// maxSuggested is the number of calls of a turn naming no offered tool
	// that get the nearest names: ranking them costs time in the number of
	// tools offered, and a turn of made-up names would otherwise cost that
	// for each.
	maxSuggested = 8
)

// searchTool is the name of the runtime's search tools
// (deferred.SearchToolName, gateway.SearchTool): the answer to a call of a
// tool not offered points the model to it when it is offered. The loop
// imports neither package, so as not to link them.
const searchTool = "tool_search"

// isSearchTool reports whether t is one of the runtime's search tools: a
// framework builtin (AcceptsOverrides false; generated and hand-written
// tools accept overrides) named searchTool, or searchTool_2,
// searchTool_3, ..., the name a deferred surface gives its own when a tool
// of the family is named searchTool (runtime.FreeName). That tool of the
// family is not the search tool, though it has the name.
func isSearchTool(t runtime.Tool) bool {
	rest, ok := strings.CutPrefix(t.Name, searchTool)
	if t.AcceptsOverrides || !ok {
		return false
	}
	if rest == "" {
		return true
	}
	n, ok := strings.CutPrefix(rest, "_")
	if !ok || n == "" || n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// notOffered stands in for a tool the model named but was not offered, so
// that the call still gets a failed result and a ToolInvoked event. Its
// name, which the event and the tool message carry, is the model's cut
// short as the answer echoes it, so that a huge name is not kept whole; the
// result pairs with its call by id, which stays intact.
func notOffered(name string, offered []runtime.Tool, suggest bool) runtime.Tool {
	msg := notOfferedMessage(name, offered, suggest)
	return runtime.Tool{Name: text.Truncate(name, maxEchoed), Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{}, runtime.NotFound("%s", msg)
	}}
}

// notOfferedMessage says that name is not offered and how to find the tool
// meant: a search tool to call when one is offered, all the offered names
// when they are few, else the nearest ones (when suggest is set).
func notOfferedMessage(name string, offered []runtime.Tool, suggest bool) string {
	head := fmt.Sprintf("tool %q is not offered", text.Truncate(name, maxEchoed))
	if len(offered) == 0 {
		return head + "; no tools are offered now"
	}
	names := make([]string, len(offered))
	search := ""
	for i, t := range offered {
		names[i] = t.Name
		if search == "" && isSearchTool(t) {
			search = t.Name
		}
	}
	if search == "" && len(names) <= listAllUpTo {
		return head + "; offered tools: " + strings.Join(names, ", ")
	}
	var near []string
	if suggest {
		near = nearest(name, names, maxNearest)
	}
	if len(near) > 0 {
		head += "; nearest offered: " + strings.Join(near, ", ")
	}
	if search != "" {
		return head + "; call " + search + " with what you want to do to find the tool for it"
	}
	return head + fmt.Sprintf("; %d tools are offered", len(names))
}

// nearest returns up to n names close to name: the one text.CloseName
// picks, then others by edit distance (within a third of the longer name,
// at least 2) or containing name or contained in it. A name longer than
// text.MaxSuggestLen gets none, and distances are banded, so the cost stays
// linear in the names whatever the model sent.
func nearest(name string, names []string, n int) []string {
	q := strings.ToLower(strings.TrimSpace(name))
	if q == "" || len(q) > text.MaxSuggestLen {
		return nil
	}
	var out []string
	if c := text.CloseName(q, names); c != "" {
		out = append(out, c)
	}
	ranked := text.Rank(names, n+1, func(c string) (int, bool) {
		lc := strings.ToLower(c)
		limit := max(2, max(len(q), len(lc))/3)
		if d := text.DistanceAtMost(q, lc, limit); d <= limit {
			return d, true
		}
		if len(q) >= 3 && len(lc) >= 3 && (strings.Contains(lc, q) || strings.Contains(q, lc)) {
			return limit + 1, true
		}
		return 0, false
	})
	for _, c := range ranked {
		if len(out) < n && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
