package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"strings"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// toolReport is toolgen inspect --tool's JSON output: one tool as the
// generated package and the gateway present it.
type toolReport struct {
	Tool  string         `json:"tool"`
	Op    string         `json:"op"`
	Kind  runtime.OpKind `json:"kind"`
	Usage string         `json:"usage"`
	// GoTypes is the Go source of the tool's params and result types and
	// the named types they use, as generated.
	GoTypes string `json:"go_types"`
	// Help is tool_help's answer for the op.
	Help json.RawMessage `json:"help"`
}

// inspectTool prints one tool: its generated Go types, its help entry and
// its usage line.
func inspectTool(f *ir.Family, name, format string, stdout, stderr io.Writer) int {
	var tool *ir.Tool
	var names []string
	for _, t := range f.Tools {
		if t.Name == name {
			tool = t
		}
		names = append(names, t.Name)
	}
	if tool == nil {
		// An op path names its tool too.
		for _, o := range f.Ops {
			if o.Path == name {
				tool = o.Tool
			}
		}
	}
	if tool == nil {
		for _, o := range f.Ops {
			names = append(names, o.Path)
		}
		fmt.Fprintf(stderr, "toolgen inspect: no tool or op %q in the family%s\n", name, didYouMean(name, names))
		return exitFail
	}
	var op *ir.Op
	for _, o := range f.Ops {
		if o.Tool == tool {
			op = o
		}
	}
	rep := toolReport{Tool: tool.Name}
	if op != nil {
		rep.Op, rep.Kind, rep.Usage = op.Path, op.Kind, op.Usage
	}
	src, err := toolTypes(f, tool)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	rep.GoTypes = src
	if op != nil {
		help, err := helpAnswer(f, op.Path)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return exitFail
		}
		rep.Help = help
	}
	if format == "json" {
		return writeJSON(stdout, stderr, rep)
	}
	// The text form is for a terminal: the usage line, the Go types'
	// comments and the help entry carry property names, descriptions and
	// enum values, so each line is escaped with jsonpos.Visible.
	v := jsonpos.Visible
	fmt.Fprintf(stdout, "tool %s -> op %s (%s)\n\nusage: %s\n\n%s\nhelp (tool_help {\"path\": %q}):\n", v(rep.Tool), v(rep.Op), rep.Kind, v(rep.Usage), visibleLines(rep.GoTypes), rep.Op)
	var pretty bytes.Buffer
	if json.Indent(&pretty, rep.Help, "", "  ") == nil {
		rep.Help = pretty.Bytes()
	}
	fmt.Fprintf(stdout, "%s\n", visibleLines(string(rep.Help)))
	return exitOK
}

// toolTypes generates the package's types in memory and returns the
// declarations of the tool's params and result types and of every
// package type they mention, in source order. Generation stops at the
// first file after the types: the rest is not needed, and a definition
// that blows up in another file costs nothing here.
func toolTypes(f *ir.Family, tool *ir.Tool) (string, error) {
	var files []generator.File
	errTypesDone := errors.New("types done")
	err := generator.Stream(f, generator.Options{Package: f.Package}, func(file generator.File) error {
		if !strings.HasSuffix(file.Path, "types_gen.go") {
			if len(files) > 0 {
				return errTypesDone
			}
			return nil
		}
		files = append(files, file)
		return nil
	})
	if err != nil && !errors.Is(err, errTypesDone) {
		return "", err
	}
	fset := token.NewFileSet()
	decls := map[string]*ast.GenDecl{}
	specs := map[string]ast.Spec{}
	var order []string
	for _, file := range files {
		if !strings.HasSuffix(file.Path, "types_gen.go") {
			continue
		}
		af, err := parser.ParseFile(fset, file.Path, file.Bytes, parser.ParseComments)
		if err != nil {
			return "", err
		}
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				decls[ts.Name.Name], specs[ts.Name.Name] = gd, ts
				order = append(order, ts.Name.Name)
			}
		}
	}
	want := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if want[name] || specs[name] == nil {
			return
		}
		want[name] = true
		ast.Inspect(specs[name], func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name != name {
				visit(id.Name)
			}
			return true
		})
	}
	visit(tool.Params.GoName)
	if tool.Result != nil {
		visit(tool.Result.GoName)
	}
	var out bytes.Buffer
	seen := map[*ast.GenDecl]bool{}
	for _, name := range order {
		gd := decls[name]
		if !want[name] || seen[gd] {
			continue
		}
		seen[gd] = true
		if err := format.Node(&out, fset, gd); err != nil {
			return "", err
		}
		out.WriteString("\n\n")
	}
	return strings.TrimRight(out.String(), "\n") + "\n", nil
}

// helpAnswer is the gateway's tool_help answer for op, as a model reads it.
func helpAnswer(f *ir.Family, op string) (json.RawMessage, error) {
	tools, err := gateway.Tools(generator.RegistryOf(f), familyTools(f))
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.Name != "tool_help" {
			continue
		}
		args, _ := json.Marshal(map[string]string{"path": op})
		res, err := runtime.Dispatch(context.Background(), t, runtime.NewToolContext(runtime.ContextParts{}), args)
		if err != nil {
			return nil, err
		}
		text := runtime.RenderResult(res)
		if json.Valid([]byte(text)) {
			return json.RawMessage(text), nil
		}
		return json.Marshal(text)
	}
	return nil, fmt.Errorf("the gateway has no tool_help")
}

// didYouMean suggests the name closest to name, for "no such" errors.
func didYouMean(name string, names []string) string {
	if c := check.Closest(name, names); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}
