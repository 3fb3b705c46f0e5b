package shape

import (
	"testing"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
)

// A strict-mode object: a required nullable string (*string, nil for
// null) and optional nullable scalars (runtime.Nullable).
type strict struct {
	Query *string
	Limit runtime.Nullable[int64]
	Ratio runtime.Nullable[float64]
	Flag  runtime.Nullable[bool]
	Name  runtime.Nullable[string]
}

var tableStrict = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(strict{}.Query), Kind: String, Form: Pointer, Null: true, Required: true, Check: &Check{
			MinLen: 2, MinLenRule: Rule{"minLength", "must be at least 2 characters long", "at least 2 characters"}}},
		{Offset: unsafe.Offsetof(strict{}.Limit), Kind: Int, Form: Nullable, Check: &checkCount},
		{Offset: unsafe.Offsetof(strict{}.Ratio), Kind: Float, Form: Nullable, Check: &Check{
			Bounds: []Bound{{Op: Greater, F: 1, Rule: Rule{"maximum", "must be <= 1", "<= 1"}}}}},
		{Offset: unsafe.Offsetof(strict{}.Flag), Kind: Bool, Form: Nullable},
		{Offset: unsafe.Offsetof(strict{}.Name), Kind: String, Form: Nullable, Check: &Check{
			MaxLen: 3, MaxLenRule: Rule{"maxLength", "must be at most 3 characters long", "at most 3 characters"}}},
	},
	Names:   []string{"query", "limit", "ratio", "flag", "name"},
	Checked: true,
	Type:    (*strict)(nil),
}

func TestNullable(t *testing.T) {
	decode := func(args string) (*strict, error) {
		x := new(strict)
		return x, DecodeArgs(&tableStrict, "t", []byte(args), unsafe.Pointer(x))
	}
	x, err := decode(`{"query":null,"limit":null,"ratio":0.5,"flag":false}`)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := x.Ratio.Get(); x.Query != nil || !x.Limit.IsNull() || !ok || r != 0.5 || x.Flag.IsNull() || !x.Flag.IsSet() || x.Name.IsSet() {
		t.Errorf("decoded %+v", x)
	}
	noAllocs(t, &tableStrict, unsafe.Pointer(x))
	// A value after null, and null after a value: the last one is read,
	// and the arguments are refused for the repeated members.
	x, err = decode(`{"query":"ab","query":null,"name":null,"name":"abc"}`)
	ve, _ := err.(*runtime.ValidationError)
	if v, ok := x.Name.Get(); ve == nil || len(ve.Fields) != 2 || ve.Fields[0].Code != "duplicate" || ve.Fields[1].Path != "/name" || x.Query != nil || !ok || v != "abc" {
		t.Errorf("repeated members: %+v, %v", x, err)
	}
	for args, want := range map[string]string{
		`{"limit":null}`:                    "/query required",
		`{"query":"a","limit":0,"ratio":2}`: "/query minLength",
		`{"query":null,"limit":0}`:          "/limit minimum",
		`{"query":null,"ratio":2}`:          "/ratio maximum",
		`{"query":null,"name":"abcd"}`:      "/name maxLength",
		`{"query":null,"flag":"yes"}`:       "/flag type",
		`{"query":null,"limit":"1"}`:        "/limit type",
		`{"query":7}`:                       "/query type",
	} {
		_, err := decode(args)
		ve, ok := err.(*runtime.ValidationError)
		if !ok || len(ve.Fields) == 0 || ve.Fields[0].Path+" "+ve.Fields[0].Code != want {
			t.Errorf("%s: %v, want %s first", args, err, want)
		}
	}
}
