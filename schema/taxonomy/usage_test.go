package taxonomy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// TestUsageNamesItsOwnOp checks that every op's usage line, argument
// summary and synthesised example name the op's final path, also for ops
// moved to a new path by a collision (hotel_book and book_hotel claim one
// op; list_user and list_users too).
func TestUsageNamesItsOwnOp(t *testing.T) {
	f := family("book_hotel", "hotel_book", "list_user", "list_users", "get_weather")
	for _, tool := range f.Tools {
		tool.ParamsSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)
	}
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, op := range f.Ops {
		if paths[op.Path] {
			t.Errorf("op %s twice", op.Path)
		}
		paths[op.Path] = true
		if op.Usage != op.Path+" "+op.Args {
			t.Errorf("tool %s, op %s: usage %q does not start with its own op", op.Tool.Name, op.Path, op.Usage)
		}
		for _, ex := range op.Examples {
			if strings.HasPrefix(ex.Description, "Call ") && !strings.HasPrefix(ex.Description, "Call "+op.Path+" ") && ex.Description != "Call "+op.Path {
				t.Errorf("op %s: example %q names another op", op.Path, ex.Description)
			}
		}
	}
	if len(f.Ops) != 5 {
		t.Fatalf("%d ops, want 5", len(f.Ops))
	}
}

// TestKindFromDescription: a tool whose name has no known verb is classed
// by its description's leading verb; a pure computation is not a write,
// and without any evidence the op stays a write with a warning.
func TestKindFromDescription(t *testing.T) {
	f := family("math_factorial", "hotel_room", "triangle_area", "mystery_box")
	descs := []string{"Calculates the factorial of a number.", "Books a hotel room for the given dates.", "Computes the area of a triangle.", "Does things."}
	for i, tool := range f.Tools {
		tool.Description = descs[i]
	}
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"math_factorial": "read", "hotel_room": "write", "triangle_area": "read", "mystery_box": "write"}
	for name, op := range opsOf(f) {
		if string(op.Kind) != want[name] {
			t.Errorf("%s: kind %s, want %s", name, op.Kind, want[name])
		}
	}
	var warned []string
	for _, w := range f.Warnings {
		if w.Code == "unknown-verb" {
			warned = append(warned, w.Message)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "mystery_box") {
		t.Errorf("unknown-verb warnings: %q, want one for mystery_box", warned)
	}
}

// TestKindEvidence: without a known verb in the name, the kind comes from
// the description's leading verbs after a lead-in (a write among joined
// verbs wins; after an auxiliary, the noun made from a verb decides), then
// from nouns of the name made from verbs; group words are no evidence, and
// without any the op is write with an unknown-verb warning.
func TestKindEvidence(t *testing.T) {
	descs := map[string]string{
		"hostel_service":                  "API to search and book hostels worldwide.",
		"species_mapping":                 "A tool to find species in a forest.",
		"market_analysis_b":               "Performs a comprehensive market analysis of a region.",
		"portfolio_risk":                  "Identifies the risks of a portfolio.",
		"trip_organizer":                  "Helps users plan a trip.",
		"NearbyAttractionsFinder":         "",
		"LectureBookingAssistant":         "",
		"browser_handle_dialog":           "Handle a dialog.",
		"browser_click":                   "Click an element.",
		"browser_type":                    "Type text.",
		"simulateEvolution_runSimulation": "Runs it.",
		"StressMonitor_createDashboard":   "Creates a dashboard.",
		"traffic_lab":                     "Runs a simulation of city traffic.",
	}
	want := map[string]string{
		"hostel_service": "write", "species_mapping": "read", "market_analysis_b": "read", "portfolio_risk": "read",
		"trip_organizer": "read", "NearbyAttractionsFinder": "read", "LectureBookingAssistant": "write",
		"browser_handle_dialog": "write", "browser_click": "write", "browser_type": "write",
		"simulateEvolution_runSimulation": "read", "StressMonitor_createDashboard": "write",
		"traffic_lab": "read",
	}
	var names []string
	for n := range descs {
		names = append(names, n)
	}
	f := family(names...)
	for _, tool := range f.Tools {
		tool.Description = descs[tool.Name]
	}
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	for name, op := range opsOf(f) {
		if string(op.Kind) != want[name] {
			t.Errorf("%s (%q): kind %s, want %s", name, descs[name], op.Kind, want[name])
		}
	}
	var undecided []string
	for _, w := range f.Warnings {
		if tool, _, ok := UnknownVerb(w); ok {
			undecided = append(undecided, tool)
		}
	}
	if len(undecided) != 1 || undecided[0] != "browser_handle_dialog" {
		t.Errorf("tools without evidence: %v, want [browser_handle_dialog]", undecided)
	}
}

// TestMethodHeadVerb: a Class_method name whose method starts with a word
// the description leads with reads that word as its verb, known or not, so
// the unknown-verb warning names it (encrypt, not data).
func TestMethodHeadVerb(t *testing.T) {
	f := family("DataGuard_encryptBusinessData", "HomeCare_smartThermostatOptimizer")
	f.Tools[0].Description = "Encrypts business data with a key."
	f.Tools[1].Description = "Tunes smart thermostat settings."
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	if op := opsOf(f)["DataGuard_encryptBusinessData"]; op.Path != "data.guard.business.data.encrypt" {
		t.Errorf("DataGuard_encryptBusinessData → %s, want data.guard.business.data.encrypt", op.Path)
	}
	verbs := map[string]string{}
	for _, w := range f.Warnings {
		if tool, verb, ok := UnknownVerb(w); ok {
			verbs[tool] = verb
		}
	}
	if verbs["DataGuard_encryptBusinessData"] != "encrypt" || verbs["HomeCare_smartThermostatOptimizer"] == "smart" {
		t.Errorf("unknown verbs: %v, want encrypt and not smart", verbs)
	}
}

// TestRootUnionAndAllOfArgs: the arguments of a schema whose root is an
// allOf, anyOf or oneOf (MCP servers and pydantic write them) are its
// conjuncts' and alternatives' properties; an alternative's property is
// required when every alternative requires it. They read as no arguments
// at all before. A property written allOf [$ref] (pydantic v1) is labelled
// by what the $ref names, not any.
func TestRootUnionAndAllOfArgs(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"allOf":[{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},{"properties":{"size":{"type":"integer"}}}]}`,
			`w.create name:string [size:integer]`},
		{`{"type":"object","anyOf":[{"properties":{"email":{"type":"string"}},"required":["email"]},{"properties":{"user_id":{"type":"string"}},"required":["user_id"]}]}`,
			`w.create [email:string] [user_id:string]`},
		{`{"oneOf":[{"properties":{"q":{"type":"string"},"a":{"type":"integer"}},"required":["q","a"]},{"$ref":"#/$defs/B"}],"$defs":{"B":{"properties":{"q":{"type":"string"}},"required":["q"]}}}`,
			`w.create q:string [a:integer]`},
		{`{"type":"object","properties":{"address":{"allOf":[{"$ref":"#/definitions/Address"}]},"tier":{"allOf":[{"$ref":"#/definitions/Tier"}]}},"definitions":{"Address":{"type":"object","properties":{"city":{"type":"string"}}},"Tier":{"enum":["gold","silver"]}}}`,
			`w.create [address:object] [tier:enum(gold|silver)]`},
		{`{"type":"object","properties":{"unit":{"type":["string","null"],"enum":["c","f",null]}},"required":["unit"]}`,
			`w.create unit:enum(c|f|null)`},
	} {
		root, err := jsonpos.ParseBare([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := Usage("w.create", schemaArgs(root)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.schema, got, c.want)
		}
	}
}
