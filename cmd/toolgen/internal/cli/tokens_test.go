package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/o200k"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema/ir"
)

func TestTokensOntology(t *testing.T) {
	code, out, stderr := run(t, runTokens, "-c", ontologyManifest, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep tokensReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Tokenizer != "o200k_base" || len(rep.Surfaces) != 7 {
		t.Fatalf("report %+v", rep)
	}
	byName := map[string]surfaceCount{}
	for _, s := range rep.Surfaces {
		byName[s.Name] = s
	}
	if byName["flat"].Tools != 53 || byName["gateway"].Tools != 4 || byName["facades"].Tools != 2 || byName["sections"].Tools != 1 || byName["code"].Tools != 2 ||
		byName["deferred-anthropic"].Tools != 1 || byName["deferred-openai"].Tools != 3 {
		t.Errorf("tool counts %+v", rep.Surfaces)
	}
	// Every progressive surface must be far cheaper than the flat one.
	for _, name := range []string{"gateway", "facades", "sections", "code", "deferred-anthropic", "deferred-openai"} {
		if s := byName[name]; s.Tokens == 0 || s.PercentOfFlat > 10 {
			t.Errorf("%s: %d tokens, %.1f%% of flat", name, s.Tokens, s.PercentOfFlat)
		}
	}
	t.Logf("surfaces: %+v", rep.Surfaces)
	// --show's help lists the surfaces by these names, in this order.
	var names []string
	for _, s := range rep.Surfaces {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != strings.Join(bootSurfaceNames, ",") {
		t.Errorf("surfaces %v; bootSurfaceNames (--show's help) %v", names, bootSurfaceNames)
	}
}

func TestTokensTable(t *testing.T) {
	code, out, stderr := run(t, runTokens, "-c", ontologyManifest)
	if code != exitOK || !strings.Contains(out, "gateway") || !strings.Contains(out, "tokenizer: o200k_base") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestTokensShowCode: --show code prints the code surface's two tools.
func TestTokensShowCode(t *testing.T) {
	code, out, stderr := run(t, runTokens, "-c", ontologyManifest, "--show", "code")
	var b struct {
		Surface string `json:"surface"`
		Tools   []struct {
			Function struct{ Name, Description string } `json:"function"`
		} `json:"tools"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &b) != nil || b.Surface != "code" || len(b.Tools) != 2 ||
		b.Tools[0].Function.Name != "tool_code" || b.Tools[1].Function.Name != "tool_code_help" ||
		!strings.Contains(b.Tools[0].Function.Description, "onto (48 ops") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestTokensShowFlatAsSent: --show flat prints the parameters as
// runtime/openai sends them; a root anyOf (which OpenAI refuses, and the
// adapter flattens) was printed and counted as written.
func TestTokensShowFlatAsSent(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(in, []byte(`[{"name":"lookup_user","description":"Look up a user.","inputSchema":{"type":"object","anyOf":[
		{"properties":{"email":{"type":"string"}},"required":["email"]},
		{"properties":{"user_id":{"type":"string"}},"required":["user_id"]}]}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, runTokens, "--show", "flat", in)
	var b struct {
		Tools []struct {
			Function struct {
				Parameters map[string]json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &b) != nil || len(b.Tools) != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	params := b.Tools[0].Function.Parameters
	if _, ok := params["anyOf"]; ok || params["properties"] == nil {
		t.Errorf("parameters as shown: %s", out)
	}
}

func BenchmarkCountTokens(b *testing.B) {
	var out, errb bytes.Buffer
	for b.Loop() {
		out.Reset()
		if runTokens([]string{"-c", ontologyManifest, "--format", "json"}, strings.NewReader(""), &out, &errb) != exitOK {
			b.Fatal(errb.String())
		}
	}
}

// TestTokensGitHubMCP: on the GitHub MCP server's 117 tools the gateway's boot
// definitions cost at most 3% of the flat list's tokens, and tool_help's description
// names the family's own groups rather than another family's paths.
func TestTokensGitHubMCP(t *testing.T) {
	const input = "testdata/github_mcp.tools.json"
	code, out, stderr := run(t, runTokens, "--format", "json", input)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep tokensReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	byName := map[string]surfaceCount{}
	for _, s := range rep.Surfaces {
		byName[s.Name] = s
	}
	flat, gw := byName["flat"], byName["gateway"]
	if flat.Tools != 117 || gw.Tools != 4 || gw.PercentOfFlat > 3 {
		t.Errorf("flat %+v, gateway %+v: want 117 flat tools and a gateway of at most 3%% of them", flat, gw)
	}
	t.Logf("flat %d tokens, gateway %d (%.1f%%)", flat.Tokens, gw.Tokens, gw.PercentOfFlat)

	code, out, stderr = run(t, runTokens, "--show", "gateway", input)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var boot struct {
		Tools []struct {
			Function struct{ Name, Description string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &boot); err != nil || len(boot.Tools) == 0 {
		t.Fatalf("--show gateway: %v\n%s", err, out)
	}
	help := boot.Tools[0].Function
	if help.Name != "tool_help" || !strings.Contains(help.Description, "pull_request") ||
		!strings.Contains(help.Description, "issue") || strings.Contains(help.Description, "onto") {
		t.Errorf("tool_help boot text is not the family's own: %+v", help)
	}
}

// TestCountText: a tool list counted in parts, cut at tool seams, has the
// tokens of the whole, on the examples and every corpus, cut into up to
// 64 parts.
func TestCountText(t *testing.T) {
	inputs := []string{"../../../../examples/ontology/tools/onto_write.json", "../../../../examples/quickstart/tools.json"}
	for _, rel := range [][]string{{"tools", "gorilla_openfunctions_v1", "ALL.tools.json"}, {"tools", "mcp_npm", "ALL.tools.json"},
		{"tools", "tau_bench", "ALL.tools.json"}, {"search", "acebench.tools.json"}} {
		if p, ok := corpus.Find(rel...); ok {
			inputs = append(inputs, p)
		}
	}
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		f, _, code := loadFamily("tokens", nil, []string{in}, nil, io.Discard, io.Discard)
		if code != exitOK {
			t.Fatalf("%s: exit %d", in, code)
		}
		s := "A prompt before the list.\n" + string(runtime.Definitions(familyTools(f)))
		want, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		c, err := o200k.New()
		if err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{0, 1, 2, 7, 64} {
			if got, err := countText(c, s, parts); err != nil || got != want {
				t.Errorf("%s, %d parts: %d tokens (%v), whole: %d", in, parts, got, err, want)
			}
		}
		if strings.Count(s, toolSeam) != len(f.Tools)-1 {
			t.Errorf("%s: %d seams for %d tools", in, strings.Count(s, toolSeam), len(f.Tools))
		}
	}
}

// TestEmitsSurface: tokens says which surfaces the package has, from the
// manifest's surfaces (absent: all but code); deferred covers both
// providers' deferred surfaces.
func TestEmitsSurface(t *testing.T) {
	all := &ir.Family{}
	some := &ir.Family{Surfaces: []string{"flat", "deferred"}}
	for _, c := range []struct {
		f    *ir.Family
		name string
		want bool
	}{
		{all, "flat", true}, {all, "gateway", true}, {all, "code", false}, {all, "deferred-openai", true},
		{some, "flat", true}, {some, "gateway", false}, {some, "deferred-anthropic", true}, {some, "deferred-openai", true}, {some, "code", false},
	} {
		if got := emitsSurface(c.f, c.name); got != c.want {
			t.Errorf("surfaces %v, %s: emitted %v, want %v", c.f.Surfaces, c.name, got, c.want)
		}
	}
}
