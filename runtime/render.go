package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Renderer is implemented by result values that render themselves for the
// model (a table, a short summary) instead of as JSON.
type Renderer interface {
	Render() string
}

// RenderResult returns the text a provider sees for r: the message, followed
// by the rendered value unless the value is nil or excluded from context.
func RenderResult(r Result) string {
	if r.ExcludeValueFromContext {
		return r.Message
	}
	body := RenderValue(r.Value)
	switch {
	case body == "":
		return r.Message
	case r.Message == "":
		return body
	}
	return r.Message + "\n\n" + body
}

// RenderValue renders v: v.Render() when v (or a pointer to it) implements
// Renderer, otherwise compact JSON with object members whose value is null
// omitted, map keys sorted and struct fields in declaration order. A nil
// value, nil pointer or JSON null renders as "". RenderValue never panics: a
// failing Render or MarshalJSON yields a short "<unrenderable value: …>".
func RenderValue(v any) (out string) {
	if isNil(v) {
		return ""
	}
	defer func() {
		if p := recover(); p != nil {
			out = "<unrenderable value: " + PanicText(p) + ">"
		}
	}()
	if r, ok := asRenderer(v); ok {
		return r.Render()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		if raw, ok := v.(json.RawMessage); ok {
			return string(raw)
		}
		return "<unrenderable value: " + oneLine(err.Error()) + ">"
	}
	raw := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var dst bytes.Buffer
	dst.Grow(len(raw))
	stripNulls(&dst, raw)
	if dst.String() == "null" {
		return ""
	}
	return dst.String()
}

// isNil reports a nil interface or a nil pointer.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// asRenderer finds a Render method on v or, for an addressable copy of a
// non-pointer v, on *v.
func asRenderer(v any) (Renderer, bool) {
	if r, ok := v.(Renderer); ok {
		return r, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		return nil, false
	}
	p := reflect.New(rv.Type())
	if !p.Type().Implements(reflect.TypeFor[Renderer]()) {
		return nil, false
	}
	p.Elem().Set(rv)
	return p.Interface().(Renderer), true
}

// stripNulls copies the compact JSON document src (as encoding/json writes
// it) to dst in one pass, dropping object members whose value is null and
// keeping everything else, member order included.
func stripNulls(dst *bytes.Buffer, src []byte) {
	copyJSONValue(dst, src, 0)
}

// copyJSONValue copies the value starting at src[i] and returns the index
// just after it.
func copyJSONValue(dst *bytes.Buffer, src []byte, i int) int {
	if i >= len(src) {
		return i
	}
	switch src[i] {
	case '{':
		dst.WriteByte('{')
		i++
		first := true
		for i < len(src) && src[i] != '}' {
			if src[i] == ',' {
				i++
			}
			keyEnd := skipJSONString(src, i)
			valStart := keyEnd + 1 // past ':'
			if bytes.HasPrefix(src[valStart:], []byte("null")) {
				i = valStart + 4
				continue
			}
			if !first {
				dst.WriteByte(',')
			}
			first = false
			dst.Write(src[i:valStart])
			i = copyJSONValue(dst, src, valStart)
		}
		dst.WriteByte('}')
		return i + 1
	case '[':
		dst.WriteByte('[')
		i++
		for i < len(src) && src[i] != ']' {
			if src[i] == ',' {
				dst.WriteByte(',')
				i++
			}
			i = copyJSONValue(dst, src, i)
		}
		dst.WriteByte(']')
		return i + 1
	case '"':
		end := skipJSONString(src, i)
		dst.Write(src[i:end])
		return end
	default: // number, true, false, null
		j := i
		for j < len(src) && src[j] != ',' && src[j] != '}' && src[j] != ']' {
			j++
		}
		dst.Write(src[i:j])
		return j
	}
}

// skipJSONString returns the index just after the string starting at
// src[i] (a '"'), or len(src) when it is not terminated.
func skipJSONString(src []byte, i int) int {
	if end, ok := text.SkipString(src, i); ok {
		return end
	}
	return len(src)
}
