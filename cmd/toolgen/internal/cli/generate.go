package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/names"
)

// genFlags are the flags generate and check share.
type genFlags struct {
	config  string
	out     string
	pkg     string
	lenient bool
	// stubs is whether generate maintains a handler file (--stubs): its
	// type's name is reserved even before the file exists.
	stubs bool
	// partial (diff) is whether the family may be a part of the
	// manifest's (manifest.Manifest.Partial), and manifestData, when set,
	// is the manifest's text at another revision.
	partial      bool
	manifestData []byte
	// readOnly is whether the command writes and compares no Go files
	// (inspect, tokens, search-eval, diff): the package is never built,
	// so a package name of main, from a directory named main, is no
	// reason to refuse.
	readOnly bool
	// progress, when set, receives a progress line per phase on large
	// catalogues.
	progress io.Writer
	started  time.Time
}

// outDash refuses -o -: the output is a package directory, and "-" would
// be one of that name, not standard output.
const outDash = "-o -: the output is a package directory, not standard output; name a directory (-o DIR)"

func (g *genFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&g.config, "config", "c", "", "manifest `FILE` (default: toolgen.yaml in the current directory, if present)")
	fs.StringVarP(&g.out, "out", "o", "", "output `DIR` (default: the manifest's output, else the current directory)")
	fs.StringVarP(&g.pkg, "package", "p", "", "Go package `NAME` (default: the output directory's base name, sanitized)")
	fs.BoolVar(&g.lenient, "lenient", false, "rewrite non-standard type names (dict, float, ...) and tool names providers reject (geo.distance as geo_distance) with a warning instead of failing")
}

// checkPackage rejects a -p value the manifest's package: would reject,
// and -o - (a directory named "-", not standard output), as a usage error;
// done=true with the exit code when the command must stop.
func (g *genFlags) checkPackage(fs *pflag.FlagSet) (code int, done bool) {
	if g.out == "-" {
		fmt.Fprintf(fs.Output(), "toolgen %s: %s\n", fs.Name(), outDash)
		shortUsage(fs.Output(), fs.Name())
		return exitUsage, true
	}
	if g.pkg == "" {
		return 0, false
	}
	if why := names.CheckPackageName(g.pkg); why != "" {
		fmt.Fprintf(fs.Output(), "toolgen %s: -p: must be a Go package name: %s\n", fs.Name(), why)
		shortUsage(fs.Output(), fs.Name())
		return exitUsage, true
	}
	return 0, false
}

func runGenerate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var fl genFlags
	fs := newFlagSet("generate", stdout, stderr)
	fl.register(fs)
	stubs := fs.String("stubs", "", "create the handler `FILE` with a stub per tool, or append stubs for tools it lacks")
	quiet := fs.BoolP("quiet", "q", false, "print only the files written or removed, or that all were up to date (for CI and go generate)")
	force := fs.Bool("force", false, "overwrite (or remove as stale) generated files edited by hand, discarding the edits")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if code, done := fl.checkPackage(fs); done {
		return code
	}
	fl.stubs = *stubs != ""
	if !*quiet {
		fl.progress, fl.started = stderr, time.Now()
	}
	p, code := buildProject(fl, fs.Args(), stdin, stderr)
	if p == nil {
		return code
	}
	// A stubs file that cannot be written is refused before anything is;
	// one that generate writes is refused as soon as that is known
	// (writePackage), also before anything is written.
	handlers, err := stubsPath(p, *stubs)
	var serr *stubsError
	switch {
	case errors.As(err, &serr):
		return refuseStubs(stderr, serr.file, err)
	case err != nil:
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if err := p.user.broken[handlers.name()]; handlers != nil && err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\ntoolgen: the handler file must parse before stubs are appended to it; nothing was written\n", err)
		return exitFail
	}
	var tokens func() (*tokensReport, error)
	if !*quiet {
		tokens = bootTokens(p.family) // counted while the files render
	}
	// An interrupt stops the run at the next file and undoes what it
	// wrote (temporary files were left behind); a second one kills.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	p.interrupted = ctx.Err
	p.force = *force
	warnOtherSources(p, stderr)
	run := genRun{force: commandLine("toolgen generate --force", args)}
	run.stubs = handlers
	written, code := writeGeneratedFor(p, run, stdout, stderr)
	if code != exitOK {
		return code
	}
	if !*quiet {
		defer printSummary(stdout, p, len(written), tokens)
	}
	stale, err := staleFiles(p.outDir, p.files)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	for _, s := range stale {
		if err := removeFile(p.outDir, s); err != nil {
			printError(stderr, err) // names the stale file
			return exitFail
		}
		fmt.Fprintf(stdout, "removed stale %s\n", jsonpos.Visible(joinOut(p.outDir, s)))
	}
	if *quiet && len(written) == 0 && len(stale) == 0 {
		fmt.Fprintf(stdout, "%d files up to date in %s\n", len(p.files), p.outDir)
	}
	if handlers != nil {
		return writeStubs(p, handlers.path, stdout, stderr)
	}
	return exitOK
}

// writeGenerated generates and writes p's changed files, naming each on
// stdout, and returns their names.
func writeGenerated(p *project, stdout, stderr io.Writer) ([]string, int) {
	return writeGeneratedFor(p, genRun{}, stdout, stderr)
}

// genRun is what the generate command tells writeGeneratedFor of its run.
type genRun struct {
	// stubs is the handler file (--stubs or the manifest's stubs), nil
	// for none: a generated file of its name is refused as the handler
	// file, as a stubs file outside the package is (refuseStubs).
	stubs *stubsFile
	// force is this run's command line with --force, which a refusal to
	// overwrite a file edited by hand names as the way to discard the
	// edits.
	force string
}

// writeGeneratedFor is writeGenerated for the generate command's run.
func writeGeneratedFor(p *project, run genRun, stdout, stderr io.Writer) ([]string, int) {
	written, err := writePackage(p, run.stubs.name())
	for _, w := range written {
		fmt.Fprintf(stdout, "wrote %s\n", joinOut(p.outDir, w))
	}
	var stubsErr *stubsGeneratedError
	var edited *editedError
	switch {
	case err == nil:
		return written, exitOK
	case errors.As(err, &stubsErr) && run.stubs != nil:
		return written, refuseStubs(stderr, run.stubs, err)
	case errors.As(err, &edited):
		edited.force = run.force
	}
	printError(stderr, err)
	return written, failCode(err)
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var fl genFlags
	fs := newFlagSet("check", stdout, stderr)
	fl.register(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if code, done := fl.checkPackage(fs); done {
		return code
	}
	p, code := buildProject(fl, fs.Args(), stdin, stderr)
	if p == nil {
		return code
	}
	d, edited, err := driftReport(p)
	if err != nil {
		printError(stderr, err)
		return failCode(err)
	}
	stale, err := staleFiles(p.outDir, p.files)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if d == "" && len(stale) == 0 {
		fmt.Fprintf(stdout, "%d generated files up to date in %s\n", len(p.files), p.outDir)
		return exitOK
	}
	io.WriteString(stdout, d)
	for _, s := range stale {
		// A stale file's name is the directory's, any characters:
		// escaped for the terminal.
		path := jsonpos.Visible(joinOut(p.outDir, s))
		fmt.Fprintf(stdout, "stale generated file %s no longer belongs to the package\n", path)
		old, err := os.ReadFile(filepath.Join(p.outDir, s))
		if err != nil {
			printError(stderr, err) // names the stale file
			return exitFail
		}
		if editedSince(old, nil) {
			fmt.Fprintf(stdout, "%s: %s; generate will not remove it without --force, which discards the edits\n", path, editedHow(old))
			edited = append(edited, path)
		}
	}
	printCheckHint(stderr, p, edited, args)
	return exitFail
}

// printCheckHint closes check's report of out-of-date files with what to
// run. When some were edited by hand, plain generate would refuse them:
// the hint names the two ways on instead.
func printCheckHint(stderr io.Writer, p *project, edited, args []string) {
	if len(edited) == 0 {
		if cmd := p.user.generate; cmd != "" {
			// The package says how it is generated (its --stubs, say):
			// check's own flags would regenerate it without them.
			fmt.Fprintf(stderr, "toolgen: generated files are out of date; run go generate %s (its go:generate line runs %s)\n",
				goPackagePath(p.outDir), jsonpos.Visible(cmd))
			return
		}
		fmt.Fprintf(stderr, "toolgen: generated files are out of date; run %s\n", commandLine("toolgen generate", args))
		return
	}
	fmt.Fprintf(stderr, "toolgen: generated files are out of date, and generate will refuse %s (edited by hand, above): to keep the edits, copy them into a file of your own without the %q line; to discard them, run %s\n",
		strings.Join(edited, ", "), generatedHeader, commandLine("toolgen generate --force", args))
}

// goPackagePath is dir as the go command takes a package in it: a
// relative directory starts with "./".
func goPackagePath(dir string) string {
	dir = filepath.ToSlash(filepath.Clean(dir))
	if dir == "." || filepath.IsAbs(dir) || strings.HasPrefix(dir, "../") {
		return commandLine("", []string{dir})[1:]
	}
	return commandLine("", []string{"./" + dir})[1:]
}

// commandLine is cmd with args as a shell would need them: an argument
// with anything but letters, digits and _./:=,@+- is single-quoted.
func commandLine(cmd string, args []string) string {
	var b strings.Builder
	b.WriteString(cmd)
	for _, a := range args {
		b.WriteByte(' ')
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,@+-") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// warnOtherSources warns when the package in p's output directory was
// generated from none of p's inputs: two manifests writing one directory
// replace each other's package without a word otherwise.
func warnOtherSources(p *project, stderr io.Writer) {
	path := filepath.Join(p.outDir, "types_gen.go")
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return // a named pipe would block the read
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	var old []string
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for i := 0; i < 4 && sc.Scan(); i++ {
		if i == 0 && !isGenerated(sc.Bytes()) {
			return // the user's file, not a package toolgen generated
		}
		if rest, ok := strings.CutPrefix(sc.Text(), "// Source: "); ok {
			old = strings.Split(rest, ", ")
		}
	}
	if len(old) == 0 {
		return
	}
	var now []string
	for _, s := range p.family.Sources {
		now = append(now, filepath.ToSlash(relTo(p.outDir, s)))
	}
	for _, s := range now {
		if slices.Contains(old, s) {
			return
		}
	}
	// The Source line is the file's text, and file names may hold any
	// character: escaped for the terminal.
	fmt.Fprintf(stderr, "toolgen: warning: %s was generated from %s, none of this run's inputs (%s); if another manifest writes this directory too, the two replace each other's package\n",
		jsonpos.Visible(path), jsonpos.Visible(strings.Join(old, ", ")), jsonpos.Visible(strings.Join(now, ", ")))
}
