package ir

import (
	"slices"
	"testing"
)

func TestSubtypes(t *testing.T) {
	a, b, c, d, e, f, g := &Type{ID: "a"}, &Type{ID: "b"}, &Type{ID: "c"}, &Type{ID: "d"}, &Type{ID: "e"}, &Type{ID: "f"}, &Type{ID: "g"}
	root := &Type{
		Fields:            []*Field{{Type: a}, {Type: nil}},
		Elem:              b,
		PatternProperties: []PatternProperty{{Type: c}},
		Prefix:            []*Type{d},
		Branches:          []*Type{e, a},
		Constraints:       &Constraints{Contains: f, PropertyNames: g},
	}
	ids := func(seq func(func(*Type) bool)) []string {
		var out []string
		for x := range seq {
			out = append(out, x.ID)
		}
		return out
	}
	if got, want := ids(root.Values()), []string{"a", "b", "c", "d", "e", "a"}; !slices.Equal(got, want) {
		t.Errorf("Values = %v, want %v", got, want)
	}
	if got, want := ids(root.Subtypes()), []string{"a", "b", "c", "d", "e", "a", "f", "g"}; !slices.Equal(got, want) {
		t.Errorf("Subtypes = %v, want %v", got, want)
	}
	var nilType *Type
	if got := ids(nilType.Subtypes()); len(got) != 0 {
		t.Errorf("nil Subtypes = %v", got)
	}
	var first []string
	for x := range root.Subtypes() {
		first = append(first, x.ID)
		break
	}
	if !slices.Equal(first, []string{"a"}) {
		t.Errorf("early stop = %v", first)
	}
}
