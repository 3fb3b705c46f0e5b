package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/templates"
)

// newTestRun runs toolgen with args and returns its exit code, stdout and
// stderr.
func newTestRun(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// newTestNames are package names new must scaffold into a family that
// generates, checks and builds: plurals (the taxonomy reads list_users_items
// as user.item.list), words the taxonomy drops or joins to the verb (a,
// on, up, out), names of Go and toolgen packages the generated code
// imports, words YAML reads as other than strings (true, null), and long
// names up to the longest the starter tools' names allow (52 bytes).
var newTestNames = []string{
	"users", "orders", "payments", "tasks", "issues", "items", "tools", "handlers",
	"analytics", "errors", "news", "status", "series", "repos",
	"a", "on", "up", "out", "off", "list", "create", "item",
	"string", "runtime", "json", "context", "fmt", "gateway", "check", "service",
	"true", "false", "null", "v2",
	strings.Repeat("n", 40),
	strings.Repeat("l", 52),
}

// TestNewNames: for every name of newTestNames, new writes a family whose
// manifest holds (no warning, ops and group as named), that check finds up
// to date and that go generate's command leaves as it is; then (unless
// -short) every family builds and vets in a module of its own.
func TestNewNames(t *testing.T) {
	root := t.TempDir()
	for _, name := range newTestNames {
		dir := filepath.Join(root, name)
		code, stdout, stderr := newTestRun("new", "-o", dir, name)
		if code != exitOK || stderr != "" {
			t.Errorf("new %s: exit %d\n%s%s", name, code, stdout, stderr)
			continue
		}
		manifest := filepath.Join(dir, "toolgen.yaml")
		p, err := loadProject(genFlags{config: manifest}, nil, nil)
		if err != nil {
			t.Errorf("new %s: the scaffold does not load: %v", name, err)
			continue
		}
		for _, w := range p.family.Warnings {
			t.Errorf("new %s: warning: %s", name, w.Message)
		}
		var paths, groups []string
		for _, op := range p.family.Ops {
			paths = append(paths, op.Path)
		}
		for _, g := range p.family.Groups {
			groups = append(groups, g.Name)
		}
		if want := []string{name + ".item.list", name + ".item.create"}; !slices.Equal(paths, want) {
			t.Errorf("new %s: ops %q, want %q", name, paths, want)
		}
		if !slices.Equal(groups, []string{name}) {
			t.Errorf("new %s: groups %q, want [%q]", name, groups, name)
		}
		if code, stdout, stderr := newTestRun("check", "-c", manifest); code != exitOK || !strings.Contains(stdout, "up to date") {
			t.Errorf("new %s, then check: exit %d\n%s%s", name, code, stdout, stderr)
		}
		// What the go:generate line of doc.go runs.
		code, stdout, stderr = newTestRun("generate", "-q", "-c", manifest, "--stubs", "handlers.go")
		if code != exitOK || stderr != "" || !strings.Contains(stdout, "up to date") || strings.Contains(stdout, "appended") {
			t.Errorf("new %s, then generate: exit %d\n%s%s", name, code, stdout, stderr)
		}
	}
	if t.Failed() {
		return
	}
	if testing.Short() {
		t.Skip("-short: not building the families")
	}
	newTestBuild(t, root)
}

// newTestBuild makes root a module that requires this one (by a replace
// directive) and vets every package in it, which builds them.
func newTestBuild(t *testing.T, root string) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repo, "go.mod")); err != nil {
		t.Fatalf("the module root is not at %s: %v", repo, err)
	}
	for _, args := range [][]string{
		{"mod", "init", "example.com/newnames"},
		{"mod", "edit", "-require", "github.com/toolgen-go/toolgen@v0.0.0", "-replace", "github.com/toolgen-go/toolgen=" + repo},
		{"mod", "tidy"},
		{"vet", "./..."},
	} {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestNewRefusesNames: a name that makes no importable package (main) or
// starter tool names longer than model providers accept is refused,
// saying why, before anything is written; the directory then takes a
// good name.
func TestNewRefusesNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"main", []string{`"main" cannot name a tool family`, "package main builds only as a program"}},
		{strings.Repeat("l", 53), []string{"is 53 bytes", "65 bytes long", "at most 64 bytes", "use a name of at most 52 bytes"}},
		{strings.Repeat("x", 100), []string{"is 100 bytes", "at most 64 bytes", "use a name of at most 52 bytes"}},
	} {
		dir := filepath.Join(t.TempDir(), "fam")
		code, stdout, stderr := newTestRun("new", "-o", dir, tc.name)
		if code != exitUsage || stdout != "" {
			t.Errorf("new %s: exit %d, want %d\n%s%s", tc.name, code, exitUsage, stdout, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("new %s: stderr lacks %q:\n%s", tc.name, w, stderr)
			}
		}
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("new %s wrote %s (%v)", tc.name, dir, err)
		}
		if code, stdout, stderr := newTestRun("new", "-o", dir, "fam"); code != exitOK {
			t.Errorf("new fam after new %s: exit %d\n%s%s", tc.name, code, stdout, stderr)
		}
	}
}

// TestNewAllOrNothing: a scaffold that does not build, or builds with a
// warning, is not written at all, and its messages name the files where
// new was to write them; a retry into the same directory then succeeds.
func TestNewAllOrNothing(t *testing.T) {
	for _, tc := range []struct {
		what   string
		append string
		want   string
	}{
		{"an op no tool maps to", "  users.nothing.here:\n    kind: read\n", `: /ops/users.nothing.here: no tool maps to op "users.nothing.here"`},
		{"a manifest that does not decode", "no_such_key: 1\n", `: unknown key "no_such_key"`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "users")
			familyFiles = func(f templates.Family) (map[string][]byte, error) {
				files, err := templates.FamilyFiles(f)
				if err == nil {
					files["toolgen.yaml"] = append(files["toolgen.yaml"], tc.append...)
				}
				return files, err
			}
			code, stdout, stderr := newTestRun("new", "-o", dir, "users")
			familyFiles = templates.FamilyFiles
			if code != exitFail || stdout != "" {
				t.Errorf("exit %d (want %d), stdout %q\n%s", code, exitFail, stdout, stderr)
			}
			// The message names the manifest where new was to write it.
			if !strings.Contains(stderr, filepath.Join(dir, "toolgen.yaml")+":") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %s:LINE:COL%s:\n%s", filepath.Join(dir, "toolgen.yaml"), tc.want, stderr)
			}
			if strings.Contains(stderr, "toolgen-new-") {
				t.Errorf("stderr names the temporary directory:\n%s", stderr)
			}
			if !strings.Contains(stderr, "nothing was written") {
				t.Errorf("stderr does not say nothing was written:\n%s", stderr)
			}
			if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the failed new left %s (%v)", dir, err)
			}
			if code, stdout, stderr := newTestRun("new", "-o", dir, "users"); code != exitOK {
				t.Errorf("retry: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// TestNewWarningRefused: a scaffold whose manifest warns (a group no
// tool is in) is not written.
func TestNewWarningRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "users")
	familyFiles = func(f templates.Family) (map[string][]byte, error) {
		files, err := templates.FamilyFiles(f)
		if err == nil {
			files["toolgen.yaml"] = bytes.Replace(files["toolgen.yaml"], []byte("groups:\n"), []byte("groups:\n  spare: Nothing.\n"), 1)
		}
		return files, err
	}
	defer func() { familyFiles = templates.FamilyFiles }()
	code, stdout, stderr := newTestRun("new", "-o", dir, "users")
	if code != exitFail || stdout != "" {
		t.Errorf("exit %d (want %d), stdout %q\n%s", code, exitFail, stdout, stderr)
	}
	for _, want := range []string{`group "spare" matches no tool`, "builds with warnings", "nothing was written"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the failed new left %s (%v)", dir, err)
	}
}

// TestNewWriteUndone: when writing the family fails part way, the files
// and directories written are removed again; what was there stays.
func TestNewWriteUndone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fam")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "handlers.go"), []byte("package fam\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	order := []string{"tools.json", "sub/deep/x_gen.go", "handlers.go"}
	built := map[string][]byte{"tools.json": []byte("[]"), "sub/deep/x_gen.go": []byte("package deep\n"), "handlers.go": []byte("package fam\n// new\n")}
	err := writeScaffold(dir, order, built)
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("writeScaffold = %v, want a refusal to overwrite handlers.go", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if !slices.Equal(left, []string{"handlers.go"}) {
		t.Errorf("left %q, want only the handlers.go that was there", left)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "handlers.go")); string(data) != "package fam\n" {
		t.Errorf("handlers.go was overwritten: %q", data)
	}
}

// TestNewNextStep: the go generate command new prints names the family's
// directory as the go command reads it: ./DIR for a relative one, the path
// itself for an absolute one or one outside (../DIR).
func TestNewNextStep(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "abs", "fam")
	for dir, want := range map[string]string{
		"users":       "./users",
		"./dot":       "./dot",
		"a/b/":        "./a/b",
		"./a/../b":    "./b",
		"../up":       "../up",
		".":           ".",
		abs:           filepath.ToSlash(abs),
		abs + "/../x": filepath.ToSlash(filepath.Join(abs, "..", "x")),
	} {
		if got := goDirPattern(filepath.FromSlash(dir)); got != want {
			t.Errorf("goDirPattern(%q) = %q, want %q", dir, got, want)
		}
	}

	t.Chdir(t.TempDir())
	for _, tc := range []struct{ dir, want string }{
		{abs, "run go generate " + filepath.ToSlash(abs) + ", "},
		{"./dot", "run go generate ./dot, "},
		{"nested/fam/", "run go generate ./nested/fam, "},
	} {
		code, stdout, stderr := newTestRun("new", "-o", tc.dir, "fam")
		if code != exitOK {
			t.Fatalf("new -o %s: exit %d\n%s%s", tc.dir, code, stdout, stderr)
		}
		if !strings.Contains(stdout, tc.want) {
			t.Errorf("new -o %s: stdout lacks %q:\n%s", tc.dir, tc.want, stdout)
		}
	}
}
