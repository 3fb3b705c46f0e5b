package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tiktoken-go/tokenizer"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// surfaceCount is one surface in toolgen tokens' output.
type surfaceCount struct {
	Name   string `json:"name"`
	Tools  int    `json:"tools"`
	Tokens int    `json:"tokens"`
	// PercentOfFlat is Tokens relative to the flat surface.
	PercentOfFlat float64 `json:"percent_of_flat"`
}

// tokensReport is toolgen tokens' JSON output.
type tokensReport struct {
	Tokenizer string         `json:"tokenizer"`
	Surfaces  []surfaceCount `json:"surfaces"`
}

// runTokens implements toolgen tokens: the boot-time token cost of every
// surface, counted with o200k_base over the provider-facing tool
// definitions each surface offers (plus the prompt text for sections). The
// deferred surfaces count what the provider puts in context before any
// search: on Anthropic the client-side tool_search definition (deferred
// tools are not loaded; the server search tools' own definitions are
// Anthropic's and not counted), on OpenAI each namespace's name and
// description, each ungrouped deferred function's name and description, and
// the tool_search tool.
func runTokens(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, fl, code := loadFamily("tokens", "[-c FILE] [--format table|json] [INPUT ...]", nil, args, stdin, stderr)
	if f == nil {
		return code
	}
	rep, err := countTokens(f)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if fl.format == "json" {
		return writeJSON(stdout, stderr, rep)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "SURFACE\tTOOLS\tTOKENS\t%% OF FLAT\t\n")
	for _, s := range rep.Surfaces {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t\n", s.Name, s.Tools, s.Tokens, s.PercentOfFlat)
	}
	_ = tw.Flush()
	fmt.Fprintf(stdout, "tokenizer: %s\n", rep.Tokenizer)
	return exitOK
}

// countTokens builds every surface of f in memory and counts its boot-time
// tokens.
func countTokens(f *ir.Family) (*tokensReport, error) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return nil, err
	}
	count := func(s string) (int, error) { return codec.Count(s) }
	flat := familyTools(f)
	gw, err := gateway.Tools(generator.RegistryOf(f), flat)
	if err != nil {
		return nil, err
	}
	facades, err := facadeTools(f, flat)
	if err != nil {
		return nil, err
	}
	rep := &tokensReport{Tokenizer: string(tokenizer.O200kBase)}
	for _, s := range []struct {
		name  string
		tools []runtime.Tool
	}{{"flat", flat}, {"gateway", gw}, {"facades", facades}} {
		n, err := count(string(runtime.Definitions(s.tools)))
		if err != nil {
			return nil, err
		}
		rep.Surfaces = append(rep.Surfaces, surfaceCount{Name: s.name, Tools: len(s.tools), Tokens: n})
	}
	text, tools, err := sectionsBoot(f, flat)
	if err != nil {
		return nil, err
	}
	n, err := count(text + string(runtime.Definitions(tools)))
	if err != nil {
		return nil, err
	}
	rep.Surfaces = append(rep.Surfaces, surfaceCount{Name: "sections", Tools: len(tools), Tokens: n})
	boots, err := deferredBoot(f, flat)
	if err != nil {
		return nil, err
	}
	for _, b := range boots {
		n, err := count(b.text)
		if err != nil {
			return nil, err
		}
		rep.Surfaces = append(rep.Surfaces, surfaceCount{Name: b.name, Tools: b.tools, Tokens: n})
	}
	if base := rep.Surfaces[0].Tokens; base > 0 {
		for i := range rep.Surfaces {
			rep.Surfaces[i].PercentOfFlat = float64(int(1000*float64(rep.Surfaces[i].Tokens)/float64(base)+0.5)) / 10
		}
	}
	return rep, nil
}

// familyTools are the family's tools as the flat surface offers them
// (definitions only; nothing runs).
func familyTools(f *ir.Family) []runtime.Tool {
	tools := make([]runtime.Tool, 0, len(f.Tools))
	for _, t := range f.Tools {
		tools = append(tools, runtime.Tool{Name: t.Name, Description: t.Description, Parameters: t.ParamsSchema})
	}
	return tools
}

// facadeTools builds the facades surface as generated Facades(h) does.
func facadeTools(f *ir.Family, flat []runtime.Tool) ([]runtime.Tool, error) {
	var out []runtime.Tool
	for _, spec := range generator.Facades(f) {
		var opts []matryoshka.Option
		for _, c := range spec.Categories {
			opts = append(opts, matryoshka.Category(c.Name, c.Tools...))
		}
		for _, t := range spec.Tools {
			opts = append(opts, matryoshka.Usage(t, spec.Usage[t]))
		}
		t, err := matryoshka.New(spec.Name, spec.Description, runtime.Pick(flat, spec.Tools...), opts...)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// sectionsBoot renders the sections surface as generated Sections(h)
// declares it and returns the prompt text and the tools offered at boot.
func sectionsBoot(f *ir.Family, flat []runtime.Tool) (string, []runtime.Tool, error) {
	var secs []prompt.Section
	for _, s := range generator.Sections(f) {
		secs = append(secs, prompt.Section{
			Key: s.Key, Title: s.Title, Summary: s.Summary, Template: s.Template,
			Visibility: prompt.VisibilitySummary, Generated: true, Tools: runtime.Pick(flat, s.Tools...),
		})
	}
	if len(secs) == 0 {
		return "", nil, nil
	}
	p, err := prompt.New("toolgen", "tokens", "", secs...)
	if err != nil {
		return "", nil, err
	}
	r, err := p.Render(nil)
	if err != nil {
		return "", nil, err
	}
	return r.Text(), r.Tools(), nil
}

// deferredCount is what one provider loads of the deferred surface at boot.
type deferredCount struct {
	name  string
	tools int
	text  string
}

// deferredBoot builds the deferred surface of f and returns, per provider,
// the tool definitions in context before any search (see runTokens).
func deferredBoot(f *ir.Family, flat []runtime.Tool) ([]deferredCount, error) {
	s, err := deferred.New(generator.RegistryOf(f), flat)
	if err != nil {
		return nil, err
	}
	search := s.SearchTool()
	anthropic, err := json.Marshal([]struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}{{search.Name, search.Description, search.Parameters}})
	if err != nil {
		return nil, err
	}
	type entry struct {
		Type        string `json:"type"`
		Name        string `json:"name,omitempty"`
		Description string `json:"description,omitempty"`
	}
	var openai []entry
	for _, g := range s.Groups() {
		openai = append(openai, entry{"namespace", g.Name, g.Description})
	}
	for _, t := range s.Ungrouped() {
		openai = append(openai, entry{"function", t.Name, t.Description})
	}
	openai = append(openai, entry{Type: "tool_search"})
	oa, err := json.Marshal(openai)
	if err != nil {
		return nil, err
	}
	return []deferredCount{
		{"deferred-anthropic", 1, string(anthropic)},
		{"deferred-openai", len(openai), string(oa)},
	}, nil
}
