// Package agent is a provider-independent evaluation loop: it renders a
// prompt (runtime/prompt), offers the prompt's tools and a toolbox
// (runtime/matryoshka) to a Model, dispatches the model's tool calls with
// runtime.Dispatch, applies the injection strategy after every call, and
// stops when the model answers with text only (a turn the model did not
// finish ends the run with ErrIncomplete).
//
// Data flow: Run → prompt.Render(declared < caller < requested overrides)
// → Model.Next(messages, tools) → runtime.Dispatch per call (ToolInvoked
// on the agent's EventBus) → matryoshka.Strategy → Toolbox.Apply → next
// turn. Provider adapters implement Model; agenttest.Model replays a script
// for tests.
//
// # Decisions
//
// Calls of one turn run sequentially, in the order the model made them, and
// their tool messages follow in that order. Sequential dispatch keeps the
// toolbox changes deterministic and lets open_sections halt the turn before
// any later call runs (spec 000). Calls resolve against the tools offered
// at the start of the turn, so a facade unfolded by an earlier call of the
// same turn does not change what later calls reach.
//
// open_sections returns *prompt.VisibilityExpansionRequired through
// Dispatch. The loop then retries the turn: the turn's messages are
// dropped, the toolbox is restored to its state at the start of the turn,
// the requested overrides are merged over the caller's, the prompt is
// re-rendered into the system message, and the model is asked again. Calls
// that ran before open_sections in the halted turn are not rolled back
// (spec 000: session state is preserved). MaxRetries caps the retries and
// ExpansionBudget the total number of sections opened; exceeding either
// returns an error wrapping ErrRetryLimit or ErrExpansionBudget and the
// expansion request.
//
// A call naming a tool that was not offered gets a failed tool message
// naming it (cut to 64 characters) and, up to 12 offered tools, all of
// them; past that, or when a search tool is offered (the gateway's or a
// deferred surface's tool_search, which is tool_search_2, ... when a tool
// of the family has that name), only the three nearest names, and the
// advice to call the search tool when it is offered, so one wrong name
// against a deferred surface of thousands of tools does not read the
// catalogue back to the model. Ranking the nearest names costs time in the
// number of tools, so only the first 8 such calls of a turn get them. A
// handler error or panic becomes a failed tool message (runtime.Dispatch);
// in both cases the loop continues. Any other error that propagates
// through Dispatch ends the run.
//
// A turn holds at most MaxCalls tool calls (DefaultMaxCalls, 128): one
// with more ends the run, before any of its calls runs, with an error
// wrapping ErrTooManyCalls, so a model's one turn is bounded work.
//
// Two calls of one turn sharing an id, or a call with the id of a call
// earlier in the conversation, end the run, before any call of the turn
// runs, with an error wrapping ErrRepeatedCallID: their results could not
// be told apart, and the providers reject a conversation that repeats one
// (Anthropic a repeated tool_use or tool_result id), so answering each with
// a failed tool message could not go on either. A call without an id gets
// one neither the conversation nor the turn's other calls hold yet.
//
// Every Response says why the model stopped (Response.Stop, the same words
// for every provider; the zero value counts as StopComplete). A turn the
// model did not finish — cut off at the token limit or the context window,
// refused, filtered, or paused by the provider — is not a final answer:
// Run returns an error wrapping ErrIncomplete with the reason, Outcome.Stop
// holds it and Outcome.Text the turn's partial text (a refusal's words).
// None of such a turn's calls runs, since a cut-off call may carry cut-off
// arguments; a text-only turn joins Outcome.Messages, one with calls does
// not, as its calls would have no results.
//
// A cancelled context ends the run before the next model call and before
// the next call of a turn: a handler that ignores its context still runs no
// later call of the model's.
//
// A tool message is runtime.RenderResult of the result. When a generated
// tool accepted and dropped arguments its schema does not declare
// (runtime.IgnoredArgs), the message ends with a note naming them and the
// nearest argument, so a misspelt optional argument is not lost silently.
//
// Provider adapters (runtime/openai, runtime/anthropic) return their own
// form of a turn in Response.Native; the loop copies it into the assistant
// message (Message.Native) without reading it, so the adapter can send the
// turn back verbatim next time: server tool calls and results, search
// items, namespaces.
//
// Facades belong in the toolbox (WithTools): the strategy edits the toolbox
// only, so a facade offered by a prompt section unfolds into the toolbox
// but stays offered by its section.
package agent
