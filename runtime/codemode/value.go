package codemode

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// maxDepth bounds the nesting of values converted to JSON; deeper values
// (and circular ones) are refused instead of recursing without end.
const maxDepth = 64

var errTooBig = errors.New("value too large")

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
		return m.primitive(v)
	}
	if depth >= maxDepth {
		return false, fmt.Errorf("value nested deeper than %d levels (or circular)", maxDepth)
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
	switch obj.ClassName() {
	case "String", "Number", "Boolean", "BigInt":
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
		ok, err := m.value(ev, depth+1)
		if err != nil {
			return err
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
	for _, k := range obj.Keys() {
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
		ok, err := m.value(ev, depth+1)
		if err != nil {
			return err
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
		if len(x) > m.max {
			return false, errTooBig
		}
		m.b = text.AppendJSONString(m.b, x, false)
	case time.Time:
		m.b = text.AppendJSONString(m.b, x.UTC().Format("2006-01-02T15:04:05.000Z"), false)
	case nil:
		m.b = append(m.b, "null"...)
	default:
		if _, sym := v.(*goja.Symbol); sym {
			return false, nil
		}
		if v.ExportType() != nil && v.ExportType().String() == "*big.Int" {
			return false, errors.New("a BigInt has no JSON form")
		}
		return false, nil
	}
	return true, nil
}

// appendFloat writes a number as JavaScript prints it.
func appendFloat(b []byte, f float64) []byte {
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
