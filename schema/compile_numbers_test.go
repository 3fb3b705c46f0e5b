package schema

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// numberWarnings are the warnings of a family about numbers: beyond the Go
// type (number-range) and defaults not applied (default-mismatch).
func numberWarnings(fam *ir.Family) []ir.Diagnostic {
	var out []ir.Diagnostic
	for _, w := range fam.Warnings {
		if w.Code == codeNumberRange || w.Code == "default-mismatch" {
			out = append(out, w)
		}
	}
	return out
}

// A schema whose numeric keywords explicitly allow or name a value the
// generated int64 or float64 cannot hold generates with a located warning
// at the keyword (an enum member at its own pointer); ordinary bounds and
// unbounded numbers say nothing. A default such a type cannot hold is not
// applied.
func TestNumberRangeWarnings(t *testing.T) {
	const x = "/0/function/parameters/properties/x"
	cases := []struct {
		name   string
		schema string
		// ptr is the warning's pointer below x ("" for no warning);
		// code its code and want the words it must hold.
		ptr, code string
		want      []string
	}{
		// Integers: int64.
		{"integer maximum beyond", `{"type":"integer","maximum":1e30}`, "/maximum", codeNumberRange,
			[]string{"maximum 1e30 allows integers up to 1e30", "the generated int64 holds -9223372036854775808 to 9223372036854775807", "refused with an error at call time"}},
		{"integer minimum beyond", `{"type":"integer","minimum":-1e20}`, "/minimum", codeNumberRange,
			[]string{"minimum -1e20 allows integers down to -1e20", "int64"}},
		{"integer exclusiveMaximum beyond", `{"type":"integer","exclusiveMaximum":1e19}`, "/exclusiveMaximum", codeNumberRange,
			[]string{"exclusiveMaximum 1e19 allows integers below 1e19"}},
		{"integer exclusiveMinimum beyond", `{"type":"integer","exclusiveMinimum":-1e19}`, "/exclusiveMinimum", codeNumberRange,
			[]string{"exclusiveMinimum -1e19 allows integers above -1e19"}},
		{"integer minimum above int64", `{"type":"integer","minimum":1e20}`, "/minimum", codeNumberRange,
			[]string{"minimum 1e20 allows only integers above the range of the generated int64", "no argument passes"}},
		{"integer maximum below int64", `{"type":"integer","maximum":-1e400}`, "/maximum", codeNumberRange,
			[]string{"maximum -1e400 allows only integers below the range of the generated int64", "no argument passes"}},
		{"integer maximum one past", `{"type":"integer","maximum":9223372036854775808}`, "/maximum", codeNumberRange,
			[]string{"allows integers up to 9223372036854775808"}},
		{"integer minimum one past", `{"type":"integer","minimum":-9223372036854775809}`, "/minimum", codeNumberRange,
			[]string{"allows integers down to -9223372036854775809"}},
		{"integer minimum rounds up past", `{"type":"integer","minimum":9223372036854775807.5}`, "/minimum", codeNumberRange,
			[]string{"allows only integers above"}},
		{"integer enum member", `{"type":"integer","enum":[1,1e20,2]}`, "/enum/1", codeNumberRange,
			[]string{"enum member 1e20 is outside the range of the generated int64", "an argument of this value is refused with an error at call time"}},
		{"untyped integer enum member", `{"enum":[1,100000000000000000000]}`, "/enum/1", codeNumberRange,
			[]string{"enum member 100000000000000000000 is outside the range of the generated int64"}},
		{"integer const", `{"type":"integer","const":12345678901234567890}`, "/const", codeNumberRange,
			[]string{"const 12345678901234567890 is outside the range of the generated int64", "no argument passes"}},
		{"number-typed const read as int64", `{"type":"number","const":12345678901234567890}`, "/const", codeNumberRange,
			[]string{"const 12345678901234567890 is outside the range of the generated int64"}},
		{"integer multipleOf beyond", `{"type":"integer","multipleOf":1e20}`, "/multipleOf", codeNumberRange,
			[]string{"multipleOf 1e20: every multiple of it but 0 is outside the range of the generated int64", "only 0 passes"}},
		{"nullable integer", `{"type":["integer","null"],"maximum":1e30}`, "/maximum", codeNumberRange,
			[]string{"maximum 1e30 allows integers up to 1e30"}},
		{"integer in a type list", `{"type":["integer","string"],"maximum":1e30}`, "/maximum", codeNumberRange,
			[]string{"maximum 1e30 allows integers up to 1e30"}},
		{"integer through allOf", `{"allOf":[{"type":"integer"},{"minimum":-1e20}]}`, "/allOf/1/minimum", codeNumberRange,
			[]string{"minimum -1e20 allows integers down to -1e20"}},
		{"integer default beyond", `{"type":"integer","default":1e30}`, "/default", "default-mismatch",
			[]string{"default 1e30 is outside the range of the Go type of this field (int64); not applied"}},
		{"integer default rounding into int64", `{"type":"integer","default":-9223372036854775809.0}`, "/default", "default-mismatch",
			[]string{"default -9223372036854775809.0 is outside the range of the Go type of this field (int64); not applied"}},
		{"const default beyond", `{"type":"integer","const":12345678901234567890,"default":12345678901234567890}`, "/default", "default-mismatch",
			[]string{"default 12345678901234567890 is outside the range of the Go type of this field (int64); not applied"}},
		{"nested integer default", `{"type":"array","items":{"type":"integer"},"default":[1,-9223372036854775809.0]}`, "/default", "default-mismatch",
			[]string{"holds -9223372036854775809.0, which is outside the range of the Go type holding it (int64); not applied"}},
		{"map default", `{"type":"object","additionalProperties":{"type":"integer"},"default":{"a":1,"b":-9223372036854775809.0}}`, "/default", "default-mismatch",
			[]string{"holds -9223372036854775809.0, which is outside the range of the Go type holding it (int64)"}},
		{"tuple default", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"default":["a",1e-400]}`, "/default", "default-mismatch",
			[]string{"holds 1e-400, which is nonzero but nearer to zero than any float64"}},
		{"union default", `{"type":["integer","string"],"default":-9223372036854775809.0}`, "/default", "default-mismatch",
			[]string{"outside the range of the Go type of the union branch it fits (int64)"}},
		{"integer const in exponent form", `{"type":"integer","const":9.007199254740993e15}`, "/const", codeNumberRange,
			[]string{"const 9.007199254740993e15 is read into a float64, which cannot hold it exactly: it reads as 9007199254740992", "(9007199254740993) it is read into an exact int64"}},

		// Numbers: float64.
		{"number maximum beyond", `{"type":"number","maximum":1e400}`, "/maximum", codeNumberRange,
			[]string{"maximum 1e400 allows numbers up to 1e400", "the generated float64 holds 0 and magnitudes from 5e-324 to 1.7976931348623157e308", "refused with an error at call time"}},
		{"number minimum below", `{"type":"number","minimum":-1e400}`, "/minimum", codeNumberRange,
			[]string{"minimum -1e400 allows numbers down to -1e400"}},
		{"number minimum above float64", `{"type":"number","minimum":1e400}`, "/minimum", codeNumberRange,
			[]string{"allows only numbers above the range of the generated float64", "no argument passes"}},
		{"number exclusiveMinimum tiny", `{"type":"number","exclusiveMinimum":1e-400}`, "/exclusiveMinimum", codeNumberRange,
			[]string{"exclusiveMinimum 1e-400 is nonzero but nearer to zero than any float64", "(they would read as 0)", "refused with an error at call time"}},
		{"number maximum tiny", `{"type":"number","maximum":-2e-324}`, "/maximum", codeNumberRange,
			[]string{"maximum -2e-324 is nonzero but nearer to zero than any float64"}},
		{"number enum member beyond", `{"type":"number","enum":[0.5,1e400]}`, "/enum/1", codeNumberRange,
			[]string{"enum member 1e400 is outside the range of the generated float64"}},
		{"number enum member tiny", `{"type":"number","enum":[1e-400,2]}`, "/enum/0", codeNumberRange,
			[]string{"enum member 1e-400 is nonzero but nearer to zero than any float64", "(it would read as 0)"}},
		{"number enum member inexact", `{"type":"number","enum":[9007199254740993]}`, "/enum/0", codeNumberRange,
			[]string{"it reads as 9007199254740992, and an argument of 9007199254740992 passes as the same float64", `"type": "integer" reads it into an exact int64`}},
		{"number enum decimal inexact", `{"type":"number","enum":[0.30000000000000001]}`, "/enum/0", codeNumberRange,
			[]string{"it reads as 0.3"}},
		{"const beyond float64", `{"const":1e400}`, "/const", codeNumberRange,
			[]string{"const 1e400 is outside the range of the generated float64", "no argument passes"}},
		{"number const tiny", `{"type":"number","const":1e-400}`, "/const", codeNumberRange,
			[]string{"const 1e-400 is nonzero but nearer to zero than any float64", "so no argument passes"}},
		{"number multipleOf beyond", `{"type":"number","multipleOf":1e400}`, "/multipleOf", codeNumberRange,
			[]string{"every multiple of it but 0 is outside the range of the generated float64"}},
		{"number default beyond", `{"type":"number","default":1e400}`, "/default", "default-mismatch",
			[]string{"default 1e400 is outside the range of the Go type of this field (float64); not applied"}},
		{"number default tiny", `{"type":"number","default":1e-400}`, "/default", "default-mismatch",
			[]string{"default 1e-400 is nonzero but nearer to zero than any float64 (the Go type of this field), so it would read as 0; not applied"}},
		{"nested number default tiny", `{"type":"object","properties":{"r":{"type":"number"}},"default":{"r":1e-400}}`, "/default", "default-mismatch",
			[]string{"holds 1e-400, which is nonzero but nearer to zero than any float64"}},

		// Ordinary schemas say nothing.
		{"integer maximum 100", `{"type":"integer","minimum":1,"maximum":100}`, "", "", nil},
		{"integer minimum -1e15", `{"type":"integer","minimum":-1e15}`, "", "", nil},
		{"number maximum 1e300", `{"type":"number","maximum":1e300}`, "", "", nil},
		{"unbounded integer", `{"type":"integer"}`, "", "", nil},
		{"integer at the int64 ends", `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`, "", "", nil},
		{"integer exclusive one past", `{"type":"integer","exclusiveMinimum":-9223372036854775809,"exclusiveMaximum":9223372036854775808}`, "", "", nil},
		{"integer maximum rounds down into", `{"type":"integer","maximum":9223372036854775807.5}`, "", "", nil},
		{"integer tiny bound", `{"type":"integer","exclusiveMinimum":1e-400}`, "", "", nil},
		{"integer multipleOf 2^63", `{"type":"integer","multipleOf":9223372036854775808}`, "", "", nil},
		{"integer enum near 2^63", `{"type":"integer","enum":[9007199254740993,9223372036854775807,-9223372036854775808]}`, "", "", nil},
		{"integer const past 2^53", `{"type":"integer","const":9007199254740993}`, "", "", nil},
		{"float const 1e20", `{"type":"integer","const":1e20}`, "", "", nil},
		{"number bounds at the float64 ends", `{"type":"number","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308,"exclusiveMinimum":-5e-324}`, "", "", nil},
		{"number enum decimals", `{"type":"number","enum":[0.1,0.5,1e300,-2.5e-300]}`, "", "", nil},
		{"number multipleOf tiny", `{"type":"number","multipleOf":1e-400}`, "", "", nil},
		{"integer default", `{"type":"integer","default":-9223372036854775808}`, "", "", nil},
		{"number default", `{"type":"number","default":1e300}`, "", "", nil},
		{"string enum", `{"enum":["1e400","a"]}`, "", "", nil},
		{"untyped bound", `{"maximum":1e30}`, "", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			params := `{"type":"object","properties":{"x":` + tc.schema + `}}`
			fam, err := compileTools(t, tool("do_it", params))
			if err != nil {
				t.Fatal(err)
			}
			ws := numberWarnings(fam)
			if tc.ptr == "" {
				if len(ws) > 0 {
					t.Fatalf("unexpected warnings: %+v", ws)
				}
				return
			}
			// A const and its default beyond int64 are two warnings.
			ws = slices.DeleteFunc(ws, func(w ir.Diagnostic) bool {
				return tc.code == "default-mismatch" && w.Code == codeNumberRange && w.Pos.Pointer == x+"/const"
			})
			if len(ws) != 1 {
				t.Fatalf("want one warning at %s, got %+v", x+tc.ptr, ws)
			}
			w := ws[0]
			if w.Pos.Pointer != x+tc.ptr || w.Code != tc.code || w.Pos.Line == 0 {
				t.Errorf("warning at %s:%d:%d %s (%s), want %s (%s)", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Pos.Pointer, w.Code, x+tc.ptr, tc.code)
			}
			for _, s := range tc.want {
				if !strings.Contains(w.Message, s) {
					t.Errorf("warning %q does not say %q", w.Message, s)
				}
			}
		})
	}
}

// A default the field's Go type cannot hold is not applied (generated code
// would not compile, would read another value, or would refuse every call
// that leaves the argument out); one it holds is.
func TestNumberDefaultsApplied(t *testing.T) {
	params := `{"type":"object","$defs":{"i":{"type":"integer"}},"properties":{
		"int_edge":{"type":"integer","default":-9223372036854775809.0},
		"int_ok":{"type":"integer","default":-9223372036854775808.0},
		"tiny":{"type":"number","default":1e-400},
		"small":{"type":"number","default":5e-324},
		"const_big":{"const":12345678901234567890,"default":12345678901234567890},
		"list":{"type":"array","items":{"type":"number"},"default":[1,1e-400]},
		"ref":{"$ref":"#/$defs/i","default":-9223372036854775809.0},
		"ref_ok":{"$ref":"#/$defs/i","default":7}}}`
	fam, err := compileTools(t, tool("do_it", params))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"int_ok": "-9223372036854775808.0", "small": "5e-324", "ref_ok": "7"}
	for _, f := range fam.Tools[0].Params.Fields {
		if got := string(f.Default); got != want[f.JSONName] {
			t.Errorf("%s: default %q, want %q", f.JSONName, got, want[f.JSONName])
		}
	}
	// Five defaults not applied, and the const beyond int64.
	if n := len(numberWarnings(fam)); n != 6 {
		t.Errorf("%d number warnings, want 6: %+v", n, fam.Warnings)
	}
}
