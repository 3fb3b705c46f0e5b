package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeData writes a bfcl_eval/data folder: for each category its data
// and possible_answer file, each given as its text.
func writeData(t *testing.T, files map[string][2]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "possible_answer"), 0o755); err != nil {
		t.Fatal(err)
	}
	for cat, f := range files {
		for i, path := range []string{
			filepath.Join(dir, "BFCL_v4_"+cat+".json"),
			filepath.Join(dir, "possible_answer", "BFCL_v4_"+cat+".json"),
		} {
			if err := os.WriteFile(path, []byte(f[i]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// fixture is two categories: a with a multi-turn question, one without a
// user message and one without ground truth; b with one question. Among
// their functions are an identical repeat of math.factorial and two
// repeats of one other definition of its normalised name.
var fixture = map[string][2]string{
	"a": {
		`{"id": "a_0", "question": [[{"role": "user", "content": "first"}], [{"role": "assistant", "content": "ok"}], [{"role": "user", "content": "second"}, {"role": "assistant", "content": "x"}]], "function": [{"description": "Fact <n> \u00e9 & é", "name": "math.factorial", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}}}, {"name": "geo distance-km", "description": "d"}]}
{"id": "a_1", "question": [[{"role": "system", "content": "sys"}, {"role": "assistant", "content": "hi"}]], "function": [{"name": "math_factorial", "description": "other"}]}

{"id": "a_2", "question": [[{"role": "user", "content": "no answer"}]], "function": [{"description": "Fact <n> \u00e9 & é", "name": "math.factorial", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}}}, {"name": "math_factorial", "description": "other"}]}
`,
		`{"id": "a_0", "ground_truth": [{"math.factorial": {"n": [5]}}, {"geo distance-km": {}}, {"math.factorial": {"n": [6]}}]}
{"id": "a_1", "ground_truth": [{"math_factorial": {}}]}
{"id": "a_9", "ground_truth": [{"unknown": {}}]}
`,
	},
	"b": {
		`{"id": "b_0", "question": [[{"role": "user", "content": "Use <x> & y"}]], "function": [{"name": "x-y", "description": "xy"}]}`,
		`{"id": "b_0", "ground_truth": [{"x.y": {}}]}`,
	},
}

func TestRun(t *testing.T) {
	data := writeData(t, fixture)
	out := t.TempDir()
	var stderr bytes.Buffer
	if err := run(data, filepath.Join(out, "bfcl"), "a, b", &stderr); err != nil {
		t.Fatal(err)
	}
	tools, err := os.ReadFile(filepath.Join(out, "bfcl.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		Type     string
		Function json.RawMessage
	}
	if err := json.Unmarshal(tools, &defs); err != nil {
		t.Fatalf("tools.json: %v\n%s", err, tools)
	}
	var names []string
	for _, d := range defs {
		var fn struct{ Name string }
		_ = json.Unmarshal(d.Function, &fn)
		names = append(names, fn.Name)
		if d.Type != "function" {
			t.Errorf("%s: type %q", fn.Name, d.Type)
		}
	}
	if want := []string{"math_factorial", "geo_distance_km", "x_y"}; !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
	// The first definition, member order and escapes as written.
	if want := `{"description":"Fact <n> \u00e9 & é","name":"math_factorial","parameters":{"type":"dict","properties":{"n":{"type":"integer"}}}}`; string(defs[0].Function) != want {
		t.Errorf("first definition\n%s\nwant\n%s", defs[0].Function, want)
	}
	cases, err := os.ReadFile(filepath.Join(out, "bfcl.cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"query":"second","expect":["geo_distance_km","math_factorial"]}
{"query":"Use <x> & y","expect":["x_y"]}
`
	if string(cases) != want {
		t.Errorf("cases\n%s\nwant\n%s", cases, want)
	}
	for _, s := range []string{"3 tools (1 other definitions", "2 cases (a 1, b 1)", "1 questions without a user message, 1 without ground truth"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr %q lacks %q", stderr.String(), s)
		}
	}
	if ents, _ := os.ReadDir(out); len(ents) != 2 {
		t.Errorf("%d files in the output folder, want 2 (no temporary files left)", len(ents))
	}
}

func TestRunErrors(t *testing.T) {
	const (
		q  = `{"id": "a_0", "question": [[{"role": "user", "content": "q"}]], "function": [{"name": "f"}]}`
		gt = `{"id": "a_0", "ground_truth": [{"f": {}}]}`
	)
	dataFile := filepath.Join("%s", "BFCL_v4_a.json")
	answerFile := filepath.Join("%s", "possible_answer", "BFCL_v4_a.json")
	for _, tc := range []struct {
		name, data, answers, categories string
		want                            []string // in the error; %s is the data folder
	}{
		{"bad data line", q + "\n" + `{"id": "a_1", "question": [[`, gt, "a", []string{dataFile + ":2: ", `want {"id": string, "question": [[{"role"`}},
		{"bad answer line", q, gt + "\n\n" + `{"id": "a_1", "ground_truth": "f"}`, "a", []string{answerFile + ":3: ", `want {"id": string, "ground_truth": [{"<function name>"`}},
		{"question not a list of turns", `{"id": "a_0", "question": [{"role": "user", "content": "q"}], "function": []}`, gt, "a", []string{dataFile + ":1: want"}},
		{"no id", `{"question": [], "function": []}`, gt, "a", []string{dataFile + `:1: `, `no string "id"`}},
		{"numeric id", q, `{"id": 1, "ground_truth": []}`, "a", []string{answerFile + `:1: `, `no string "id"`}},
		{"function without a name", `{"id": "a_0", "question": [], "function": [{"name": "f"}, {"description": "d"}]}`, gt, "a", []string{dataFile + `:1: function 2: want a "name" member`}},
		{"function not an object", `{"id": "a_0", "question": [], "function": ["f"]}`, gt, "a", []string{dataFile + `:1: function 1: want an object`}},
		{"empty name", `{"id": "a_0", "question": [], "function": [{"name": ""}]}`, gt, "a", []string{dataFile + `:1: function 1: want a non-empty string name`}},
		{"missing category", q, gt, "a,nope", []string{filepath.Join("%s", "possible_answer", "BFCL_v4_nope.json")}},
		{"repeated category", q, gt, "a,a", []string{`repeated category "a"`}},
		{"empty category", q, gt, "a,", []string{`bad or repeated category ""`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := writeData(t, map[string][2]string{"a": {tc.data, tc.answers}})
			out := t.TempDir()
			err := run(data, filepath.Join(out, "bfcl"), tc.categories, new(bytes.Buffer))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "%s", data); !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("%d files written despite the error", len(ents))
			}
		})
	}
}

func TestMissingDataFile(t *testing.T) {
	data := writeData(t, fixture)
	path := filepath.Join(data, "BFCL_v4_b.json")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	err := run(data, filepath.Join(t.TempDir(), "bfcl"), "a,b", new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v does not name %s", err, path)
	}
}

func TestDefaultCategories(t *testing.T) {
	want := []string{"simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple"}
	if got := strings.Split(defaultCategories, ","); !slices.Equal(got, want) {
		t.Errorf("default categories %q, want %q", got, want)
	}
}

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		"math.factorial":   "math_factorial",
		"geo distance-km":  "geo_distance_km",
		"a.b c-d_e":        "a_b_c_d_e",
		"already_fine_123": "already_fine_123",
	} {
		if got := normalise(in); got != want {
			t.Errorf("normalise(%q) = %q, want %q", in, got, want)
		}
	}
}
