package generator

import (
	"encoding/json"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// RegistryOf converts the family's taxonomy (the ops taxonomy.Derive
// finished, with their argument summaries) into the gateway registry that
// registry_gen.go declares. toolgen tokens and search-eval use it to
// measure the same registry in memory.
func RegistryOf(f *ir.Family) gateway.Registry {
	reg := gateway.Registry{Version: f.RegistryVersion}
	for _, g := range f.Groups {
		reg.Groups = append(reg.Groups, gateway.Group{Name: g.Name, Summary: g.Summary})
	}
	reg.Ops = make([]gateway.Op, 0, len(f.Ops))
	for _, op := range f.Ops {
		reg.Ops = append(reg.Ops, opOf(op))
	}
	return reg
}

// opOf is the gateway op of one taxonomy op.
func opOf(op *ir.Op) gateway.Op {
	o := gateway.Op{
		Path:          op.Path,
		Group:         op.Group,
		Kind:          op.Kind,
		Entity:        op.Entity,
		Action:        op.Action,
		Usage:         op.Usage,
		Notes:         op.Notes,
		DryRunDefault: op.DryRunDefault,
	}
	if op.Tool != nil {
		o.Tool, o.Description, o.Parameters = op.Tool.Name, op.Tool.Description, op.Tool.ParamsSchema
		for _, a := range op.Arguments {
			o.Args = append(o.Args, gateway.Arg{Name: a.Name, Type: a.Type, Required: a.Required, Default: a.Default, Description: a.Description})
		}
	}
	for _, ex := range op.Examples {
		o.Examples = append(o.Examples, gateway.Example{Description: ex.Description, Args: ex.Args})
	}
	if op.Policy != nil {
		o.Policy = &gateway.Policy{Do: op.Policy.Do, Dont: op.Policy.Dont, EdgeCases: op.Policy.EdgeCases}
	}
	return o
}

// emitRegistry writes registry_gen.go: var Registry, the gateway.Registry
// literal of RegistryOf, one line per group and per op, written directly
// (srcFile); a family of many ops (asData) declares the ops as data
// instead, one record a line. golden/github/registry_gen.go shows the
// literal.
func emitRegistry(g *gen, s *srcFile) error {
	gw := g.gatewayPkg()
	s.text("// Registry is the op taxonomy of the family (spec 004 §5.3): every op\n")
	s.text("// path with the tool serving it, its kind, usage, args, examples and\n")
	s.text("// policy. Gateway serves it through tool_help, tool_search and tool_exec.\n")
	s.text("var Registry = ")
	s.qual(gw, "Registry")
	s.text("{\n")
	// gofmt aligns the values of consecutive one-line keys: Groups and Ops
	// are one line when empty.
	groups, ops := len(g.fam.Groups) > 0, len(g.fam.Ops) > 0
	switch {
	case groups:
		s.text("\tGroups: []")
	case ops:
		s.text("\tGroups: []")
	default:
		s.text("\tGroups:  []")
	}
	s.qual(gw, "Group")
	s.text("{")
	if groups {
		s.text("\n")
		for _, gr := range g.fam.Groups {
			s.text("\t\t{Name: ")
			s.lit(gr.Name)
			s.text(", Summary: ")
			s.lit(gr.Summary)
			s.text("},\n")
		}
		s.text("\t")
	}
	s.text("},\n")
	if asData(g.fam) {
		s.text("\tOps:     ")
		s.qual(gw, "MustDecodeOps")
		s.text("(registryOps),\n\tVersion: ")
		s.lit(g.fam.RegistryVersion)
		s.text(",\n}\n\n")
		s.records("registryOps are the ops of Registry as data, one gateway.EncodeOp\nrecord each: a family of many ops compiles them in a fraction of the\nmemory their literal takes.",
			"registryOps", len(g.fam.Ops), func(i int) string { return gateway.EncodeOp(opOf(g.fam.Ops[i])) })
		return nil
	}
	if ops {
		s.text("\tOps: []")
	} else {
		s.text("\tOps:     []")
	}
	s.qual(gw, "Op")
	s.text("{")
	if ops {
		s.text("\n")
		for _, op := range g.fam.Ops {
			s.text("\t\t{")
			g.opFields(s, gw, opOf(op))
			s.text("},\n")
		}
		s.text("\t")
	}
	s.text("},\n")
	s.text("\tVersion: ")
	s.lit(g.fam.RegistryVersion)
	s.text(",\n}\n")
	return nil
}

// asData reports whether the family's static definitions are declared as
// data rather than as composite literals: registry_gen.go's ops as
// gateway.EncodeOp records, tools_gen.go's tool definitions as
// runtime.EncodeTool records. So it is for more than DataTools tools:
// on 4,329 ACEBench-like tools the literals took the compiler about 280 MiB
// more than the records (docs/BENCHMARKS.md).
func asData(f *ir.Family) bool { return len(f.Tools) > DataTools }

// DataTools is the number of tools past which a family declares its
// static definitions as data (asData).
const DataTools = 200

// opFields writes the fields of one op's composite literal, in the order
// of gateway.Op, zero fields left out, on one line.
func (g *gen) opFields(s *srcFile, gw string, op gateway.Op) {
	s.text("Path: ")
	s.lit(op.Path)
	s.text(", Tool: ")
	s.lit(op.Tool)
	s.text(", Description: ")
	s.lit(op.Description)
	s.text(", Parameters: ")
	regRawJSON(s, op.Parameters)
	s.text(", Group: ")
	s.lit(op.Group)
	s.text(", Kind: ")
	if op.Kind == runtime.OpWrite {
		s.qual(g.runtimePkg, "OpWrite")
	} else {
		s.qual(g.runtimePkg, "OpRead")
	}
	if op.Entity != "" {
		s.text(", Entity: ")
		s.lit(op.Entity)
	}
	if op.Action != "" {
		s.text(", Action: ")
		s.lit(op.Action)
	}
	s.text(", Usage: ")
	s.lit(op.Usage)
	if len(op.Args) > 0 {
		s.text(", Args: []")
		s.qual(gw, "Arg")
		s.text("{")
		for i, a := range op.Args {
			if i > 0 {
				s.text(", ")
			}
			s.text("{Name: ")
			s.lit(a.Name)
			s.text(", Type: ")
			s.lit(a.Type)
			if a.Required {
				s.text(", Required: true")
			}
			if a.Default != "" {
				s.text(", Default: ")
				s.lit(a.Default)
			}
			if a.Description != "" {
				s.text(", Description: ")
				s.lit(a.Description)
			}
			s.text("}")
		}
		s.text("}")
	}
	if len(op.Notes) > 0 {
		s.text(", Notes: ")
		regStringSlice(s, op.Notes)
	}
	if len(op.Examples) > 0 {
		s.text(", Examples: []")
		s.qual(gw, "Example")
		s.text("{")
		for i, ex := range op.Examples {
			if i > 0 {
				s.text(", ")
			}
			s.text("{")
			if ex.Description != "" {
				s.text("Description: ")
				s.lit(ex.Description)
				s.text(", ")
			}
			s.text("Args: ")
			regRawJSON(s, ex.Args)
			s.text("}")
		}
		s.text("}")
	}
	if p := op.Policy; p != nil {
		s.text(", Policy: &")
		s.qual(gw, "Policy")
		s.text("{")
		if len(p.Do) > 0 {
			s.text("Do: ")
			regStringSlice(s, p.Do)
		}
		if len(p.Dont) > 0 {
			if len(p.Do) > 0 {
				s.text(", ")
			}
			s.text("Dont: ")
			regStringSlice(s, p.Dont)
		}
		if len(p.EdgeCases) > 0 {
			if len(p.Do) > 0 || len(p.Dont) > 0 {
				s.text(", ")
			}
			s.text("EdgeCases: ")
			regStringSlice(s, p.EdgeCases)
		}
		s.text("}")
	}
	if op.DryRunDefault {
		s.text(", DryRunDefault: true")
	}
}

// gatewayPkg is the import path of runtime/gateway.
func (g *gen) gatewayPkg() string { return g.runtimePkg + "/gateway" }

// regRawJSON writes json.RawMessage(`...`) for a JSON value: a raw string
// literal when the JSON can be one, else a quoted one; nil for none.
func regRawJSON(s *srcFile, raw json.RawMessage) {
	if len(raw) == 0 {
		s.text("nil")
		return
	}
	s.qual(jsonPkg, "RawMessage")
	s.text("(")
	s.rawLit(string(raw))
	s.text(")")
}

// regStringSlice writes []string{"a", "b"} on one line.
func regStringSlice(s *srcFile, ss []string) {
	s.text("[]string{")
	for i, v := range ss {
		if i > 0 {
			s.text(", ")
		}
		s.lit(v)
	}
	s.text("}")
}

// regLines puts each element of a composite literal on its own line.
func regLines(items []jen.Code) []jen.Code {
	if len(items) == 0 {
		return nil
	}
	out := make([]jen.Code, 0, len(items)+1)
	for _, it := range items {
		out = append(out, jen.Line().Add(it))
	}
	return append(out, jen.Line())
}
