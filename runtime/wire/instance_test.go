package wire

import (
	"reflect"
	"testing"
)

// TestInstance: the value at a path in the arguments as sent, the
// decoded value's generic form when there are no arguments or the path
// is not in them.
func TestInstance(t *testing.T) {
	type typed struct {
		A int `json:"a"`
	}
	var e Errors
	root := (*Path)(nil)
	o := root.Key("o")
	item := o.Index(1)
	missing := o.Key("nope")
	if got, ok := e.Instance(&o, typed{A: 7}); !ok || !reflect.DeepEqual(got, map[string]any{"a": float64(7)}) {
		t.Errorf("no arguments: %#v, %v, want the typed value's generic form", got, ok)
	}
	e.UseArgs([]byte(`{"o":[{"a":1,"extra":true},{"a":2,"b":"x"}]}`))
	sub := e.Sub()
	for _, tc := range []struct {
		p    *Path
		want any
		ok   bool
	}{
		{root, map[string]any{"o": []any{map[string]any{"a": float64(1), "extra": true}, map[string]any{"a": float64(2), "b": "x"}}}, true},
		{&item, map[string]any{"a": float64(2), "b": "x"}, true},
		// Not sent: a default filled it in, checked at generation.
		{&missing, nil, false},
	} {
		for _, errs := range []*Errors{&e, &sub} {
			if got, ok := errs.Instance(tc.p, typed{A: 7}); ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Instance(%q) = %#v, %v, want %#v, %v", tc.p.String(), got, ok, tc.want, tc.ok)
			}
		}
	}
	base := At("/o")
	if got, ok := e.Instance(&base, typed{A: 7}); !ok || !reflect.DeepEqual(got, map[string]any{"a": float64(7)}) {
		t.Errorf("below a base path: %#v, %v, want the typed value's", got, ok)
	}
	var bad Errors
	bad.UseArgs([]byte(`{"o":`))
	if got, ok := bad.Instance(&o, typed{A: 3}); !ok || !reflect.DeepEqual(got, map[string]any{"a": float64(3)}) {
		t.Errorf("unparsable arguments: %#v, %v, want the typed value's", got, ok)
	}
}

// TestSyntaxErrorAtKey: a syntax error where a member's key belongs is the
// object's (its pointer), not that of a member named "".
func TestSyntaxErrorAtKey(t *testing.T) {
	for in, want := range map[string]string{`{'v':1}`: "", `{"a":{'x':1}}`: "/a", `[{"a":[{,}]}]`: "/0/a/0"} {
		d := NewDecoder([]byte(in))
		d.Any()
		d.Close()
		var se *SyntaxError
		if err := d.Err(); err == nil || !errorsAs(err, &se) || se.Path != want {
			t.Errorf("%s: %v (path %q), want path %q", in, err, pathOf(se), want)
		}
	}
}

func errorsAs(err error, se **SyntaxError) bool {
	s, ok := err.(*SyntaxError)
	*se = s
	return ok
}

func pathOf(se *SyntaxError) string {
	if se == nil {
		return ""
	}
	return se.Path
}

// TestAsSent: a value of no declared type is replaced by the arguments'
// exact form only when it is the same value read with float64 numbers.
func TestAsSent(t *testing.T) {
	var e Errors
	root := (*Path)(nil)
	n, u, missing := root.Key("n"), root.Key("u"), root.Key("nope")
	big := float64(9007199254740993)
	if got := e.AsSent(&n, big); got != big {
		t.Errorf("no arguments: %#v, want the value itself", got)
	}
	e.UseArgs([]byte(`{"n":[9007199254740993,{"k":"s","b":true,"z":null}],"u":9007199254740993}`))
	exact := []any{int64(9007199254740993), map[string]any{"k": "s", "b": true, "z": nil}}
	for _, tc := range []struct {
		name string
		p    *Path
		x    any
		want any
	}{
		{"the same value", &n, []any{big, map[string]any{"k": "s", "b": true, "z": nil}}, exact},
		{"another number", &n, []any{float64(1), map[string]any{"k": "s", "b": true, "z": nil}}, []any{float64(1), map[string]any{"k": "s", "b": true, "z": nil}}},
		{"a member more", &n, []any{big, map[string]any{"k": "s", "b": true, "z": nil, "y": 1.0}}, []any{big, map[string]any{"k": "s", "b": true, "z": nil, "y": 1.0}}},
		{"another kind", &n, map[string]any{}, map[string]any{}},
		{"a branch the value did not set", &u, nil, nil},
		{"a string where the number was", &u, "9007199254740993", "9007199254740993"},
		{"nothing sent there", &missing, 2.0, 2.0},
	} {
		if got := e.AsSent(tc.p, tc.x); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: AsSent(%q) = %#v, want %#v", tc.name, tc.p.String(), got, tc.want)
		}
	}
}
