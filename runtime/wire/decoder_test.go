package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// person is a hand-written decoder in the shape the generator emits.
type person struct {
	Name string
	Age  int64
	Tags []string
	Meta any
}

func (p *person) decode(d *Decoder) {
	if !d.Object() {
		return
	}
	var seenName bool
	for d.More() {
		switch string(d.Key()) {
		case "name":
			seenName = true
			p.Name = d.String()
		case "age":
			p.Age = d.Int()
		case "tags":
			if d.Array() {
				p.Tags = []string{}
				for d.More() {
					p.Tags = append(p.Tags, d.String())
				}
			}
		case "meta":
			p.Meta = d.Any()
		default:
			d.Unknown([]string{"name", "age", "tags", "meta"})
		}
	}
	if !seenName {
		d.Missing("name")
	}
}

func decodePerson(s string) (person, []runtime.FieldError, error) {
	d := NewArgsDecoder([]byte(s))
	var p person
	p.decode(d)
	err := d.Close()
	return p, d.Errors(), err
}

func TestDecodeValid(t *testing.T) {
	p, errs, err := decodePerson(` {"name":"Ana \u00e9\ud83d\ude00","age":1.0e1,"tags":["a","b\n"],"meta":{"x":[1,true,null,"s"]}} `)
	if err != nil || len(errs) != 0 {
		t.Fatalf("err %v, errs %v", err, errs)
	}
	want := person{Name: "Ana é😀", Age: 10, Tags: []string{"a", "b\n"}, Meta: map[string]any{"x": []any{1.0, true, nil, "s"}}}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got %#v, want %#v", p, want)
	}
}

func TestDecodeAggregatesErrors(t *testing.T) {
	_, errs, err := decodePerson(`{"nmae":"x","age":"3","tags":["a",2,{"k":1}],"a~b/c":1}`)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(errs))
	for i, e := range errs {
		got[i] = e.Path + " " + e.Code + " " + e.Suggestion + " " + e.Received
	}
	want := []string{
		"/nmae additionalProperties name ",
		`/age type  "3"`,
		"/tags/1 type  2",
		`/tags/2 type  {"k":1}`,
		"/a~0b~1c additionalProperties  ",
		"/name required  ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		code string
	}{
		{"0", 0, ""},
		{"-0", 0, ""},
		{"42", 42, ""},
		{"1.0", 1, ""},
		{"1.50e1", 15, ""},
		{"12e-1", 0, "type"},
		{"1200e-2", 12, ""},
		{"0.5", 0, "type"},
		{"9223372036854775807", math.MaxInt64, ""},
		{"-9223372036854775808", math.MinInt64, ""},
		{"9223372036854775808", 0, "type"},
		{"-9223372036854775809", 0, "type"},
		{"1e19", 0, "type"},
		{"1e999999999", 0, "type"},
		{"0e999999999", 0, ""},
		{"100000000000000000000e-2", 1000000000000000000, ""},
		{`"1"`, 0, "type"},
	}
	for _, tt := range tests {
		d := NewDecoder([]byte(tt.in))
		got := d.Int()
		if err := d.Close(); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		code := ""
		if len(d.Errors()) > 0 {
			code = d.Errors()[0].Code
		}
		if got != tt.want || code != tt.code {
			t.Errorf("Int(%s) = %d, %q; want %d, %q", tt.in, got, code, tt.want, tt.code)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"name":"a",}`, "line 1, column 13: trailing comma before '}'"},
		{`{"name":"a" "age":1}`, "line 1, column 13: invalid character '\"' after object member, expecting ',' or '}'"},
		{`{"tags":[1,]}`, "line 1, column 12: trailing comma before ']'"},
		{"{\n\"name\":\"a\\q\"}", `line 2, column 10: invalid escape '\q' in string`},
		{`{"name":"a`, "line 1, column 11: unexpected end of input in string"},
		{"{\"name\":\"a\tb\"}", `line 1, column 11: invalid control character '\x09' in string`},
		{`{"age":01}`, "line 1, column 9: invalid character '1' after object member, expecting ',' or '}'"},
		{`{"age":1.}`, "line 1, column 10: invalid character '}' after decimal point in number"},
		{`{"meta":nul}`, "line 1, column 12: invalid character '}' in literal null"},
		{`{"name":"a"} x`, "line 1, column 14: invalid character 'x' after top-level value"},
		{`{"name":"\ud800"}`, ""},
		{`{'name':1}`, "line 1, column 2: invalid character '\\'' looking for an object key"},
	}
	for _, tt := range tests {
		_, _, err := decodePerson(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestEmptyArgsReadAsObject(t *testing.T) {
	_, errs, err := decodePerson(" \n")
	if err != nil || len(errs) != 1 || errs[0].Code != "required" {
		t.Fatalf("err %v errs %v", err, errs)
	}
}

func TestInvalidUTF8Replaced(t *testing.T) {
	d := NewDecoder([]byte("\"a\xffb\""))
	if s := d.String(); s != "a\uFFFDb" || d.Close() != nil {
		t.Fatalf("got %q", s)
	}
}

func TestPeekMemberAndBranch(t *testing.T) {
	d := NewDecoder([]byte(`{"x":[1,{"kind":2}],"kind":"b","y":1}`))
	v, ok := d.PeekMember("kind")
	if !ok || string(v) != "b" {
		t.Fatalf("PeekMember = %q, %v", v, ok)
	}
	if !d.Object() || !d.More() {
		t.Fatal("object expected")
	}
	b := d.Branch()
	_ = b.String()
	d.Skip()
	d.Adopt(&b)
	for d.More() {
		d.Skip()
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if errs := d.Errors(); len(errs) != 1 || errs[0].Path != "/x" || errs[0].Code != "type" {
		t.Fatalf("errs = %+v", errs)
	}
}

func TestReportMergesAndFilters(t *testing.T) {
	d := NewDecoder([]byte(`{"age":"x"}`))
	var p person
	p.decode(d)
	var e Errors
	root := (*Path)(nil)
	age := root.Key("age")
	e.Add(&age, "minimum", "must be >= 1", ">= 1", "0", "")
	tags := root.Key("tags")
	item := tags.Index(2)
	e.Add(&item, "minLength", "too short", "", "", "")
	err := d.Report("t", &e)
	var ve *runtime.ValidationError
	if !asValidation(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	var paths []string
	for _, f := range ve.Fields {
		paths = append(paths, f.Path+":"+f.Code)
	}
	if got := strings.Join(paths, ","); got != "/age:type,/name:required,/tags/2:minLength" {
		t.Fatalf("got %s", got)
	}
}

func asValidation(err error, out **runtime.ValidationError) bool {
	v, ok := err.(*runtime.ValidationError)
	*out = v
	return ok
}

// FuzzDecoder checks that any input either fails with a syntax error or
// decodes to the same generic value encoding/json produces, and never
// panics.
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",null,true]}`, `"\u00e9"`, `[]`, `{}`, `-0.1e-3`, `{"a":{"b":{}}}`, `[1,]`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(data)
		v := d.Any()
		err := d.Close()
		var want any
		jerr := json.Unmarshal(data, &want)
		if (err == nil) != (jerr == nil) {
			if err == nil && len(d.Errors()) > 0 {
				return // out-of-range numbers are reported, not syntax errors
			}
			t.Fatalf("%q: wire err %v, encoding/json err %v", data, err, jerr)
		}
		if err == nil && len(d.Errors()) == 0 && !reflect.DeepEqual(v, want) {
			t.Fatalf("%q: got %#v, want %#v", data, v, want)
		}
		var p person
		p.decode(NewDecoder(data))
	})
}

func BenchmarkDecodePerson(b *testing.B) {
	data := []byte(`{"name":"Ana","age":41,"tags":["a","b","c"]}`)
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(data)
		var p person
		p.decode(d)
		if d.Close() != nil {
			b.Fatal("unexpected error")
		}
	}
}

func TestFloatMatchesParseFloat(t *testing.T) {
	for _, in := range []string{"0", "-0", "7", "-7", "50", "123456789012345", "-123456789012345",
		"1234567890123456", "99999999999999999999", "2.5", "1e3", "-0.125", "1E-2", "9007199254740993"} {
		d := NewDecoder([]byte(in))
		got := d.Float()
		if err := d.Close(); err != nil || !d.Clean() {
			t.Fatalf("%s: %v %v", in, err, d.Errors())
		}
		want, _ := strconv.ParseFloat(in, 64)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("Float(%s) = %v, want %v", in, got, want)
		}
	}
}

// TestBranchDeep checks a branch started below the inline path stack: its
// error paths carry the parent's prefix, its pushes do not disturb the
// parent's path, and the strings it returns survive the parent's reads.
func TestBranchDeep(t *testing.T) {
	const depth = inlineSegs + 3
	doc := strings.Repeat(`{"k~/":[`, depth) + `{"x":"s","y":"t"}` + strings.Repeat(`]}`, depth)
	d := NewDecoder([]byte(doc))
	prefix := ""
	for range depth {
		if !d.Object() || !d.More() || !d.Array() || !d.More() {
			t.Fatal("structure")
		}
		prefix += "/k~0~1/0"
	}
	b := d.Branch()
	var got string
	if b.Object() {
		for b.More() {
			if string(b.Key()) == "x" {
				got = b.String()
			} else {
				_ = b.Int()
			}
		}
	}
	if errs := b.Errors(); len(errs) != 1 || errs[0].Path != prefix+"/y" {
		t.Fatalf("branch errors %+v, want one at %s/y", errs, prefix)
	}
	if d.Path() != prefix {
		t.Fatalf("parent path %q after branch, want %q", d.Path(), prefix)
	}
	if d.Object() {
		for d.More() {
			d.Fail("test", "", "", "")
			_ = d.String()
		}
	}
	for range 2 * depth {
		if d.More() { // closes an array, then an object
			t.Fatal("structure")
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if errs := d.Errors(); len(errs) != 2 || errs[0].Path != prefix+"/x" || errs[1].Path != prefix+"/y" {
		t.Fatalf("parent errors %+v", errs)
	}
	if got != "s" {
		t.Fatalf("branch string %q, want s", got)
	}
}

// TestKeyRestoredAfterNesting checks that Key names the member of the
// enclosing object again once a nested value is read, escaped keys
// included.
func TestKeyRestoredAfterNesting(t *testing.T) {
	d := NewDecoder([]byte(`{"a\u0062":{"c":[1,{"d":2}]},"e":[{"f":1}]}`))
	var keys []string
	if d.Object() {
		for d.More() {
			d.Skip()
			keys = append(keys, string(d.Key()))
		}
	}
	d = NewDecoder([]byte(`{"a\u0062":{"c":[1,{"d":2}]},"e":[{"f":1}]}`))
	if d.Object() {
		for d.More() {
			_ = d.Any()
			keys = append(keys, string(d.Key()))
		}
	}
	if got := strings.Join(keys, ","); got != "ab,e,ab,e" {
		t.Fatalf("keys %s", got)
	}
}

// A skipped value's arrays and objects count toward the nesting limit
// from where the value is, as a decoded value's do: a member nested
// maxDepth levels in all is read, one more is too deep.
func TestSkipDepthFromValue(t *testing.T) {
	for _, tt := range []struct {
		levels int // arrays and objects in all, the outer object included
		deep   bool
	}{{maxDepth, false}, {maxDepth + 1, true}} {
		inner := tt.levels - 1
		data := `{"skipped":` + strings.Repeat("[", inner) + strings.Repeat("]", inner) + `}`
		d := NewDecoder([]byte(data))
		d.Object()
		for d.More() {
			d.Skip()
		}
		err := d.Close()
		if got := err != nil && strings.Contains(err.Error(), "nested more than"); got != tt.deep {
			t.Errorf("%d levels: error %v, want too deep %v", tt.levels, err, tt.deep)
		}
	}
}

// The member "" of an object is a reference token of its own: missing
// (Missing) or failed (FailAt, a discriminator) it is at "/" in the root
// and at "/o/" in member o, never at the object's own path.
func TestEmptyMemberPointer(t *testing.T) {
	d := NewArgsDecoder([]byte(`{"o":{}}`))
	var obj func()
	obj = func() {
		d.FailAt("", "enum", "tag", "", "", "")
		if !d.Object() {
			return
		}
		for d.More() {
			obj()
		}
		d.Missing("")
	}
	obj()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range d.Errors() {
		got = append(got, strconv.Quote(e.Path)+" "+e.Code)
	}
	want := []string{`"/" enum`, `"/o/" enum`, `"/o/" required`, `"/" required`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
