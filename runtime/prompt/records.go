package prompt

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/record"
)

// A large family's Sections reads its sections from data rather than from
// a composite literal: EncodeSection writes one generated section as a
// record (runtime/internal/record gives the syntax) and GeneratedSections
// builds the sections of a list of them.

// SectionData is the definition of one generated section: a group's
// summary and body, carrying the named tools.
type SectionData struct {
	Key, Title, Summary, Template string
	// Tools are the names of the tools the section carries, picked from
	// the family's tools.
	Tools []string
}

// EncodeSection is d as one record for DecodeSection.
func EncodeSection(d SectionData) string {
	return record.Encode(func(w *record.Writer) {
		w.Str(d.Key)
		w.Str(d.Title)
		w.Str(d.Summary)
		w.Str(d.Template)
		w.Strs(d.Tools)
	})
}

// DecodeSection reads a record EncodeSection wrote; no tools decode as
// nil.
func DecodeSection(rec string) (SectionData, error) {
	r := record.NewReader(rec)
	d := SectionData{Key: r.Str(), Title: r.Str(), Summary: r.Str(), Template: r.Str(), Tools: r.Strs()}
	if err := r.Err(); err != nil {
		return SectionData{}, fmt.Errorf("prompt: section record, %w", err)
	}
	return d, nil
}

// GeneratedSections builds one summarized, generated section per record
// over tools, a family's Tools(h): the sections a generated Sections
// declares as a literal for a smaller family. Generated code calls it
// with records EncodeSection wrote, so a bad record panics: only a hand
// edit can cause one.
func GeneratedSections(tools []runtime.Tool, records []string) []Section {
	out := make([]Section, 0, len(records))
	for _, rec := range records {
		d, err := DecodeSection(rec)
		if err != nil {
			panic(record.Corrupt(err))
		}
		out = append(out, Section{
			Key: d.Key, Title: d.Title, Summary: d.Summary, Template: d.Template,
			Visibility: VisibilitySummary, Generated: true,
			Tools: runtime.Pick(tools, d.Tools...),
		})
	}
	return out
}
