package gateway

import (
	"math"
	goruntime "runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Building an Index. Most of the work is reading words: a 2,300-tool
// family has megabytes of schema and hundreds of thousands of words. The
// ops are split between workers, each with its own table of terms (a raw
// word is stemmed once per worker and looked up once per occurrence), and
// the tables are merged into dense term ids afterwards.

// NewIndex indexes ops.
func NewIndex(ops []Op, opts ...IndexOption) *Index {
	return newIndex(ops, defaultRank, opts...)
}

// opWords are one op's term ids, field after field in one slice (name
// then description first, so that name+description is one run).
type opWords struct {
	ids  []int32
	end  [numFields]int32 // end of each field in ids
	need valueKinds       // the kinds of value its required arguments take
}

func (w *opWords) field(fi int) []int32 {
	start := int32(0)
	if fi > 0 {
		start = w.end[fi-1]
	}
	return w.ids[start:w.end[fi]]
}

// termTable is one worker's terms: a raw word (as written, any case) maps
// to the id of its stem, or -1 for a stop word or number.
type termTable struct {
	memo  *wordTable // raw word → term id
	ids   map[string]int32
	terms []string
	// scratch for the schema words of the op being read
	args, enums, argDescs, req []int32
	buf                        []int32
	need                       valueKinds // the kinds its required arguments take
	nreq, nprop                int        // its required names and top-level properties
}

// addWords appends the term ids of the words of text to dst.
func addWords[T ~string | ~[]byte](tt *termTable, dst []int32, text T) []int32 {
	forWords(text, func(w T) {
		k, ok := wordGet(tt.memo, w)
		if !ok {
			k = tt.term(string(w))
			wordPut(tt.memo, w, k)
		}
		if k >= 0 {
			dst = append(dst, k)
		}
	})
	return dst
}

// term is the id of the stem of raw word w, -1 for a stop word or number.
func (tt *termTable) term(w string) int32 {
	l := strings.ToLower(w)
	if stopWords[l] || isDigits(l) {
		return -1
	}
	st := stem(l)
	k, ok := tt.ids[st]
	if !ok {
		k = int32(len(tt.terms))
		tt.ids[st] = k
		tt.terms = append(tt.terms, st)
	}
	return k
}

func (tt *termTable) argName(s []byte)   { tt.args = addWords(tt, tt.args, s) }
func (tt *termTable) enumValue(s []byte) { tt.enums = addWords(tt, tt.enums, s) }
func (tt *termTable) argDesc(s []byte)   { tt.argDescs = addWords(tt, tt.argDescs, s) }
func (tt *termTable) declared()          { tt.nprop++ }
func (tt *termTable) required(s []byte) {
	tt.need |= kindOf(tt, s)
	tt.nreq++
}

// kindOf is the kind of value an argument named name takes, by the
// last word of its name, which says what it is: "start_date" is a date,
// "payment_id" an id and "timeFrame" a frame, not a payment or a time.
func kindOf[T ~string | ~[]byte](tt *termTable, name T) valueKinds {
	tt.req = addWords(tt, tt.req[:0], name)
	if len(tt.req) == 0 {
		return 0
	}
	return stemKinds[tt.terms[tt.req[len(tt.req)-1]]]
}

// read returns op's words (ids of tt) and its action: its registry
// action, else the first word of its path or tool name that names one.
func (tt *termTable) read(op *Op) (opWords, actionClass) {
	ids := tt.buf[:0]
	var w opWords
	act := actionOf[stem(strings.ToLower(op.Action))]
	for i, s := range [...]string{op.Path, op.Tool, op.Entity, op.Action} {
		from := len(ids)
		ids = addWords(tt, ids, s)
		for _, k := range ids[from:] {
			if act != actNone || i > 1 {
				break
			}
			act = actionOf[tt.terms[k]]
		}
	}
	w.end[fieldName] = int32(len(ids))
	ids = addWords(tt, ids, op.Description)
	w.end[fieldDesc] = int32(len(ids))
	tt.args, tt.enums, tt.argDescs, tt.need, tt.nreq, tt.nprop = tt.args[:0], tt.enums[:0], tt.argDescs[:0], 0, 0, 0
	if len(op.Parameters) > 0 {
		schemaWords(op.Parameters, tt)
	}
	if len(tt.args) == 0 {
		for _, a := range op.Args {
			tt.args = addWords(tt, tt.args, a.Name)
			tt.argDescs = addWords(tt, tt.argDescs, a.Description)
			tt.nprop++
			if a.Required {
				tt.need |= kindOf(tt, a.Name)
				tt.nreq++
			}
		}
	}
	// A schema that requires every property it declares (as strict
	// function calling demands) says nothing of which values a question
	// must give; only a selective one does.
	if tt.nreq < tt.nprop {
		w.need = tt.need
	}
	ids = append(ids, tt.args...)
	w.end[fieldArgs] = int32(len(ids))
	ids = append(ids, tt.enums...)
	w.end[fieldEnum] = int32(len(ids))
	ids = append(ids, tt.argDescs...)
	w.end[fieldArgDesc] = int32(len(ids))
	if x := tt.expansions(ids, int(w.end[fieldName])); len(x) > 0 {
		ids = slices.Insert(ids, int(w.end[fieldName]), x...)
		for fi := range w.end {
			w.end[fi] += int32(len(x))
		}
	}
	// The ops of a worker share one growing buffer.
	w.ids = ids[:len(ids):len(ids)]
	tt.buf = ids[len(ids):]
	return w, act
}

// expansions are the words an op's name shortens, learned from the op's
// own text: a name word of three letters or more that the rest of the op
// (ids[nameEnd:]) does not use, but that begins a longer word of it or is
// one written without its vowels, the first such, stands for that word too
// ("prob" and "dist" in prob_dist_binomial, whose description says
// "probability" and "distribution"; "hypot" and "hypotenuse"; "calc" and
// "calculate"; "cmd" and "command", "avg" and "average"). The
// expansions join the name's terms, so a question in full words finds the
// name written in short ones. A word the rest of the op uses is not
// expanded: it is a word of its own there.
func (tt *termTable) expansions(ids []int32, nameEnd int) []int32 {
	var out []int32
	rest := ids[nameEnd:]
	for _, k := range ids[:nameEnd] {
		short := tt.terms[k]
		if len(short) < 3 || slices.Contains(rest, k) {
			continue
		}
		for _, r := range rest {
			long := tt.terms[r]
			if len(long) >= len(short)+2 && (strings.HasPrefix(long, short) || contraction(short, long)) {
				if !slices.Contains(out, r) && !slices.Contains(ids[:nameEnd], r) {
					out = append(out, r)
				}
				break
			}
		}
	}
	return out
}

// newIndex indexes ops with the constants p, in five passes over the
// ops: their words are read (in parallel) and given global term ids; the
// family's compound words are found from how many ops use each term;
// postings are laid out in one backing array; each op's BM25F pseudo term
// frequencies and name terms are filled in; the kinds of value its
// arguments take are noted.
func newIndex(ops []Op, p rankParams, opts ...IndexOption) *Index {
	ix := &Index{p: p, ops: ops, names: make([][]int32, len(ops)), seq: make([][]int32, len(ops)),
		action: make([]actionClass, len(ops))}
	for _, o := range opts {
		o(ix)
	}
	words := ix.readWords(ops)
	seen := make(opStamps, len(ix.terms))
	ix.findCompounds(words, seen)
	compound := p.Compound > 0
	avg := ix.layoutPostings(words, compound, seen)
	ix.fillPostings(words, p, avg, seen)
	ix.kinds, ix.needs = make([]valueKinds, len(ops)), make([]valueKinds, len(ops))
	for i := range ops {
		for _, k := range words[i].field(fieldArgs) {
			ix.kinds[i] |= stemKinds[ix.terms[k]]
		}
		ix.needs[i] = words[i].need
	}
	ix.vocab = slices.Clone(ix.terms)
	sort.Strings(ix.vocab)
	ix.byName = newNameTable(ops)
	return ix
}

// opStamps mark, per term, the last op (+1) a pass counted it for, so
// that a pass over the ops in order counts each term once per op.
type opStamps []int32

// first reports whether term k is marked for op i for the first time.
func (s opStamps) first(k int32, i int) bool {
	if s[k] == int32(i+1) {
		return false
	}
	s[k] = int32(i + 1)
	return true
}

// readWords reads every op's words and action, the ops split between
// workers in contiguous ranges, and merges the workers' terms into ix:
// every term gets a global id.
func (ix *Index) readWords(ops []Op) []opWords {
	words := make([]opWords, len(ops))
	workers := max(1, min(goruntime.GOMAXPROCS(0), len(ops)/256))
	tables := make([]*termTable, workers)
	span := func(w int) (lo, hi int) { return w * len(ops) / workers, (w + 1) * len(ops) / workers }
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			tt := &termTable{memo: newWordTable(1 << 12), ids: make(map[string]int32, 1<<12), buf: make([]int32, 0, 1<<14)}
			tables[w] = tt
			// Contiguous ranges: the buffer holds whole runs of ops.
			lo, hi := span(w)
			for i := lo; i < hi; i++ {
				words[i], ix.action[i] = tt.read(&ops[i])
			}
		})
	}
	wg.Wait()
	ix.ids = map[string]int32{}
	for w, tt := range tables {
		remap := make([]int32, len(tt.terms))
		for k, t := range tt.terms {
			g, ok := ix.ids[t]
			if !ok {
				g = int32(len(ix.terms))
				ix.ids[t] = g
				ix.terms = append(ix.terms, t)
			}
			remap[k] = g
		}
		lo, hi := span(w)
		for i := lo; i < hi; i++ {
			for j, k := range words[i].ids {
				words[i].ids[j] = remap[k]
			}
		}
	}
	return words
}

// findCompounds sets ix.parts: a term is a compound of two words the
// family uses on their own (splitCompound), judged by how many ops use
// each term.
func (ix *Index) findCompounds(words []opWords, seen opStamps) {
	clear(seen)
	df := make([]int32, len(ix.terms))
	for i := range words {
		for _, k := range words[i].ids {
			if seen.first(k, i) {
				df[k]++
			}
		}
	}
	dfOf := func(t string) int {
		if k, ok := ix.ids[t]; ok {
			return int(df[k])
		}
		return 0
	}
	ix.parts = make([][2]int32, len(ix.terms))
	for k, t := range ix.terms {
		ix.parts[k] = [2]int32{-1, -1}
		if pt, ok := splitCompound(t, dfOf); ok {
			ix.parts[k] = [2]int32{ix.ids[pt[0]], ix.ids[pt[1]]}
		}
	}
}

// layoutPostings counts the ops that hold each term (a compound's parts
// too when compound), sets each term's idf and carves its postings from
// one backing array, and returns the fields' mean lengths.
func (ix *Index) layoutPostings(words []opWords, compound bool, seen opStamps) (avg [numFields]float64) {
	clear(seen)
	n := make([]int32, len(ix.terms))
	mark := func(k int32, i int) {
		if seen.first(k, i) {
			n[k]++
		}
	}
	for i := range words {
		for fi := range numFields {
			avg[fi] += float64(len(words[i].field(fi)))
		}
		for _, k := range words[i].ids {
			mark(k, i)
			if pt := ix.parts[k]; pt[0] >= 0 && compound {
				mark(pt[0], i)
				mark(pt[1], i)
			}
		}
	}
	for fi := range avg {
		avg[fi] = max(avg[fi]/float64(max(len(words), 1)), 1e-9)
	}
	var total int
	for _, c := range n {
		total += int(c)
	}
	docs, tfs := make([]int32, total), make([]float64, total)
	ix.post = make([]postings, len(ix.terms))
	nOps := float64(len(words))
	var off int
	for k, c := range n {
		d := float64(c)
		end := off + int(c)
		ix.post[k] = postings{idf: math.Log(1 + (nOps-d+0.5)/(d+0.5)), docs: docs[off:off:end], tf: tfs[off:off:end]}
		off = end
	}
	return avg
}

// fillPostings appends each op to its terms' postings with the term's
// BM25F pseudo term frequency (field-weighted, length-normalised), and
// sets the op's name terms (compounds' parts too) and its name and
// description sequence.
func (ix *Index) fillPostings(words []opWords, p rankParams, avg [numFields]float64, seen opStamps) {
	clear(seen)
	compound := p.Compound > 0
	acc := make([]float64, len(ix.terms)) // the op's pseudo term frequency, per term
	var touched []int32
	add := func(k int32, w float64, i int) {
		if seen.first(k, i) {
			touched = append(touched, k)
		}
		acc[k] += w
	}
	// every op's name terms in one backing array
	allNames := make([]int32, 0, 8*len(words))
	nameEnd := make([]int32, len(words))
	for i := range words {
		touched = touched[:0]
		from := len(allNames)
		for fi := range numFields {
			ts := words[i].field(fi)
			norm := p.Weight[fi] / (1 - p.B[fi] + p.B[fi]*float64(len(ts))/avg[fi])
			for _, k := range ts {
				add(k, norm, i)
				pt := ix.parts[k]
				if pt[0] >= 0 && compound {
					add(pt[0], p.Compound*norm, i)
					add(pt[1], p.Compound*norm, i)
				}
				if fi == fieldName {
					allNames = appendNew(allNames, from, k)
					if pt[0] >= 0 {
						allNames = appendNew(appendNew(allNames, from, pt[0]), from, pt[1])
					}
				}
			}
		}
		for _, k := range touched {
			pl := &ix.post[k]
			pl.docs = append(pl.docs, int32(i))
			pl.tf = append(pl.tf, acc[k])
			acc[k] = 0
		}
		nameEnd[i] = int32(len(allNames))
		ix.seq[i] = words[i].ids[:words[i].end[fieldDesc]]
	}
	// The backing array no longer grows: slice it.
	from := 0
	for i := range words {
		ix.names[i] = allNames[from:nameEnd[i]:nameEnd[i]]
		from = int(nameEnd[i])
	}
}

// appendNew appends k unless s[from:] holds it.
func appendNew(s []int32, from int, k int32) []int32 {
	if slices.Contains(s[from:], k) {
		return s
	}
	return append(s, k)
}

// splitCompound splits t into two words the family uses on their own,
// each of at least three letters ("airfare" when "air" and "fare" occur),
// when t has six to maxStemLen letters. The split with the most common rarer
// part wins.
func splitCompound(t string, df func(string) int) ([2]string, bool) {
	if len(t) < 6 || len(t) > maxStemLen || !isASCII(t) {
		return [2]string{}, false
	}
	best, bestDF := [2]string{}, 0
	for i := 3; i <= len(t)-3; i++ {
		a, b := t[:i], t[i:]
		da := df(a)
		// the part may be a stem whose dropped "e" the compound kept
		if da == 0 && strings.HasSuffix(a, "e") {
			a = a[:len(a)-1]
			da = df(a)
		}
		if da == 0 {
			continue
		}
		db := df(b)
		if db == 0 {
			// the part as a word of its own stems differently ("fare"
			// keeps the e that "airfare" loses)
			for _, alt := range [...]string{stem(b), stem(b + "e")} {
				if d := df(alt); alt != b && d > 0 {
					b, db = alt, d
					break
				}
			}
		}
		if db == 0 {
			continue
		}
		if m := min(da, db); m > bestDF {
			best, bestDF = [2]string{a, b}, m
		}
	}
	return best, bestDF > 0
}

// contraction reports whether short is long written without its vowels
// ("cmd" for command, "msg" for message, "pwd" for password): its first
// letter is long's, no other letter of it is a vowel, and its letters
// appear in long in order.
func contraction(short, long string) bool {
	if short[0] != long[0] {
		return false
	}
	j := 1
	for i := 1; i < len(short); i++ {
		c := short[i]
		if c < 'a' || c > 'z' || strings.IndexByte("aeiou", c) >= 0 {
			return false
		}
		for j < len(long) && long[j] != c {
			j++
		}
		if j == len(long) {
			return false
		}
		j++
	}
	return true
}
