package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolgen": func() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// goEnvKeys are the go command's settings the stories inherit.
var goEnvKeys = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOFLAGS", "GOTOOLCHAIN"}

// goEnv holds their values, read once.
var goEnv = func() map[string]string {
	m := map[string]string{}
	out, err := exec.Command("go", append([]string{"env"}, goEnvKeys...)...).Output()
	if err != nil {
		return m
	}
	for i, v := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if i < len(goEnvKeys) {
			m[goEnvKeys[i]] = v
		}
	}
	return m
}()

// TestScripts runs the CLI stories in testdata/script: each is what a user
// types, with the expected output and files.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// Scripts that compile generated code point a go.mod replace
			// directive at this module, and run the go command with this
			// machine's caches and module proxy.
			env.Setenv("TOOLGEN_ROOT", root)
			for _, k := range goEnvKeys {
				env.Setenv(k, goEnv[k])
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"replace": cmdReplace,
			"crlf":    cmdCRLF,
			"bom":     cmdBOM,
			"utf16":   cmdUTF16,
		},
	})
}

// cmdReplace edits a file as a user would: replace FILE OLD NEW replaces
// the first OLD by NEW (\n in NEW is a newline).
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	data := ts.ReadFile(args[0])
	if !strings.Contains(data, args[1]) {
		ts.Fatalf("%s does not contain %q", args[0], args[1])
	}
	data = strings.Replace(data, args[1], strings.ReplaceAll(args[2], `\n`, "\n"), 1)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o644))
}

// cmdCRLF gives FILE CRLF line endings, as git's core.autocrlf does on a
// checkout.
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: crlf FILE")
	}
	data := strings.ReplaceAll(ts.ReadFile(args[0]), "\n", "\r\n")
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o644))
}

// cmdBOM puts a UTF-8 byte order mark at the start of FILE, as some
// editors do on saving.
func cmdBOM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: bom FILE")
	}
	data := "\uFEFF" + ts.ReadFile(args[0])
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o644))
}

// cmdUTF16 rewrites FILE as UTF-16 little-endian text: with a byte order
// mark, as Windows PowerShell's > writes it, or without one (utf16 -nobom
// FILE).
func cmdUTF16(ts *testscript.TestScript, neg bool, args []string) {
	mark := true
	if len(args) == 2 && args[0] == "-nobom" {
		mark, args = false, args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: utf16 [-nobom] FILE")
	}
	var out []byte
	if mark {
		out = append(out, 0xff, 0xfe)
	}
	for _, u := range utf16.Encode([]rune(ts.ReadFile(args[0]))) {
		out = append(out, byte(u), byte(u>>8))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), out, 0o644))
}
