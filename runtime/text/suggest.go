package text

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxSuggestLen is the length, in bytes, above which a string gets no
// "did you mean" suggestion: nobody mistypes a name that long, and edit
// distances over hostile strings must stay cheap.
const MaxSuggestLen = 256

// Closest returns the candidate nearest to s, for "did you mean" hints on
// enum values and argument names; "" when none is close. Comparison ignores
// case and treats '_', '-' and ' ' alike; distance is the optimal string
// alignment edit distance (a transposition counts as one edit), accepted up
// to a third of the longer string and below the shorter one's length. Ties
// go to the earlier candidate. Strings longer than MaxSuggestLen bytes,
// on either side, are never compared: the cost is bounded by
// MaxSuggestLen² per candidate whatever the input.
func Closest(s string, candidates []string) string {
	if s == "" || len(s) > MaxSuggestLen {
		return ""
	}
	if best, ok := closestASCII(s, candidates); ok {
		return best
	}
	// Names and enum values are short: their runes fit on the stack.
	var sBuf, cBuf [64]rune
	ns := appendNormalized(sBuf[:0], s)
	best, bestD := "", -1
	for _, c := range candidates {
		if c == s || len(c) > MaxSuggestLen {
			continue
		}
		nc := appendNormalized(cBuf[:0], c)
		if d, ok := nearer(ns, nc, bestD); ok {
			best, bestD = c, d
		}
	}
	return best
}

// shortASCII is the length up to which Closest compares ASCII strings
// with bit vectors, one machine word per string, without decoding runes.
const shortASCII = 64

// closestASCII is Closest when s and every candidate are ASCII and at
// most shortASCII bytes long (enum values and argument names almost
// always are); ok is false otherwise, and Closest compares runes. A
// candidate whose length alone puts it out of reach is not compared.
func closestASCII(s string, candidates []string) (best string, ok bool) {
	if len(s) > shortASCII || !isASCII(s) {
		return "", false
	}
	var sBuf, cBuf [shortASCII]byte
	ns := appendNormalizedASCII(sBuf[:0], s)
	sSet := asciiSetOf(ns)
	// The distance's table (a kilobyte) is built only for candidates the
	// byte sets leave in reach.
	bestD := -1
	for _, c := range candidates {
		if len(c) > shortASCII || !isASCII(c) {
			return "", false
		}
		if c == s || !inReach(len(ns), len(c), bestD) {
			continue
		}
		nc := appendNormalizedASCII(cBuf[:0], c)
		longer, shorter := max(len(ns), len(c)), min(len(ns), len(c))
		limit := min(max(longer/3, 1), shorter-1)
		if bestD >= 0 {
			limit = min(limit, bestD-1)
		}
		if sSet.missing(nc) > limit || asciiSetOf(nc).missing(ns) > limit {
			continue
		}
		if d := shortDistance(ns, nc); d <= limit {
			best, bestD = c, d
		}
	}
	return best, true
}

// asciiSet is a set of ASCII bytes, a bit each: lo for 0-63, hi for
// 64-127.
type asciiSet struct{ lo, hi uint64 }

func asciiSetOf(b []byte) asciiSet {
	var lo, hi uint64
	for _, c := range b {
		if c < 64 {
			lo |= 1 << c
		} else {
			hi |= 1 << (c & 63)
		}
	}
	return asciiSet{lo, hi}
}

// missing counts the bytes of b (ASCII) that s lacks. Every such byte
// costs an edit whatever the alignment (a transposition brings in no new
// byte), so missing bounds the optimal string alignment distance from
// below, both ways round: candidates it puts out of reach are not
// compared.
func (s asciiSet) missing(b []byte) int {
	n := 0
	for _, c := range b {
		w := s.hi
		if c < 64 {
			w = s.lo
		}
		n += int(^w >> (c & 63) & 1)
	}
	return n
}

// shortDistance is the optimal string alignment distance between the ASCII
// strings a (at most 64 bytes) and b.
func shortDistance(a, b []byte) int {
	var p osaPattern
	p.init(a)
	return p.distance(b)
}

// osaPattern computes the optimal string alignment distance from one
// ASCII string of at most 64 bytes to others, a column of the edit
// distance matrix at a time in bit vectors (Hyyrö's extension of Myers'
// bit-parallel algorithm to transpositions): O(len(text)) word operations
// per text instead of O(len(pattern)·len(text)) cells.
type osaPattern struct {
	// peq[c] has bit i set when the pattern's byte i is c.
	peq [utf8.RuneSelf]uint64
	m   int
}

func (p *osaPattern) init(pattern []byte) {
	for i, c := range pattern {
		p.peq[c] |= 1 << i
	}
	p.m = len(pattern)
}

// distance returns the distance from the pattern to text (ASCII).
func (p *osaPattern) distance(text []byte) int {
	if p.m == 0 {
		return len(text)
	}
	// Vertical deltas of the current column: pv (+1) and mv (-1) bit
	// sets; the pattern's first column is 0, 1, ..., m.
	pv, mv := ^uint64(0), uint64(0)
	var d0, pmPrev uint64
	high := uint64(1) << (p.m - 1)
	score := p.m
	for _, c := range text {
		pm := p.peq[c]
		tr := ((^d0 & pm) << 1) & pmPrev
		d0 = (((pm & pv) + pv) ^ pv) | pm | mv | tr
		ph := mv | ^(d0 | pv)
		mh := d0 & pv
		if ph&high != 0 {
			score++
		} else if mh&high != 0 {
			score--
		}
		// The top row is 0, 1, ..., len(text): every step adds one.
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(d0 | ph)
		mv = ph & d0
		pmPrev = pm
	}
	return score
}

// inReach reports whether strings of m and n code points can be close
// (see Closest) and nearer than bestD (-1: no candidate yet): their
// distance is at least the difference of their lengths.
func inReach(m, n, bestD int) bool {
	diff, shorter := max(m-n, n-m), min(m, n)
	return diff <= max(max(m, n)/3, 1) && diff < shorter && (bestD < 0 || diff < bestD)
}

// nearer returns the distance of the normalized a and b when it makes b a
// suggestion for a — at most a third of the longer one (at least 1),
// less than the shorter one's length — nearer than bestD (-1: no
// candidate yet).
func nearer(a, b []rune, bestD int) (int, bool) {
	longer, shorter := max(len(a), len(b)), min(len(a), len(b))
	limit := min(max(longer/3, 1), shorter-1)
	if bestD >= 0 {
		limit = min(limit, bestD-1)
	}
	if limit < 0 {
		return 0, false
	}
	d := osaDistance(a, b, limit)
	return d, d <= limit
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendNormalizedASCII is appendNormalized for an ASCII s.
func appendNormalizedASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '-' || c == ' ':
			c = '_'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendNormalized appends the runes of s lowered, with '-' and ' ' read
// as '_' and invalid UTF-8 (and U+FFFD) left out.
func appendNormalized(dst []rune, s string) []rune {
	for _, r := range s {
		r = unicode.ToLower(r)
		if r == '-' || r == ' ' {
			r = '_'
		}
		if r != utf8.RuneError {
			dst = append(dst, r)
		}
	}
	return dst
}

// Distance is the optimal string alignment edit distance between a and b,
// counted in code points: insertions, deletions, substitutions and
// transpositions of adjacent code points cost one each. Comparison is
// exact; callers fold case first where they want it folded. It costs
// O(len(a)·len(b)): for strings a model controls use DistanceAtMost.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	return osaDistance(ra, rb, max(len(ra), len(rb)))
}

// DistanceAtMost is Distance when that is at most limit, and limit+1
// otherwise. It costs O(min(len(a), len(b))·limit) time and O(len(b))
// space after a linear length check, so it is safe on hostile input: the
// runtime's ranked suggestions (gateway op paths, facade tool names) order
// by it.
func DistanceAtMost(a, b string, limit int) int {
	if limit < 0 {
		return 0
	}
	// A code point is 1 to utf8.UTFMax bytes: decide hopeless pairs from
	// byte lengths before converting anything.
	la, lb := len(a), len(b)
	if la > lb {
		la, lb = lb, la
	}
	if lb/utf8.UTFMax-la > limit {
		return limit + 1
	}
	return osaDistance([]rune(a), []rune(b), limit)
}

// osaDistance is the optimal string alignment distance of a and b, or
// limit+1 once it is known to exceed limit. Only the diagonal band of
// width 2·limit+1 is computed: a cell outside it is more than limit edits
// away.
func osaDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) == 0 || len(b) == 0 {
		return max(len(a), len(b))
	}
	inf := limit + 1
	// Three rows; short strings keep them on the stack. A cell never holds
	// more than inf.
	var buf [3 * 65]int32
	var rows []int32
	if n := 3 * (len(b) + 1); n <= len(buf) {
		rows = buf[:n]
	} else {
		rows = make([]int32, n)
	}
	prev2, prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)], rows[2*(len(b)+1):]
	for j := range prev {
		prev[j] = int32(min(j, inf))
		prev2[j], cur[j] = int32(inf), int32(inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		if lo == 1 {
			cur[0] = int32(min(i, inf))
		} else {
			cur[lo-1] = int32(inf)
		}
		rowMin := inf
		for j := lo; j <= hi; j++ {
			cost := int32(1)
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			v = min(v, int32(inf))
			cur[j] = v
			rowMin = min(rowMin, int(v))
		}
		if rowMin > limit {
			return inf
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(int(prev[len(b)]), inf)
}

// Rank returns the candidates score accepts, ordered by their score, lowest
// first; equal scores keep the candidates' order. n caps the result (n < 0:
// no cap). Every ranked suggestion of the runtime (gateway op paths and
// argument names, facade tool names and categories) goes through it, with
// the score built on DistanceAtMost.
func Rank(candidates []string, n int, score func(c string) (int, bool)) []string {
	type scored struct {
		s string
		d int
	}
	hits := make([]scored, 0, len(candidates))
	for _, c := range candidates {
		if d, ok := score(c); ok {
			hits = append(hits, scored{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	if n < 0 || n > len(hits) {
		n = len(hits)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = hits[i].s
	}
	return out
}

// CloseName returns the name of known that name misspells or shortens:
// the same but for case and separators (Respelled), a near spelling
// (Closest), a subsequence with the same first letter ("fmt" for format,
// "lim" for limit) or the last word ("schemas" for include_schemas); ""
// when none is. It is how a misnamed argument finds the one meant.
func CloseName(name string, known []string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || len(n) > MaxSuggestLen {
		return ""
	}
	if c := Respelled(n, known); c != "" {
		return c
	}
	if c := Closest(n, known); c != "" {
		return c
	}
	for _, k := range known {
		if len(n) >= 2 && k != "" && n[0] == k[0] && isSubsequence(n, k) || strings.HasSuffix(k, "_"+n) {
			return k
		}
	}
	return ""
}

// isSubsequence reports whether the bytes of a appear in b in order.
func isSubsequence(a, b string) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// Respelled returns the candidate that spells name in another naming
// convention, "" when none does: ASCII case and the separators '_', '-',
// ' ' and '.' are ignored, so taskId, task-id and TaskID all find task_id.
func Respelled(name string, candidates []string) string {
	k := foldSeparators(name)
	for _, c := range candidates {
		if foldSeparators(c) == k {
			return c
		}
	}
	return ""
}

func foldSeparators(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			sb.WriteByte(c + 'a' - 'A')
		case c == '_' || c == '-' || c == ' ' || c == '.':
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
