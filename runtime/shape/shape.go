package shape

import (
	"strconv"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/wire"
)

// Kind is the Go type of a field's value (or of its items): string (also a
// string enum), int64, float64, bool, or an object described by a table.
type Kind uint8

// The kinds of values a table describes.
const (
	String Kind = iota + 1
	Int
	Float
	Bool
	Object
)

// Form is how a field holds its value.
type Form uint8

// The forms of fields.
const (
	// Value is T: a required or defaulted field.
	Value Form = iota
	// Pointer is *T, nil when absent.
	Pointer
	// Slice is []T of a required array: checked even when empty.
	Slice
	// OptSlice is []T of an optional array: nil when absent, and then not
	// checked.
	OptSlice
)

// Table describes an object type: its fields in declaration order, which
// is the order of their checks and of their missing-property errors.
type Table struct {
	Fields []Field
	// Names are the fields' JSON names (Names[i] is Fields[i]'s), also the
	// suggestions for an unknown property; Closed reports those unknown
	// (additionalProperties false), else they are skipped.
	Names  []string
	Closed bool
	// Checked reports whether a value can violate anything beyond its Go
	// type (a Check of a field, or of a nested table).
	Checked bool
	// Opt allocates the struct the object's optional scalars share
	// (Field.InOpt), when there is one.
	Opt func() unsafe.Pointer
	// Budget gives Validate a pattern-matching budget (the family has
	// patterns on the ECMAScript engine).
	Budget bool
}

// Field is one property of a Table.
type Field struct {
	Offset   uintptr
	Kind     Kind
	Form     Form
	Required bool
	// InOpt places a Pointer scalar in the object's optionals struct, at
	// OptOffset.
	InOpt     bool
	OptOffset uintptr
	// Object is the table of an Object field or of its items; New
	// allocates one (Pointer form) and Items decodes an array of them.
	Object *Table
	New    func() unsafe.Pointer
	Items  func(t *Table, d *wire.Decoder, p unsafe.Pointer)
	// ElemSize is the size of an item of an array of objects.
	ElemSize uintptr
	// Default is the value of an absent defaulted field (HasDefault).
	HasDefault bool
	Default    Const
	// Check constrains the value (an array's item count and uniqueness
	// for the array forms) and ItemCheck each item of an array.
	Check     *Check
	ItemCheck *Check
}

// Const is a scalar default value of the field's kind.
type Const struct {
	S string
	I int64
	F float64
	B bool
}

// Rule is a violation as recorded: keyword, message and expected text,
// composed by the generator as its generated checks compose them. A
// constraint is present when its rule is.
type Rule [3]string

// add records r at p in e.
func (r *Rule) add(e *wire.Errors, p *wire.Path) { e.Add(p, r[0], r[1], r[2], "", "") }

// Op is the comparison of a numeric bound that is a violation.
type Op uint8

// The comparisons of bounds: the value is a violation when value Op bound
// holds; Always is a bound no value meets.
const (
	Less Op = iota + 1
	LessEqual
	Greater
	GreaterEqual
	Always
)

// Bound is a numeric bound, on Int (I) or Float (F) values.
type Bound struct {
	Rule Rule
	Op   Op
	I    int64
	F    float64
}

// Check is the constraints of one value, checked in this order (the order
// of the generated checks): lengths, pattern, format, bounds, multipleOf,
// enum; and for arrays item counts and uniqueness. A constraint is present
// when its rule is.
type Check struct {
	MinLen, MaxLen         int64
	MinLenRule, MaxLenRule Rule

	Pattern     **check.Regexp
	PatternRule Rule

	Format     func(string) bool
	FormatRule Rule

	Bounds     []Bound
	MultipleOf string
	MultRule   Rule

	// Enum lists the allowed strings; EnumRule reports another.
	Enum     []string
	EnumRule Rule

	MinItems, MaxItems         int64
	MinItemsRule, MaxItemsRule Rule
	Unique                     bool
}

// New allocates a T, for a table's New and Opt.
func New[T any]() unsafe.Pointer { return unsafe.Pointer(new(T)) }

// Objects decodes an array of objects of table t into the []T at p: never
// nil once an array was read.
func Objects[T any](t *Table, d *wire.Decoder, p unsafe.Pointer) {
	if !d.Array() {
		return
	}
	var buf [4]T
	items := buf[:0]
	for d.More() {
		var v T
		t.decode(d, unsafe.Pointer(&v))
		items = append(items, v)
	}
	*(*[]T)(p) = append(make([]T, 0, len(items)), items...)
}

// Decode reads an object of table t from d into the struct at x.
func Decode(t *Table, d *wire.Decoder, x unsafe.Pointer) { t.decode(d, x) }

// seenWords is how many fields' seen flags live on the stack.
const seenWords = 4

func (t *Table) decode(d *wire.Decoder, x unsafe.Pointer) {
	if !d.Object() {
		return
	}
	var opt unsafe.Pointer
	var small [seenWords]uint64
	seen := small[:]
	if n := (len(t.Fields) + 63) / 64; n > seenWords {
		seen = make([]uint64, n)
	}
	next := 0
	for d.More() {
		i := t.find(d.Key(), next)
		if i < 0 {
			if t.Closed {
				d.Unknown(t.Names)
			} else {
				d.Skip()
			}
			continue
		}
		next = i + 1
		seen[i/64] |= 1 << (i % 64)
		f := &t.Fields[i]
		p := unsafe.Add(x, f.Offset)
		switch f.Form {
		case Value:
			if f.Kind == Object {
				f.Object.decode(d, p)
			} else {
				scalar(d, f.Kind, p)
			}
		case Pointer:
			var v unsafe.Pointer
			switch {
			case f.Kind == Object:
				v = f.New()
				f.Object.decode(d, v)
			case f.InOpt:
				if opt == nil {
					opt = t.Opt()
				}
				v = unsafe.Add(opt, f.OptOffset)
				scalar(d, f.Kind, v)
			default:
				v = newScalar(f.Kind)
				scalar(d, f.Kind, v)
			}
			*(*unsafe.Pointer)(p) = v
		default:
			if f.Kind == Object {
				f.Items(f.Object, d, p)
			} else {
				scalars(d, f.Kind, p)
			}
		}
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		if seen[i/64]&(1<<(i%64)) != 0 {
			continue
		}
		switch {
		case f.Required:
			d.Missing(t.Names[i])
		case f.HasDefault:
			setConst(f.Kind, unsafe.Add(x, f.Offset), &f.Default)
		}
	}
}

// find returns the index of the field named key, looking from hint on
// first (members usually come in the schema's order), or -1.
func (t *Table) find(key []byte, hint int) int {
	n := len(t.Fields)
	for j := range n {
		i := hint + j
		if i >= n {
			i -= n
		}
		if t.Names[i] == string(key) {
			return i
		}
	}
	return -1
}

func scalar(d *wire.Decoder, k Kind, p unsafe.Pointer) {
	switch k {
	case String:
		*(*string)(p) = d.String()
	case Int:
		*(*int64)(p) = d.Int()
	case Float:
		*(*float64)(p) = d.Float()
	case Bool:
		*(*bool)(p) = d.Bool()
	}
}

func newScalar(k Kind) unsafe.Pointer {
	switch k {
	case String:
		return unsafe.Pointer(new(string))
	case Int:
		return unsafe.Pointer(new(int64))
	case Float:
		return unsafe.Pointer(new(float64))
	}
	return unsafe.Pointer(new(bool))
}

func setConst(k Kind, p unsafe.Pointer, c *Const) {
	switch k {
	case String:
		*(*string)(p) = c.S
	case Int:
		*(*int64)(p) = c.I
	case Float:
		*(*float64)(p) = c.F
	case Bool:
		*(*bool)(p) = c.B
	}
}

// scalars decodes an array of scalars of kind k into the slice at p.
func scalars(d *wire.Decoder, k Kind, p unsafe.Pointer) {
	if !d.Array() {
		return
	}
	switch k {
	case String:
		var buf [8]string
		items := buf[:0]
		for d.More() {
			items = append(items, d.String())
		}
		*(*[]string)(p) = append(make([]string, 0, len(items)), items...)
	case Int:
		var buf [8]int64
		items := buf[:0]
		for d.More() {
			items = append(items, d.Int())
		}
		*(*[]int64)(p) = append(make([]int64, 0, len(items)), items...)
	case Float:
		var buf [8]float64
		items := buf[:0]
		for d.More() {
			items = append(items, d.Float())
		}
		*(*[]float64)(p) = append(make([]float64, 0, len(items)), items...)
	case Bool:
		var buf [8]bool
		items := buf[:0]
		for d.More() {
			items = append(items, d.Bool())
		}
		*(*[]bool)(p) = append(make([]bool, 0, len(items)), items...)
	}
}

// Validate checks the object of table t at x, reporting every violation.
func Validate(t *Table, x unsafe.Pointer) error {
	var e wire.Errors
	if t.Budget {
		e.UseBudget(new(check.Budget))
	}
	t.check(x, nil, &e)
	return e.Err("")
}

// ValidateAt records the violations of the object of table t at x, at p, in e.
func ValidateAt(t *Table, x unsafe.Pointer, p *wire.Path, e *wire.Errors) { t.check(x, p, e) }

func (t *Table) check(x unsafe.Pointer, p *wire.Path, e *wire.Errors) {
	for i := range t.Fields {
		f := &t.Fields[i]
		if f.Check == nil && f.ItemCheck == nil && (f.Kind != Object || !f.Object.Checked) {
			continue
		}
		c := p.Key(t.Names[i])
		v := unsafe.Add(x, f.Offset)
		switch f.Form {
		case Value:
			f.value(v, &c, e)
		case Pointer:
			if v = *(*unsafe.Pointer)(v); v != nil {
				f.value(v, &c, e)
			}
		case Slice, OptSlice:
			if f.Form == OptSlice && (*[3]uintptr)(v)[0] == 0 {
				continue
			}
			f.array(v, &c, e)
		}
	}
}

// value checks one value of f's kind at v.
func (f *Field) value(v unsafe.Pointer, p *wire.Path, e *wire.Errors) {
	switch f.Kind {
	case Object:
		if f.Object.Checked {
			f.Object.check(v, p, e)
		}
	case String:
		f.Check.str(*(*string)(v), p, e)
	case Int:
		f.Check.int(*(*int64)(v), p, e)
	case Float:
		f.Check.float(*(*float64)(v), p, e)
	}
}

// array checks the slice at v: its item count and uniqueness, then each
// item.
func (f *Field) array(v unsafe.Pointer, p *wire.Path, e *wire.Errors) {
	data, n := *(*unsafe.Pointer)(v), (*[3]int)(v)[1]
	if c := f.Check; c != nil {
		if c.MinItemsRule[0] != "" && int64(n) < c.MinItems {
			c.MinItemsRule.add(e, p)
		}
		if c.MaxItemsRule[0] != "" && int64(n) > c.MaxItems {
			c.MaxItemsRule.add(e, p)
		}
		if c.Unique {
			if i, j, ok := duplicate(f.Kind, data, n); ok {
				e.Add(p, "uniqueItems", "items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal", "unique items", "", "")
			}
		}
	}
	switch {
	case f.Kind == Object:
		if !f.Object.Checked {
			return
		}
		for i := range n {
			c := p.Index(i)
			f.Object.check(unsafe.Add(data, uintptr(i)*f.ElemSize), &c, e)
		}
	case f.ItemCheck != nil:
		for i := range n {
			c := p.Index(i)
			switch f.Kind {
			case String:
				f.ItemCheck.str(unsafe.Slice((*string)(data), n)[i], &c, e)
			case Int:
				f.ItemCheck.int(unsafe.Slice((*int64)(data), n)[i], &c, e)
			case Float:
				f.ItemCheck.float(unsafe.Slice((*float64)(data), n)[i], &c, e)
			}
		}
	}
}

func duplicate(k Kind, data unsafe.Pointer, n int) (i, j int, ok bool) {
	switch k {
	case String:
		return wire.Duplicate(unsafe.Slice((*string)(data), n))
	case Int:
		return wire.Duplicate(unsafe.Slice((*int64)(data), n))
	case Float:
		return wire.Duplicate(unsafe.Slice((*float64)(data), n))
	case Bool:
		return wire.Duplicate(unsafe.Slice((*bool)(data), n))
	}
	return 0, 0, false
}

// CheckString records the violations of s, a value of a string type with
// constraints c, at p in e: a named string type's validate method.
func CheckString(c *Check, s string, p *wire.Path, e *wire.Errors) { c.str(s, p, e) }

// CheckInt is CheckString for integer types.
func CheckInt(c *Check, v int64, p *wire.Path, e *wire.Errors) { c.int(v, p, e) }

// CheckFloat is CheckString for number types.
func CheckFloat(c *Check, v float64, p *wire.Path, e *wire.Errors) { c.float(v, p, e) }

func (c *Check) str(s string, p *wire.Path, e *wire.Errors) {
	if c == nil {
		return
	}
	if c.MinLenRule[0] != "" || c.MaxLenRule[0] != "" {
		n := int64(check.Len(s))
		if c.MinLenRule[0] != "" && n < c.MinLen {
			e.AddString(p, c.MinLenRule[0], c.MinLenRule[1], c.MinLenRule[2], s)
		}
		if c.MaxLenRule[0] != "" && n > c.MaxLen {
			e.AddString(p, c.MaxLenRule[0], c.MaxLenRule[1], c.MaxLenRule[2], s)
		}
	}
	if c.Pattern != nil {
		re := *c.Pattern
		if re.Backtracking() {
			if m, ok := e.Match(p, re, s, "pattern"); ok && !m {
				e.AddString(p, c.PatternRule[0], c.PatternRule[1], c.PatternRule[2], s)
			}
		} else if !re.MatchString(s) {
			e.AddString(p, c.PatternRule[0], c.PatternRule[1], c.PatternRule[2], s)
		}
	}
	if c.Format != nil && !c.Format(s) {
		e.AddString(p, c.FormatRule[0], c.FormatRule[1], c.FormatRule[2], s)
	}
	if c.Enum != nil {
		for _, v := range c.Enum {
			if v == s {
				return
			}
		}
		e.AddEnum(p, c.EnumRule[0], c.EnumRule[1], c.EnumRule[2], s, c.Enum)
	}
}

func (c *Check) int(v int64, p *wire.Path, e *wire.Errors) {
	if c == nil {
		return
	}
	for i := range c.Bounds {
		b := &c.Bounds[i]
		var bad bool
		switch b.Op {
		case Less:
			bad = v < b.I
		case Greater:
			bad = v > b.I
		case Always:
			bad = true
		}
		if bad {
			e.AddInt(p, b.Rule[0], b.Rule[1], b.Rule[2], v)
		}
	}
	if c.MultipleOf != "" && !check.MultipleOfInt(v, c.MultipleOf) {
		e.AddInt(p, c.MultRule[0], c.MultRule[1], c.MultRule[2], v)
	}
}

func (c *Check) float(v float64, p *wire.Path, e *wire.Errors) {
	if c == nil {
		return
	}
	for i := range c.Bounds {
		b := &c.Bounds[i]
		var bad bool
		switch b.Op {
		case Less:
			bad = v < b.F
		case LessEqual:
			bad = v <= b.F
		case Greater:
			bad = v > b.F
		case GreaterEqual:
			bad = v >= b.F
		case Always:
			bad = true
		}
		if bad {
			e.AddNumber(p, b.Rule[0], b.Rule[1], b.Rule[2], v)
		}
	}
	if c.MultipleOf != "" && !check.MultipleOf(v, c.MultipleOf) {
		e.AddNumber(p, c.MultRule[0], c.MultRule[1], c.MultRule[2], v)
	}
}
