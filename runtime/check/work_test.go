package check

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// logicSchema is JSON-logic's rules: an anyOf of scalars, an array of
// rules and one object per operator, whose operand is "an array of
// rules, or one rule" (an array matches both branches at every level).
const logicSchema = `{"$ref":"#/$defs/Expr","$defs":{
	"Expr":{"anyOf":[{"type":"number"},{"type":"string"},{"type":"boolean"},
		{"type":"array","items":{"$ref":"#/$defs/Expr"}},
		{"type":"object","properties":{"and":{"$ref":"#/$defs/Args"}},"required":["and"],"additionalProperties":false},
		{"type":"object","properties":{"var":{"$ref":"#/$defs/Args"}},"required":["var"],"additionalProperties":false}]},
	"Args":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Expr"}},{"$ref":"#/$defs/Expr"}]}}}`

// filterSchema is a Notion-style filter: an anyOf of 21 object
// branches, each requiring its own member, the last an "and" of filters.
func filterSchema() string {
	var branches []string
	for i := range 20 {
		branches = append(branches, fmt.Sprintf(`{"type":"object","properties":{"property":{"type":"string"},"f%d":{"type":"object"}},"required":["property","f%d"]}`, i, i))
	}
	branches = append(branches, `{"type":"object","properties":{"and":{"type":"array","items":{"$ref":"#/$defs/F"}}},"required":["and"]}`)
	return `{"$ref":"#/$defs/F","$defs":{"F":{"anyOf":[` + strings.Join(branches, ",") + `]}}}`
}

func filterTree(depth, fan int) string {
	if depth == 0 {
		return `{"property":"p","f3":{"equals":"x"}}`
	}
	items := make([]string, fan)
	for i := range items {
		items[i] = filterTree(depth-1, fan)
	}
	return `{"and":[` + strings.Join(items, ",") + `]}`
}

func rule(depth int, leaf string) string {
	return strings.Repeat(`{"and":[`, depth) + leaf + strings.Repeat(`]}`, depth)
}

// TestEvaluationsAreBounded: a value whose check tries anyOf branches
// nested in themselves, 2^depth of them, is refused with maxWork (a
// JSON-logic rule 16 levels deep with a wrong value at the bottom took
// 5.9 s, each level more doubling it; 254 levels: 0.6 s now), while
// valid rules 254 levels deep, Notion-style filters of 3,000 conditions
// or nested three levels, and wrong values that take few evaluations are
// checked as before.
func TestEvaluationsAreBounded(t *testing.T) {
	logic, filter := MustSchema(logicSchema), MustSchema(filterSchema())
	for _, tc := range []struct {
		name   string
		s      *Schema
		value  string
		refuse string // the code of the one violation, "" for none
	}{
		{"valid rule, 254 levels", logic, rule(254, `{"var":"a"}`), ""},
		{"wrong rule, 3 levels", logic, rule(3, `{"var":{"x":1}}`), "anyOf"},
		{"wrong rule, 16 levels", logic, rule(16, `{"var":{"x":1}}`), "maxWork"},
		{"wrong rule, 254 levels", logic, rule(254, `{"var":{"x":1}}`), "maxWork"},
		{"3,000 conditions", filter, filterTree(1, 3000), ""},
		{"three levels of 12", filter, filterTree(3, 12), ""},
		{"a wrong condition", filter, `{"and":[{"property":"p"}]}`, "anyOf"},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
			t.Fatal(err)
		}
		errs := tc.s.Validate(v, "/x")
		switch {
		case tc.refuse == "" && errs != nil:
			t.Errorf("%s: %v", tc.name, errs)
		case tc.refuse != "" && (len(errs) != 1 || errs[0].Code != tc.refuse || errs[0].Path != "/x"):
			t.Errorf("%s: %v, want one %s at /x", tc.name, errs, tc.refuse)
		}
	}
}

// TestEvaluationsPerCall: calls checking one Schema at once each count
// their own evaluations: valid values checked beside values refused for
// their work are not refused, and the Schema compiles at most one copy
// for each call running at once.
func TestEvaluationsPerCall(t *testing.T) {
	s := MustSchema(logicSchema)
	var good, bad any
	if json.Unmarshal([]byte(rule(40, `{"var":"a"}`)), &good) != nil || json.Unmarshal([]byte(rule(13, `{"var":{"x":1}}`)), &bad) != nil {
		t.Fatal("bad JSON")
	}
	const workers = 4
	var wg sync.WaitGroup
	errs := make(chan string, workers*3)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				if w%2 == 0 {
					if found := s.Validate(good, ""); found != nil {
						errs <- "valid value refused: " + found[0].Message
					}
				} else if found := s.Validate(bad, ""); len(found) != 1 || found[0].Code != "maxWork" {
					errs <- "call " + strconv.Itoa(i) + ": " + fmt.Sprint(found)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := len(s.spare); n > workers {
		t.Errorf("%d copies compiled for %d calls at once", n, workers)
	}
}

// TestUnknownFormatsCount: schemas whose format Format does not check
// (here every one of them) are counted too (its format is an annotation, replaced by the counting
// one), and such a format is not asserted: "semver" and "period", which
// the library knows, accept any string, as they do in generated code.
func TestUnknownFormatsCount(t *testing.T) {
	custom := strings.NewReplacer(`"anyOf"`, `"format":"x-custom","anyOf"`, `{"type"`, `{"format":"x-custom","type"`,
		`{"$ref"`, `{"format":"x-custom","$ref"`).Replace(logicSchema)
	s := MustSchema(custom)
	var bad any
	if err := json.Unmarshal([]byte(rule(16, `{"var":{"x":1}}`)), &bad); err != nil {
		t.Fatal(err)
	}
	if errs := s.Validate(bad, ""); len(errs) != 1 || errs[0].Code != "maxWork" {
		t.Errorf("unknown format: %v", errs)
	}
	for _, f := range []string{"semver", "period", "x-custom"} {
		if errs := MustSchema(`{"format":"`+f+`"}`).Validate("not one", ""); errs != nil {
			t.Errorf("%s: %v", f, errs)
		}
	}
}

// TestEverySchemaCounts: schemas the keywords addWorkFormat edits do not
// reach are counted too: a $ref to a location under a keyword it does
// not know (8 s for a wrong rule 16 levels deep before), and schemas
// whose format is "regex", which the library checks with its own engine
// (15 s). Valid rules are still accepted.
func TestEverySchemaCounts(t *testing.T) {
	for name, src := range map[string]string{
		"unknown keyword": strings.ReplaceAll(logicSchema, "$defs", "x-defs"),
		"regex format": strings.NewReplacer(`{"anyOf"`, `{"format":"regex","anyOf"`, `{"type"`, `{"format":"regex","type"`,
			`{"$ref"`, `{"format":"regex","$ref"`).Replace(logicSchema),
	} {
		s := MustSchema(src)
		var good, bad any
		if json.Unmarshal([]byte(rule(40, `{"var":"a"}`)), &good) != nil || json.Unmarshal([]byte(rule(12, `{"var":{"x":1}}`)), &bad) != nil {
			t.Fatal("bad JSON")
		}
		if errs := s.Validate(good, ""); errs != nil {
			t.Errorf("%s: valid rule: %v", name, errs)
		}
		if errs := s.Validate(bad, ""); len(errs) != 1 || errs[0].Code != "maxWork" {
			t.Errorf("%s: wrong rule 12 levels deep: %v, want maxWork", name, errs)
		}
	}
}

// TestSparesAreBounded: copies compiled for a burst of calls at once
// are not all kept after it.
func TestSparesAreBounded(t *testing.T) {
	s := MustSchema(logicSchema)
	var burst []copyOf
	for range 3 * spareLimit() {
		c, err := s.take()
		if err != nil {
			t.Fatal(err)
		}
		burst = append(burst, c)
	}
	for _, c := range burst {
		s.put(c)
	}
	if n := len(s.spare); n > spareLimit() {
		t.Errorf("%d copies kept after %d calls at once, want at most %d", n, len(burst), spareLimit())
	}
}

// TestWideSchemasAreNotRefused: a schema that applies more than
// EvaluationsPerValue of its subschemas to each value without nesting
// them (an allOf of 32 if/then conditions on each item) is allowed as
// many evaluations per value: 300 items were refused with maxWork,
// though checking them takes time linear in their number. Alternatives
// nested in themselves are still refused.
func TestWideSchemasAreNotRefused(t *testing.T) {
	var conds, items []string
	for i := range 32 {
		conds = append(conds, fmt.Sprintf(`{"if":{"properties":{"kind":{"const":"k%d"}},"required":["kind"]},"then":{"required":["f%d"]}}`, i, i))
	}
	for i := range 300 {
		items = append(items, fmt.Sprintf(`{"kind":"k%d","name":"x","f%d":1}`, i%32, i%32))
	}
	s := MustSchema(`{"type":"array","items":{"type":"object","properties":{"kind":{"type":"string"},"name":{"type":"string"}},"allOf":[` +
		strings.Join(conds, ",") + `]}}`)
	var v any
	if err := json.Unmarshal([]byte(`[`+strings.Join(items, ",")+`]`), &v); err != nil {
		t.Fatal(err)
	}
	if errs := s.Validate(v, ""); errs != nil {
		t.Errorf("300 items, 32 conditions each: %v", errs)
	}
	if s.perValue != 97 { // the item, 32 conditions, their if and then
		t.Errorf("%d evaluations allowed per value, want 97", s.perValue)
	}
	if w := MustSchema(logicSchema).perValue; w != EvaluationsPerValue {
		t.Errorf("JSON-logic rules are allowed %d evaluations per value, want %d", w, EvaluationsPerValue)
	}
}

// TestEarlyStopsCount: a schema's check counts the subschemas it
// applies to the same value that stop before their format (a wrong
// type, a const, an enum, false), each an error as long as the value is
// deep: an anyOf of 100 null schemas nested in itself took 6.5 s (2.8
// GB allocated) to refuse a rule 254 levels deep, 88 s once wide schemas
// were allowed more evaluations per value; 1.4 to 2.2 s now.
func TestEarlyStopsCount(t *testing.T) {
	nulls := strings.Repeat(`{"type":"null"},`, 100)
	for _, tc := range []struct {
		schema string
		value  any
		want   int // evaluations at least
	}{
		{`{"anyOf":[` + nulls + `{"type":"string"}]}`, "x", 102},
		{`{"oneOf":[` + strings.Repeat(`{"const":1},`, 50) + `false,{"enum":["x"]}]}`, "x", 53},
		{`{"allOf":[{"type":"integer"},{"type":"number"}]}`, 1.5, 3},
		{`{"anyOf":[` + nulls + `{"type":"string"}]}`, nil, 2}, // the first branch matches
	} {
		s := MustSchema(tc.schema)
		cp, err := s.take()
		if err != nil {
			t.Fatal(err)
		}
		cp.work.left = 1 << 30
		cp.s.Validate(tc.value)
		if used := 1<<30 - cp.work.left; used < tc.want || used > tc.want+tc.want/2+2 {
			t.Errorf("%s on %v: %d evaluations counted, want %d", tc.schema[:40], tc.value, used, tc.want)
		}
	}
}

// TestValidateInChargesTheCall: the embedded validator's pattern matches
// are charged to the budget ValidateIn is given (the call's), so that a
// call whose budget is spent has its next backtracking match refused,
// fail closed, as generated code's are; Validate has a budget of its
// own.
func TestValidateInChargesTheCall(t *testing.T) {
	s := MustSchema(`{"type":"array","items":{"not":{"pattern":"^(?=x)x+$"}}}`)
	v := []any{"abc", "xyz"}
	if errs := s.Validate(v, "/a"); errs != nil {
		t.Fatalf("Validate: %v", errs)
	}
	fresh := new(Budget)
	if errs := s.ValidateIn(v, "/a", fresh); errs != nil || fresh.spent <= 0 {
		t.Fatalf("ValidateIn, a fresh budget: %v, %v charged", errs, fresh.spent)
	}
	spent := &Budget{spent: CallBudget()}
	errs := s.ValidateIn(v, "/a", spent)
	if len(errs) != 1 || errs[0].Code != "pattern" || !strings.Contains(errs[0].Message, "already spent") {
		t.Fatalf("ValidateIn, a spent budget: %v", errs)
	}
}

// TestEvaluationsPerCallBudget: the values of one call checked through
// one budget share MinEvaluations, each adding its own allowance per
// value: 100 wrong rules 14 levels deep, each a call of its own to
// ValidateIn, evaluate MinEvaluations and their own allowances in all
// (66,000; each had MinEvaluations of its own, 1.6 million: 9.3 s for
// 15.5 KB of them).
func TestEvaluationsPerCallBudget(t *testing.T) {
	s := MustSchema(logicSchema)
	var wrong any
	if err := json.Unmarshal([]byte(rule(14, `{"var":{"x":1}}`)), &wrong); err != nil {
		t.Fatal(err)
	}
	b := new(Budget)
	spent := 0
	for range 100 {
		before := b.evals
		if !b.evalsSet {
			before = MinEvaluations
		}
		if errs := s.ValidateIn(wrong, "", b); len(errs) != 1 {
			t.Fatalf("%v", errs)
		}
		spent += before + s.perValue*countValues(wrong) - b.evals
	}
	if most := MinEvaluations + 100*s.perValue*countValues(wrong); spent > most {
		t.Errorf("%d evaluations for 100 values of one call, want at most %d", spent, most)
	}
}
