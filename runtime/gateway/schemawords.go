package gateway

import (
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// The search words of an op's parameter schema are read by a scan of its
// JSON text rather than by decoding it: an index over thousands of tools
// reads megabytes of schema and needs only a few strings of it.

// maxSchemaWalk bounds the schema nodes read per op for search words, and
// maxSchemaDepth their nesting.
const (
	maxSchemaWalk  = 2000
	maxSchemaDepth = 12
)

// schemaWordSink receives the words of a schema: property names (at any
// depth), short enum and const string values, property descriptions, and
// the names the top-level schema requires. The words are only valid during
// the call.
type schemaWordSink interface {
	argName(s []byte)
	enumValue(s []byte)
	argDesc(s []byte)
	required(s []byte)
	declared() // one property of the top-level schema
}

// schemaWords reads the search words of the JSON Schema raw into sink.
// Malformed JSON ends the scan; what was read before stays. The words are
// subslices of raw when they hold no escapes, so reading them allocates
// nothing.
func schemaWords(raw []byte, sink schemaWordSink) {
	sc := schemaScan{b: raw, budget: maxSchemaWalk, sink: sink}
	sc.space()
	sc.schema(0, false)
}

// schemaScan is a cursor over a schema's JSON text. Once a syntax error is
// seen (bad), every method returns at once.
type schemaScan struct {
	b      []byte
	p      int
	budget int
	bad    bool
	sink   schemaWordSink
}

func (sc *schemaScan) space() {
	for sc.p < len(sc.b) {
		switch sc.b[sc.p] {
		case ' ', '\t', '\n', '\r':
			sc.p++
		default:
			return
		}
	}
}

// next is the next non-space byte, or 0 at the end.
func (sc *schemaScan) next() byte {
	sc.space()
	if sc.bad || sc.p >= len(sc.b) {
		sc.bad = true
		return 0
	}
	return sc.b[sc.p]
}

// expect consumes c or marks the scan bad.
func (sc *schemaScan) expect(c byte) bool {
	if sc.next() != c {
		sc.bad = true
		return false
	}
	sc.p++
	return true
}

// object calls member for each key of the object at the cursor, with the
// cursor on the key's value; member must consume the value.
func (sc *schemaScan) object(member func(key []byte)) {
	if !sc.expect('{') {
		return
	}
	if sc.next() == '}' {
		sc.p++
		return
	}
	for !sc.bad {
		key, ok := sc.str()
		if !ok || !sc.expect(':') {
			sc.bad = true
			return
		}
		member(key)
		switch sc.next() {
		case ',':
			sc.p++
		case '}':
			sc.p++
			return
		default:
			sc.bad = true
		}
	}
}

// array calls elem for each element of the array at the cursor; elem must
// consume the element.
func (sc *schemaScan) array(elem func()) {
	if !sc.expect('[') {
		return
	}
	if sc.next() == ']' {
		sc.p++
		return
	}
	for !sc.bad {
		elem()
		switch sc.next() {
		case ',':
			sc.p++
		case ']':
			sc.p++
			return
		default:
			sc.bad = true
		}
	}
}

// schema reads the schema at the cursor; prop says it is the schema of a
// property, whose description is an argument description.
func (sc *schemaScan) schema(depth int, prop bool) {
	if sc.next() != '{' || depth > maxSchemaDepth || sc.budget <= 0 {
		sc.skip(0)
		return
	}
	sc.budget--
	sc.object(func(key []byte) {
		switch string(key) {
		case "properties":
			if sc.next() != '{' {
				sc.skip(0)
				return
			}
			sc.object(func(name []byte) {
				if depth == 0 {
					sc.sink.declared()
				}
				sc.sink.argName(name)
				sc.schema(depth+1, true)
			})
		case "items":
			if sc.next() == '[' { // tuple form
				sc.array(func() { sc.schema(depth+1, false) })
				return
			}
			sc.schema(depth+1, false)
		case "anyOf", "oneOf", "allOf":
			if sc.next() != '[' {
				sc.skip(0)
				return
			}
			sc.array(func() { sc.schema(depth+1, false) })
		case "enum":
			if sc.next() != '[' {
				sc.skip(0)
				return
			}
			sc.array(sc.value)
		case "const":
			sc.value()
		case "description":
			if s, ok := sc.strValue(); ok && prop {
				sc.sink.argDesc(s)
			}
		case "required":
			if sc.next() != '[' || depth > 0 {
				sc.skip(0)
				return
			}
			sc.array(func() {
				if s, ok := sc.strValue(); ok {
					sc.sink.required(s)
				}
			})
		default:
			sc.skip(0)
		}
	})
}

// value reads a scalar enum or const value: a string of at most 64 bytes
// is an enum word; anything else is skipped.
func (sc *schemaScan) value() {
	if sc.next() != '"' {
		sc.skip(0)
		return
	}
	if s, ok := sc.str(); ok && len(s) <= 64 {
		sc.sink.enumValue(s)
	}
}

// strValue reads a string value, or skips a value of another type.
func (sc *schemaScan) strValue() ([]byte, bool) {
	if sc.next() != '"' {
		sc.skip(0)
		return nil, false
	}
	return sc.str()
}

// str reads the string at the cursor, unescaped.
func (sc *schemaScan) str() ([]byte, bool) {
	if sc.next() != '"' {
		sc.bad = true
		return nil, false
	}
	start := sc.p + 1
	escaped := false
	for i := start; i < len(sc.b); i++ {
		switch sc.b[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			sc.p = i + 1
			if !escaped {
				return sc.b[start:i], true
			}
			return unescape(sc.b[start:i])
		}
	}
	sc.bad = true
	return nil, false
}

// unescape decodes the body of a JSON string that holds escapes.
func unescape(b []byte) ([]byte, bool) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i++; i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case 'n', 't', 'r', 'b', 'f':
			out = append(out, ' ')
		case 'u':
			if i+5 > len(b) {
				return nil, false
			}
			r, ok := text.Hex4(b[i+1:i+5], 0)
			if !ok {
				return nil, false
			}
			out = utf8.AppendRune(out, r)
			i += 4
		default: // " \ /
			out = append(out, b[i])
		}
	}
	return out, true
}

// skip consumes the value at the cursor, of any type.
func (sc *schemaScan) skip(depth int) {
	switch c := sc.next(); {
	case sc.bad:
	case depth > 64:
		sc.bad = true
	case c == '{':
		sc.object(func([]byte) { sc.skip(depth + 1) })
	case c == '[':
		sc.array(func() { sc.skip(depth + 1) })
	case c == '"':
		sc.str()
	default: // number, true, false, null
		start := sc.p
		for sc.p < len(sc.b) && !isDelim(sc.b[sc.p]) {
			sc.p++
		}
		if sc.p == start {
			sc.bad = true
		}
	}
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '{', '[', '"':
		return true
	}
	return false
}
