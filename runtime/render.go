package runtime

import (
	"bytes"
	"encoding/json"
)

// Renderer is implemented by result values that render themselves for the
// model (a table, a short summary) instead of as JSON.
type Renderer interface {
	Render() string
}

// RenderResult returns the text a provider sees for r: the message, followed
// by the rendered value unless the value is nil or excluded from context.
func RenderResult(r Result) string {
	if r.Value == nil || r.ExcludeValueFromContext {
		return r.Message
	}
	body := RenderValue(r.Value)
	if r.Message == "" {
		return body
	}
	return r.Message + "\n\n" + body
}

// RenderValue renders v: v.Render() when v implements Renderer, otherwise
// deterministic JSON with null members omitted.
func RenderValue(v any) string {
	if v == nil {
		return ""
	}
	if r, ok := v.(Renderer); ok {
		return r.Render()
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "<unrenderable value: " + err.Error() + ">"
	}
	var buf bytes.Buffer
	if err := writeWithoutNulls(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// writeWithoutNulls copies the JSON document raw to buf, dropping object
// members whose value is null, keeping member order.
func writeWithoutNulls(buf *bytes.Buffer, raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return copyValue(buf, dec)
}

func copyValue(buf *bytes.Buffer, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			buf.WriteByte('{')
			first := true
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				var val json.RawMessage
				if err := dec.Decode(&val); err != nil {
					return err
				}
				if string(val) == "null" {
					continue
				}
				if !first {
					buf.WriteByte(',')
				}
				first = false
				k, _ := json.Marshal(kt.(string))
				buf.Write(k)
				buf.WriteByte(':')
				if err := copyValue(buf, json.NewDecoder(bytes.NewReader(val))); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			buf.WriteByte('}')
		case '[':
			buf.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					buf.WriteByte(',')
				}
				var val json.RawMessage
				if err := dec.Decode(&val); err != nil {
					return err
				}
				if err := copyValue(buf, json.NewDecoder(bytes.NewReader(val))); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			buf.WriteByte(']')
		}
	case nil:
		buf.WriteString("null")
	default:
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return nil
}
