package matryoshka

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/record"
)

// A large family's Facades reads its facades from data rather than from
// Facade calls: EncodeFacade writes one facade's definition as a record
// (runtime/internal/record gives the syntax) and Facades builds the
// facades of a list of them. A catalogue's thousands of Category and
// Usage calls in one function cost the compiler over a hundred megabytes;
// records cost it strings.

// FacadeData is the definition of one facade: what a generated Facades
// passes to Facade.
type FacadeData struct {
	Name, Description string
	// Tools are the inner tools' names, picked from the family's tools.
	Tools      []string
	Categories []CategoryData
	// Usage holds the usage line of each of Tools, in the same order.
	Usage []string
}

// CategoryData is one category of a facade.
type CategoryData struct {
	Name  string
	Tools []string
}

// EncodeFacade is d as one record for DecodeFacade.
func EncodeFacade(d FacadeData) string {
	return record.Encode(func(w *record.Writer) {
		w.Str(d.Name)
		w.Str(d.Description)
		w.Strs(d.Tools)
		w.Num(len(d.Categories))
		for _, c := range d.Categories {
			w.Str(c.Name)
			w.Strs(c.Tools)
		}
		w.Strs(d.Usage)
	})
}

// DecodeFacade reads a record EncodeFacade wrote; empty lists decode as
// nil.
func DecodeFacade(rec string) (FacadeData, error) {
	r := record.NewReader(rec)
	d := FacadeData{Name: r.Str(), Description: r.Str(), Tools: r.Strs()}
	if n := r.Count(); n > 0 {
		d.Categories = make([]CategoryData, n)
		for i := range d.Categories {
			d.Categories[i] = CategoryData{Name: r.Str(), Tools: r.Strs()}
		}
	}
	d.Usage = r.Strs()
	if err := r.Err(); err != nil {
		return FacadeData{}, fmt.Errorf("matryoshka: facade record, %w", err)
	}
	if len(d.Usage) != 0 && len(d.Usage) != len(d.Tools) {
		return FacadeData{}, fmt.Errorf("matryoshka: facade record %q: %d usage lines for %d tools", d.Name, len(d.Usage), len(d.Tools))
	}
	return d, nil
}

// Facades builds one facade per record over tools, a family's Tools(h),
// as the Facade calls of the same definitions would. Generated code calls
// it with records EncodeFacade wrote, so an error (a bad record, a facade
// Facade refuses) panics: only a hand edit can cause one.
func Facades(tools []runtime.Tool, records []string) []runtime.Tool {
	out := make([]runtime.Tool, 0, len(records))
	for _, rec := range records {
		d, err := DecodeFacade(rec)
		if err != nil {
			panic(record.Corrupt(err))
		}
		opts := make([]Option, 0, len(d.Categories)+len(d.Usage))
		for _, c := range d.Categories {
			opts = append(opts, Category(c.Name, c.Tools...))
		}
		for i, line := range d.Usage {
			opts = append(opts, Usage(d.Tools[i], line))
		}
		out = append(out, Facade(d.Name, d.Description, runtime.Pick(tools, d.Tools...), opts...))
	}
	return out
}
