package gateway

import (
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
)

// The answers to long unknown op paths, help paths and queries must cost
// time and memory linear in their length: with the size limits lifted
// (WithLimits) nothing else bounds them.

// liftedLimits lifts the size limits, as BenchmarkHostile's lifted cases.
var liftedLimits = WithLimits(Limits{ArgsBytes: 1 << 30, OpBytes: 1 << 30, PathBytes: 1 << 30, KeyBytes: 1 << 30, QueryBytes: 1 << 30})

// dottedPath is an unknown path of n bytes of one-letter segments,
// "x.x.x…".
func dottedPath(n int) string {
	return strings.Repeat("x.", n/2)[:n-1] + "x"
}

// randomWords is a query of about n bytes of random (nearly all distinct,
// nearly all unknown) words.
func randomWords(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for sb.Len() < n {
		for range 6 + r.IntN(4) {
			sb.WriteByte(byte('a' + r.IntN(26)))
		}
		sb.WriteByte(' ')
	}
	return sb.String()
}

// bytesPerRun is the average number of bytes f allocates (as
// testing.AllocsPerRun counts allocations).
func bytesPerRun(runs int, f func()) float64 {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	f() // warm up
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	for range runs {
		f()
	}
	goruntime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
}

// nearestDirByPrefixes is nearestDir as it was: a lookup of each prefix,
// longest first.
func nearestDirByPrefixes(g *Gateway, path string) string {
	for path != "" {
		if n := g.tree.lookup(path); n != nil && n.op == nil {
			return path
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return ""
		}
		path = path[:i]
	}
	return ""
}

// lookupBySplit is node.lookup as it was.
func lookupBySplit(n *node, path string) *node {
	if path == "" {
		return n
	}
	x := n
	for _, seg := range strings.Split(path, ".") {
		x = x.children[seg]
		if x == nil {
			return nil
		}
	}
	return x
}

func TestNearestDirMatchesPrefixes(t *testing.T) {
	h := newHarness(t)
	g := h.g
	paths := []string{"", ".", "..", "x", ".x", "x.", "root", "a..b"}
	for _, p := range g.tree.allPaths() {
		i := strings.LastIndexByte(p, '.')
		paths = append(paths, p, "."+p, p+".", p+"..", p+".x", p+".x.y", p+"..x", strings.ToUpper(p), p[:i+1]+"x", p[:len(p)-1])
		if i > 0 {
			paths = append(paths, p[:i]+".."+p[i+1:], p[:i]+".read", p[:i]+".write.x", "x."+p)
		}
	}
	for _, p := range paths {
		if got, want := g.nearestDir(p), nearestDirByPrefixes(g, p); got != want {
			t.Errorf("nearestDir(%q) = %q, want %q", p, got, want)
		}
		if got, want := g.tree.lookup(p), lookupBySplit(g.tree, p); got != want {
			t.Errorf("lookup(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestLongPathsLinear: the answer to an unknown dotted op or help path
// of 4n bytes allocates about 4 times what one of n bytes does, not 16
// times (each prefix of the path once split apart).
func TestLongPathsLinear(t *testing.T) {
	h := newHarness(t, liftedLimits)
	const n = 2 << 10
	path := dottedPath(4 * n)
	if a := testing.AllocsPerRun(10, func() { h.g.nearestDir(path) }); a > 0 {
		t.Errorf("nearestDir of a %d-byte path: %.0f allocations, want none", 4*n, a)
	}
	for _, c := range []struct{ tool, args string }{
		{ExecTool, `{"op":"%s","args":{}}`},
		{HelpTool, `{"path":"%s"}`},
	} {
		short, long := fmt.Sprintf(c.args, dottedPath(n)), fmt.Sprintf(c.args, dottedPath(4*n))
		bs := bytesPerRun(5, func() { h.call(c.tool, short) })
		bl := bytesPerRun(5, func() { h.call(c.tool, long) })
		t.Logf("%s: %d bytes: %.0f B, %d bytes: %.0f B (×%.1f)", c.tool, n, bs, 4*n, bl, bl/bs)
		if bl > 8*bs {
			t.Errorf("%s: a %d-byte unknown path allocates %.0f B, %.1f times a %d-byte one (%.0f B); want about 4", c.tool, 4*n, bl, bl/bs, n, bs)
		}
	}
}

// queryTermsByScan is Index.queryTerms as it was: each term found by
// scanning those collected so far.
func queryTermsByScan(ix *Index, words, stems []string) (qs []string, qtf []int) {
	for i, w := range words {
		if i+1 < len(words) && !isDigits(w) && !isDigits(words[i+1]) {
			if j := stem(w + words[i+1]); len(j) >= 4 && ix.id(j) >= 0 && !slices.Contains(qs, j) {
				qs = append(qs, j)
				qtf = append(qtf, 1)
			}
		}
		t := stems[i]
		if t == "" {
			continue
		}
		if ix.id(t) < 0 {
			if parts, ok := splitCompound(t, ix.dfOf); ok {
				for _, pt := range parts {
					if !slices.Contains(qs, pt) {
						qs = append(qs, pt)
						qtf = append(qtf, 1)
					}
				}
				continue
			}
		}
		if i := slices.Index(qs, t); i >= 0 {
			qtf[i]++
		} else {
			qs = append(qs, t)
			qtf = append(qtf, 1)
		}
	}
	return qs, qtf
}

// TestQueryTermsMatchScan: the query terms and their counts are those
// the scan finds, for every evaluation query and for long queries (the
// queries of a set run together, repeating, joining and splitting words,
// and random words) past termScan.
func TestQueryTermsMatchScan(t *testing.T) {
	for _, s := range evalSets(t) {
		ix := NewIndex(s.ops)
		queries := []string{randomWords(4 << 10), randomWords(100) + randomWords(100) + randomWords(100)}
		var run strings.Builder
		for _, q := range s.queries {
			queries = append(queries, q.text)
			run.WriteString(q.text + " ")
			if run.Len() > 2<<10 {
				queries = append(queries, run.String())
				run.Reset()
			}
		}
		var long int
		for _, q := range queries {
			words := splitWords(fileNames(q))
			stems := queryStems(words)
			got := ix.queryTerms(words, stems)
			qs, qtf := queryTermsByScan(ix, words, stems)
			if !slices.Equal(got.terms, qs) || !slices.Equal(got.tf, qtf) {
				t.Fatalf("%s: query %.200q: terms %q %v, want %q %v", s.name, q, got.terms, got.tf, qs, qtf)
			}
			if len(qs) > termScan {
				long++
			}
		}
		if long == 0 {
			t.Errorf("%s: no query has more than %d terms", s.name, termScan)
		}
	}
}

// TestLongQueriesLinear: collecting the terms of a query of 4n distinct
// words compares about 4 times as many terms as for n words, not 16.
func TestLongQueriesLinear(t *testing.T) {
	ix := newHarness(t).g.Index()
	scanned := func(n int) int {
		words := splitWords(randomWords(n))
		return ix.queryTerms(words, queryStems(words)).scanned
	}
	const n = 4 << 10
	s, l := scanned(n), scanned(4*n)
	if s == 0 || l > 8*s {
		t.Errorf("query terms of a %d-byte query compare %d terms, of a %d-byte one %d (×%.1f); want about 4 times", n, s, 4*n, l, float64(l)/float64(max(s, 1)))
	}
}

var linearSizes = []int{1 << 10, 16 << 10, 64 << 10}

// BenchmarkNearestDir is the answer to an unknown dotted op path and help
// path with the size limits lifted, and nearestDir itself.
func BenchmarkNearestDir(b *testing.B) {
	for _, n := range linearSizes {
		p := dottedPath(n)
		for _, c := range []struct{ tool, args string }{
			{ExecTool, `{"op":"` + p + `","args":{}}`},
			{HelpTool, `{"path":"` + p + `"}`},
		} {
			b.Run(fmt.Sprintf("%s_%dKB", c.tool, n>>10), func(b *testing.B) {
				h := newHarness(b, liftedLimits)
				b.ReportAllocs()
				for b.Loop() {
					h.call(c.tool, c.args)
				}
			})
		}
		b.Run(fmt.Sprintf("nearestDir_%dKB", n>>10), func(b *testing.B) {
			h := newHarness(b)
			b.ReportAllocs()
			for b.Loop() {
				h.g.nearestDir(p)
			}
		})
	}
}

// BenchmarkSearchWords ranks a query of many distinct random words.
func BenchmarkSearchWords(b *testing.B) {
	for _, n := range append(linearSizes, 512<<10) {
		q := randomWords(n)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			ix := newHarness(b).g.Index()
			b.ReportAllocs()
			for b.Loop() {
				ix.Search(q, DefaultSearchLimit)
			}
		})
	}
}

// proximityByPairs is queryPairs.proximity as it was: each pair looked
// for in the whole of seq.
func proximityByPairs(qs, seq []int32) float64 {
	if len(qs) < 2 {
		return 0
	}
	var found int
	for i := 0; i+1 < len(qs); i++ {
		a, b := qs[i], qs[i+1]
	scan:
		for j, t := range seq {
			if t != a {
				continue
			}
			for k := j + 1; k < len(seq) && k <= j+3; k++ {
				if seq[k] == b {
					found++
					break scan
				}
			}
		}
	}
	return float64(found) / float64(len(qs)-1)
}

// TestProximityMatchesPairs: proximity finds the pairs the search for
// each pair in the whole text found, on random queries (distinct term
// ids, some unknown: -1) and texts over a small vocabulary.
func TestProximityMatchesPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		vocab := 2 + r.IntN(30)
		ids := r.Perm(vocab + 5)[:r.IntN(vocab)]
		qs := make([]int32, len(ids))
		for i, k := range ids {
			qs[i] = int32(k)
			if k >= vocab {
				qs[i] = -1 - int32(i) // unknown terms (distinct here, -1 in the index)
			}
		}
		for i := range qs {
			if qs[i] < 0 {
				qs[i] = -1
			}
		}
		seq := make([]int32, r.IntN(60))
		for i := range seq {
			seq[i] = int32(r.IntN(vocab))
		}
		p := newQueryPairs(qs)
		if got, want := p.proximity(seq), proximityByPairs(qs, seq); got != want {
			t.Fatalf("query %v, text %v: proximity %v, want %v", qs, seq, got, want)
		}
	}
}

// TestProximityLinear: the proximity of a long query to a long text
// compares a few times as many terms as the text has, not as many times
// as the query has pairs (the second stage re-scores 50 ops: a query of
// 1 KB against descriptions of 50,000 words cost 210 ms a search).
func TestProximityLinear(t *testing.T) {
	qs := make([]int32, 300)
	for i := range qs {
		qs[i] = int32(i)
	}
	seq := make([]int32, 20000)
	for i := range seq {
		seq[i] = int32(i * 7 % 400)
	}
	p := newQueryPairs(qs)
	p.proximity(seq)
	if p.compared > 8*len(seq) {
		t.Errorf("a query of %d terms against %d words of text compared %d terms (%.0f a word)", len(qs), len(seq), p.compared, float64(p.compared)/float64(len(seq)))
	}
}

// BenchmarkProximityLongText ranks a query of about 1 KB of words found in
// the descriptions of 60 ops of 500 to 50,000 words each.
func BenchmarkProximityLongText(b *testing.B) {
	vocab := make([]string, 400)
	for i := range vocab {
		vocab[i] = string([]byte{byte('a' + i%26), byte('a' + i/26%26)}) + "xqzor"
	}
	for _, words := range []int{500, 5000, 50000} {
		ops := make([]Op, 60)
		for o := range ops {
			var sb strings.Builder
			for w := range words {
				sb.WriteString(vocab[(w*7+o)%len(vocab)])
				sb.WriteByte(' ')
			}
			ops[o] = Op{Path: fmt.Sprintf("g.e%d.get", o), Tool: fmt.Sprintf("t%d", o), Description: sb.String()}
		}
		var q strings.Builder
		for i := 0; q.Len() < 1000; i++ {
			q.WriteString(vocab[i*13%len(vocab)])
			q.WriteByte(' ')
		}
		ix := NewIndex(ops)
		b.Run(fmt.Sprintf("%d_words", words), func(b *testing.B) {
			for b.Loop() {
				ix.Search(q.String(), DefaultSearchLimit)
			}
		})
	}
}
