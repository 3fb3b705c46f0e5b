package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStubsNamedPipe: a named pipe where the handler file goes is refused
// before anything is written, not opened (the read of the file to append
// to would block).
func TestStubsNamedPipe(t *testing.T) {
	in, out := weatherDirs(t)
	if err := mkfifo(filepath.Join(out, "handlers.go")); err != nil {
		t.Skip(err)
	}
	code, _, stderr := runWithTimeout(t, runGenerate, "", "-q", "-o", out, "-p", "weather", "--stubs", "handlers.go", in)
	if code != exitUsage || !strings.Contains(stderr, "stubs file handlers.go is a named pipe, not a regular file") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if names := dirNames(t, out); names != "handlers.go" {
		t.Errorf("out holds %s; want only the pipe", names)
	}
}

// TestStubsNameProblem: the handler file is NAME.go, built with the
// package.
func TestStubsNameProblem(t *testing.T) {
	for _, c := range []struct{ base, better string }{
		{"handlers.go", ""},
		{"h.go", ""},
		{"handlers.txt", "handlers.go"},
		{"handlers", "handlers.go"},
		{"handlers_test.go", "handlers.go"},
		{"_test.go", "handlers.go"},
		{"_handlers.go", "handlers.go"},
		{".handlers.go", "handlers.go"},
		{"_.go", "handlers.go"},
		{"handlers.GO", "handlers.go"},
	} {
		why, better := stubsNameProblem(c.base)
		if better != c.better || (why == "") != (c.better == "") {
			t.Errorf("%s: %q, %q; want suggestion %q", c.base, why, better, c.better)
		}
	}
}
