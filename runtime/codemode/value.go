package codemode

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// maxDepth bounds the nesting of values converted to JSON; deeper values
// (and circular ones) are refused instead of recursing without end.
const maxDepth = 64

var errTooBig = errors.New("value too large")

// errNoBigInt is the error of a BigInt, or a BigInt object, without a
// toJSON: as in JSON.stringify, it has no JSON form.
var errNoBigInt = errors.New("a BigInt has no JSON form")

var bigIntType = reflect.TypeOf((*big.Int)(nil))

// marshaler converts script values to JSON with the semantics of
// JSON.stringify (toJSON, replacer, indent, undefined and functions left
// out), bounded in depth and output size: it never recurses more than
// maxDepth levels and stops once the output passes max bytes.
type marshaler struct {
	vm       *goja.Runtime
	max      int
	b        []byte
	replacer goja.Callable
	allow    map[string]bool
	indent   string

	// wellFormed refuses (with an *encodingError) a string or member name
	// holding an unpaired surrogate, which the engine's export would turn
	// into U+FFFD; ownKeys is the original Object.keys, to read member
	// names as the script's strings. path holds the JSON pointer tokens of
	// the value being converted, for the error.
	wellFormed bool
	ownKeys    goja.Callable
	path       []string
	// noProxy refuses a Proxy anywhere in the value, before any of its
	// traps runs: its traps may answer the reads of one conversion
	// differently (the names read for the output and again for the
	// wellFormed check, so that a name with an unpaired surrogate passed
	// as U+FFFD).
	noProxy bool
}

// encodingError is a string of an op's args that is not valid Unicode: it
// holds an unpaired surrogate (UTF-16 text that has no UTF-8 form). ptr
// is the JSON pointer of the value, or of the member whose name it is.
type encodingError struct {
	ptr string
	key bool
}

func (e *encodingError) Error() string {
	return e.ptr + ": " + e.message()
}

// message is the wire decoder's wording of its "encoding" error.
func (e *encodingError) message() string {
	what := "value"
	if e.key {
		what = "key"
	}
	return "the " + what + " is not valid Unicode (invalid UTF-8 or an unpaired surrogate escape); send UTF-8 text"
}

// pointer is the JSON pointer of m.path plus the tokens more.
func (m *marshaler) pointer(more ...string) string {
	var b strings.Builder
	for _, t := range append(m.path[:len(m.path):len(m.path)], more...) {
		b.WriteByte('/')
		b.WriteString(text.PointerToken(t))
	}
	return b.String()
}

// loneSurrogate reports whether the string value v holds a UTF-16
// surrogate that is not part of a pair. x is v exported: the engine
// exports an unpaired surrogate as U+FFFD, so a string without one is
// well formed and is not read again.
func loneSurrogate(v goja.Value, x string) bool {
	if !strings.ContainsRune(x, utf8.RuneError) {
		return false
	}
	s, ok := v.(goja.String)
	if !ok {
		return false
	}
	return unpaired(s.Length(), s.CharAt)
}

// unpaired reports whether the n UTF-16 code units at(0) … at(n-1) hold a
// surrogate that is not part of a pair.
func unpaired(n int, at func(int) uint16) bool {
	for i := 0; i < n; i++ {
		c := at(i)
		switch {
		case c >= 0xD800 && c <= 0xDBFF:
			if i+1 < n {
				if d := at(i + 1); d >= 0xDC00 && d <= 0xDFFF {
					i++
					continue
				}
			}
			return true
		case c >= 0xDC00 && c <= 0xDFFF:
			return true
		}
	}
	return false
}

// badKey returns the first member name of obj (its own enumerable string
// keys) that holds an unpaired surrogate, and whether there is one. keys
// is obj.Keys(), exported: only when one of them holds U+FFFD are the
// names read again as the script's strings.
func (m *marshaler) badKey(obj *goja.Object, keys []string) (string, bool) {
	if m.ownKeys == nil || !slices.ContainsFunc(keys, func(k string) bool { return strings.ContainsRune(k, utf8.RuneError) }) {
		return "", false
	}
	names, err := m.ownKeys(goja.Undefined(), obj)
	if err != nil {
		panic(err)
	}
	arr, ok := names.(*goja.Object)
	if !ok {
		return "", false
	}
	n := arr.Get("length").ToInteger()
	for i := int64(0); i < n; i++ {
		k := arr.Get(strconv.FormatInt(i, 10))
		if k == nil {
			continue
		}
		if x, ok := k.Export().(string); ok && loneSurrogate(k, x) {
			return x, true
		}
	}
	return "", false
}

// where prefixes an error message with the JSON pointer ptr, if any.
func where(ptr string) string {
	if ptr == "" {
		return ""
	}
	return ptr + ": "
}

// marshal converts v to JSON of at most max bytes.
func (r *run) marshal(v goja.Value, max int) ([]byte, error) {
	m := &marshaler{vm: r.vm, max: max}
	ok, err := m.top(v)
	if errors.Is(err, errTooBig) {
		// The start, for a caller that shows a cut value.
		return m.b, err
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return []byte("null"), nil
	}
	return m.b, nil
}

// top converts a root value; ok is false when the value has no JSON form
// (undefined, a function, a symbol).
func (m *marshaler) top(v goja.Value) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			if ex, isEx := p.(*goja.Exception); isEx {
				ok, err = false, errors.New(ex.Value().String())
				return
			}
			panic(p)
		}
	}()
	if m.replacer != nil {
		holder := m.vm.NewObject()
		_ = holder.Set("", v)
		v = m.callReplacer(holder, "", v)
	}
	return m.value(v, 0)
}

func (m *marshaler) callReplacer(holder goja.Value, key string, v goja.Value) goja.Value {
	out, err := m.replacer(holder, m.vm.ToValue(key), v)
	if err != nil {
		panic(err)
	}
	return out
}

func (m *marshaler) newline(depth int) {
	if m.indent == "" {
		return
	}
	m.b = append(m.b, '\n')
	for i := 0; i < depth; i++ {
		m.b = append(m.b, m.indent...)
	}
}

// value appends v; ok is false (nothing appended) for values without a
// JSON form.
func (m *marshaler) value(v goja.Value, depth int) (bool, error) {
	if len(m.b) > m.max {
		return false, errTooBig
	}
	if v == nil || goja.IsUndefined(v) {
		return false, nil
	}
	if goja.IsNull(v) {
		m.b = append(m.b, "null"...)
		return true, nil
	}
	obj, isObj := v.(*goja.Object)
	if !isObj {
		if v.ExportType() == bigIntType {
			// As JSON.stringify: a BigInt's toJSON (inherited from
			// BigInt.prototype) gives it a JSON form.
			if tj, ok := goja.AssertFunction(v.ToObject(m.vm).Get("toJSON")); ok {
				nv, err := tj(v)
				if err != nil {
					panic(err)
				}
				return m.value(nv, depth+1)
			}
		}
		return m.primitive(v)
	}
	if depth >= maxDepth {
		return false, fmt.Errorf("value nested deeper than %d levels (or circular)", maxDepth)
	}
	if isProxy(obj) {
		if m.noProxy {
			return false, fmt.Errorf("%sa Proxy cannot be sent; pass plain objects and arrays", where(m.pointer()))
		}
		if p, ok := obj.Export().(goja.Proxy); ok && p.Target() == nil {
			// As JSON.stringify: a TypeError, not a panic out of the
			// reads below (which ended the run as an engine failure).
			return false, errors.New("a revoked Proxy has no JSON form")
		}
	}
	if tj, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		nv, err := tj(obj)
		if err != nil {
			panic(err)
		}
		if nv2, isObj2 := nv.(*goja.Object); !isObj2 || nv2 != obj {
			return m.value(nv, depth+1)
		}
	}
	if _, fn := goja.AssertFunction(obj); fn {
		return false, nil
	}
	if obj.ExportType() == bigIntType {
		// Object(1n): written {} by the object case below.
		return false, errNoBigInt
	}
	switch obj.ClassName() {
	case "String":
		// As JSON.stringify: ToString of the object (the engine exports a
		// String object as a map of its characters).
		return m.primitive(obj.ToString())
	case "Number", "Boolean", "BigInt":
		return m.primitive(m.vm.ToValue(obj.Export()))
	case "Array":
		return true, m.array(obj, depth)
	}
	return true, m.object(obj, depth)
}

func (m *marshaler) array(obj *goja.Object, depth int) error {
	n := obj.Get("length").ToInteger()
	m.b = append(m.b, '[')
	for i := int64(0); i < n; i++ {
		if len(m.b) > m.max {
			return errTooBig
		}
		if i > 0 {
			m.b = append(m.b, ',')
		}
		m.newline(depth + 1)
		key := strconv.FormatInt(i, 10)
		ev := obj.Get(key)
		if m.replacer != nil {
			ev = m.callReplacer(obj, key, ev)
		}
		if m.wellFormed {
			m.path = append(m.path, key)
		}
		ok, err := m.value(ev, depth+1)
		if err != nil {
			return err
		}
		if m.wellFormed {
			m.path = m.path[:len(m.path)-1]
		}
		if !ok {
			m.b = append(m.b, "null"...)
		}
	}
	if n > 0 {
		m.newline(depth)
	}
	m.b = append(m.b, ']')
	return nil
}

func (m *marshaler) object(obj *goja.Object, depth int) error {
	m.b = append(m.b, '{')
	first := true
	keys := obj.Keys()
	if m.wellFormed {
		if k, bad := m.badKey(obj, keys); bad {
			return &encodingError{ptr: m.pointer(k), key: true}
		}
	}
	for _, k := range keys {
		if len(m.b) > m.max {
			return errTooBig
		}
		if m.allow != nil && !m.allow[k] {
			continue
		}
		ev := obj.Get(k)
		if m.replacer != nil {
			ev = m.callReplacer(obj, k, ev)
		}
		mark := len(m.b)
		if !first {
			m.b = append(m.b, ',')
		}
		m.newline(depth + 1)
		m.b = text.AppendJSONString(m.b, k, false)
		m.b = append(m.b, ':')
		if m.indent != "" {
			m.b = append(m.b, ' ')
		}
		if m.wellFormed {
			m.path = append(m.path, k)
		}
		ok, err := m.value(ev, depth+1)
		if err != nil {
			return err
		}
		if m.wellFormed {
			m.path = m.path[:len(m.path)-1]
		}
		if !ok {
			m.b = m.b[:mark]
			continue
		}
		first = false
	}
	if !first {
		m.newline(depth)
	}
	m.b = append(m.b, '}')
	return nil
}

func (m *marshaler) primitive(v goja.Value) (bool, error) {
	if _, sym := v.(*goja.Symbol); sym {
		// Left out, as JSON.stringify does; the engine exports a symbol as
		// its description, which went into op args as a string.
		return false, nil
	}
	switch x := v.Export().(type) {
	case bool:
		m.b = strconv.AppendBool(m.b, x)
	case int64:
		m.b = strconv.AppendInt(m.b, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			m.b = append(m.b, "null"...)
		} else {
			m.b = appendFloat(m.b, x)
		}
	case string:
		if m.wellFormed && loneSurrogate(v, x) {
			return false, &encodingError{ptr: m.pointer()}
		}
		if room := m.max - len(m.b); len(x) > room {
			m.b = appendCut(m.b, x, m.max)
			return false, errTooBig
		}
		m.b = text.AppendJSONString(m.b, x, false)
	case time.Time:
		m.b = text.AppendJSONString(m.b, x.UTC().Format("2006-01-02T15:04:05.000Z"), false)
	case nil:
		m.b = append(m.b, "null"...)
	default:
		if v.ExportType() == bigIntType {
			return false, errNoBigInt
		}
		return false, nil
	}
	return true, nil
}

// appendCut appends the JSON string s, unterminated, cut so that b holds
// at most max bytes (at a character boundary): the start of a value too
// long for the output, for a caller that shows the start of a cut value
// (a return value, a console line) rather than stopping before the
// string.
func appendCut(b []byte, s string, limit int) []byte {
	n := min(len(s), limit-len(b))
	if n <= 0 {
		return b
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	start := len(b)
	b = text.AppendJSONString(b, s[:n], false)
	b = b[:len(b)-1] // the closing quote
	if len(b) > limit {
		// Escapes made it longer: cut at a character boundary, within an
		// escape at worst (the text is shown as a string, not parsed).
		n := max(limit, start)
		for n > start && n < len(b) && !utf8.RuneStart(b[n]) {
			n--
		}
		b = b[:n]
	}
	return b
}

// appendFloat writes a number as JavaScript prints it; -0 is written 0,
// as JSON.stringify writes it.
func appendFloat(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	s = string(bytes.Replace([]byte(s), []byte("e-0"), []byte("e-"), 1))
	s = string(bytes.Replace([]byte(s), []byte("e+0"), []byte("e+"), 1))
	return append(b, s...)
}
