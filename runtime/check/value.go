package check

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// Len returns the length of s in Unicode code points, as minLength and
// maxLength count it.
func Len(s string) int { return utf8.RuneCountInString(s) }

// KindOf returns the JSON Schema type of a generic decoded value: "null",
// "boolean", "integer" (a number with no fractional part), "number",
// "string", "array" or "object"; "" for anything else.
func KindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case float32:
		return KindOf(float64(x))
	case json.Number:
		r, ok := numberRat(x)
		if ok && r.IsInt() {
			return "integer"
		}
		if ok {
			return "number"
		}
	}
	return ""
}

// Equal reports JSON equality of two generic decoded values: numbers equal
// by value (1 == 1.0, json.Number compared exactly), objects regardless of
// key order, arrays element by element.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return numbersEqual(a, b)
}

func numbersEqual(a, b any) bool {
	fa, ka := toFloat(a)
	fb, kb := toFloat(b)
	if ka == numNone || kb == numNone {
		return false
	}
	if ka == numExact && kb == numExact {
		return fa == fb
	}
	// Equal decimals round to the same float64, so differing floats settle
	// it without exact arithmetic.
	if ga, ok := approxFloat(a); ok {
		if gb, ok := approxFloat(b); ok && ga != gb {
			return false
		}
	}
	if na, ok := a.(json.Number); ok {
		if nb, ok := b.(json.Number); ok && na == nb {
			return true
		}
	}
	ra, ok1 := toRat(a)
	rb, ok2 := toRat(b)
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

type numKind int

const (
	numNone  numKind = iota
	numExact         // the float64 holds the value exactly
	numBig           // needs exact comparison
)

func toFloat(v any) (float64, numKind) {
	switch x := v.(type) {
	case float64:
		return x, numExact
	case float32:
		return float64(x), numExact
	case int:
		return intFloat(int64(x))
	case int64:
		return intFloat(x)
	case int32:
		return float64(x), numExact
	case uint64:
		if x < 1<<53 {
			return float64(x), numExact
		}
		return 0, numBig
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil && len(x) <= 15 && isPlainInteger(string(x)) {
			return f, numExact
		}
		return 0, numBig
	}
	return 0, numNone
}

// approxFloat is v rounded to the nearest float64 (finite only).
func approxFloat(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case int32:
		f = float64(x)
	case uint64:
		f = float64(x)
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	return f, !math.IsInf(f, 0) && !math.IsNaN(f)
}

func intFloat(i int64) (float64, numKind) {
	if i > -(1<<53) && i < 1<<53 {
		return float64(i), numExact
	}
	return 0, numBig
}

func isPlainInteger(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && !(i == 0 && s[i] == '-') {
			return false
		}
	}
	return true
}

func toRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case float64:
		// A float64 stands for the shortest decimal that round-trips to it:
		// the number the JSON text spelled (0.1, not 0.1000000000000000055…).
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	case float32:
		return toRat(float64(x))
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	case int32:
		return new(big.Rat).SetInt64(int64(x)), true
	case uint64:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(x)), true
	case json.Number:
		return numberRat(x)
	}
	return nil, false
}

func numberRat(n json.Number) (*big.Rat, bool) {
	if len(n) > 400 || hugeExponent(string(n)) {
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, false
		}
		if math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	}
	return new(big.Rat).SetString(string(n))
}

// Unique reports whether items holds no two JSON-equal values; when it
// does not, i and j are the indexes of the first duplicate pair: the
// smallest j, then the smallest i < j.
func Unique(items []any) (i, j int, ok bool) {
	if len(items) <= 16 {
		for j = 1; j < len(items); j++ {
			for i = 0; i < j; i++ {
				if Equal(items[i], items[j]) {
					return i, j, false
				}
			}
		}
		return 0, 0, true
	}
	// Bucket by a hash that equal values share, then compare within
	// buckets. The hash covers the whole value: a key of the kind and
	// length alone put [0], [1], [2], ... in one bucket, and 20,000 of
	// them took 7.5 s of pairwise comparisons.
	seed := maphash.MakeSeed()
	buckets := make(map[uint64][]int, len(items))
	for j, v := range items {
		k := hashValue(seed, v)
		for _, i := range buckets[k] {
			if Equal(items[i], v) {
				return i, j, false
			}
		}
		buckets[k] = append(buckets[k], j)
	}
	return 0, 0, true
}

// hashValue returns a hash that JSON-equal values share: arrays hash
// their items' hashes in order, objects their members' in any order, and
// numbers their nearest float64 (0 for -0, which equals 0), or their
// exact value for integers beyond 2^53 that float64 does not tell apart.
func hashValue(seed maphash.Seed, v any) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	switch x := v.(type) {
	case nil:
		h.WriteByte('n')
	case bool:
		if x {
			h.WriteByte('t')
		} else {
			h.WriteByte('f')
		}
	case string:
		h.WriteByte('s')
		h.WriteString(x)
	case []any:
		h.WriteByte('a')
		for _, e := range x {
			writeUint64(&h, hashValue(seed, e))
		}
	case map[string]any:
		var sum uint64
		for k, e := range x {
			var m maphash.Hash
			m.SetSeed(seed)
			m.WriteString(k)
			writeUint64(&m, hashValue(seed, e))
			sum += m.Sum64()
		}
		h.WriteByte('o')
		writeUint64(&h, sum)
	default:
		f, ok := approxFloat(v)
		if !ok {
			h.WriteByte('?')
			break
		}
		if n, ok := bigInt(v, f); ok {
			h.WriteByte('i')
			writeUint64(&h, uint64(n))
			break
		}
		if f == 0 {
			f = 0 // -0 equals 0
		}
		h.WriteByte('#')
		writeUint64(&h, math.Float64bits(f))
	}
	return h.Sum64()
}

func writeUint64(h *maphash.Hash, u uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	h.Write(b[:])
}

// bigInt returns v, nearest the float64 f, when it is an integer of int64
// beyond ±2^53 that no float64 equals (one does when its shortest decimal
// is v: 1e18), so that integers float64 rounds alike hash apart.
func bigInt(v any, f float64) (int64, bool) {
	if math.Abs(f) < 1<<53 {
		return 0, false
	}
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		n = int64(x)
	case json.Number:
		r, ok := numberRat(x)
		if !ok || !r.IsInt() || !r.Num().IsInt64() {
			return 0, false
		}
		n = r.Num().Int64()
	default:
		return 0, false
	}
	var a, b [32]byte
	if string(strconv.AppendFloat(a[:0], float64(n), 'f', -1, 64)) == string(strconv.AppendInt(b[:0], n, 10)) {
		return 0, false
	}
	return n, true
}
