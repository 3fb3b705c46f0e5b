package shape

import (
	"testing"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// A discriminated union as the generator writes it: one pointer per
// branch, the branch chosen by "kind".

type user struct {
	Kind string
	ID   int64
}

type team struct {
	Kind string
	Slug string
}

type target struct {
	User *user
	Team *team
}

type targets struct {
	One  target
	Opt  *target
	Many []target
}

var kindRule = func(v string) *Check {
	return &Check{Const: v, ConstRule: Rule{"const", `must be "` + v + `"`, `"` + v + `"`}}
}

var tableUser = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(user{}.Kind), Kind: String, Required: true, Check: kindRule("user")},
		{Offset: unsafe.Offsetof(user{}.ID), Kind: Int, Required: true, Check: &checkCount},
	},
	Names:   []string{"kind", "id"},
	Checked: true,
	Type:    (*user)(nil),
}

var tableTeam = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(team{}.Kind), Kind: String, Required: true, Check: kindRule("team")},
		{Offset: unsafe.Offsetof(team{}.Slug), Kind: String, Required: true},
	},
	Names:   []string{"kind", "slug"},
	Checked: true,
	Type:    (*team)(nil),
}

var tableTarget = Table{
	Checked: true,
	Type:    (*target)(nil),
	Union: &Union{
		Property: "kind",
		Tags:     []string{"user", "team"},
		Cases:    []int{0, 1},
		Branches: []Branch{
			{Offset: unsafe.Offsetof(target{}.User), Table: &tableUser},
			{Offset: unsafe.Offsetof(target{}.Team), Table: &tableTeam},
		},
		OneOf: true,
	},
}

var tableTargets = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(targets{}.One), Kind: Object, Required: true, Object: &tableTarget},
		{Offset: unsafe.Offsetof(targets{}.Opt), Kind: Object, Form: Pointer, Object: &tableTarget},
		{Offset: unsafe.Offsetof(targets{}.Many), Kind: Object, Form: OptSlice, Object: &tableTarget},
	},
	Names:   []string{"one", "opt", "many"},
	Checked: true,
	Type:    (*targets)(nil),
}

func decodeTargets(args string) (*targets, error) {
	x := new(targets)
	if err := DecodeArgs(&tableTargets, "t", []byte(args), unsafe.Pointer(x)); err != nil {
		return nil, err
	}
	return x, nil
}

const validTargets = `{"one":{"kind":"user","id":3},"opt":{"slug":"core","kind":"team"},"many":[{"kind":"team","slug":"a"},{"kind":"user","id":1}]}`

func TestUnionValid(t *testing.T) {
	x, err := decodeTargets(validTargets)
	if err != nil {
		t.Fatal(err)
	}
	if x.One.User == nil || x.One.User.ID != 3 || x.One.Team != nil || x.Opt == nil || x.Opt.Team == nil || x.Opt.Team.Slug != "core" ||
		len(x.Many) != 2 || x.Many[0].Team == nil || x.Many[0].Team.Slug != "a" || x.Many[1].User == nil || x.Many[1].User.ID != 1 {
		t.Errorf("decoded %+v", x)
	}
	noAllocs(t, &tableTargets, unsafe.Pointer(x))
}

func TestUnionInvalid(t *testing.T) {
	for _, c := range []struct {
		args string
		want []string // path code received suggestion
	}{
		{`{"one":{"id":3}}`, []string{`/one/kind required  `}},
		{`{"one":{"kind":5,"id":3}}`, []string{`/one/kind required  `}},
		{`{"one":{"kind":"","id":3}}`, []string{`/one/kind enum "" `}},
		{`{"one":{"kind":"usr","id":3}}`, []string{`/one/kind enum "usr" user`}},
		{`{"one":[1]}`, []string{`/one type [1] `}},
		{`{"one":{"kind":"user","id":0},"many":[{"kind":"team"},null]}`, []string{
			`/many/0/slug required  `, `/many/1 type null `, `/one/id minimum 0 `}},
	} {
		_, err := decodeTargets(c.args)
		wantErrors(t, c.args, err, true, c.want...)
	}
}

// TestUnionOneOf: a value built with two branches set breaks oneOf, and
// each set branch is checked at the union's own path.
func TestUnionOneOf(t *testing.T) {
	x := &targets{One: target{User: &user{Kind: "user", ID: 0}, Team: &team{Kind: "x", Slug: "s"}}}
	err := Validate(&tableTargets, unsafe.Pointer(x))
	wantErrors(t, "two branches set", err, false, "/one oneOf", "/one/id minimum", "/one/kind const")
}

// FuzzDecodeUnion: no input makes the union interpreter panic, and what
// it decodes re-validates.
func FuzzDecodeUnion(f *testing.F) {
	f.Add([]byte(validTargets))
	for _, s := range wiretest.Hostile() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		x, err := decodeTargets(string(args))
		if err == nil {
			if err := Validate(&tableTargets, unsafe.Pointer(x)); err != nil {
				t.Errorf("%s decodes without errors but Validate reports %v", args, err)
			}
		}
	})
}

// TestUnionDecodedAgain: a union holds one value, so decoding into a used
// one (its holder's UnmarshalJSON again, or its own) keeps no branch of
// the value it held, as the generated decoder's *x = T{} keeps none.
func TestUnionDecodedAgain(t *testing.T) {
	x := new(targets)
	if err := Unmarshal(&tableTargets, []byte(`{"one":{"kind":"user","id":3}}`), unsafe.Pointer(x)); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(&tableTargets, []byte(`{"one":{"kind":"team","slug":"a"}}`), unsafe.Pointer(x)); err != nil {
		t.Fatal(err)
	}
	if x.One.User != nil || x.One.Team == nil || x.One.Team.Slug != "a" {
		t.Errorf("holder decoded again: User %+v, Team %+v; want only Team", x.One.User, x.One.Team)
	}
	if err := Validate(&tableTargets, unsafe.Pointer(x)); err != nil {
		t.Errorf("holder decoded again: %v", err)
	}

	u := &target{User: &user{Kind: "user", ID: 1}}
	if err := Unmarshal(&tableTarget, []byte(`{"kind":"team","slug":"b"}`), unsafe.Pointer(u)); err != nil {
		t.Fatal(err)
	}
	if u.User != nil || u.Team == nil || u.Team.Slug != "b" {
		t.Errorf("union decoded again: User %+v, Team %+v; want only Team", u.User, u.Team)
	}
	// A value of no branch leaves none set, as in generated code.
	u = &target{User: &user{Kind: "user", ID: 1}}
	if err := Unmarshal(&tableTarget, []byte(`[1]`), unsafe.Pointer(u)); err == nil {
		t.Error("[1] decodes into a union of objects")
	}
	if u.User != nil || u.Team != nil {
		t.Errorf("union decoded again from [1]: User %+v, Team %+v; want none", u.User, u.Team)
	}
}
