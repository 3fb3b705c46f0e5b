package jsonpos

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// NodeKind is the JSON kind of a Node.
type NodeKind uint8

// JSON kinds.
const (
	NullNode NodeKind = iota
	BoolNode
	NumberNode
	StringNode
	ArrayNode
	ObjectNode
)

// String is the kind's JSON Schema type name: null, boolean, number,
// string, array or object.
func (k NodeKind) String() string {
	switch k {
	case NullNode:
		return "null"
	case BoolNode:
		return "boolean"
	case NumberNode:
		return "number"
	case StringNode:
		return "string"
	case ArrayNode:
		return "array"
	default:
		return "object"
	}
}

// Node is a decoded JSON value that remembers where it came from. Input
// files are parsed into Nodes (Parse) so that every later error can be
// located as file:line:col plus JSON pointer.
type Node struct {
	Kind NodeKind
	// Bool is the value of a BoolNode.
	Bool bool
	// Replaced reports that a StringNode's text had an unpaired surrogate
	// escape ("\ud800"), which Str holds as U+FFFD: JSON text may say
	// it, no UTF-8 string holds it. Source.UnpairedSurrogate finds the
	// escape (an object key's too, which is not marked).
	Replaced bool
	// Pos is the position of the value's first byte and its JSON pointer.
	Pos ir.Pos
	// Num is the literal text of a NumberNode (exact, never rounded).
	Num string
	// Str is the decoded value of a StringNode.
	Str string
	// Items are an ArrayNode's elements.
	Items []*Node
	// Members are an ObjectNode's members in source order. Code that
	// changes them after parsing does so with AddMember and RemoveMember:
	// Get looks a large parsed object's keys up in an index.
	Members []Member

	// index maps each key of a parsed object of at least dupIndexAt
	// members to its place in Members, so that Get, and with it every
	// $ref into a large $defs, costs the same at any width; nil for a
	// small object or one built, not parsed. indexed is how many members
	// there were when it was made: a change of Members that bypassed
	// AddMember and RemoveMember falls back to the scan.
	index   map[string]int
	indexed int
}

// Member is one object member.
type Member struct {
	Key   string
	Value *Node
	// KeyLine and KeyCol locate the key (see KeyPos). They are 0 in a
	// member toolgen makes rather than parses, whose key is where its
	// value is. A parsed file has a member every few bytes, so a member
	// does not keep the file and JSON pointer its value already has.
	KeyLine, KeyCol int32
}

// KeyPos is the position of the member's key: its line and column with the
// file and JSON pointer of its value (a key has no pointer of its own).
func (m Member) KeyPos() ir.Pos {
	var p ir.Pos
	if m.Value != nil {
		p = m.Value.Pos
	}
	if m.KeyLine > 0 {
		p.Line, p.Col = int(m.KeyLine), int(m.KeyCol)
	}
	return p
}

// NewMember returns the member key: v with its key at the line and column
// of keyPos (a line or column past the range of int32 gives the value's).
func NewMember(key string, keyPos ir.Pos, v *Node) Member {
	m := Member{Key: key, Value: v}
	if keyPos.Line > 0 && keyPos.Line <= math.MaxInt32 && keyPos.Col > 0 && keyPos.Col <= math.MaxInt32 {
		m.KeyLine, m.KeyCol = int32(keyPos.Line), int32(keyPos.Col)
	}
	return m
}

// Get returns the value of member key of an object node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != ObjectNode {
		return nil
	}
	if n.index != nil && len(n.Members) == n.indexed {
		i, ok := n.index[key]
		if !ok {
			return nil
		}
		if i < len(n.Members) && n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// AddMember appends m to object node n's members. The index is dropped,
// not updated: a copy of the node may share it.
func (n *Node) AddMember(m Member) {
	n.Members = append(n.Members, m)
	n.index = nil
}

// RemoveMember removes object node n's i-th member.
func (n *Node) RemoveMember(i int) {
	n.Members = append(n.Members[:i], n.Members[i+1:]...)
	n.index = nil
}

// Pointer evaluates the JSON pointer ptr (RFC 6901: "" is n itself,
// "/a/0" member a's first item) from n; nil when it names nothing. An
// array index is decimal without leading zeros.
func (n *Node) Pointer(ptr string) *Node {
	if ptr == "" {
		return n
	}
	if ptr[0] != '/' {
		return nil
	}
	for _, tok := range strings.Split(ptr, "/")[1:] {
		if strings.IndexByte(tok, '~') >= 0 {
			tok = pointerUnescaper.Replace(tok)
		}
		switch n.Kind {
		case ObjectNode:
			n = n.Get(tok)
		case ArrayNode:
			// Digits only: strconv.Atoi also reads a sign ("+0", "-0").
			if tok == "" || strings.TrimLeft(tok, "0123456789") != "" {
				return nil
			}
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) || (len(tok) > 1 && tok[0] == '0') {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// pointerUnescaper decodes a JSON pointer reference token.
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// JSON re-encodes the node as compact JSON with members in source order and
// numbers as written.
func (n *Node) JSON() json.RawMessage { return n.AppendJSON(nil) }

// AppendJSON appends JSON's encoding of n to dst: for a caller encoding
// many nodes through one buffer.
func (n *Node) AppendJSON(dst []byte) []byte {
	b := bytes.NewBuffer(dst)
	n.writeJSON(b)
	return b.Bytes()
}

func (n *Node) writeJSON(b *bytes.Buffer) {
	if n == nil {
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case NullNode:
		b.WriteString("null")
	case BoolNode:
		if n.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case NumberNode:
		b.WriteString(n.Num)
	case StringNode:
		WriteString(b, n.Str)
	case ArrayNode:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.writeJSON(b)
		}
		b.WriteByte(']')
	case ObjectNode:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			WriteString(b, m.Key)
			b.WriteByte(':')
			m.Value.writeJSON(b)
		}
		b.WriteByte('}')
	}
}

// WriteString writes s to b as a JSON string, without HTML escapes.
func WriteString(b *bytes.Buffer, s string) {
	b.Write(text.AppendJSONString(b.AvailableBuffer(), s, false))
}
