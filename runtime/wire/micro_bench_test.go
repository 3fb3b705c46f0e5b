package wire

import "testing"

// The micro-benchmarks below measure one Decoder method each, over a
// document of the shape tool arguments have.

var (
	benchStrings = []byte(`["golang","go","open","NeedsFix","help wanted","updated","desc","2024-05-01T08:30:00Z"]`)
	benchEscaped = []byte(`["line\none","tab\there","quote\"d","\u00e9t\u00e9","caf\u00e9 \ud83d\ude00","a\\b","x\/y","plain"]`)
	benchUnicode = []byte(`["日本語のテキスト","Ünïcödé","emoji 😀 here","ασδφ","中文","plain ascii","ok","done"]`)
	benchNumbers = []byte(`[0,1,-1,42,2.5,1e3,-0.125,9007199254740993,123456789,50]`)
	benchNested  = []byte(`{"a":{"b":[1,2,{"c":"d","e":[true,false,null]}],"f":"g"},"h":[[1],[2,[3]]],"i":{"j":{"k":{"l":"m"}}}}`)
)

func benchDoc(b *testing.B, data []byte, read func(d *Decoder)) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(data)
		read(d)
		if d.Close() != nil || !d.Clean() {
			b.Fatal("unexpected error")
		}
	}
}

func readStrings(d *Decoder) {
	if d.Array() {
		for d.More() {
			_ = d.String()
		}
	}
}

func BenchmarkStringASCII(b *testing.B)   { benchDoc(b, benchStrings, readStrings) }
func BenchmarkStringEscaped(b *testing.B) { benchDoc(b, benchEscaped, readStrings) }
func BenchmarkStringUnicode(b *testing.B) { benchDoc(b, benchUnicode, readStrings) }

func BenchmarkFloat(b *testing.B) {
	benchDoc(b, benchNumbers, func(d *Decoder) {
		if d.Array() {
			for d.More() {
				_ = d.Float()
			}
		}
	})
}

func BenchmarkInt(b *testing.B) {
	data := []byte(`[0,1,-1,42,25,1000,-125,9007199254740993,123456789,50]`)
	benchDoc(b, data, func(d *Decoder) {
		if d.Array() {
			for d.More() {
				_ = d.Int()
			}
		}
	})
}

func BenchmarkSkip(b *testing.B) { benchDoc(b, benchNested, func(d *Decoder) { d.Skip() }) }
func BenchmarkAny(b *testing.B)  { benchDoc(b, benchNested, func(d *Decoder) { _ = d.Any() }) }

// BenchmarkObjectKeys reads an object's members by key, as generated
// decoders do, skipping every value.
func BenchmarkObjectKeys(b *testing.B) {
	data := []byte(`{"owner":1,"repo":2,"state":3,"labels":4,"sort":5,"direction":6,"since":7,"page":8,"perPage":9}`)
	benchDoc(b, data, func(d *Decoder) {
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
	})
}
