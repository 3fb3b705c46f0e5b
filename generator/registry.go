package generator

import (
	"encoding/json"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// RegistryOf converts the family's taxonomy (the ops taxonomy.Derive
// finished, with their argument summaries) into the gateway registry that registry_gen.go declares. toolgen
// tokens and search-eval use it to measure the same registry in memory.
func RegistryOf(f *ir.Family) gateway.Registry {
	reg := gateway.Registry{Version: f.RegistryVersion}
	for _, g := range f.Groups {
		reg.Groups = append(reg.Groups, gateway.Group{Name: g.Name, Summary: g.Summary})
	}
	for _, op := range f.Ops {
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
		reg.Ops = append(reg.Ops, o)
	}
	return reg
}

// emitRegistry writes registry_gen.go: var Registry, the gateway.Registry
// literal of RegistryOf, one line per group and per op.
// golden/github/registry_gen.go shows the output.
func emitRegistry(g *gen, f *jen.File) error {
	gw := g.gatewayPkg()
	reg := RegistryOf(g.fam)
	var groups []jen.Code
	for _, gr := range reg.Groups {
		groups = append(groups, jen.Values(
			field("Name", strLit(gr.Name)),
			field("Summary", strLit(gr.Summary)),
		))
	}
	var ops []jen.Code
	for _, op := range reg.Ops {
		ops = append(ops, jen.Values(g.opFields(gw, op)...))
	}
	f.Add(comment("Registry is the op taxonomy of the family (spec 004 §5.3): every op"))
	f.Add(comment("path with the tool serving it, its kind, usage, args, examples and"))
	f.Add(comment("policy. Gateway serves it through tool_help, tool_search and tool_exec."))
	f.Var().Id("Registry").Op("=").Qual(gw, "Registry").Values(jen.Dict{
		jen.Id("Version"): strLit(reg.Version),
		jen.Id("Groups"):  jen.Index().Qual(gw, "Group").Values(regLines(groups)...),
		jen.Id("Ops"):     jen.Index().Qual(gw, "Op").Values(regLines(ops)...),
	})
	return nil
}

// field is the key: value element of a composite literal.
func field(name string, v jen.Code) *jen.Statement { return jen.Id(name).Op(":").Add(v) }

// opFields are the fields of one op's composite literal, in the order of
// gateway.Op, zero fields left out.
func (g *gen) opFields(gw string, op gateway.Op) []jen.Code {
	kind := jen.Qual(g.runtimePkg, "OpRead")
	if op.Kind == runtime.OpWrite {
		kind = jen.Qual(g.runtimePkg, "OpWrite")
	}
	d := []jen.Code{
		field("Path", strLit(op.Path)),
		field("Tool", strLit(op.Tool)),
		field("Description", strLit(op.Description)),
		field("Parameters", regRawJSON(op.Parameters)),
		field("Group", strLit(op.Group)),
		field("Kind", kind),
	}
	if op.Entity != "" {
		d = append(d, field("Entity", strLit(op.Entity)))
	}
	if op.Action != "" {
		d = append(d, field("Action", strLit(op.Action)))
	}
	d = append(d, field("Usage", strLit(op.Usage)))
	if len(op.Args) > 0 {
		var args []jen.Code
		for _, a := range op.Args {
			ad := []jen.Code{field("Name", strLit(a.Name)), field("Type", strLit(a.Type))}
			if a.Required {
				ad = append(ad, field("Required", jen.True()))
			}
			if a.Default != "" {
				ad = append(ad, field("Default", strLit(a.Default)))
			}
			if a.Description != "" {
				ad = append(ad, field("Description", strLit(a.Description)))
			}
			args = append(args, jen.Values(ad...))
		}
		d = append(d, field("Args", jen.Index().Qual(gw, "Arg").Values(args...)))
	}
	if len(op.Notes) > 0 {
		d = append(d, field("Notes", regStringSlice(op.Notes)))
	}
	if len(op.Examples) > 0 {
		var exs []jen.Code
		for _, ex := range op.Examples {
			ed := []jen.Code{}
			if ex.Description != "" {
				ed = append(ed, field("Description", strLit(ex.Description)))
			}
			ed = append(ed, field("Args", regRawJSON(ex.Args)))
			exs = append(exs, jen.Values(ed...))
		}
		d = append(d, field("Examples", jen.Index().Qual(gw, "Example").Values(exs...)))
	}
	if p := op.Policy; p != nil {
		var pd []jen.Code
		if len(p.Do) > 0 {
			pd = append(pd, field("Do", regStringSlice(p.Do)))
		}
		if len(p.Dont) > 0 {
			pd = append(pd, field("Dont", regStringSlice(p.Dont)))
		}
		if len(p.EdgeCases) > 0 {
			pd = append(pd, field("EdgeCases", regStringSlice(p.EdgeCases)))
		}
		d = append(d, field("Policy", jen.Op("&").Qual(gw, "Policy").Values(pd...)))
	}
	if op.DryRunDefault {
		d = append(d, field("DryRunDefault", jen.True()))
	}
	return d
}

// gatewayPkg is the import path of runtime/gateway.
func (g *gen) gatewayPkg() string { return g.runtimePkg + "/gateway" }

// regRawJSON renders json.RawMessage(`...`) for a JSON value: a raw string
// literal when the JSON can be one, else a quoted one (rawLit).
func regRawJSON(raw json.RawMessage) jen.Code {
	if len(raw) == 0 {
		return jen.Nil()
	}
	return jen.Qual(jsonPkg, "RawMessage").Call(rawLit(string(raw)))
}

// regStringSlice renders []string{"a", "b"} on one line.
func regStringSlice(ss []string) jen.Code {
	items := make([]jen.Code, len(ss))
	for i, s := range ss {
		items[i] = strLit(s)
	}
	return jen.Index().String().Values(items...)
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
