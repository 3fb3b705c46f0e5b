package schema

import (
	"fmt"
	"slices"
	"testing"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// TestViewKeywords runs the same sets, replacements and deletions on a
// view and on a map with an ordered key list, at sizes found by a scan and
// sizes found through the index, and requires the same keywords, values
// and order throughout.
func TestViewKeywords(t *testing.T) {
	for _, n := range []int{1, viewScan, viewScan + 1, 200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var v view
			want := map[string]*jsonpos.Node{}
			var order []string
			check := func(step string) {
				t.Helper()
				var got []string
				for _, kw := range v.kws {
					got = append(got, kw.Key)
					if kw.Value != want[kw.Key] {
						t.Fatalf("%s: %s has the wrong value", step, kw.Key)
					}
				}
				if !slices.Equal(got, order) {
					t.Fatalf("%s: keywords %v, want %v", step, got, order)
				}
				for _, k := range append(slices.Clone(order), "absent") {
					if v.get(k) != want[k] {
						t.Fatalf("%s: get(%s) differs", step, k)
					}
				}
			}
			for i := range n {
				k, nd := fmt.Sprintf("k%d", i), &jsonpos.Node{}
				v.set(k, nd)
				want[k] = nd
				order = append(order, k)
			}
			check("set")
			if (v.index != nil) != (n > viewScan) {
				t.Fatalf("%d keywords: index %v", n, v.index != nil)
			}
			for i := 0; i < n; i += 3 { // replace: the order stays
				k, nd := fmt.Sprintf("k%d", i), &jsonpos.Node{}
				v.set(k, nd)
				want[k] = nd
			}
			check("replace")
			for i := 0; i < n; i += 2 {
				k := fmt.Sprintf("k%d", i)
				v.del(k)
				delete(want, k)
				order = slices.DeleteFunc(order, func(x string) bool { return x == k })
			}
			v.del("absent")
			check("delete")
			v.set("k0", &jsonpos.Node{})
			want["k0"] = v.get("k0")
			order = append(order, "k0")
			check("set after delete")
		})
	}
}
