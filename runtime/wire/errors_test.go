package wire_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/wire"
)

var statuses = []string{"draft", "active", "paused", "archived"}

// report records the violations update_listing's invalid arguments break
// (golden/bench/large): ten, of every kind a flat object has.
func report(root *wire.Path) error {
	var e wire.Errors
	for i, k := range []string{"name_0", "code_1", "status_2", "count_3", "price_3", "ratio_4", "start_4"} {
		c := root.Key(k)
		switch i {
		case 0:
			e.AddString(&c, "minLength", "must be at least 1 character long", "at least 1 character", "")
		case 1:
			e.AddString(&c, "pattern", "must match the pattern ^[A-Z]{2}[0-9]{3,6}$", "pattern ^[A-Z]{2}[0-9]{3,6}$", "gb12")
		case 2:
			e.AddEnum(&c, "enum", `must be one of "draft", "active", "paused", "archived"`, `"draft", "active", "paused", "archived"`, "deleted", statuses)
		case 3:
			e.AddInt(&c, "maximum", "must be <= 10000", "<= 10000", 10001)
		case 4:
			e.AddNumber(&c, "exclusiveMinimum", "must be > 0", "> 0", 0)
		case 5:
			e.AddNumber(&c, "maximum", "must be <= 1", "<= 1", 1.5)
		case 6:
			e.AddString(&c, "format", "must be a valid date", "date", "2024-02-30")
		}
	}
	for _, k := range []string{"tags_0", "scores_2"} {
		c := root.Key(k)
		c1 := c.Index(0)
		e.AddInt(&c1, "maximum", "must be <= 100", "<= 100", 101)
	}
	c := root.Key("scores_1")
	e.Add(&c, "minItems", "must have at least 1 item", "at least 1 item", "", "")
	return e.Err("")
}

func BenchmarkErrors(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = report(nil)
	}
}

func reportSmall(root *wire.Path) error {
	var e wire.Errors
	c := root.Key("state")
	e.AddEnum(&c, "enum", `must be one of "open", "closed", "all"`, `"open", "closed", "all"`, "opened", []string{"open", "closed", "all"})
	c = root.Key("direction")
	e.AddEnum(&c, "enum", `must be one of "asc", "desc"`, `"asc", "desc"`, "down", []string{"asc", "desc"})
	c = root.Key("page")
	e.AddNumber(&c, "minimum", "must be >= 1", ">= 1", 0)
	c = root.Key("perPage")
	e.AddNumber(&c, "maximum", "must be <= 100", "<= 100", 500)
	return e.Err("")
}

func BenchmarkErrorsFew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = reportSmall(nil)
	}
}

// The typed Add methods record what Add records with the value rendered
// by check.Received* and the suggestion by check.Closest, and their text
// survives later violations (the text buffer only grows).
func TestTypedAddMatchesAdd(t *testing.T) {
	long := strings.Repeat("é\"", 300)
	root := wire.At("/base")
	var typed, plain wire.Errors
	for i := range 40 {
		c := root.Key("k~/" + strconv.Itoa(i))
		c1 := c.Index(i)
		typed.AddString(&c1, "pattern", "must match", "pattern x", long[:i*7])
		plain.Add(&c1, "pattern", "must match", "pattern x", check.ReceivedString(long[:i*7]), "")
		typed.AddInt(&c, "maximum", "must be <= 1", "<= 1", int64(i)*-7919)
		plain.Add(&c, "maximum", "must be <= 1", "<= 1", check.ReceivedInt(int64(i)*-7919), "")
		typed.AddNumber(&c, "minimum", "must be >= 1", ">= 1", float64(i)/3e7)
		plain.Add(&c, "minimum", "must be >= 1", ">= 1", check.ReceivedNumber(float64(i)/3e7), "")
		typed.AddEnum(&c, "enum", "must be one of", "list", "activ"+strconv.Itoa(i%3), statuses)
		plain.Add(&c, "enum", "must be one of", "list", check.ReceivedString("activ"+strconv.Itoa(i%3)), check.Closest("activ"+strconv.Itoa(i%3), statuses))
		typed.AddDuplicate(&c, i, i+1)
		plain.Add(&c, "uniqueItems", "items "+strconv.Itoa(i)+" and "+strconv.Itoa(i+1)+" are equal", "unique items", "", "")
	}
	got, want := typed.Err("t").(*runtime.ValidationError), plain.Err("t").(*runtime.ValidationError)
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got.Fields), len(want.Fields)) {
			if got.Fields[i] != want.Fields[i] {
				t.Fatalf("field %d: got %+v, want %+v", i, got.Fields[i], want.Fields[i])
			}
		}
		t.Fatalf("got %d fields (%d omitted), want %d (%d omitted)", len(got.Fields), got.Omitted, len(want.Fields), want.Omitted)
	}
	if got.Omitted != 100 || len(got.Fields) != wire.MaxErrors {
		t.Errorf("got %d fields, %d omitted; want %d and 100", len(got.Fields), got.Omitted, wire.MaxErrors)
	}
	if again := typed.Err("t"); again == error(got) {
		t.Error("a second Err returned the same *ValidationError")
	}
}

// Violations share storage: four allocate once, ten three times at most
// (the first block, the next, and more room for their text).
func TestReportAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = reportSmall(nil) }); n > 1 {
		t.Errorf("four violations allocate %v times, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = report(nil) }); n > 3 {
		t.Errorf("ten violations allocate %v times, want at most 3", n)
	}
}

// TestMismatchMessages: a type error names the kind received and the
// value, once for null, which is its own kind.
func TestMismatchMessages(t *testing.T) {
	d := wire.NewArgsDecoder([]byte(`{"a":null,"b":5,"c":true,"d":[1],"e":"x"}`))
	if !d.Object() {
		t.Fatal("not an object")
	}
	for d.More() {
		d.Mismatch("integer")
	}
	var got []string
	for _, f := range d.Errors() {
		got = append(got, f.Path+": "+f.Message)
	}
	want := []string{
		"/a: expected integer, received null",
		"/b: expected integer, received number 5",
		"/c: expected integer, received boolean true",
		"/d: expected integer, received array [1]",
		`/e: expected integer, received string "x"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A violation appended by a validator run during decoding that the list
// holds already, in the same words at the same place, is not reported a
// second time; others are, up to MaxErrors.
func TestAppendDropsRepeats(t *testing.T) {
	var e wire.Errors
	var c wire.Path
	e.Add(&c, "minimum", "must be >= 3", ">= 3", "1", "")
	e.Append([]runtime.FieldError{
		{Path: "", Code: "minimum", Message: "must be >= 3"},
		{Path: "", Code: "maximum", Message: "must be <= 9"},
		{Path: "", Code: "maximum", Message: "must be <= 9"},
	})
	var got []string
	for _, f := range e.List() {
		got = append(got, f.Code)
	}
	if want := []string{"minimum", "maximum"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("codes %v, want %v", got, want)
	}
	many := make([]runtime.FieldError, wire.MaxErrors+5)
	for i := range many {
		many[i] = runtime.FieldError{Path: "/" + strconv.Itoa(i), Code: "x", Message: "m"}
	}
	e.Append(many)
	var ve *runtime.ValidationError
	if err := e.Err("t"); !errors.As(err, &ve) || len(ve.Fields) != wire.MaxErrors || ve.Omitted != 7 {
		t.Fatalf("err %v, want %d fields and 7 omitted", err, wire.MaxErrors)
	}
}
