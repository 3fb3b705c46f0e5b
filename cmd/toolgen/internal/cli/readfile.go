package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/toolgen-go/toolgen/schema/limits"
)

// toolgen reads three kinds of file the user names: tool definitions
// (inputs), the manifest and search-eval's cases. Each is read whole into
// memory, so each is read with a bound, and only from a regular file: a
// device (/dev/zero) never ends and a named pipe with no writer blocks the
// open itself, so either would exhaust memory or hang instead of ending in
// an error.
//
// Standard input is the way to read a pipe: "-" names it, as an input or
// as --cases, and so does "/dev/stdin" (isStdin), which names the same
// stream explicitly; both are read under the same bound as a file. Any
// other path to a pipe or a device (/dev/fd/N, a process substitution
// <(...), a FIFO made with mkfifo) is refused before it is opened.

// maxManifestBytes is the most bytes a manifest may hold: a hand-written
// file of settings, far smaller in practice (a large one has an entry per
// op: 16 MiB is over 100,000 of them).
const maxManifestBytes = 16 << 20

// stdinName is the name standard input goes by in positions and errors.
const stdinName = "<stdin>"

// isStdin reports whether a file name given for an input or the cases
// names standard input: "-", or "/dev/stdin" spelled out.
func isStdin(name string) bool {
	return name == "-" || name == "/dev/stdin"
}

// unreadableError is a file toolgen does not read: not a regular file, or
// larger than its limit. Path is the name as given (the manifest's
// resolved path for one of its inputs: missingInput locates it at its
// entry).
type unreadableError struct {
	path string
	why  string
}

func (e *unreadableError) Error() string { return e.path + ": " + e.why }

// inputLimitWhy is the reason an input, or the cases file, larger than
// limit bytes is not read.
func inputLimitWhy(limit int64) string {
	return fmt.Sprintf("holds more than %d bytes (%s)", limit, limits.Hint("max_input_bytes", limit))
}

// manifestLimitWhy is the reason a manifest larger than maxManifestBytes
// is not read.
func manifestLimitWhy() string {
	return fmt.Sprintf("holds more than %d bytes, the most a manifest may hold", maxManifestBytes)
}

// fileKind names the kind of a file that is not a regular one, for the
// error that refuses it.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// notRegularWhy is the reason a file of mode is not read; stdinHint, when
// set, says how to read such a stream anyway.
func notRegularWhy(mode fs.FileMode, stdinHint string) string {
	why := "is " + fileKind(mode) + ", not a regular file"
	if mode.IsDir() {
		return why
	}
	why += ": it might never end, or block waiting for a writer"
	if stdinHint != "" {
		why += "; " + stdinHint
	}
	return why
}

// readRegular reads the regular file name whole, refusing anything else
// (notRegularWhy, with stdinHint) and a file of more than limit bytes
// (tooLarge is the reason then). A missing file is the *fs.PathError of
// os.Stat, so that os.IsNotExist tells it.
func readRegular(name string, limit int64, tooLarge, stdinHint string) (string, error) {
	// Stat before opening: opening a named pipe blocks until a writer
	// opens it too.
	info, err := os.Stat(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // as the open it stands for would say
		}
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", &unreadableError{path: name, why: notRegularWhy(info.Mode(), stdinHint)}
	}
	if info.Size() > limit {
		return "", &unreadableError{path: name, why: tooLarge}
	}
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	// The file may have been replaced since the Stat.
	if info, err = f.Stat(); err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", &unreadableError{path: name, why: notRegularWhy(info.Mode(), stdinHint)}
	}
	return readLimited(name, f, info.Size(), limit, tooLarge)
}

// readLimited reads r, of about size bytes, into a string, failing with
// tooLarge once it holds more than limit bytes (a file that grew since it
// was measured, standard input).
func readLimited(name string, r io.Reader, size, limit int64, tooLarge string) (string, error) {
	if size <= 0 {
		return readUnsized(name, r, limit, tooLarge)
	}
	var b strings.Builder
	b.Grow(int(min(size, limit)) + 1) // room for the read that finds the end
	n, err := io.Copy(&b, io.LimitReader(r, limit+1))
	if err != nil {
		return "", err
	}
	if n > limit {
		return "", &unreadableError{path: name, why: tooLarge}
	}
	return b.String(), nil
}

// readUnsized is readLimited for a reader of unknown size (a pipe): it
// reads into blocks and joins them once the end is found, so that the
// input's memory is about its size, and at most the limit when it is
// too large (a growing buffer doubles: 256 MiB of /dev/zero took 1 GiB).
func readUnsized(name string, r io.Reader, limit int64, tooLarge string) (string, error) {
	const block = 1 << 20
	var blocks [][]byte
	var n int64
	lr := io.LimitReader(r, limit+1)
	for {
		buf := make([]byte, block)
		k, err := io.ReadFull(lr, buf)
		if k > 0 {
			blocks = append(blocks, buf[:k])
			n += int64(k)
		}
		if n > limit {
			return "", &unreadableError{path: name, why: tooLarge}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.Grow(int(n))
	for _, blk := range blocks {
		b.Write(blk)
	}
	return b.String(), nil
}

// readStdin reads standard input whole, up to limit bytes.
func readStdin(stdin io.Reader, limit int64, tooLarge string) (string, error) {
	if stdin == nil {
		return "", errors.New("no standard input")
	}
	return readLimited(stdinName, stdin, 0, limit, tooLarge)
}

// cappedWriter passes on the first n bytes written to it and drops the
// rest, reporting every write as whole (a child process writing to it is
// not stopped by the cap).
type cappedWriter struct {
	w io.Writer
	n int
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if c.n > 0 {
		k := min(len(p), c.n)
		if _, err := c.w.Write(p[:k]); err != nil {
			return 0, err
		}
		c.n -= k
	}
	return len(p), nil
}
