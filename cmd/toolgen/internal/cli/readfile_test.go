package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runWithTimeout is run with stdin, failing the test when the command
// does not return within a few seconds (a read that blocks, or never
// ends).
func runWithTimeout(t *testing.T, f func([]string, io.Reader, io.Writer, io.Writer) int, stdin string, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := f(args, strings.NewReader(stdin), &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("toolgen %s: still running after 20s (blocked on a read?)", strings.Join(args, " "))
		return 0, "", ""
	}
}

// TestReadNotRegular: inputs, the manifest (-c, inputs: entries) and the
// cases file that are named pipes or devices are refused by name, before
// they are opened: a pipe with no writer would block the open, /dev/zero
// would fill memory.
func TestReadNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tools.fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	manifestWithFifo := filepath.Join(dir, "toolgen.yaml")
	if err := os.WriteFile(manifestWithFifo, []byte("package: a\ninputs:\n  - tools.fifo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"input", []string{fifo}, "toolgen: " + fifo + ": is a named pipe, not a regular file: it might never end, or block waiting for a writer; to read a stream, name - (standard input) and redirect it there"},
		{"manifest", []string{"-c", fifo}, "toolgen: " + fifo + ": is a named pipe, not a regular file"},
		{"manifest input", []string{"-c", manifestWithFifo}, manifestWithFifo + ":3:5: /inputs/0: cannot read tools.fifo: it is a named pipe, not a regular file"},
		{"device input", []string{"/dev/zero"}, "toolgen: /dev/zero: is a character device, not a regular file"},
		{"device manifest", []string{"-c", "/dev/zero"}, "toolgen: /dev/zero: is a character device, not a regular file"},
		{"directory", []string{dir}, "toolgen: " + dir + ": is a directory, not a regular file\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "device") {
				if info, err := os.Stat("/dev/zero"); err != nil || info.Mode().IsRegular() {
					t.Skip("no /dev/zero")
				}
			}
			code, _, stderr := runWithTimeout(t, runInspect, "", tt.args...)
			if code != exitFail || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, tt.want)
			}
		})
	}
}

// TestReadStdin: - and /dev/stdin both read standard input, once.
func TestReadStdin(t *testing.T) {
	for _, name := range []string{"-", "/dev/stdin"} {
		code, out, stderr := runWithTimeout(t, runInspect, weatherTools, name)
		if code != exitOK || !strings.Contains(out, "get_weather") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, stderr)
		}
	}
	code, _, stderr := runWithTimeout(t, runInspect, weatherTools, "-", "/dev/stdin")
	if code != exitFail || !strings.Contains(stderr, "may be given only once") {
		t.Errorf("- and /dev/stdin: exit %d, %s", code, stderr)
	}
}

// TestInputLimit: an input larger than limits.InputBytes is refused, by
// its size before it is read, or once the read passes the limit (a file
// that grew, standard input), naming the manifest key that raises it;
// at the manifest's entry when it came from there.
func TestInputLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file one byte over the default limit: refused by its size,
	// nothing is read.
	if err := f.Truncate(256<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	const want = "holds more than 268435456 bytes (limit 268435456; raise limits.max_input_bytes in the manifest)"
	code, _, stderr := runWithTimeout(t, runInspect, "", big)
	if code != exitFail || !strings.Contains(stderr, "toolgen: "+big+": "+want) {
		t.Errorf("argument: exit %d, %s", code, stderr)
	}
	manifest := filepath.Join(dir, "toolgen.yaml")
	if err := os.WriteFile(manifest, []byte("inputs: [big.json]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runWithTimeout(t, runInspect, "", "-c", manifest)
	if code != exitFail || !strings.Contains(stderr, manifest+":1:10: /inputs/0: cannot read big.json: it "+want) {
		t.Errorf("manifest entry: exit %d, %s", code, stderr)
	}

	// The limit as the read finds it, with a small limit.
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(weatherTools), 0o644); err != nil {
		t.Fatal(err)
	}
	limit := int64(len(weatherTools))
	if in, err := readInputs([]string{small}, nil, limit); err != nil || in[0].Data != weatherTools {
		t.Errorf("at the limit: %v", err)
	}
	_, err = readInputs([]string{small}, nil, limit-1)
	var ue *unreadableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "limits.max_input_bytes") {
		t.Errorf("over the limit: %v", err)
	}
	_, err = readInputs([]string{"-"}, strings.NewReader(weatherTools), limit-1)
	if err == nil || err.Error() != "<stdin>: holds more than "+strconv.FormatInt(limit-1, 10)+" bytes (limit "+strconv.FormatInt(limit-1, 10)+"; raise limits.max_input_bytes in the manifest)" {
		t.Errorf("standard input over the limit: %v", err)
	}
	if _, err := readLimited("grown", strings.NewReader("0123456789"), 4, 8, "too large"); err == nil || err.Error() != "grown: too large" {
		t.Errorf("a file that grew: %v", err)
	}
}

// TestReadUnsized: a reader of unknown size is read whole across its
// blocks, at the limit and around a block's end, and refused past the
// limit.
func TestReadUnsized(t *testing.T) {
	for _, n := range []int{0, 1, 1<<20 - 1, 1 << 20, 1<<20 + 1, 3<<20 + 7} {
		data := strings.Repeat("abcdefg", n/7+1)[:n]
		got, err := readUnsized("in", strings.NewReader(data), int64(n), "too large")
		if err != nil || got != data {
			t.Errorf("%d bytes at the limit: %d bytes read, %v", n, len(got), err)
		}
		if n > 0 {
			if _, err := readUnsized("in", strings.NewReader(data), int64(n-1), "too large"); err == nil || err.Error() != "in: too large" {
				t.Errorf("%d bytes, one past the limit: %v", n, err)
			}
		}
	}
}

// TestManifestLimit: a manifest over maxManifestBytes is refused before it
// is read.
func TestManifestLimit(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "toolgen.yaml")
	if err := os.WriteFile(manifest, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(manifest, maxManifestBytes+1); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWithTimeout(t, runInspect, "", "-c", manifest)
	if code != exitFail || !strings.Contains(stderr, manifest+": holds more than 16777216 bytes, the most a manifest may hold") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if _, err := readManifest(manifest, make([]byte, maxManifestBytes+1)); err == nil {
		t.Error("a manifest at a revision over the limit was read")
	}
}
