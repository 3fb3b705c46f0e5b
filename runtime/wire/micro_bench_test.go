package wire

import (
	"fmt"
	"strings"
	"testing"
)

// The micro-benchmarks below measure one Decoder method each, over a
// document of the shape tool arguments have.

var (
	benchASCII   = []byte(`["golang","go","open","NeedsFix","help wanted","updated","desc","2024-05-01T08:30:00Z"]`)
	benchEscaped = []byte(`["line\none","tab\there","quote\"d","\u00e9t\u00e9","caf\u00e9 \ud83d\ude00","a\\b","x\/y","plain"]`)
	benchUnicode = []byte(`["日本語のテキスト","Ünïcödé","emoji 😀 here","ασδφ","中文","plain ascii","ok","done"]`)
	benchNumbers = []byte(`[0,1,-1,42,2.5,1e3,-0.125,9007199254740993,123456789,50]`)
	benchLong    = []byte(`["List issues in a GitHub repository. For pagination, use the 'page' and 'perPage' parameters.",` +
		`"Results per page for pagination (min 1, max 100)","Filter by date (ISO 8601 timestamp)"]`)
	benchNested = []byte(`{"a":{"b":[1,2,{"c":"d","e":[true,false,null]}],"f":"g"},"h":[[1],[2,[3]]],"i":{"j":{"k":{"l":"m"}}}}`)
)

// Each benchmark runs its own loop with a static reader, as generated code
// does, so that the Decoder stays on the stack.

func benchStart(b *testing.B, data []byte) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
}

func benchDone(b *testing.B, d *Decoder) {
	if d.Close() != nil || !d.Clean() {
		b.Fatal("unexpected error")
	}
}

var sinkString string

func readStrings(d *Decoder) {
	if d.Array() {
		for d.More() {
			sinkString = d.String()
		}
	}
}

func benchStrings(b *testing.B, data []byte) {
	benchStart(b, data)
	for b.Loop() {
		d := NewDecoder(data)
		readStrings(d)
		benchDone(b, d)
	}
}

func BenchmarkStringASCII(b *testing.B)   { benchStrings(b, benchASCII) }
func BenchmarkStringEscaped(b *testing.B) { benchStrings(b, benchEscaped) }
func BenchmarkStringUnicode(b *testing.B) { benchStrings(b, benchUnicode) }

// BenchmarkStringLong reads strings longer than the word-at-a-time fast
// path's stride.
func BenchmarkStringLong(b *testing.B) { benchStrings(b, benchLong) }

func BenchmarkFloat(b *testing.B) {
	benchStart(b, benchNumbers)
	for b.Loop() {
		d := NewDecoder(benchNumbers)
		if d.Array() {
			for d.More() {
				_ = d.Float()
			}
		}
		benchDone(b, d)
	}
}

func BenchmarkInt(b *testing.B) {
	data := []byte(`[0,1,-1,42,25,1000,-125,9007199254740993,123456789,50]`)
	benchStart(b, data)
	for b.Loop() {
		d := NewDecoder(data)
		if d.Array() {
			for d.More() {
				_ = d.Int()
			}
		}
		benchDone(b, d)
	}
}

func BenchmarkSkip(b *testing.B) {
	benchStart(b, benchNested)
	for b.Loop() {
		d := NewDecoder(benchNested)
		d.Skip()
		benchDone(b, d)
	}
}

var sinkAny any

func BenchmarkAny(b *testing.B) {
	benchStart(b, benchNested)
	for b.Loop() {
		d := NewDecoder(benchNested)
		sinkAny = d.Any()
		benchDone(b, d)
	}
}

// BenchmarkObjectKeys reads an object's members by key, as generated
// decoders do, skipping every value.
func BenchmarkObjectKeys(b *testing.B) {
	data := []byte(`{"owner":1,"repo":2,"state":3,"labels":4,"sort":5,"direction":6,"since":7,"page":8,"perPage":9}`)
	benchStart(b, data)
	for b.Loop() {
		d := NewDecoder(data)
		n := 0
		if d.Object() {
			for d.More() {
				switch string(d.Key()) {
				case "owner", "repo", "state", "labels", "sort", "direction", "since", "page", "perPage":
					n++
				}
				d.Skip()
			}
		}
		if n != 9 {
			b.Fatal("keys")
		}
		benchDone(b, d)
	}
}

// BenchmarkManyKeys reads an object of a megabyte of distinct members (an
// attacker's unknown arguments), every key checked against the others
// for a repeat, in objects of 100 and of all of them.
func BenchmarkManyKeys(b *testing.B) {
	for _, per := range []int{100, 0} {
		var sb strings.Builder
		sb.WriteString("{")
		n := 0
		for sb.Len() < 1<<20 {
			if n > 0 {
				sb.WriteString(",")
			}
			if per > 0 && n%per == 0 {
				fmt.Fprintf(&sb, `"o%d":{"m":0`, n)
				for i := 1; i < per; i++ {
					fmt.Fprintf(&sb, `,"m%d":%d`, i, i)
				}
				sb.WriteString("}")
			} else {
				fmt.Fprintf(&sb, `"k%d":%d`, n, n)
			}
			n++
		}
		sb.WriteString("}")
		data := []byte(sb.String())
		name := "one_object"
		if per > 0 {
			name = "objects_of_100"
		}
		b.Run(name, func(b *testing.B) {
			benchStart(b, data)
			for b.Loop() {
				d := NewDecoder(data)
				walk(d)
				benchDone(b, d)
			}
		})
	}
}

// BenchmarkKeysAfterLargeObject reads an array of one object of 60,000
// members and then about 2 MB of objects of manyKeys+1 members at the same
// depth: each of them must not pay for the large one's key table.
func BenchmarkKeysAfterLargeObject(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`[{`)
	for i := range 60000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `"k%d":0`, i)
	}
	sb.WriteString(`}`)
	for sb.Len() < 2<<20 {
		sb.WriteString(`,{`)
		for i := range manyKeys + 1 {
			if i > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `"%d":0`, i)
		}
		sb.WriteString(`}`)
	}
	sb.WriteString(`]`)
	data := []byte(sb.String())
	benchStart(b, data)
	for b.Loop() {
		d := NewDecoder(data)
		walk(d)
		benchDone(b, d)
	}
}

// walk reads the value at d member by member, as a generated decoder
// reads the objects it knows.
func walk(d *Decoder) {
	switch d.Peek() {
	case Object, Array:
		ok := d.Peek() == Object && d.Object() || d.Peek() == Array && d.Array()
		if !ok {
			return
		}
		for d.More() {
			walk(d)
		}
	default:
		d.Skip()
	}
}
