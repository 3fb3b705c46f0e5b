package schema

import (
	"strings"
	"unicode"
)

// readVerbs are tool-name verbs whose ops only observe state: kind read.
var readVerbs = []string{
	"analyze", "browse", "calculate", "check", "compare", "count", "describe",
	"diff", "download", "estimate", "explain", "export", "fetch", "find", "get",
	"inspect", "list", "load", "lookup", "preview", "query", "read", "retrieve",
	"search", "show", "summarize", "validate", "view", "visit",
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
}

// verbKind returns "read" or "write" for a known verb, "" otherwise.
func verbKind(v string) string {
	switch {
	case mfContains(readVerbs, v):
		return "read"
	case mfContains(writeVerbs, v):
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
		if k := verbKind(v); k != "" {
			return k
		}
		if mfContains(computeVerbs, v) {
			return "read"
		}
	}
	return ""
}
