package generator

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"reflect"
	"runtime"
	"slices"
	"sync"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Catalogues repeat argument shapes: the same owner/repo/page object, the
// same nested filter, the same enum, under a new name in every tool. The
// generator emits one Go type, decoder and validator per distinct shape
// and declares every other name with that shape as a type alias of the
// first one, so each Params name and its methods stay for users while the
// package holds each shape's code once.

// findShapes fills g.alias: every named type whose shape an earlier named
// type already has maps to that earlier type (g.fam.Types order, so the
// choice is stable). Types on a reference cycle keep their own code.
//
// Shapes are first compared with docs aside. When that leaves more than
// TableObjects object shapes, the family is large (g.large): it keeps that
// sharing, so tools whose arguments differ only in their descriptions
// (a catalogue's `owner` and `page`, reworded per tool; a translated copy
// of a tool set) share one type, and an alias's field docs are those of
// the type it shares. A smaller family compares docs too, so every type's
// fields keep their own docs.
func (g *gen) findShapes() {
	g.alias = g.shapeAliases(false)
	shapes := 0
	for _, t := range g.fam.Types {
		if t.Kind == ir.KindObject && hasMethods(t) && g.alias[t] == nil {
			shapes++
		}
	}
	g.large = shapes > TableObjects
	if !g.large {
		g.alias = g.shapeAliases(true)
	}
}

// shapeAliases maps every named type to the first one of its shape, docs
// part of the shape or not.
func (g *gen) shapeAliases(docs bool) map[*ir.Type]*ir.Type {
	var named []*ir.Type
	for _, t := range g.fam.Types {
		if hasMethods(t) {
			named = append(named, t)
		}
	}
	sums, ok := g.shapeSums(named, docs, min(runtime.GOMAXPROCS(0), len(named)/shapesPerWorker))
	first := map[shapeSum]*ir.Type{}
	var alias map[*ir.Type]*ir.Type
	for i, t := range named {
		if !ok[i] {
			continue
		}
		if c, dup := first[sums[i]]; dup {
			if alias == nil {
				alias = map[*ir.Type]*ir.Type{}
			}
			alias[t] = c
			continue
		}
		first[sums[i]] = t
	}
	return alias
}

// shapeSums returns the shape sum of each of types, and whether it has
// one (a type that reaches a reference cycle has none). Past one worker,
// each goroutine takes a contiguous run of types with a memo of its own:
// a sum depends only on the type graph, which nothing changes meanwhile,
// so the sums are the same whatever the split (TestShapeSumsParallel).
func (g *gen) shapeSums(types []*ir.Type, docs bool, workers int) ([]shapeSum, []bool) {
	sums := make([]shapeSum, len(types))
	ok := make([]bool, len(types))
	sumRun := func(from, to int) {
		s := &shapes{g: g, docs: docs, sum: make(map[*ir.Type]shapeSum, to-from), state: map[*ir.Type]int{}, h: sha256.New()}
		for i := from; i < to; i++ {
			sums[i], ok[i] = s.of(types[i])
		}
	}
	if workers < 2 {
		sumRun(0, len(types))
		return sums, ok
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { sumRun(w*len(types)/workers, (w+1)*len(types)/workers) })
	}
	wg.Wait()
	return sums, ok
}

// shapesPerWorker is the number of named types from which another
// goroutine computes shape sums (findShapes takes 0.27 s on one core for
// the 40,000 named types of 10,000 synthetic tools).
const shapesPerWorker = 2000

// shapeSum is the SHA-256 of a type's shape.
type shapeSum [sha256.Size]byte

// shapes computes shape sums, memoised per type.
type shapes struct {
	g *gen
	// docs makes docs (of types and fields) part of the shape.
	docs bool
	sum  map[*ir.Type]shapeSum
	// state is 1 while a type's sum is being computed and 2 when it is on
	// a cycle (no sum).
	state map[*ir.Type]int
	h     hash.Hash
	// bufs are the encoding buffers of the sums being computed, one per
	// level of nesting (of computes a nested type's sum while encoding
	// its holder), kept for the next type at that level: the encodings
	// of 40,000 types would otherwise each grow a buffer of their own.
	bufs  [][]byte
	depth int
}

// The fields a shape leaves out: where a type was written, its ID, the
// names of the type and of its enum constants, which its alias declares
// again, and (shapes.docs unset) the docs of types and fields. Everything else in the IR (kinds, field names and
// docs, constraints, defaults, formats, nested shapes) is part of it,
// including fields added to the IR later.
var (
	typeOfType  = reflect.TypeFor[ir.Type]()
	typeOfPos   = reflect.TypeFor[ir.Pos]()
	typeOfEnum  = reflect.TypeFor[ir.EnumValue]()
	typePtrType = reflect.TypeFor[*ir.Type]()
	typeOfField = reflect.TypeFor[ir.Field]()
	// The names of ir.Type's fields and the indexes of the fields left
	// out of other structs, looked up once: reflect's Type.Field, called
	// per field of every type, took a third of the shape sums' time.
	typeFieldNames = fieldNames(typeOfType)
	enumGoName     = fieldIndex(typeOfEnum, "GoName")
	fieldDocIndex  = fieldIndex(typeOfField, "Doc")
)

// fieldNames are the names of struct type t's fields, in order.
func fieldNames(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Name
	}
	return names
}

// fieldIndex is the index of struct type t's field name.
func fieldIndex(t reflect.Type, name string) int {
	f, ok := t.FieldByName(name)
	if !ok || len(f.Index) != 1 {
		panic("generator: no field " + name + " in " + t.String())
	}
	return f.Index[0]
}

// of returns t's shape sum; ok is false when t is on a reference cycle.
func (s *shapes) of(t *ir.Type) (shapeSum, bool) {
	if sum, ok := s.sum[t]; ok {
		return sum, true
	}
	switch s.state[t] {
	case 1:
		s.state[t] = 2
		return shapeSum{}, false
	case 2:
		return shapeSum{}, false
	}
	s.state[t] = 1
	d := s.depth
	if d == len(s.bufs) {
		s.bufs = append(s.bufs, nil)
	}
	s.depth++
	b, ok := s.encode(s.bufs[d][:0], t)
	s.depth--
	s.bufs[d] = b[:0] // b stays valid until the next type at this depth
	if s.state[t] == 2 {
		ok = false
	}
	if !ok {
		s.state[t] = 2
		return shapeSum{}, false
	}
	delete(s.state, t)
	s.h.Reset()
	s.h.Write(b)
	var sum shapeSum
	s.h.Sum(sum[:0])
	s.sum[t] = sum
	return sum, true
}

// encode appends the encoding of t's shape to b; false when t reaches a
// reference cycle.
func (s *shapes) encode(b []byte, t *ir.Type) ([]byte, bool) {
	b, ok := s.appendType(b, reflect.ValueOf(t).Elem(), t.GoName != "")
	if !ok {
		return b, false
	}
	// Generator decisions made per type belong to the shape too.
	b = append(b, boolByte(s.g.encoded[t]))
	for _, f := range t.Fields {
		b = append(b, boolByte(s.g.indirect[f]))
	}
	if t.Kind == ir.KindUnion {
		// A union's Go fields are named after its branch types.
		for _, n := range branchNames(t) {
			b = appendString(b, n)
		}
	}
	return b, true
}

// appendType appends the encoding of the ir.Type v; named types leave
// out their name and doc.
func (s *shapes) appendType(b []byte, v reflect.Value, named bool) ([]byte, bool) {
	ok := true
	for i, name := range typeFieldNames {
		switch name {
		case "ID", "Pos":
			continue
		case "GoName", "Doc":
			if named || name == "Doc" && !s.docs {
				continue
			}
		}
		b = appendString(b, name)
		b, ok = s.appendValue(b, v.Field(i))
		if !ok {
			return b, false
		}
	}
	return b, true
}

// appendValue appends an unambiguous encoding of v: nested *ir.Type
// values by their shape sum, positions and enum constant names left out.
func (s *shapes) appendValue(b []byte, v reflect.Value) ([]byte, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), true
		}
		if v.Type() == typePtrType {
			sum, ok := s.of(v.Interface().(*ir.Type))
			b = append(b, 't')
			return append(b, sum[:]...), ok
		}
		b = append(b, 1)
		return s.appendValue(b, v.Elem())
	case reflect.Struct:
		if v.Type() == typeOfPos {
			return b, true
		}
		if v.Type() == typeOfType {
			return s.appendType(b, v, v.FieldByName("GoName").String() != "")
		}
		ok := true
		for i := range v.NumField() {
			if v.Type() == typeOfEnum && i == enumGoName ||
				v.Type() == typeOfField && i == fieldDocIndex && !s.docs {
				continue
			}
			if b, ok = s.appendValue(b, v.Field(i)); !ok {
				return b, false
			}
		}
		return b, true
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return appendString(append(b, 's'), string(v.Bytes())), true
		}
		b = binary.AppendUvarint(append(b, 'l'), uint64(v.Len()))
		ok := true
		for i := range v.Len() {
			if b, ok = s.appendValue(b, v.Index(i)); !ok {
				return b, false
			}
		}
		return b, true
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, c reflect.Value) int {
			switch {
			case a.String() < c.String():
				return -1
			case a.String() > c.String():
				return 1
			}
			return 0
		})
		b = binary.AppendUvarint(append(b, 'm'), uint64(len(keys)))
		ok := true
		for _, k := range keys {
			if b, ok = s.appendValue(b, k); !ok {
				return b, false
			}
			if b, ok = s.appendValue(b, v.MapIndex(k)); !ok {
				return b, false
			}
		}
		return b, true
	case reflect.String:
		return appendString(b, v.String()), true
	case reflect.Bool:
		return append(b, boolByte(v.Bool())), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.AppendUvarint(b, v.Uint()), true
	}
	// A kind the IR does not use: never merge such a type.
	return b, false
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// canonical is the type whose code t shares (t itself when none).
func (g *gen) canonical(t *ir.Type) *ir.Type {
	if c, ok := g.alias[t]; ok {
		return c
	}
	return t
}

// declared is the canonical type of the family's type declared as named
// t: a field's type may be a copy of it (a nullable variant) that the
// shape pass never saw, with the same Go name and the same methods.
func (g *gen) declared(t *ir.Type) *ir.Type {
	if _, ok := g.alias[t]; ok || t.GoName == "" {
		return g.canonical(t)
	}
	if g.named == nil {
		g.named = make(map[string]*ir.Type, len(g.fam.Types))
		for _, n := range g.fam.Types {
			if n.GoName != "" {
				g.named[n.GoName] = n
			}
		}
	}
	if n, ok := g.named[t.GoName]; ok {
		return g.canonical(n)
	}
	return t
}
