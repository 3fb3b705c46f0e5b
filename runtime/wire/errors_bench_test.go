package wire_test

import (
	"testing"

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
