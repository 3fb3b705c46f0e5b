package schema

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
