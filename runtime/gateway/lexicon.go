package gateway

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// terms splits text into stemmed, lowercased words: snake_case, kebab-case,
// dotted.paths and camelCase are split; stop words and numbers are dropped.
func terms(text string) []string {
	var out []string
	for _, w := range splitWords(text) {
		if !stopWords[w] && !isDigits(w) {
			out = append(out, stem(w))
		}
	}
	return out
}

// splitWords splits on anything that is not a letter or digit and at case
// changes (getUserID → get, user, id; HTMLParser → html, parser).
func splitWords(text string) []string {
	return appendWords(nil, text)
}

// appendWords appends the words of text to words (see splitWords).
func appendWords(words []string, text string) []string {
	forWords(text, func(w string) { words = append(words, strings.ToLower(w)) })
	return words
}

// forWords calls fn with each word of text as written (see splitWords),
// a substring of text when it is ASCII.
func forWords[T ~string | ~[]byte](text T, fn func(T)) {
	if !isASCII(text) {
		forWordsRunes(string(text), func(w string) { fn(T(w)) })
		return
	}
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !isUpper(c) && !isLower(c) && !isDigit(c) {
			if start >= 0 {
				fn(text[start:i])
				start = -1
			}
			continue
		}
		if start >= 0 {
			prev := text[i-1]
			if isUpper(c) && isLower(prev) ||
				isUpper(c) && isUpper(prev) && i+1 < len(text) && isLower(text[i+1]) ||
				isDigit(c) != isDigit(prev) {
				fn(text[start:i])
				start = i
			}
		} else {
			start = i
		}
	}
	if start >= 0 {
		fn(text[start:])
	}
}

// forWordsRunes is forWords for text that is not ASCII. Scripts written
// without spaces between words (Han, Hiragana, Katakana, Thai, …) and
// Hangul, whose words carry their particles, are cut into overlapping
// pairs of characters ("天气预报": 天气, 气预, 预报), as CJK search engines
// do: a query and a definition then share the pairs of the words they
// share, without a dictionary.
func forWordsRunes(text string, fn func(string)) {
	var cur []rune
	var starts []int // where each letter of cur starts, its marks after it
	curPaired := false
	flush := func() {
		switch {
		case len(cur) == 0:
		case curPaired && len(starts) > 2:
			for i := 0; i+1 < len(starts); i++ {
				end := len(cur)
				if i+2 < len(starts) {
					end = starts[i+2]
				}
				fn(string(cur[starts[i]:end]))
			}
		default:
			fn(string(cur))
		}
		cur, starts = cur[:0], starts[:0]
	}
	rs := []rune(text)
	for i, r := range rs {
		if unicode.In(r, unicode.Mn, unicode.Mc) && len(cur) > 0 {
			// a vowel sign or tone mark belongs to its letter (Thai,
			// Devanagari, …)
			cur = append(cur, r)
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		paired := pairedScript(r)
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case paired != curPaired:
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			}
		}
		starts = append(starts, len(cur))
		cur = append(cur, r)
		curPaired = paired
	}
	flush()
}

// pairedScript reports whether r is a letter of a script that
// forWordsRunes cuts into pairs.
func pairedScript(r rune) bool {
	// ー and its half-width form, and the half-width voiced marks, are of
	// the Common script but belong to the kana word they are in
	return r == 0x30fc || r == 0xff70 || r == 0xff9e || r == 0xff9f ||
		r >= 0x0e00 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
			unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

func isASCII[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fileNames replaces the file names and domain names of a query
// ("notes.txt", "example.com") by what they name: "file", "website".
func fileNames(query string) string {
	if !strings.Contains(query, ".") {
		return query
	}
	fields := strings.Fields(query)
	for i, f := range fields {
		f = strings.TrimRight(f, ",;:!?)'\"")
		dot := strings.LastIndexByte(f, '.')
		if dot <= 0 || dot == len(f)-1 {
			continue
		}
		switch ext := strings.ToLower(f[dot+1:]); {
		case fileExts[ext]:
			fields[i] = "file"
		case webDomains[ext]:
			fields[i] = "website"
		}
	}
	return strings.Join(fields, " ")
}

var (
	fileExts = setOf("txt", "md", "pdf", "log", "json", "yaml", "yml", "toml", "ini", "cfg", "conf", "csv", "tsv", "xml",
		"html", "htm", "css", "go", "py", "js", "ts", "java", "rs", "c", "h", "cpp", "rb", "sh", "sql", "doc", "docx",
		"xls", "xlsx", "ppt", "pptx", "png", "jpg", "jpeg", "gif", "svg", "mp3", "mp4", "wav", "zip", "tar", "gz", "tgz", "bak")
	webDomains = setOf("com", "org", "net", "io", "dev", "app", "ai", "co", "edu", "gov")
)

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

var stopWords = setOf("a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "with", "from", "into", "and", "or",
	"is", "are", "be", "been", "was", "it", "its", "this", "that", "these", "those", "my", "me", "i", "we", "our", "you", "your",
	"please", "can", "could", "would", "should", "will", "do", "does", "did", "want", "need", "some", "any", "about", "which", "what",
	"how", "there", "their", "them", "as", "if", "so", "up", "out", "via", "e", "g", "etc", "given", "specified", "provided",
	"s", "t", "d", "ll", "m", "re", "ve", "don", "let", "just", "also", "then", "than", "have", "has", "had", "am", "he", "she", "they", "his", "her",
	"one", "use", "using", "used", "based", "specific", "like", "such", "other", "when", "where", "who", "whose", "whom",
	"why", "every", "each", "here", "now", "right", "today", "tomorrow", "yesterday", "again", "more", "most", "very",
	"got", "us", "him", "many", "myself", "thing", "something", "anything", "everything", "somewhere", "way", "well")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// synonymGroups are words a user and a tool author use for the same thing,
// or for closely related things (a hypernym and its common kinds). The
// groups are domain-neutral tool vocabulary: actions first, then the things
// tools usually act on.
var synonymGroups = [][]string{
	// actions
	{"find", "search", "lookup", "locate", "query", "look", "seek", "discover", "finder", "locator"},
	{"list", "all", "enumerate", "browse", "index", "show", "catalog", "overview"},
	{"get", "fetch", "retrieve", "show", "read", "view", "detail", "info", "information", "see", "display", "load", "open", "inspect", "describe", "check"},
	{"create", "add", "new", "make", "insert", "register", "write", "start", "generate", "build", "draft", "compose", "save", "store"},
	{"update", "edit", "modify", "change", "set", "patch", "rename", "alter", "adjust", "fix", "correct", "mark", "switch", "revise", "rewrite"},
	{"delete", "remove", "erase", "destroy", "drop", "trash", "discard", "purge", "clear", "forget", "rid", "wipe"},
	{"cancel", "abort", "revoke", "void", "stop", "undo"},
	{"send", "email", "mail", "message", "notify", "dm", "tell", "post", "share", "forward"},
	{"move", "relocate", "transfer", "reorganize", "reorder", "rearrange", "restructure", "reschedule", "postpone", "push"},
	{"link", "connect", "attach", "associate", "relate", "relationship", "relation", "edge", "connection", "linked"},
	{"unlink", "detach", "disconnect", "dissociate"},
	{"navigate", "go", "visit", "url", "goto", "browse"},
	{"click", "press", "tap", "hit", "push"},
	{"type", "enter", "fill", "input", "key"},
	{"calculate", "compute", "estimate", "calculator", "calculation", "work", "figure"},
	{"convert", "converter", "conversion", "translate", "exchange"},
	{"run", "execute", "evaluate", "launch", "trigger"},
	{"record", "log", "note", "track", "capture"},
	{"upload", "attach", "import"},
	{"download", "export", "save"},
	{"close", "exit", "quit", "shut"},
	{"wait", "until", "pause", "sleep"},
	{"copy", "duplicate", "clone", "fork"},
	{"merge", "combine", "join"},
	{"play", "listen", "stream"},
	{"identify", "recognize", "classify", "identification", "classification"},
	{"recommend", "suggest", "recommendation", "suggestion"},
	{"summary", "summarize", "synopsis", "abstract", "overview"},
	{"think", "reason", "reflect", "thought"},
	// things
	{"document", "doc", "file", "page", "note", "text"},
	{"folder", "directory", "dir"},
	{"task", "todo", "item", "ticket", "chore"},
	{"user", "person", "people", "member", "customer", "account", "profile", "client", "contact"},
	{"team", "group", "channel"},
	{"image", "photo", "picture", "screenshot", "pic", "draw", "drawing"},
	{"web", "internet", "online", "website", "site", "browser", "url"},
	{"buy", "purchase", "order", "checkout", "pay", "payment"},
	{"cart", "basket", "bag"},
	{"product", "item", "article", "goods"},
	{"package", "parcel", "shipment", "shipping", "delivery", "deliver"},
	{"price", "cost", "fare", "fee", "quote", "cheap", "expensive", "much"},
	{"money", "cash", "fund", "payment", "dollar", "euro", "currency"},
	{"bank", "atm"},
	{"loan", "mortgage", "credit", "debt"},
	{"stock", "share", "ticker", "equity", "trading"},
	{"book", "reserve", "reservation", "booking"},
	{"flight", "plane", "airline", "air", "fly", "airport", "ticket", "trip"},
	{"hotel", "stay", "lodging", "accommodation", "resort", "room"},
	{"car", "vehicle", "drive", "driving", "rental"},
	{"restaurant", "eat", "food", "dine", "dining", "dinner", "lunch", "cuisine", "meal"},
	{"coffee", "cafe", "latte", "espresso"},
	{"pharmacy", "drugstore", "medicine", "chemist"},
	{"gas", "fuel", "petrol"},
	{"park", "parking", "garage"},
	{"refund", "return", "reimburse", "back"},
	{"exchange", "swap", "replace"},
	{"movie", "film", "cinema", "theater", "theatre"},
	{"song", "music", "track", "playlist", "album", "artist", "lyric", "jazz", "tune"},
	{"news", "headline", "happening", "current", "latest"},
	{"word", "definition", "define", "meaning", "dictionary"},
	{"language", "translation", "speak", "spanish", "french", "german"},
	{"location", "place", "nearby", "near", "address", "around", "close", "nearest", "area"},
	{"map", "direction", "route", "navigation", "walk", "foot", "way"},
	{"coordinate", "latitude", "longitude", "geocode", "geolocation"},
	{"distance", "far", "mile", "kilometer"},
	{"population", "inhabitant", "resident", "live", "people"},
	{"time", "timezone", "zone", "clock", "hour"},
	{"timer", "countdown", "count", "alarm", "remind", "reminder"},
	{"size", "big", "large", "small", "length", "stat", "metadata"},
	{"date", "created", "modified", "modification", "day", "week", "month", "year"},
	{"average", "mean", "median"},
	{"random", "pick", "chance", "roll"},
	{"number", "numeral", "digit", "value", "amount"},
	{"sum", "add", "plus", "total", "addition"},
	{"unit", "meter", "feet", "foot", "inch", "mile", "kilogram", "pound"},
	{"temperature", "hot", "cold", "warm", "degree", "celsius", "fahrenheit"},
	{"weather", "forecast", "temperature", "hot", "cold", "rain", "sunny", "snow", "wind", "cloudy", "storm"},
	{"meeting", "event", "appointment", "calendar", "standup", "call", "conference"},
	{"available", "availability", "free", "slot", "open"},
	{"tree", "hierarchy", "structure", "outline", "recursive", "nested"},
	{"comment", "reply", "feedback", "respond", "annotation"},
	{"issue", "bug", "problem", "defect"},
	{"repository", "repo", "project", "codebase"},
	{"code", "source", "function", "script", "snippet", "javascript"},
	{"branch", "fork"},
	{"pull", "pr", "merge", "review"},
	{"release", "version", "tag", "ship", "shipped"},
	{"commit", "change", "history"},
	{"conversation", "thread", "chat", "discussion", "history"},
	{"read", "unread", "seen"},
	{"emoji", "reaction", "react"},
	{"database", "db", "table", "sql", "row", "column"},
	{"graph", "knowledge", "memory", "remember", "entity", "node", "fact"},
	{"observation", "fact", "note"},
	{"network", "request", "http", "call", "traffic"},
	{"console", "log", "error", "debug"},
	{"cookie", "session"},
	{"dropdown", "option", "select", "choose", "menu"},
	{"hover", "pointer", "mouse", "cursor"},
	{"window", "viewport", "resize", "dimension"},
	{"dialog", "alert", "popup", "prompt", "modal"},
	{"tab", "window"},
	{"form", "field"},
	{"pdf", "print"},
	{"block", "content", "paragraph"},
	{"markdown", "md", "text"},
	{"permission", "allowed", "access", "permitted"},
	{"certificate", "voucher", "coupon", "credit", "compensation", "gift"},
	{"human", "agent", "person", "real", "representative", "operator"},
	{"baggage", "bag", "luggage", "suitcase"},
	{"passenger", "traveler", "traveller"},
	{"cabin", "class", "business", "economy", "seat"},
	{"goal", "objective", "target", "aim"},
	{"risk", "threat", "hazard", "mitigation"},
	{"milestone", "deadline"},
	{"plan", "roadmap", "schedule", "strategy"},
	{"requirement", "spec", "specification"},
	{"hike", "hiking", "trail", "trek"},
	{"game", "player", "leaderboard", "ranking", "score"},
	{"quest", "mission"},
	{"author", "writer", "wrote", "written", "poet"},
	{"publication", "publish", "published", "come"},
	{"plant", "flower", "tree", "botanical"},
	{"gene", "dna", "genetic", "genome"},
	{"bird", "species", "animal"},
	{"health", "bmi", "weight", "overweight", "body", "height"},
	{"capital", "city", "country"},
	{"investment", "return", "roi", "profit", "invest"},
	{"interest", "compound", "grow", "growth", "rate"},
}

var synonyms = buildSynonyms()

func buildSynonyms() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		stems := make([]string, len(g))
		for i, w := range g {
			stems[i] = stem(w)
		}
		for _, s := range stems {
			for _, t := range stems {
				if t != s && !slices.Contains(m[s], t) {
					m[s] = append(m[s], t)
				}
			}
		}
	}
	return m
}

// actionClass is what an op does or a query asks for, independent of what
// it acts on.
type actionClass uint8

const (
	actNone actionClass = iota
	actRead
	actList
	actSearch
	actCreate
	actUpdate
	actDelete
	actSend
	actCompute
	actLink
)

// reads reports whether the action only reads.
func (a actionClass) reads() bool { return a == actRead || a == actList || a == actSearch }

// actionOf maps the stems of action words, including agent nouns in tool
// names (locator, calculator), to their class.
var actionOf = buildActions(actionWords)

var actionWords = map[actionClass][]string{
	actSearch:  {"search", "find", "lookup", "locate", "look", "seek", "query", "finder", "locator", "discover"},
	actList:    {"list", "enumerate", "browse", "catalog"},
	actRead:    {"get", "fetch", "retrieve", "read", "show", "view", "display", "open", "see", "describe", "inspect", "check", "retrieval", "checker"},
	actCreate:  {"create", "add", "make", "insert", "register", "generate", "build", "book", "reserve", "schedule", "scheduler", "draft", "compose", "save", "write", "generator", "new"},
	actUpdate:  {"update", "edit", "modify", "change", "set", "patch", "rename", "alter", "adjust", "mark", "reschedule", "rescheduler", "switch", "replace", "move", "fix", "revise"},
	actDelete:  {"delete", "remove", "erase", "destroy", "drop", "trash", "discard", "purge", "clear", "forget", "unlink", "detach", "disconnect", "cancel", "wipe"},
	actSend:    {"send", "email", "mail", "notify", "tell", "share", "forward"},
	actLink:    {"link", "connect", "attach", "associate", "relate"},
	actCompute: {"calculate", "compute", "estimate", "convert", "calculator", "converter", "calculation", "run", "execute", "evaluate"},
}

func buildActions(classes map[actionClass][]string) map[string]actionClass {
	m := map[string]actionClass{}
	for c, ws := range classes {
		for _, w := range ws {
			m[stem(w)] = c
		}
	}
	return m
}
