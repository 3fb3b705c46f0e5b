package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/xeipuuv/gojsonschema"

	"github.com/toolgen-go/toolgen/golden/corpus"
)

// suiteGroup is one schema of a JSON Schema Test Suite file with its tests.
type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteLibrary compiles a schema into a validator of JSON bytes; remotes
// are the documents the suite expects at http://localhost:1234/, by URL.
type suiteLibrary struct {
	name    string
	compile func(schema []byte, draft7 bool, remotes map[string][]byte) (func(data []byte) bool, error)
}

var suiteLibraries = []suiteLibrary{
	{"gojsonschema", func(schema []byte, _ bool, remotes map[string][]byte) (func([]byte) bool, error) {
		sl := gojsonschema.NewSchemaLoader()
		for _, url := range sortedKeys(remotes) {
			_ = sl.AddSchema(url, gojsonschema.NewBytesLoader(remotes[url]))
		}
		s, err := sl.Compile(gojsonschema.NewBytesLoader(schema))
		if err != nil {
			return nil, err
		}
		return func(data []byte) bool {
			r, err := s.Validate(gojsonschema.NewBytesLoader(data))
			return err == nil && r.Valid()
		}, nil
	}},
	{"santhosh", func(schema []byte, draft7 bool, remotes map[string][]byte) (func([]byte) bool, error) {
		doc, err := santhosh.UnmarshalJSON(bytes.NewReader(schema))
		if err != nil {
			return nil, err
		}
		c := santhosh.NewCompiler()
		c.DefaultDraft(santhosh.Draft2020)
		if draft7 {
			c.DefaultDraft(santhosh.Draft7)
		}
		for _, url := range sortedKeys(remotes) {
			if r, err := santhosh.UnmarshalJSON(bytes.NewReader(remotes[url])); err == nil {
				_ = c.AddResource(url, r)
			}
		}
		if err := c.AddResource("mem:///suite.json", doc); err != nil {
			return nil, err
		}
		s, err := c.Compile("mem:///suite.json")
		if err != nil {
			return nil, err
		}
		return func(data []byte) bool {
			v, err := santhosh.UnmarshalJSON(bytes.NewReader(data))
			return err == nil && s.Validate(v) == nil
		}, nil
	}},
	{"google", func(schema []byte, _ bool, remotes map[string][]byte) (func([]byte) bool, error) {
		var s googleschema.Schema
		if err := json.Unmarshal(schema, &s); err != nil {
			return nil, err
		}
		load := func(u *url.URL) (*googleschema.Schema, error) {
			v := *u
			v.Fragment = ""
			data, ok := remotes[v.String()]
			if !ok {
				return nil, fmt.Errorf("no remote %s", u)
			}
			var r googleschema.Schema
			return &r, json.Unmarshal(data, &r)
		}
		rs, err := s.Resolve(&googleschema.ResolveOptions{Loader: load})
		if err != nil {
			return nil, err
		}
		return func(data []byte) bool {
			var v any
			return json.Unmarshal(data, &v) == nil && rs.Validate(v) == nil
		}, nil
	}},
}

// fatal lists the groups (file: description) a library cannot survive:
// gojsonschema recurses until the stack overflows, which no recover
// catches. They count as failed.
var fatal = map[string]map[string]bool{
	"gojsonschema": {
		"ref.json: order of evaluation: $id and $anchor and $ref": true,
		"anchor.json: Location-independent identifier":            true,
	},
}

// suiteRun counts one library's agreement with one draft's required tests.
type suiteRun struct {
	passed, total, uncompiled int
}

// runSuite runs every required test of one draft folder through lib,
// counting a schema that does not compile, or a panic, as failing all its
// tests.
func runSuite(t *testing.T, dir string, draft7 bool, lib suiteLibrary, remotes map[string][]byte) suiteRun {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	var run suiteRun
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, g := range groups {
			run.total += len(g.Tests)
			if fatal[lib.name][filepath.Base(f)+": "+g.Description] {
				run.uncompiled++
				continue
			}
			if os.Getenv("SUITE_TRACE") != "" {
				fmt.Fprintf(os.Stderr, "%s\t%s: %s\n", lib.name, filepath.Base(f), g.Description)
			}
			validate, err := safeCompile(lib, g.Schema, draft7, remotes)
			if err != nil {
				run.uncompiled++
				continue
			}
			for _, tc := range g.Tests {
				if got, ok := safeValidate(validate, tc.Data); ok && got == tc.Valid {
					run.passed++
				}
			}
		}
	}
	return run
}

func safeCompile(lib suiteLibrary, schema []byte, draft7 bool, remotes map[string][]byte) (v func([]byte) bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return lib.compile(schema, draft7, remotes)
}

func safeValidate(v func([]byte) bool, data []byte) (valid, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	return v(data), true
}

// TestSuiteCoverage measures how much of the JSON Schema Test Suite
// (required tests, draft 2020-12 and draft-07) each benchmarked library
// passes; docs/BENCHMARKS.md cites the figures (go test -v -run
// TestSuiteCoverage ./golden/bench prints them). The embedded validator
// (santhosh-tekuri) must pass nearly all of draft 2020-12.
func TestSuiteCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("test-suite coverage skipped in -short mode")
	}
	suite := corpus.Dir(t, "jsonschema-test-suite", "tests")
	remotes := loadRemotes(t, filepath.Join(suite, "..", "remotes"))
	var report strings.Builder
	fmt.Fprintf(&report, "%-14s %-12s %6s %6s %7s %s\n", "library", "draft", "passed", "total", "rate", "schemas not compiled (or crashing)")
	for _, draft := range []string{"draft2020-12", "draft7"} {
		for _, lib := range suiteLibraries {
			r := runSuite(t, filepath.Join(suite, draft), draft == "draft7", lib, remotes)
			rate := 100 * float64(r.passed) / float64(max(r.total, 1))
			fmt.Fprintf(&report, "%-14s %-12s %6d %6d %6.1f%% %d\n", lib.name, draft, r.passed, r.total, rate, r.uncompiled)
			if lib.name == "santhosh" && draft == "draft2020-12" && rate < 95 {
				t.Errorf("santhosh-tekuri passes %.1f%% of draft 2020-12, want >= 95%%", rate)
			}
		}
	}
	t.Logf("JSON Schema Test Suite, required tests (remotes served from memory):\n%s", report.String())
}

// loadRemotes reads the suite's remotes folder, keyed by the URL the tests
// refer to them by.
func loadRemotes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	remotes := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		remotes["http://localhost:1234/"+filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return remotes
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
