package taxonomy

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime"
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
	// verbs that compute an answer from their arguments
	"advise", "aggregate", "assess", "classify", "compute", "convert", "detect", "determine",
	"diagnose", "evaluate", "examine", "explore", "forecast", "identify", "interpret",
	"investigate", "match", "measure", "plot", "predict", "quote", "recognize",
	"recommend", "research", "score", "simulate", "solve", "suggest", "track",
	"translate", "visualize", "categorize", "inquire", "gain",
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
	"kick", "launch", "lock", "login", "logout", "manage", "order", "play", "rent", "renew", "donate",
	"arrange", "organize", "initiate", "integrate", "define", "customize",
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

// verbKinds indexes readVerbs and writeVerbs.
var verbKinds = func() map[string]runtime.OpKind {
	m := make(map[string]runtime.OpKind, len(readVerbs)+len(writeVerbs))
	for _, v := range writeVerbs {
		m[v] = runtime.OpWrite
	}
	for _, v := range readVerbs {
		m[v] = runtime.OpRead
	}
	return m
}()

// verbKind returns runtime.OpRead or runtime.OpWrite for a known verb, ""
// otherwise.
func verbKind(v string) runtime.OpKind {
	if k, ok := verbKinds[v]; ok {
		return k
	}
	if len(v) > 4 && strings.HasPrefix(v, "un") && verbKinds[v[2:]] == runtime.OpWrite {
		// un- undoes a change, which is a change too (unresolve, unfollow).
		return runtime.OpWrite
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
	// choosing among options answers; selecting on a page is a name verb
	"select", "choose", "pick",
	// nouns as often as verbs in names (market_strategy_plan), verbs here
	"plan", "design", "segment",
}

// stemKind is the kind of the verb a word is a form of: a tense
// (tracks, identifies, booking, planned), or an agent noun (tracker,
// optimizer, planner, advisor); "" when it is none. Nouns of tool names
// (HotelBookingAssistant, NearbyAttractionsFinder) and description verbs
// (Tracks…, Identifies…) are read with it.
func stemKind(w string) runtime.OpKind {
	if k := verbKind(w); k != "" {
		return k
	}
	for _, suf := range []string{"ing", "ies", "es", "s", "ed", "er", "or", "r", "d"} {
		stem, ok := strings.CutSuffix(w, suf)
		if !ok || len(stem) < 3 {
			continue
		}
		cands := []string{stem, stem + "e"}
		if suf == "ies" {
			cands = []string{stem + "y"}
		}
		if n := len(stem); n >= 4 && stem[n-1] == stem[n-2] {
			cands = append(cands, stem[:n-1]) // planner, booking
		}
		for _, c := range cands {
			if k := verbKind(c); k != "" {
				return k
			}
		}
	}
	return ""
}

// auxVerbs lead descriptions whose verb is a noun after them ("Performs
// an analysis", "Conducts a risk assessment").
var auxVerbs = []string{"perform", "conduct", "carry", "undertake", "utilize", "use", "run", "execute"}

// nominalKind is the kind of the verb a noun is made from: analysis
// (analyze), assessment (assess), evaluation (evaluate), prediction
// (predict); "" for other nouns.
func nominalKind(n string) runtime.OpKind {
	switch {
	case strings.HasSuffix(n, "ysis"):
		return stemKind(strings.TrimSuffix(n, "sis") + "ze")
	case strings.HasSuffix(n, "ment"):
		return stemKind(strings.TrimSuffix(n, "ment"))
	case strings.HasSuffix(n, "ation"):
		stem := strings.TrimSuffix(n, "ation")
		for _, c := range []string{stem + "ate", stem + "e", stem, stem + "y"} {
			if k := verbKind(c); k != "" {
				return k
			}
		}
	case strings.HasSuffix(n, "ion"):
		return stemKind(strings.TrimSuffix(n, "ion"))
	}
	return ""
}

// leadIn matches the words before a description's first verb when it does
// not start with one: "A tool to", "This API helps users", "Used to".
var leadIn = regexp.MustCompile(`(?i)^(?:(?:a|an|the|this|our)\s+(?:[\w-]+\s+){0,3}?)?(?:tool|api|service|function|assistant|system|utility|helper|endpoint|module|engine|platform)s?\s+(?:that\s+|which\s+|designed\s+|used\s+|is\s+used\s+)?(?:to\s+|for\s+|helps?\s+(?:(?:users?|you)\s+)?(?:to\s+|in\s+)?|allows?\s+(?:(?:users?|you)\s+)?(?:to\s+)?|lets?\s+(?:users?|you)\s+|can\s+|will\s+)?|^(?:helps?|allows?|assists?|used|designed|lets?|facilitates?|enables?)\s+(?:(?:users?|you)\s+)?(?:to\s+|in\s+|with\s+)?`)

// descriptionEvidence is the kind a description gives: its leading verb
// after any lead-in ("A tool to find…", "Helps users book…"), and the
// verbs joined to it ("search and book hostels" writes: a write among
// them wins); "" when the description does not start with a known verb.
func descriptionEvidence(desc string) runtime.OpKind {
	s := strings.TrimLeft(desc, " \t\n\"'`*#-")
	if loc := leadIn.FindStringIndex(s); loc != nil {
		s = s[loc[1]:]
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != ',' })
	var kind runtime.OpKind
	for i := 0; i < len(words) && i < 8; i++ {
		w, comma := strings.CutSuffix(words[i], ",")
		if slices.Contains(auxVerbs, strings.TrimSuffix(w, "s")) || slices.Contains(auxVerbs, strings.TrimSuffix(w, "ies")+"y") {
			// "Performs a detailed analysis of…" computes: the noun made
			// from a verb within the next words decides.
			for _, n := range words[i+1 : min(i+5, len(words))] {
				if k := nominalKind(strings.TrimSuffix(n, ",")); k != "" {
					return k
				}
			}
		}
		k := stemKind(w)
		if slices.Contains(computeVerbs, w) || slices.Contains(computeVerbs, strings.TrimSuffix(w, "s")) {
			k = runtime.OpRead
		}
		if k == "" {
			break
		}
		if kind != runtime.OpWrite {
			kind = k
		}
		// Go on only through "and", "or" or a comma to the next verb.
		if i+1 < len(words) && (words[i+1] == "and" || words[i+1] == "or") {
			i++
		} else if !comma {
			break
		}
	}
	return kind
}

// descriptionKind is runtime.OpRead or runtime.OpWrite when the
// description starts with a known verb ("Calculates…", "Books a hotel…"),
// "" otherwise.
func descriptionKind(desc string) runtime.OpKind {
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
		if slices.Contains(computeVerbs, v) {
			return runtime.OpRead
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

// SummarizeWarnings folds the unknown-verb warnings of ds into a summary:
// a first line with the number of tools, then one line per verb with the
// number of tools using it and the first of them, most used first, at
// most max verbs and a last line for the others. It returns the other
// warnings unchanged; the summary is "" when there are none.
func SummarizeWarnings(ds []ir.Diagnostic, max int) (rest []ir.Diagnostic, summary string) {
	count := map[string]int{}
	first := map[string]string{}
	tools := 0
	for _, d := range ds {
		if tool, verb, ok := UnknownVerb(d); ok {
			if count[verb] == 0 {
				first[verb] = tool
			}
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
	noun, they, ops := "tools have", "they do", "their ops are"
	if tools == 1 {
		noun, they, ops = "tool has", "it does", "its op is"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s no verb toolgen knows and no other evidence of what %s; %s kind write until ops.<op>.kind in the manifest says read (toolgen inspect lists them all):", tools, noun, they, ops)
	for i, v := range verbs {
		if i == max {
			more := "verbs"
			if len(verbs)-max == 1 {
				more = "verb"
			}
			fmt.Fprintf(&b, "\n  … %d more %s", len(verbs)-max, more)
			break
		}
		fmt.Fprintf(&b, "\n  %s ×%d (%s", v, count[v], first[v])
		if count[v] > 1 {
			b.WriteString(", …")
		}
		b.WriteString(")")
	}
	return rest, b.String()
}
