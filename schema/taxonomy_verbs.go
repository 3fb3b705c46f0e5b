package schema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// readVerbs are tool-name verbs whose ops only observe state: kind read.
var readVerbs = []string{
	"analyze", "browse", "calculate", "check", "compare", "count", "describe",
	"diff", "download", "estimate", "explain", "export", "fetch", "find", "get",
	"inspect", "list", "load", "lookup", "preview", "query", "read", "retrieve",
	"search", "show", "summarize", "validate", "view", "visit",
	// a larger lexicon of observing verbs
	"audit", "await", "debug", "discover", "echo", "enumerate",
	"extract", "filter", "format", "generate", "guess", "locate", "lint", "monitor", "parse", "peek", "ping",
	"poll", "print", "probe", "rank", "recall", "render", "scan", "scrape", "screenshot", "scroll", "snapshot", "sort",
	"stat", "tail", "trace", "transcribe", "verify", "watch", "wait", "hover",
}

// writeVerbs are tool-name verbs whose ops change state: kind write.
var writeVerbs = []string{
	"add", "apply", "approve", "archive", "assign", "attach", "book", "cancel",
	"clear", "close", "commit", "complete", "create", "delete", "deploy",
	"detach", "disable", "edit", "enable", "execute", "import", "insert",
	"install", "invite", "link", "mark", "merge", "modify", "move", "patch",
	"pay", "post", "publish", "push", "put", "refund", "register", "reject",
	"remove", "rename", "reorder", "reorganize", "replace", "reset", "restore",
	"run", "save", "schedule", "send", "set", "share", "start", "stop",
	"submit", "subscribe", "sync", "toggle", "transfer", "trigger",
	"unassign", "uninstall", "unlink", "unsubscribe", "update", "upload",
	"upsert", "write",
	// a larger lexicon of mutating verbs
	"accept", "activate", "allocate", "append", "authorize", "ban", "block",
	"bookmark", "buy", "charge", "checkout", "claim", "clone", "configure",
	"confirm", "connect", "copy", "deactivate", "decline",
	"dedupe", "deny", "deprecate", "destroy", "disconnect", "dismiss",
	"dispatch", "drop", "duplicate", "empty", "enroll", "erase",
	"exchange", "fill", "fork", "grant", "hide", "invalidate",
	"kick", "launch", "lock", "login", "logout", "manage",
	"migrate", "mute", "notify", "overwrite", "pause", "pin", "prioritize", "provision", "purchase", "purge", "reassign",
	"reboot", "reload", "remind", "reopen",
	"reprioritize", "request", "rerun", "reserve", "resize", "resolve",
	"restart", "resume", "retry", "return", "revert", "revoke", "rotate",
	"scale", "sell", "sign", "signup", "snooze", "star",
	"suspend", "terminate", "trash", "unarchive", "unban", "unblock",
	"unlock", "unmute", "unpin", "unstar", "untag", "unwatch", "upgrade",
	"vote",
	// page interactions change what the page holds
	"click", "type", "press", "select", "drag", "navigate",
	// phrasal and device verbs: turn_on_wifi, adjust_temperature
	"turn", "adjust",
}

// verbKind returns "read" or "write" for a known verb, "" otherwise.
func verbKind(v string) string {
	switch {
	case mfContains(readVerbs, v):
		return "read"
	case mfContains(writeVerbs, v):
		return "write"
	case len(v) > 4 && strings.HasPrefix(v, "un") && mfContains(writeVerbs, v[2:]):
		// un- undoes a change, which is a change too (unresolve, unfollow).
		return "write"
	}
	return ""
}

// detailSuffixes are trailing name tokens dropped from get ops
// (get_onto_task_details → onto.task.get).
var detailSuffixes = []string{"details", "detail"}

// computeVerbs lead descriptions of ops that compute an answer without
// changing state; with readVerbs and writeVerbs they classify a tool whose
// name has no known verb by its description's first word.
var computeVerbs = []string{
	"assess", "compute", "convert", "detect", "determine", "evaluate",
	"forecast", "identify", "classify", "measure", "predict", "provide",
	"recommend", "return", "simulate", "solve", "suggest", "translate",
}

// descriptionKind is "read" or "write" when the description starts with a
// known verb ("Calculates…", "Books a hotel…"), "" otherwise.
func descriptionKind(desc string) string {
	first := strings.ToLower(strings.TrimLeft(desc, " \t\n\"'`*#-"))
	if i := strings.IndexFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		first = first[:i]
	}
	for _, v := range []string{first, strings.TrimSuffix(first, "s"), strings.TrimSuffix(first, "es")} {
		if v == "" {
			continue
		}
		// Compute verbs first: "Returns the factorial…" only reads, though
		// return_order_items writes.
		if mfContains(computeVerbs, v) {
			return "read"
		}
		if k := verbKind(v); k != "" {
			return k
		}
	}
	return ""
}

// UnknownVerb reports the tool and verb of an unknown-verb warning.
func UnknownVerb(d ir.Diagnostic) (tool, verb string, ok bool) {
	if d.Code != "unknown-verb" {
		return "", "", false
	}
	rest, found := strings.CutPrefix(d.Message, "tool ")
	if !found {
		return "", "", false
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "", "", false
	}
	tool, _ = strconv.Unquote(q)
	rest, found = strings.CutPrefix(rest[len(q):], ": unknown verb ")
	if !found {
		return "", "", false
	}
	if q, err = strconv.QuotedPrefix(rest); err != nil {
		return "", "", false
	}
	verb, _ = strconv.Unquote(q)
	return tool, verb, true
}

// SummarizeWarnings folds the unknown-verb warnings of ds into one line,
// the verbs by how many tools use them (most first, at most max named),
// and returns the other warnings unchanged. The line is "" when there
// are none.
func SummarizeWarnings(ds []ir.Diagnostic, max int) (rest []ir.Diagnostic, line string) {
	count := map[string]int{}
	tools := 0
	for _, d := range ds {
		if _, verb, ok := UnknownVerb(d); ok {
			count[verb]++
			tools++
			continue
		}
		rest = append(rest, d)
	}
	if tools == 0 {
		return rest, ""
	}
	verbs := make([]string, 0, len(count))
	for v := range count {
		verbs = append(verbs, v)
	}
	sort.Slice(verbs, func(i, j int) bool {
		if count[verbs[i]] != count[verbs[j]] {
			return count[verbs[i]] > count[verbs[j]]
		}
		return verbs[i] < verbs[j]
	})
	parts := make([]string, 0, max+1)
	for i, v := range verbs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… %d more", len(verbs)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", v, count[v]))
	}
	noun := "tools use verbs"
	if tools == 1 {
		noun = "tool uses a verb"
	}
	line = fmt.Sprintf("%d %s toolgen does not know (%s); their ops are kind write: set ops.<op>.kind in the manifest if they only read (toolgen inspect lists them all)",
		tools, noun, strings.Join(parts, ", "))
	return rest, line
}
