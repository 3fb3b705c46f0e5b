package manifest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var updateReference = flag.Bool("update-reference", false, "rewrite docs/MANIFEST.md from toolgen.schema.json")

// referencePath is the manifest reference, generated from the published
// schema by TestManifestReference.
const referencePath = "../../docs/MANIFEST.md"

// TestManifestReference keeps docs/MANIFEST.md equal to what the published
// schema says, and the schema complete enough to document: every key has a
// description and an example, and every example is a valid manifest
// (checked by Load like a user's file).
func TestManifestReference(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(Schema, &root); err != nil {
		t.Fatal(err)
	}
	ref := &reference{defs: root["$defs"].(map[string]any), t: t}
	ref.doc(root)
	got := ref.b.Bytes()
	if *updateReference {
		if err := os.WriteFile(referencePath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v (go test ./schema/manifest -run TestManifestReference -update-reference writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/MANIFEST.md is out of date with schema/manifest/toolgen.schema.json; run go test ./schema/manifest -run TestManifestReference -update-reference")
	}
}

type reference struct {
	b    bytes.Buffer
	defs map[string]any
	t    *testing.T
}

func (r *reference) doc(root map[string]any) {
	fmt.Fprintf(&r.b, "# Manifest reference (toolgen.yaml)\n\n")
	fmt.Fprintf(&r.b, "<!-- Generated from schema/manifest/toolgen.schema.json by TestManifestReference; do not edit. -->\n\n")
	fmt.Fprintf(&r.b, "%s The manifest is YAML (or JSON); `toolgen generate -c FILE` reads it, and every\n", root["description"])
	fmt.Fprintf(&r.b, "problem in it is reported as `FILE:LINE:COL: /json/pointer: message`. Paths in it are\n")
	fmt.Fprintf(&r.b, "relative to the manifest's folder and slash-separated on every system (`sub/tools.json`;\n")
	fmt.Fprintf(&r.b, "a `\\` or a drive letter such as `C:` is an error). Editors can validate it with the published JSON Schema\n")
	fmt.Fprintf(&r.b, "`schema/manifest/toolgen.schema.json`.\n\n## Top-level keys\n\n")
	r.object("", root)
	op := r.defs["op"].(map[string]any)
	fmt.Fprintf(&r.b, "## Keys of an op (`ops.<op path>.*`)\n\n")
	r.object("ops.<op path>.", op)
}

// object documents the properties of an object schema, in key order of
// the schema's source (sorted, JSON maps being unordered here).
func (r *reference) object(prefix string, s map[string]any) {
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := props[k].(map[string]any)
		name := prefix + k
		desc, _ := p["description"].(string)
		if desc == "" {
			if ref, ok := p["$ref"].(string); ok {
				desc, _ = r.def(ref)["description"].(string)
			}
		}
		if desc == "" {
			r.t.Errorf("schema: %s has no description", name)
		}
		fmt.Fprintf(&r.b, "### `%s`\n\n%s\n\n", name, desc)
		fmt.Fprintf(&r.b, "- Type: %s\n", r.typeOf(p))
		if sub := r.keyDescriptions(p); sub != "" {
			fmt.Fprintf(&r.b, "- Keys:\n%s", sub)
		}
		if d, ok := p["default"]; ok {
			js, _ := json.Marshal(d)
			fmt.Fprintf(&r.b, "- Default: `%s`\n", js)
		} else {
			fmt.Fprintf(&r.b, "- Default: none\n")
		}
		examples, _ := p["examples"].([]any)
		if len(examples) == 0 {
			r.t.Errorf("schema: %s has no examples", name)
			fmt.Fprintln(&r.b)
			continue
		}
		fmt.Fprintf(&r.b, "- Example:\n\n```yaml\n%s```\n\n", r.example(prefix, k, examples[0]))
	}
}

// example renders one example value as the manifest fragment a user
// writes, and checks that the fragment loads.
func (r *reference) example(prefix, key string, v any) string {
	frag := map[string]any{key: v}
	if prefix != "" { // an op key: wrap it in an op entry
		frag = map[string]any{"ops": map[string]any{"todo.item.create": frag}}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(frag); err != nil {
		r.t.Fatal(err)
	}
	out := buf.Bytes()
	if _, err := Load("example.yaml", out); err != nil {
		r.t.Errorf("schema: example of %s%s does not load: %v", prefix, key, err)
	}
	return string(out)
}

// keyDescriptions lists the keys of an object schema whose every key is
// described (limits, annotations), one "  - `key`: description" line each,
// sorted; "" otherwise.
func (r *reference) keyDescriptions(s map[string]any) string {
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k, v := range props {
		if d, _ := v.(map[string]any)["description"].(string); d == "" {
			return ""
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  - `%s`: %s\n", k, props[k].(map[string]any)["description"])
	}
	return b.String()
}

func (r *reference) def(ref string) map[string]any {
	d, _ := r.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	return d
}

// typeOf summarises a schema's type for people.
func (r *reference) typeOf(s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok {
		switch ref {
		case "#/$defs/segment":
			return "string: lowercase letters, digits and `_`, starting with a letter"
		case "#/$defs/opPath":
			return "string: an op path (`group.entity.action`)"
		case "#/$defs/strings":
			return "list of strings"
		case "#/$defs/path":
			return "string: a slash-separated path"
		}
		return r.typeOf(r.def(ref))
	}
	if e, ok := s["enum"].([]any); ok {
		var vs []string
		for _, v := range e {
			js, _ := json.Marshal(v)
			vs = append(vs, "`"+string(js)+"`")
		}
		return "one of " + strings.Join(vs, ", ")
	}
	if alts, ok := s["oneOf"].([]any); ok {
		var ts []string
		for _, a := range alts {
			ts = append(ts, r.typeOf(a.(map[string]any)))
		}
		return strings.Join(ts, ", or ")
	}
	switch t, _ := s["type"].(string); t {
	case "array":
		if items, ok := s["items"].(map[string]any); ok {
			return "list of " + r.typeOf(items)
		}
		return "list"
	case "object":
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "map from name to " + r.typeOf(ap)
		}
		if props, ok := s["properties"].(map[string]any); ok && len(props) > 0 {
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, "`"+k+"`")
			}
			sort.Strings(keys)
			return "object with keys " + strings.Join(keys, ", ")
		}
		return "object"
	case "":
		return "any"
	default:
		if p, ok := s["pattern"].(string); ok {
			return fmt.Sprintf("%s matching `%s`", t, p)
		}
		return t
	}
}

// TestSchemaSurfaces: the published schema lists every surface Load
// accepts, no more.
func TestSchemaSurfaces(t *testing.T) {
	var root struct {
		Properties struct {
			Surfaces struct {
				Items struct {
					Enum []string `json:"enum"`
				} `json:"items"`
			} `json:"surfaces"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &root); err != nil {
		t.Fatal(err)
	}
	got := append([]string(nil), root.Properties.Surfaces.Items.Enum...)
	want := append([]string(nil), SurfaceNames...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("schema surfaces %v, Load accepts %v", got, want)
	}
}

// TestSchemaLimits: the published schema lists every limits key Load
// accepts (LimitKeys), no more.
func TestSchemaLimits(t *testing.T) {
	var root struct {
		Properties struct {
			Limits struct {
				Properties map[string]any `json:"properties"`
			} `json:"limits"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &root); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range root.Properties.Limits.Properties {
		got = append(got, k)
	}
	want := append([]string(nil), LimitKeys...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("schema limits %v, Load accepts %v", got, want)
	}
}
