// Command bfcl-cases builds a tool-retrieval set for toolgen search-eval
// from the Berkeley Function Calling Leaderboard's data, in a checkout of
// github.com/ShishirPatil/gorilla (this repository does not hold it). The
// set stands in for the held-out "real user questions" one: short
// imperative questions over about 1,300 tools, many of them near-duplicates.
//
//	go run ./cmd/bfcl-cases -data ~/gorilla/berkeley-function-call-leaderboard/bfcl_eval/data -o /tmp/bfcl &&
//		toolgen search-eval --lenient --match any --cases /tmp/bfcl.cases.jsonl /tmp/bfcl.tools.json
//
// (--lenient because BFCL writes types such as "dict" and "float".)
// OUTPREFIX.tools.json gets every distinct function of the categories'
// BFCL_v4_<category>.json in first-seen order, its name normalised ('.',
// ' ' and '-' become '_') and its other members as BFCL writes them; of
// several definitions of one name the first is kept. OUTPREFIX.cases.jsonl
// gets one case per question with ground truth (possible_answer/): the
// last user message, and the sorted names the ground truth calls.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// defaultCategories are the single-turn categories whose questions each
// have one ground truth.
const defaultCategories = "simple_python,multiple,parallel,parallel_multiple,live_simple,live_multiple"

func main() {
	data := flag.String("data", "", "BFCL's bfcl_eval/data `DIR` (BFCL_v4_<category>.json and possible_answer/)")
	out := flag.String("o", "", "output `PREFIX`: writes PREFIX.tools.json and PREFIX.cases.jsonl")
	categories := flag.String("categories", defaultCategories, "BFCL categories to read, comma-separated")
	flag.Parse()
	if *data == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: bfcl-cases -data DIR -o OUTPREFIX [-categories LIST]")
		flag.PrintDefaults()
		os.Exit(2)
	}
	if err := run(*data, *out, *categories, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bfcl-cases:", err)
		os.Exit(1)
	}
}

// searchCase is one line of a search-eval cases file.
type searchCase struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
}

// evalSet is what the categories read so far make.
type evalSet struct {
	tools            [][]byte          // {"type":"function","function":...}, in first-seen order
	kept             map[string][]byte // normalised name: its definition in tools
	dropped          map[string]bool   // other definitions of a name in kept
	cases            []searchCase
	noUser, noAnswer int
}

func run(dataDir, prefix, categories string, stderr io.Writer) error {
	s := &evalSet{kept: map[string][]byte{}, dropped: map[string]bool{}}
	var perCategory []string
	cats := strings.Split(strings.ReplaceAll(categories, " ", ""), ",")
	for i, c := range cats {
		if c == "" || strings.ContainsAny(c, `/\`) || slices.Index(cats, c) < i {
			return fmt.Errorf("-categories %q: bad or repeated category %q", categories, c)
		}
		before := len(s.cases)
		if err := s.read(dataDir, c); err != nil {
			return err
		}
		perCategory = append(perCategory, fmt.Sprintf("%s %d", c, len(s.cases)-before))
	}
	tools := append([]byte("[\n"), bytes.Join(s.tools, []byte(",\n"))...)
	tools = append(tools, "\n]\n"...)
	var cases bytes.Buffer
	enc := json.NewEncoder(&cases)
	enc.SetEscapeHTML(false)
	for _, c := range s.cases {
		_ = enc.Encode(c) // strings always encode
	}
	if err := writeFile(prefix+".tools.json", tools); err != nil {
		return err
	}
	if err := writeFile(prefix+".cases.jsonl", cases.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "bfcl-cases: %d tools (%d other definitions of their names dropped), %d cases (%s); skipped %d questions without a user message, %d without ground truth\n",
		len(s.tools), len(s.dropped), len(s.cases), strings.Join(perCategory, ", "), s.noUser, s.noAnswer)
	return nil
}

// read adds one category's functions and cases.
func (s *evalSet) read(dataDir, category string) error {
	answers := map[string][]string{}
	type answer struct {
		GroundTruth []map[string]json.RawMessage `json:"ground_truth"`
	}
	err := readLines(filepath.Join(dataDir, "possible_answer", "BFCL_v4_"+category+".json"),
		`{"id": string, "ground_truth": [{"<function name>": {arguments}}, ...]}`, func(id string, a answer) error {
			var names []string
			for _, call := range a.GroundTruth {
				for name := range call {
					names = append(names, normalise(name))
				}
			}
			slices.Sort(names)
			answers[id] = slices.Compact(names)
			return nil
		})
	if err != nil {
		return err
	}
	type question struct {
		Question [][]struct{ Role, Content string } `json:"question"`
		Function []json.RawMessage                  `json:"function"`
	}
	return readLines(filepath.Join(dataDir, "BFCL_v4_"+category+".json"),
		`{"id": string, "question": [[{"role": string, "content": string}, ...], ...], "function": [{"name": string, ...}, ...]}`, func(id string, q question) error {
			for i, fn := range q.Function {
				name, def, err := renamed(fn)
				if err != nil {
					return fmt.Errorf("function %d: %v", i+1, err)
				}
				if kept, ok := s.kept[name]; !ok {
					s.kept[name] = def
					s.tools = append(s.tools, fmt.Appendf(nil, `{"type":"function","function":%s}`, def))
				} else if !bytes.Equal(kept, def) {
					s.dropped[string(def)] = true
				}
			}
			var user []string
			for _, m := range slices.Concat(q.Question...) {
				if m.Role == "user" {
					user = append(user, m.Content)
				}
			}
			switch expect := answers[id]; {
			case len(user) == 0:
				s.noUser++
			case len(expect) == 0:
				s.noAnswer++
			default:
				s.cases = append(s.cases, searchCase{Query: user[len(user)-1], Expect: expect})
			}
			return nil
		})
}

// readLines decodes each non-blank line of a JSON-lines file, an object
// with a string "id", into a T and passes both to use. Errors are located
// at file:line; want is what a line should be.
func readLines[T any](file, want string, use func(id string, v T) error) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("%w (-data is BFCL's bfcl_eval/data directory, with BFCL_v4_<category>.json and possible_answer/)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	n := 1
	for ; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var v T
		var id struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(b, &v); err != nil || json.Unmarshal(b, &id) != nil || id.ID == "" {
			return fmt.Errorf("%s:%d: want %s (%v)", file, n, want, cmp.Or(err, errors.New(`no string "id"`)))
		}
		if err := use(id.ID, v); err != nil {
			return fmt.Errorf("%s:%d: %w", file, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", file, n, err)
	}
	return nil
}

// normalise makes a BFCL function name one model providers take.
var normalise = strings.NewReplacer(".", "_", " ", "_", "-", "_").Replace

// renamed returns a function definition, compacted, with its name
// normalised and its other members as written, in their order.
func renamed(fn json.RawMessage) (name string, def []byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(fn))
	if t, _ := dec.Token(); t != json.Delim('{') {
		return "", nil, fmt.Errorf(`want an object {"name": string, "description": ..., "parameters": ...}, not %.40s`, fn)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for dec.More() { // fn decoded, so it is valid JSON
		key, _ := dec.Token()
		var v json.RawMessage
		_ = dec.Decode(&v)
		if key == "name" {
			if json.Unmarshal(v, &name) != nil || name == "" {
				return "", nil, fmt.Errorf("want a non-empty string name, not %s", v)
			}
			name = normalise(name)
			v, _ = json.Marshal(name)
		}
		k, _ := json.Marshal(key)
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		buf.Write(append(k, ':'))
		_ = json.Compact(&buf, v)
	}
	if name == "" {
		return "", nil, errors.New(`want a "name" member`)
	}
	buf.WriteByte('}')
	return name, buf.Bytes(), nil
}

// writeFile writes data to a temporary file beside path and renames it
// into place, so that path is never left half written.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Chmod(0o644), f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
