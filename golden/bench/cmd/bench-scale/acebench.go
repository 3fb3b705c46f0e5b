package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// aceBenchLanguages are the data folders of an ACEBench checkout
// (github.com/chenchen0103/ACEBench, data_all/data_<lang>) whose tools
// make the full set: English and Chinese, 4,279 tools at 56dd66c.
var aceBenchLanguages = []string{"en", "zh"}

// aceBenchAll reads every tool of an ACEBench checkout at root and returns
// them as a ChatToolDefinition array, for the catalogue-scale figures of
// the whole set (the shared corpus holds only the English tools).
//
// Per language the first definition of each name is kept, reading the
// data files in name order. Names become ones model providers take: dots
// and spaces turn into '_', a name with other characters (32 Chinese
// names) becomes tool_<lang>_<n>, and names are cut to 64 bytes; a name
// another language already took gets _<lang> appended. Parameters are the
// definitions' "arguments" (or "parameters") as written, with BFCL's type names (dict,
// float, ...): the input is generated with --lenient, which rewrites them.
func aceBenchAll(root string) (data []byte, tools int, err error) {
	type tool struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	var out []tool
	taken := map[string]bool{}
	for _, lang := range aceBenchLanguages {
		files, err := filepath.Glob(filepath.Join(root, "data_all", "data_"+lang, "*.json"))
		if err != nil {
			return nil, 0, err
		}
		if len(files) == 0 {
			return nil, 0, fmt.Errorf("%s: no data_all/data_%s/*.json (want a checkout of github.com/chenchen0103/ACEBench)", root, lang)
		}
		slices.Sort(files)
		seen := map[string]bool{}
		renamed := 0
		for _, f := range files {
			fns, err := aceBenchFunctions(f)
			if err != nil {
				return nil, 0, err
			}
			for _, fn := range fns {
				if fn.Name == "" || seen[fn.Name] {
					continue
				}
				seen[fn.Name] = true
				name := strings.NewReplacer(".", "_", " ", "_").Replace(fn.Name)
				if !providerName(name) {
					renamed++
					name = fmt.Sprintf("tool_%s_%d", lang, renamed)
				}
				name = name[:min(len(name), 64)]
				if taken[name] {
					suffix := "_" + lang
					name = name[:min(len(name), 64-len(suffix))] + suffix
				}
				if taken[name] {
					return nil, 0, fmt.Errorf("%s: tool %q: name %q is taken twice", f, fn.Name, name)
				}
				taken[name] = true
				var t tool
				t.Type = "function"
				t.Function.Name, t.Function.Description = name, fn.Description
				t.Function.Parameters = fn.schema()
				out = append(out, t)
			}
		}
	}
	data, err = json.Marshal(out)
	return data, len(out), err
}

// aceBenchFunction is one entry of an item's "function" list. Its
// parameters are under "arguments" in most files, "parameters" in others.
type aceBenchFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Arguments   json.RawMessage `json:"arguments"`
	Parameters  json.RawMessage `json:"parameters"`
}

// schema is the function's parameters, or an empty object schema when it
// has none.
func (fn aceBenchFunction) schema() json.RawMessage {
	for _, s := range []json.RawMessage{fn.Arguments, fn.Parameters} {
		if len(s) > 0 && string(s) != "null" {
			return s
		}
	}
	return json.RawMessage(`{"type":"object","properties":{}}`)
}

// aceBenchFunctions reads one data file (JSON lines, each item with a
// "function" list or object) and returns its functions in order.
func aceBenchFunctions(file string) ([]aceBenchFunction, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var fns []aceBenchFunction
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var item struct {
			Function json.RawMessage `json:"function"`
		}
		if err := json.Unmarshal(b, &item); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		var list []aceBenchFunction
		if err := json.Unmarshal(item.Function, &list); err != nil {
			var one aceBenchFunction
			if json.Unmarshal(item.Function, &one) != nil {
				continue // no function list: nothing to take
			}
			list = []aceBenchFunction{one}
		}
		fns = append(fns, list...)
	}
	return fns, sc.Err()
}

// providerName reports whether name uses only what OpenAI and Anthropic
// accept in a tool name: ASCII letters, digits, '_' and '-'.
func providerName(name string) bool {
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return name != ""
}
