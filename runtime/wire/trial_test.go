package wire

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
)

// node is a recursive anyOf of three object branches that each hold a
// node "a" and require their own member (x, y or z), decoded as toolgen
// generated a union matched by trial: each branch reads the value again,
// so a branch's nested node is tried once per outer branch. With
// memoized set, it is decoded as toolgen generates it now: its branches
// are trials, and the union is decoded once per value in the trials of a
// call (Recall, Remember, Kept).
type node struct {
	opts [3]*nodeOption
}

type nodeOption struct {
	a   *node
	tag string
}

var nodeTags = [3]string{"x", "y", "z"}

// decodes counts nodeOption decodes; past maxDecodes they skip their
// value, so that the test ends without the limit.
var decodes, maxDecodes int

// memoized makes node decode as toolgen generates unions now.
var memoized bool

func (x *node) decode(d *Decoder) {
	*x = node{}
	mark, done := Mark{pos: -1}, false
	if memoized {
		if mark, done = Recall(d, x); done {
			return
		}
	}
	if d.Peek() != Object {
		d.Mismatch("object")
	} else {
		matched := 0
		for i, tag := range nodeTags {
			b := d.Branch()
			if memoized {
				b = d.Trial()
			}
			v := &nodeOption{}
			v.decode(&b, tag)
			if b.Clean() {
				x.opts[i] = v
				d.Kept(&b, matched)
				matched++
			}
		}
		raw := d.RawBytes()
		if matched == 0 {
			d.NoneMatched("anyOf", []check.Alt{{Desc: "X"}, {Desc: "Y"}, {Desc: "Z"}}, raw)
		}
	}
	if memoized {
		Remember(d, mark, x)
	}
}

func (x *nodeOption) decode(d *Decoder, tag string) {
	if decodes++; decodes > maxDecodes {
		d.Skip()
		return
	}
	if !d.Object() {
		return
	}
	seen := false
	for d.More() {
		switch k := string(d.Key()); {
		case k == "a":
			x.a = new(node)
			x.a.decode(d)
		case k == tag:
			seen = true
			x.tag = d.String()
		default:
			d.Skip()
		}
	}
	if !seen {
		d.Missing(tag)
	}
}

// TestTrialWork checks that the branches of nested union trials read at
// most MaxTrialBytes per byte of the arguments (MinTrialBytes at least):
// each level of the recursive union above tries three branches that all
// read the level below, so 3^depth decodes (14 levels, 214 bytes of
// arguments, took 4 minutes in a generated package); past the limit the
// arguments are refused whole, code maxWork. A shallow value, a large
// one and arrays counted by CountItems are not refused.
func TestTrialWork(t *testing.T) {
	nested := func(depth int, pad string) string {
		return strings.Repeat(`{"a":`, depth) + `{"x":"` + pad + `"}` + strings.Repeat(`,"x":"s"}`, depth)
	}
	for _, tc := range []struct {
		name, args string
		refused    bool
	}{
		{"shallow", nested(3, "s"), false},
		{"large", nested(2, strings.Repeat("p", 1<<20)), false},
		{"deep", nested(14, "s"), true},
		{"deep in a large input", `[` + nested(16, "s") + `,"` + strings.Repeat("p", 1<<20) + `"]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each branch reading its value again is charged at least
			// trialOverhead, RepeatTrialWeight times.
			limit := max(MinTrialBytes, MaxTrialBytes*len(tc.args))/(trialOverhead*RepeatTrialWeight) + 100
			decodes, maxDecodes = 0, limit
			d := NewDecoder([]byte(tc.args))
			var x node
			if d.Peek() == Array {
				d.Array()
				d.More()
				x.decode(d)
				d.More()
				d.Skip()
				d.More()
			} else {
				x.decode(d)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			err := d.Report("t", nil)
			if !tc.refused {
				if err != nil || x.opts[0] == nil {
					t.Fatalf("%v, %d decodes", err, decodes)
				}
				return
			}
			if decodes > limit {
				t.Fatalf("more than %d decodes", limit)
			}
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "maxWork" {
				t.Fatalf("not refused: %v, %d decodes", err, decodes)
			}
		})
	}
}

// TestCountItemsIsNotATrial: counting the items of arrays (as
// runtime/shape does before decoding them in place) is not charged as a
// trial: 100 levels of arrays of objects over half a megabyte are each
// counted whole, 100 times the arguments in all.
func TestCountItemsIsNotATrial(t *testing.T) {
	const depth = 100
	args := strings.Repeat(`[{"c":`, depth) + `["` + strings.Repeat("p", 1<<19) + `"]` + strings.Repeat(`}]`, depth)
	d := NewDecoder([]byte(args))
	var read func()
	read = func() {
		if d.CountItems() == 0 || d.data[d.pos+1] == '"' {
			d.Skip()
			return
		}
		d.Array()
		for d.More() {
			d.Object()
			for d.More() {
				read()
			}
		}
	}
	read()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Report("t", nil); err != nil {
		t.Fatal(err)
	}
}

// filter is a Notion-style filter: an anyOf of wideBranches object
// branches, each requiring its own member (f0, f1, ... and the last,
// "and", an array of filters), and skipping members it does not know, as
// toolgen generates a union matched by trial.
type filter struct {
	opts [wideBranches]*filterOption
}

type filterOption struct {
	and []filter
	s   string
}

const wideBranches = 21

func wideTag(i int) string {
	if i == wideBranches-1 {
		return "and"
	}
	return "f" + strconv.Itoa(i)
}

func (x *filter) decode(d *Decoder) {
	*x = filter{}
	if d.Peek() != Object {
		d.Mismatch("object")
		return
	}
	matched := 0
	for i := range wideBranches {
		b := d.Branch()
		v := &filterOption{}
		v.decode(&b, i)
		if b.Clean() {
			x.opts[i] = v
			matched++
		}
	}
	raw := d.RawBytes()
	if matched == 0 {
		d.NoneMatched("anyOf", []check.Alt{{Desc: "F0"}, {Desc: "F1"}}, raw)
	}
}

func (x *filterOption) decode(d *Decoder, i int) {
	if !d.Object() {
		return
	}
	tag, seen := wideTag(i), false
	for d.More() {
		switch k := string(d.Key()); {
		case k != tag:
			d.Skip()
		case i == wideBranches-1:
			seen = true
			if d.Array() {
				for d.More() {
					var f filter
					f.decode(d)
					x.and = append(x.and, f)
				}
			}
		default:
			seen = true
			x.s = d.String()
		}
	}
	if !seen {
		d.Missing(tag)
	}
}

// TestWideUnionsAreNotRefused: the first branches tried on a value read
// it once each, as the union's schema asks, and are charged its bytes
// only. A Notion-style filter (an anyOf of 21 object branches, compound
// "and" nested 2 and 3 levels) was refused with maxWork from 22 kB of
// arguments (a flat "and" of 3,000 conditions, 160 kB, too), each byte
// being read some 60 to 120 times but none of them again. The same
// union nested 200 levels deep over a 64 kB string reads the string 21
// times a level, and is refused.
func TestWideUnionsAreNotRefused(t *testing.T) {
	var tree func(depth, fan int, leaf string) string
	tree = func(depth, fan int, leaf string) string {
		if depth == 0 {
			return leaf
		}
		items := make([]string, fan)
		for i := range items {
			items[i] = tree(depth-1, fan, `{"f`+strconv.Itoa(i%(wideBranches-1))+`":"value `+strconv.Itoa(i)+`"}`)
		}
		return `{"and":[` + strings.Join(items, ",") + `]}`
	}
	for _, tc := range []struct {
		name, args string
		refused    bool
	}{
		{"flat", tree(1, 3000, ""), false},
		{"two levels", tree(2, 20, ""), false},
		{"three levels", tree(3, 12, ""), false},
		{"200 levels over 64 kB", strings.Repeat(`{"and":[`, 200) + `{"f1":"` + strings.Repeat("p", 1<<16) + `"}` + strings.Repeat(`]}`, 200), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder([]byte(tc.args))
			var x filter
			x.decode(d)
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			err := d.Report("t", nil)
			if !tc.refused {
				if err != nil || x.opts[wideBranches-1] == nil {
					t.Fatalf("%d bytes: %v", len(tc.args), err)
				}
				return
			}
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "maxWork" {
				t.Fatalf("not refused: %v", err)
			}
		})
	}
}

// TestTrialVerdict: a trial's decoder records no error; its first one is
// its verdict, and it reads nothing after it. Its Checks count
// violations without recording them, and what it adopts or absorbs
// from branches and checks of its own fails it the same way.
func TestTrialVerdict(t *testing.T) {
	d := NewDecoder([]byte(`{"a":1,"b":"x","c":true}`))
	b := d.Trial()
	if !b.Object() || !b.More() || string(b.Key()) != "a" {
		t.Fatal("the trial does not read the object")
	}
	if _ = b.String(); b.Clean() || len(b.Errors()) != 0 {
		t.Fatalf("a type error: Clean %v, errors %v", b.Clean(), b.Errors())
	}
	if b.More() {
		t.Fatal("the trial read on after its first error")
	}
	if raw := d.RawBytes(); string(raw) != `{"a":1,"b":"x","c":true}` || d.Err() != nil {
		t.Fatalf("the decoder does not skip the value after the trial: %q %v", raw, d.Err())
	}

	for name, fail := range map[string]func(b *Decoder){
		"missing":   func(b *Decoder) { b.Missing("z") },
		"unknown":   func(b *Decoder) { b.More(); b.Unknown([]string{"b"}) },
		"mismatch":  func(b *Decoder) { b.Mismatch("array") },
		"reject":    func(b *Decoder) { b.Reject("not", "must not be an object") },
		"none":      func(b *Decoder) { b.NoneMatched("anyOf", altsAB, b.RawBytes()) },
		"appended":  func(b *Decoder) { b.Append([]runtime.FieldError{{Code: "x"}}) },
		"fail at":   func(b *Decoder) { b.FailAt("m", "required", "missing", "", "", "") },
		"duplicate": func(b *Decoder) { b.Object(); b.More(); b.Skip(); b.More() },
		"adopted": func(b *Decoder) {
			bb := b.Branch()
			bb.Mismatch("string")
			b.Adopt(&bb)
		},
		"absorbed": func(b *Decoder) {
			e := b.Checks()
			e.AddString(nil, "pattern", "must match", "", "s")
			if e.Len() != 1 || len(e.List()) != 0 {
				t.Errorf("a trial's checks: Len %d, List %v", e.Len(), e.List())
			}
			sub := e.Sub()
			sub.AddInt(nil, "minimum", "must be >= 1", ">= 1", 0)
			if sub.Len() != 1 || len(sub.List()) != 0 {
				t.Errorf("a trial's sub-checks: Len %d, List %v", sub.Len(), sub.List())
			}
			b.Absorb(&e)
		},
	} {
		d := NewDecoder([]byte(`{"m":1,"m":2}`))
		b := d.Trial()
		fail(&b)
		if b.Clean() || len(b.Errors()) != 0 {
			t.Errorf("%s: Clean %v, errors %v", name, b.Clean(), b.Errors())
		}
	}

	// A trial that finds nothing is clean, and a Branch's errors are
	// recorded as before.
	d = NewDecoder([]byte(`{"m":1}`))
	b = d.Trial()
	if !b.Object() || !b.More() || b.Int() != 1 || b.More() || !b.Clean() {
		t.Fatal("a matching trial is not clean")
	}
	b = d.Branch()
	if b.Missing("z"); len(b.Errors()) != 1 {
		t.Fatalf("a branch's error is not recorded: %v", b.Errors())
	}
}

// TestRecallOncePerValue: with Recall and Remember, the recursive union
// of TestTrialWork decodes each level's value three times (once per
// branch) rather than 3^depth times, so 14 levels, refused there, and
// 400 levels are accepted; the decoded value is the whole tree, with the
// outcome found once reused, and a value that matches no branch at the
// bottom is still refused at the top.
func TestRecallOncePerValue(t *testing.T) {
	memoized, maxDecodes = true, 1<<30
	defer func() { memoized = false }()
	nested := func(depth int, leaf string) string {
		return strings.Repeat(`{"a":`, depth) + leaf + strings.Repeat(`,"x":"s"}`, depth)
	}
	for _, depth := range []int{14, 400} {
		decodes = 0
		d := NewDecoder([]byte(nested(depth, `{"x":"leaf"}`)))
		var x node
		x.decode(d)
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := d.Report("t", nil); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if decodes > 3*(depth+1) {
			t.Errorf("depth %d: %d decodes, want at most %d", depth, decodes, 3*(depth+1))
		}
		n := 0
		for p := &x; p != nil; p = p.opts[0].a {
			if p.opts[0] == nil || p.opts[1] != nil || p.opts[2] != nil {
				t.Fatalf("depth %d: level %d decoded as %+v", depth, n, p.opts)
			}
			n++
		}
		if n != depth+1 || x.opts[0].tag != "s" {
			t.Fatalf("depth %d: %d levels decoded", depth, n)
		}

		d = NewDecoder([]byte(nested(depth, `{"w":"leaf"}`)))
		x.decode(d)
		err := d.Report("t", nil)
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Path != "" || ve.Fields[0].Code != "anyOf" {
			t.Fatalf("depth %d, no branch at the bottom: %v", depth, err)
		}
	}
}

// TestKeptCountsCopies: a chain whose links match two object branches
// holds 2^depth copies of its last link for MarshalJSON to write, which
// Recall decodes once. Counted as unions, 10 links over a 64 KB string
// (some 2000 unions) were accepted, and MarshalJSON wrote 64 MB (16
// links: 4 GB, from 66 kB of arguments); the bytes written again are
// counted too, and such a chain is refused, code maxWork. The same chain
// over a short string is accepted.
func TestKeptCountsCopies(t *testing.T) {
	memoized, maxDecodes = true, 1<<30
	defer func() { memoized = false }()
	chain := func(depth, size int) string {
		return strings.Repeat(`{"x":"s","y":"s","a":`, depth) + `{"x":"s","y":"` + strings.Repeat("q", size) + `"}` + strings.Repeat(`}`, depth)
	}
	for _, c := range []struct {
		depth, size int
		refused     bool
	}{{10, 10, false}, {10, 1 << 16, true}, {16, 1 << 16, true}} {
		d := NewDecoder([]byte(chain(c.depth, c.size)))
		var x node
		x.decode(d)
		err := d.Report("t", nil)
		var ve *runtime.ValidationError
		if refused := errors.As(err, &ve) && len(ve.Fields) == 1 && ve.Fields[0].Code == "maxWork"; refused != c.refused {
			t.Errorf("%d links over %d bytes: %v, want refused %v", c.depth, c.size, err, c.refused)
		}
	}
}

// scalarUnion is a union of a number and an array of numbers, decoded as
// toolgen generates a union matched by trial (Recall, Remember).
type scalarUnion struct {
	n    *float64
	list []float64
}

func (x *scalarUnion) decode(d *Decoder) {
	*x = scalarUnion{}
	mark, done := Recall(d, x)
	if done {
		return
	}
	switch d.Peek() {
	case Number:
		v := d.Float()
		x.n = &v
	case Array:
		b := d.Trial()
		var v []float64
		b.Array()
		for b.More() {
			v = append(v, b.Float())
		}
		if b.Clean() {
			x.list = v
			d.Kept(&b, 0)
		}
		d.Skip()
	default:
		d.Mismatch("number or array")
	}
	Remember(d, mark, x)
}

// TestRecallSkipsScalars: Recall remembers the unions of arrays and
// objects only. A number costs no more to read again than to look up,
// and remembering each item of a megabyte of "1," (an entry and a boxed
// union for every one, read once) took twice the time and a third more
// memory than decoding without Recall.
func TestRecallSkipsScalars(t *testing.T) {
	d := NewDecoder([]byte(`[1,2,[3,4],5]`))
	b := d.Trial()
	var got []scalarUnion
	b.Array()
	for b.More() {
		var u scalarUnion
		u.decode(&b)
		got = append(got, u)
	}
	if !b.Clean() || len(got) != 4 || *got[0].n != 1 || len(got[2].list) != 2 || *got[3].n != 5 {
		t.Fatalf("decoded %+v, clean %v", got, b.Clean())
	}
	if n := len(d.work.memo); n != 1 {
		t.Fatalf("%d unions remembered, want 1 (the array's)", n)
	}
}
