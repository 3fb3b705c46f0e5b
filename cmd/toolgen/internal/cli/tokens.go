package cli

import (
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/o200k"
	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// surfaceCount is one surface in toolgen tokens' output.
type surfaceCount struct {
	Name   string `json:"name"`
	Tools  int    `json:"tools"`
	Tokens int    `json:"tokens"`
	// PercentOfFlat is Tokens relative to the flat surface.
	PercentOfFlat float64 `json:"percent_of_flat"`
	// Emitted reports whether the generated package has the surface (the
	// manifest's surfaces); the others are counted for comparison.
	Emitted bool `json:"emitted"`
}

// tokensReport is toolgen tokens' JSON output.
type tokensReport struct {
	Tokenizer string         `json:"tokenizer"`
	Surfaces  []surfaceCount `json:"surfaces"`
	// NotCounted are the surfaces not in the package that cannot be built
	// for this family (a tool takes the name of a tool they add).
	NotCounted []notCounted `json:"not_counted,omitempty"`
}

// notCounted is a surface tokens could not build, and why.
type notCounted struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// runTokens implements toolgen tokens: the boot-time token cost of every
// surface, counted with o200k_base over the provider-facing tool
// definitions each surface offers (plus the prompt text for sections);
// --show prints one surface's boot definitions exactly as a model
// receives them. The deferred surfaces count what the provider puts in
// context before any search: on Anthropic the client-side tool_search
// definition (deferred tools are not loaded; the server search tools' own
// definitions are Anthropic's and not counted), on OpenAI each namespace's
// name and description, each ungrouped deferred function's name and
// description, and the tool_search tool.
func runTokens(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var show string
	f, fl, code := loadFamily("tokens", func(fs *pflag.FlagSet) {
		fs.StringVar(&show, "show", "", "print the boot tool definitions (and prompt text) of `SURFACE` as JSON instead of counting: "+strings.Join(bootSurfaceNames, ", "))
	}, args, stdin, stdout, stderr)
	if f == nil {
		return code
	}
	if show != "" {
		boots, err := bootSurfaces(f)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return exitFail
		}
		return showSurface(stdout, stderr, boots, show)
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
	fmt.Fprintf(tw, "SURFACE\tTOOLS\tTOKENS\t%% OF FLAT\tIN PACKAGE\t\n")
	others := false
	for _, s := range rep.Surfaces {
		in := "yes"
		if !s.Emitted {
			in, others = "no", true
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%s\t\n", s.Name, s.Tools, s.Tokens, s.PercentOfFlat, in)
	}
	_ = tw.Flush()
	fmt.Fprintf(stdout, "tokenizer: %s\n", rep.Tokenizer)
	if others {
		fmt.Fprintln(stdout, "surfaces not in the package are counted for comparison; the manifest's surfaces key picks the ones generated")
	}
	for _, s := range rep.NotCounted {
		fmt.Fprintf(stdout, "not counted: %s (not in the package): %s\n", s.Name, s.Reason)
	}
	return exitOK
}

// bootSurface is what one surface offers a model before any call: tool
// definitions and, for sections, prompt text.
type bootSurface struct {
	Name   string          `json:"surface"`
	Prompt string          `json:"prompt,omitempty"`
	Tools  json.RawMessage `json:"tools"`
	count  int
	// err says why a surface not in the package could not be built.
	err error
}

// surfaceBuilder builds one or more of a family's boot surfaces, the ones
// it names.
type surfaceBuilder struct {
	names []string
	build func() ([]bootSurface, error)
}

// skippable reports whether a failure of b is no error of the command: the
// package has none of b's surfaces (so a tool may take the name of one of
// their own tools), and tokens only leaves them out.
func (b surfaceBuilder) skippable(f *ir.Family) bool {
	for _, n := range b.names {
		if emitsSurface(f, n) {
			return false
		}
	}
	return true
}

// surfaceBuilders are the builders of every surface of f, in the order
// tokens reports them (flat first: the others are measured against it).
// They only read f, and can run at once.
func surfaceBuilders(f *ir.Family) []surfaceBuilder {
	flat := familyTools(f)
	// The gateway and the deferred surface read one registry; the first to
	// ask builds it.
	registry := sync.OnceValue(func() gateway.Registry { return generator.RegistryOf(f) })
	one := func(name string, build func() (string, []runtime.Tool, error)) surfaceBuilder {
		return surfaceBuilder{[]string{name}, func() ([]bootSurface, error) {
			prompt, tools, err := build()
			if err != nil {
				return nil, err
			}
			return []bootSurface{{Name: name, Prompt: prompt, Tools: runtime.Definitions(tools), count: len(tools)}}, nil
		}}
	}
	return []surfaceBuilder{
		one("flat", func() (string, []runtime.Tool, error) { return "", flat, nil }),
		one("gateway", func() (string, []runtime.Tool, error) {
			gw, err := gateway.Tools(registry(), flat)
			return "", gw, err
		}),
		one("facades", func() (string, []runtime.Tool, error) {
			facades, err := facadeTools(f, flat)
			return "", facades, err
		}),
		one("sections", func() (string, []runtime.Tool, error) { return sectionsBoot(f, flat) }),
		one("code", func() (string, []runtime.Tool, error) { return "", codeTools(f), nil }),
		{[]string{"deferred-anthropic", "deferred-openai"}, func() ([]bootSurface, error) { return deferredBoot(registry(), flat) }},
	}
}

// bootSurfaces builds every surface of f in memory, in the order tokens
// reports them.
func bootSurfaces(f *ir.Family) ([]bootSurface, error) {
	var out []bootSurface
	for _, b := range surfaceBuilders(f) {
		boots, err := b.build()
		if err != nil {
			if !b.skippable(f) {
				return nil, err
			}
			for _, n := range b.names {
				out = append(out, bootSurface{Name: n, err: err})
			}
			continue
		}
		out = append(out, boots...)
	}
	return out, nil
}

// deferredBoot builds the deferred surface of reg over flat and returns,
// per provider, the tool definitions in context before any search (see
// runTokens), in each provider's own format.
func deferredBoot(reg gateway.Registry, flat []runtime.Tool) ([]bootSurface, error) {
	s, err := deferred.New(reg, flat)
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
	return []bootSurface{
		{Name: "deferred-anthropic", Tools: anthropic, count: 1},
		{Name: "deferred-openai", Tools: oa, count: len(openai)},
	}, nil
}

// bootSurfaceNames are the names of the boot surfaces bootSurfaces
// builds, in its order: the manifest's surface names, the deferred surface
// once per provider.
var bootSurfaceNames = []string{"flat", "gateway", "facades", "sections", "code", "deferred-anthropic", "deferred-openai"}

// showSurface prints the named surface's boot definitions as JSON.
func showSurface(stdout, stderr io.Writer, boots []bootSurface, name string) int {
	var names, prefixed []string
	for _, b := range boots {
		if b.Name == name && b.err != nil {
			fmt.Fprintf(stderr, "toolgen tokens: surface %q is not in the package and cannot be built for this family: %v\n", name, b.err)
			return exitFail
		}
		if b.Name == name {
			return writeJSON(stdout, stderr, b)
		}
		names = append(names, b.Name)
		if strings.HasPrefix(b.Name, name+"-") {
			prefixed = append(prefixed, b.Name)
		}
	}
	switch {
	case len(prefixed) > 0:
		// The manifest's deferred is one surface with a boot form per
		// provider.
		fmt.Fprintf(stderr, "toolgen tokens: surface %q boots differently per provider: choose %s\n", name, strings.Join(prefixed, " or "))
	case text.Closest(name, names) != "":
		fmt.Fprintf(stderr, "toolgen tokens: no surface %q (did you mean %q?); choose one of %s\n", name, text.Closest(name, names), strings.Join(names, ", "))
	default:
		fmt.Fprintf(stderr, "toolgen tokens: no surface %q; choose one of %s\n", name, strings.Join(names, ", "))
	}
	return exitUsage
}

// countTokens builds every surface of f and counts its boot-time tokens.
// Each builder runs on a goroutine of its own and counts what it built
// with a Counter of its own: on a large family the flat list is most of
// the count, and the gateway, facades and sections take about as long to
// build. A panic in a builder (a bug) is raised again here, with the
// builder's stack.
func countTokens(f *ir.Family) (*tokensReport, error) {
	builders := surfaceBuilders(f)
	counts := make([][]surfaceCount, len(builders))
	errs := make([]error, len(builders))
	panics := make([]any, len(builders))
	var wg sync.WaitGroup
	for i, b := range builders {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					panics[i] = fmt.Sprintf("%v\n\n(on the goroutine building a boot surface:)\n%s", v, debug.Stack())
				}
			}()
			counts[i], errs[i] = countSurfaces(b.build)
		})
	}
	wg.Wait()
	rep := &tokensReport{Tokenizer: o200k.Name}
	for i, b := range builders {
		if panics[i] != nil {
			panic(panics[i])
		}
		if errs[i] != nil && b.skippable(f) {
			for _, n := range b.names {
				rep.NotCounted = append(rep.NotCounted, notCounted{n, errs[i].Error()})
			}
			continue
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
		rep.Surfaces = append(rep.Surfaces, counts[i]...)
	}
	for i := range rep.Surfaces {
		rep.Surfaces[i].Emitted = emitsSurface(f, rep.Surfaces[i].Name)
	}
	if base := rep.Surfaces[0].Tokens; base > 0 {
		for i := range rep.Surfaces {
			rep.Surfaces[i].PercentOfFlat = float64(int(1000*float64(rep.Surfaces[i].Tokens)/float64(base)+0.5)) / 10
		}
	}
	return rep, nil
}

// emitsSurface reports whether f's package has the surface named as
// tokens names them (deferred-anthropic and deferred-openai are both the
// deferred surface).
func emitsSurface(f *ir.Family, name string) bool {
	if strings.HasPrefix(name, "deferred") {
		name = "deferred"
	}
	return generator.Surface(f, name)
}

// countSurfaces builds surfaces and counts each one's tokens.
func countSurfaces(build func() ([]bootSurface, error)) ([]surfaceCount, error) {
	boots, err := build()
	if err != nil {
		return nil, err
	}
	c, err := o200k.New()
	if err != nil {
		return nil, err
	}
	var out []surfaceCount
	for _, b := range boots {
		n, err := countLong(c, b.Prompt+string(b.Tools))
		if err != nil {
			return nil, err
		}
		out = append(out, surfaceCount{Name: b.Name, Tools: b.count, Tokens: n})
	}
	return out, nil
}

// countChunk is the least size of a part countText counts on its own.
const countChunk = 1 << 20

// toolSeam is where one tool definition of runtime.Definitions ends and
// the next begins. Cut after its `},{"`, a text splits where o200k_base's
// pre-tokenizer splits it anyway: the run of punctuation ends there and a
// run of lower-case letters ("type") begins, so no token crosses the cut
// and the counts of the parts add up to the count of the whole
// (TestCountText compares them on every corpus).
const toolSeam = `},{"type":"function","function":{"name":`

// countLong is countText in a part of at least countChunk bytes per core.
func countLong(c *o200k.Counter, s string) (int, error) {
	return countText(c, s, min(goruntime.GOMAXPROCS(0), len(s)/countChunk))
}

// countText counts the o200k_base tokens of s with c, cut at tool seams
// into about parts parts counted at once, the first by c and each other
// by a Counter of its own: a tool list of many megabytes (10,000 tools:
// 1.9 million tokens) takes a third of a second to count on one core.
func countText(c *o200k.Counter, s string, parts int) (int, error) {
	cuts := []int{0}
	for i := 1; i < parts; i++ {
		from := max(i*len(s)/parts, cuts[len(cuts)-1])
		j := strings.Index(s[from:], toolSeam)
		if j < 0 {
			break
		}
		cuts = append(cuts, from+j+len(`},{"`))
	}
	cuts = append(cuts, len(s))
	if len(cuts) == 2 {
		return c.Count(s)
	}
	counts := make([]int, len(cuts)-1)
	errs := make([]error, len(cuts)-1)
	var wg sync.WaitGroup
	for k := range counts {
		wg.Go(func() {
			counter := c
			if k > 0 {
				if counter, errs[k] = o200k.New(); errs[k] != nil {
					return
				}
			}
			counts[k], errs[k] = counter.Count(s[cuts[k]:cuts[k+1]])
		})
	}
	wg.Wait()
	total := 0
	for k, n := range counts {
		if errs[k] != nil {
			return 0, errs[k]
		}
		total += n
	}
	return total, nil
}

// familyTools are the family's tools as the flat surface offers them
// (definitions only; nothing runs), their parameters as runtime/openai
// sends them: a root allOf, anyOf or oneOf, which OpenAI refuses, is
// flattened (rootschema.Flatten), so the boot text shown and counted is
// the one the model receives.
func familyTools(f *ir.Family) []runtime.Tool {
	tools := make([]runtime.Tool, 0, len(f.Tools))
	for _, t := range f.Tools {
		params := t.ParamsSchema
		if flat, err := rootschema.Flatten(params, rootschema.OpenAI); err == nil {
			params = flat
		}
		tools = append(tools, runtime.Tool{Name: t.Name, Description: t.Description, Parameters: params})
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

// codeTools are the code surface's tools as generated Code(h) offers them
// (definitions only: the script engine is not linked into toolgen).
func codeTools(f *ir.Family) []runtime.Tool {
	d := generator.CodeOutline(f)
	return []runtime.Tool{
		{Name: tsdecl.CodeTool, Description: d.CodeDescription(tsdecl.DefaultWallTime, tsdecl.DefaultOpCalls), Parameters: json.RawMessage(tsdecl.CodeSchema)},
		{Name: tsdecl.HelpTool, Description: tsdecl.HelpDescription, Parameters: json.RawMessage(tsdecl.HelpSchema)},
	}
}
