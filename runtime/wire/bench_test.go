package wire_test

import (
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/runtime/wire"
)

// listIssuesValid and listIssuesInvalid are the arguments golden/bench/small
// measures: GitHub's list_issues with every property set.
var (
	listIssuesValid = []byte(`{"owner":"golang","repo":"go","state":"open","labels":["NeedsFix","help wanted"],` +
		`"sort":"updated","direction":"desc","since":"2024-05-01T08:30:00Z","page":2,"perPage":50}`)
	listIssuesInvalid = []byte(`{"owner":"golang","repo":"go","state":"opened","labels":["NeedsFix"],` +
		`"sort":"updated","direction":"down","since":"2024-05-01T08:30:00Z","page":0,"perPage":500}`)
)

// BenchmarkListIssues measures a generated DecodeArgs (decode and validate
// from the bytes) on list_issues arguments.
func BenchmarkListIssues(b *testing.B) {
	for _, bc := range []struct {
		name  string
		data  []byte
		valid bool
	}{{"valid", listIssuesValid, true}, {"invalid", listIssuesInvalid, false}} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := github.DecodeArgs("list_issues", bc.data); (err == nil) != bc.valid {
				b.Fatalf("DecodeArgs: %v, want valid=%v", err, bc.valid)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = github.DecodeArgs("list_issues", bc.data)
			}
		})
	}
}

// BenchmarkListIssuesProposed measures the decoder shape recommended to the
// generator (decodeListIssuesProposed) on the same arguments, so that the
// gain of the generator-side changes can be read next to
// BenchmarkListIssues.
func BenchmarkListIssuesProposed(b *testing.B) {
	p, err := decodeListIssuesProposed(listIssuesValid)
	if err != nil {
		b.Fatal(err)
	}
	q, err := github.DecodeArgs("list_issues", listIssuesValid)
	if err != nil || !reflect.DeepEqual(p, q) {
		b.Fatalf("proposed decoder disagrees: %+v, %v", q, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = decodeListIssuesProposed(listIssuesValid)
	}
}

// listIssuesBox holds the params and every optional scalar they point to,
// so that one allocation serves them all.
type listIssuesBox struct {
	p         github.ListIssuesParams
	state     github.ListIssuesState
	sort      github.ListIssuesSort
	direction github.ListIssuesDirection
	since     string
	page      float64
	perPage   float64
}

// decodeListIssuesProposed is golden/github's decodeListIssues and
// decodeWire with the recommended changes: the params and their optional
// scalars in one allocation, and array items collected in a stack buffer
// and copied once.
func decodeListIssuesProposed(args []byte) (*github.ListIssuesParams, error) {
	d := wire.NewArgsDecoder(args)
	box := new(listIssuesBox)
	x := &box.p
	if d.Object() {
		var seen1, seen2 bool
		for d.More() {
			switch string(d.Key()) {
			case "owner":
				seen1 = true
				x.Owner = d.String()
			case "repo":
				seen2 = true
				x.Repo = d.String()
			case "state":
				x.State = &box.state
				*x.State = github.ListIssuesState(d.String())
			case "labels":
				if d.Array() {
					var buf [8]string
					items := buf[:0]
					for d.More() {
						items = append(items, d.String())
					}
					x.Labels = append(make([]string, 0, len(items)), items...)
				}
			case "sort":
				x.Sort = &box.sort
				*x.Sort = github.ListIssuesSort(d.String())
			case "direction":
				x.Direction = &box.direction
				*x.Direction = github.ListIssuesDirection(d.String())
			case "since":
				x.Since = &box.since
				*x.Since = d.String()
			case "page":
				x.Page = &box.page
				*x.Page = d.Float()
			case "perPage":
				x.PerPage = &box.perPage
				*x.PerPage = d.Float()
			default:
				d.Unknown(nil)
			}
		}
		if !seen1 {
			d.Missing("owner")
		}
		if !seen2 {
			d.Missing("repo")
		}
	}
	if d.Close() != nil {
		return nil, d.Report("list_issues", nil)
	}
	if err := x.Validate(); err != nil {
		return nil, err
	}
	if err := d.Report("list_issues", nil); err != nil {
		return nil, err
	}
	return x, nil
}
