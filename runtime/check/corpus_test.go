package check

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
)

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func readSuite(t *testing.T, path string) []suiteGroup {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var groups []suiteGroup
	if err := json.Unmarshal(b, &groups); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return groups
}

// TestFormatSuite runs the JSON Schema Test Suite's optional format tests
// (draft 2020-12) against Format.
func TestFormatSuite(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "jsonschema-test-suite", "tests", "draft2020-12", "optional", "format")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("no format tests in %s", dir)
	}
	total := 0
	for _, f := range files {
		for _, g := range readSuite(t, f) {
			var schema struct {
				Format string `json:"format"`
			}
			if err := json.Unmarshal(g.Schema, &schema); err != nil || schema.Format == "" {
				continue
			}
			for _, tc := range g.Tests {
				var s string
				if len(tc.Data) == 0 || tc.Data[0] != '"' || json.Unmarshal(tc.Data, &s) != nil {
					continue // formats only constrain strings
				}
				total++
				if got := Format(schema.Format, s); got != tc.Valid {
					t.Errorf("%s: %s: Format(%q, %q) = %v, want %v", filepath.Base(f), tc.Description, schema.Format, s, got, tc.Valid)
				}
			}
		}
	}
	t.Logf("%d format cases", total)
}

// TestSchemaSuite runs selected JSON Schema Test Suite files through the
// embedded validator, ECMA-262 regex semantics included.
func TestSchemaSuite(t *testing.T) {
	base := filepath.Join(corpus.Dir(t), "jsonschema-test-suite", "tests", "draft2020-12")
	files := []string{
		"optional/ecmascript-regex.json", "not.json", "if-then-else.json", "dependentSchemas.json",
		"unevaluatedProperties.json", "unevaluatedItems.json", "dynamicRef.json", "pattern.json",
		"patternProperties.json", "multipleOf.json", "uniqueItems.json", "enum.json", "const.json",
		"optional/format/date-time.json", "optional/format/email.json",
	}
	total := 0
	for _, name := range files {
		path := filepath.Join(base, filepath.FromSlash(name))
		if _, err := os.Stat(path); err != nil {
			continue
		}
		for _, g := range readSuite(t, path) {
			if strings.Contains(string(g.Schema), "http://localhost") || strings.Contains(string(g.Schema), "https://json-schema.org/draft/2020-12/schema") && name == "dynamicRef.json" {
				continue // remote references are refused by design
			}
			s, err := CompileSchema(string(g.Schema))
			if err != nil {
				t.Errorf("%s: %s: %v", name, g.Description, err)
				continue
			}
			for _, tc := range g.Tests {
				v, err := decodeGeneric(tc.Data)
				if err != nil {
					t.Fatal(err)
				}
				total++
				errs := s.Validate(v, "")
				if (len(errs) == 0) != tc.Valid {
					t.Errorf("%s: %s: %s: valid = %v, want %v (%v)", name, g.Description, tc.Description, len(errs) == 0, tc.Valid, errs)
				}
			}
		}
	}
	t.Logf("%d schema cases", total)
}

func decodeGeneric(b []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
