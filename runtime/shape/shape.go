package shape

import (
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
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
	// Nullable is runtime.Nullable[T] of a scalar: absent, null or a
	// value (an optional nullable field).
	Nullable
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
	// Opt is a nil pointer to the struct the object's optional scalars
	// share (Field.InOpt), (*optionalT)(nil), when there is one; one is
	// allocated when the first of them is present.
	Opt any
	// Type is a nil pointer to the object's Go type, (*T)(nil): the type
	// a Pointer field's value, the items of an array of objects and a
	// tool's params (Bind) are allocated as. It is data, not a generated
	// function per type: a catalogue's thousands of one-line allocators
	// cost the compiler as much as any other function each, and a generic
	// one more.
	Type any
	// Budget gives Validate a pattern-matching budget (the family has
	// patterns on the ECMAScript engine).
	Budget bool
	// Union, when set, makes the table a discriminated union's: a struct
	// of one pointer per branch, of which decoding sets the one the
	// discriminator names; Fields and Names are then empty.
	Union *Union
}

// Union describes a union whose branches are objects of their own
// tables, chosen by the string value of one property.
type Union struct {
	// Property is the discriminator; Tags are its values, each choosing
	// Branches[Cases[i]], in the order the suggestions and the expected
	// text list them.
	Property string
	Tags     []string
	Cases    []int
	Branches []Branch
	// OneOf rejects a value with more than one branch set.
	OneOf bool
}

// Branch is one field of a union: a pointer, at Offset, to an object of
// Table.
type Branch struct {
	Offset uintptr
	Table  *Table
}

// Field is one property of a Table.
type Field struct {
	Offset   uintptr
	Kind     Kind
	Form     Form
	Required bool
	// Null makes a JSON null a value of a Pointer field, which it leaves
	// nil, or of an OptSlice field, which it leaves as it was (a required
	// nullable field).
	Null bool
	// InOpt places a Pointer scalar in the object's optionals struct, at
	// OptOffset.
	InOpt     bool
	OptOffset uintptr
	// Object is the table of an Object field or of its items (whose
	// Alloc allocates them).
	Object *Table
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
// const, enum; and for arrays item counts and uniqueness. A constraint is present
// when its rule is.
type Check struct {
	MinLen, MaxLen         int64
	MinLenRule, MaxLenRule Rule

	Pattern     **check.Regexp
	PatternRule Rule

	Format     func(string) bool
	FormatRule Rule

	Bounds []Bound
	// Divisor is the multipleOf divisor, parsed once (a package variable
	// of the generated code); MultipleOf is its text, parsed on every
	// check, for a table that sets no Divisor.
	Divisor    *check.Divisor
	MultipleOf string
	MultRule   Rule

	// Enum lists the allowed strings; EnumRule reports another.
	Enum     []string
	EnumRule Rule

	// Const is the one allowed string (a const), when ConstRule is set.
	Const     string
	ConstRule Rule

	MinItems, MaxItems         int64
	MinItemsRule, MaxItemsRule Rule
	Unique                     bool
}

// header is the header of a Go slice.
type header struct {
	data     unsafe.Pointer
	len, cap int
}

// objects decodes an array of objects of table t into the slice at p,
// never nil: its items are counted first (CountItems, which records
// nothing), so that they are decoded in place into one allocation of
// the exact size (growing a slice would copy its items, which only a
// typed copy may do).
func objects(t *Table, d *wire.Decoder, p unsafe.Pointer) {
	n := d.CountItems()
	if !d.Array() {
		return
	}
	data, size := t.alloc(n), t.size()
	i := 0
	for d.More() {
		if i == n { // the branch saw fewer: only after a syntax error
			d.Skip()
			continue
		}
		t.decode(d, unsafe.Add(data, uintptr(i)*size))
		i++
	}
	*(*header)(p) = header{data, i, n}
}

// alloc allocates n zeroed values of the object's Go type, as new(T) or
// make([]T, n) would: reflect only allocates here, with the type's own
// descriptor, so the collector sees exactly T's pointers.
func (t *Table) alloc(n int) unsafe.Pointer {
	elem := reflect.TypeOf(t.Type).Elem()
	if n == 1 {
		return reflect.New(elem).UnsafePointer()
	}
	return reflect.MakeSlice(reflect.SliceOf(elem), n, n).UnsafePointer()
}

// size is the size of one value of the object's Go type.
func (t *Table) size() uintptr { return reflect.TypeOf(t.Type).Elem().Size() }

// Decode reads an object of table t from d into the struct at x.
func Decode(t *Table, d *wire.Decoder, x unsafe.Pointer) { t.decode(d, x) }

// Unmarshal decodes the JSON data into the object of table t at x: the
// UnmarshalJSON method of its type (defaults applied, type errors
// aggregated).
func Unmarshal(t *Table, data []byte, x unsafe.Pointer) error {
	d := wire.NewDecoder(data)
	t.decode(d, x)
	if err := d.Close(); err != nil {
		return err
	}
	return d.Report("", nil)
}

// DecodeArgs decodes and validates the arguments of tool, an object of
// table t, into x: the decodeArgs method of a tool's params type.
func DecodeArgs(t *Table, tool string, args []byte, x unsafe.Pointer) error {
	d := wire.NewArgsDecoder(args)
	if t.Budget {
		d.UseBudget(new(check.Budget))
	}
	t.decode(d, x)
	if !t.Checked {
		// Close's syntax error stays in d, for Report.
		d.Close()
		return d.Report(tool, nil)
	}
	if d.Close() != nil {
		return d.Report(tool, nil)
	}
	e := d.Checks()
	ValidateAt(t, x, nil, &e)
	return d.Report(tool, &e)
}

// seenWords is how many fields' seen flags live on the stack.
const seenWords = 4

func (t *Table) decode(d *wire.Decoder, x unsafe.Pointer) {
	if t.Union != nil {
		t.Union.decode(d, x)
		return
	}
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
			case f.Null && d.Null():
				// v stays nil: a null after a value clears it.
			case f.Kind == Object:
				v = f.Object.alloc(1)
				f.Object.decode(d, v)
			case f.InOpt:
				if opt == nil {
					opt = reflect.New(reflect.TypeOf(t.Opt).Elem()).UnsafePointer()
				}
				v = unsafe.Add(opt, f.OptOffset)
				scalar(d, f.Kind, v)
			default:
				v = newScalar(f.Kind)
				scalar(d, f.Kind, v)
			}
			*(*unsafe.Pointer)(p) = v
		case Nullable:
			nullable(d, f.Kind, p)
		default:
			if f.Null && d.Null() {
				// A null array leaves the slice as it was (nil,
				// unless a repeated member set it).
				break
			}
			if f.Kind == Object {
				objects(f.Object, d, p)
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

// decode reads the branch the discriminator names into a new value of
// its table, recording a missing or unknown discriminator. A union holds
// one value: every branch is cleared first, as the generated decoder's
// *x = T{} clears it, so decoding into a used union (UnmarshalJSON
// again, or a holder's by-value field decoded again) keeps no branch of
// the value it held.
func (u *Union) decode(d *wire.Decoder, x unsafe.Pointer) {
	for i := range u.Branches {
		*(*unsafe.Pointer)(unsafe.Add(x, u.Branches[i].Offset)) = nil
	}
	if d.Peek() != wire.Object {
		d.Mismatch("object")
		return
	}
	tag, ok := d.PeekMember(u.Property)
	for i, v := range u.Tags {
		if ok && v == string(tag) {
			b := &u.Branches[u.Cases[i]]
			p := b.Table.alloc(1)
			b.Table.decode(d, p)
			*(*unsafe.Pointer)(unsafe.Add(x, b.Offset)) = p
			return
		}
	}
	expected := u.expected()
	switch {
	case len(tag) > 0:
		d.FailAt(u.Property, "enum", "must be one of "+expected, expected, strconv.Quote(string(tag)), check.Closest(string(tag), u.Tags))
	case !ok:
		d.FailAt(u.Property, "required", "missing required property "+strconv.Quote(u.Property)+" (one of "+expected+")", expected, "", "")
	default:
		d.FailAt(u.Property, "enum", "must be one of "+expected, expected, `""`, "")
	}
	d.Skip()
}

// expected lists the discriminator's values, quoted: "a", "b".
func (u *Union) expected() string {
	var b []byte
	for i, v := range u.Tags {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, v)
	}
	return string(b)
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

// nullable decodes null or a scalar of kind k into the runtime.Nullable
// at p. (A named scalar type's Nullable has its underlying type's layout.)
func nullable(d *wire.Decoder, k Kind, p unsafe.Pointer) {
	null := d.Null()
	switch k {
	case String:
		setNullable(d, null, (*wire.Decoder).String, (*runtime.Nullable[string])(p))
	case Int:
		setNullable(d, null, (*wire.Decoder).Int, (*runtime.Nullable[int64])(p))
	case Float:
		setNullable(d, null, (*wire.Decoder).Float, (*runtime.Nullable[float64])(p))
	case Bool:
		setNullable(d, null, (*wire.Decoder).Bool, (*runtime.Nullable[bool])(p))
	}
}

// setNullable sets n to null or to the value read (a method expression,
// as collect takes: no closure per field).
func setNullable[T any](d *wire.Decoder, null bool, read func(*wire.Decoder) T, n *runtime.Nullable[T]) {
	if null {
		*n = runtime.Null[T]()
	} else {
		*n = runtime.Value(read(d))
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
		*(*[]string)(p) = collect(d, (*wire.Decoder).String)
	case Int:
		*(*[]int64)(p) = collect(d, (*wire.Decoder).Int)
	case Float:
		*(*[]float64)(p) = collect(d, (*wire.Decoder).Float)
	case Bool:
		*(*[]bool)(p) = collect(d, (*wire.Decoder).Bool)
	}
}

// collect reads the rest of an array's items with read into a new slice:
// up to eight gather on the stack, then one exactly sized allocation.
func collect[T any](d *wire.Decoder, read func(*wire.Decoder) T) []T {
	var buf [8]T
	items := buf[:0]
	for d.More() {
		items = append(items, read(d))
	}
	return append(make([]T, 0, len(items)), items...)
}

// Validate checks the object of table t at x, reporting every violation.
func Validate(t *Table, x unsafe.Pointer) error {
	var e wire.Errors
	if t.Budget {
		e.UseBudget(new(check.Budget))
	}
	ValidateAt(t, x, nil, &e)
	return e.Err("")
}

// ValidateAt records the violations of the object of table t at x, at p,
// in e.
func ValidateAt(t *Table, x unsafe.Pointer, p *wire.Path, e *wire.Errors) {
	var buf [16]step
	w := walker{base: p, e: e, steps: buf[:0]}
	w.object(t, x)
}

// ValidateString checks s, a value of a string type with constraints c,
// reporting every violation: the Validate method of a named string type.
// budget gives a pattern match a budget (as Table.Budget).
func ValidateString(c *Check, s string, budget bool) error {
	var e wire.Errors
	if budget {
		e.UseBudget(new(check.Budget))
	}
	CheckString(c, s, nil, &e)
	return e.Err("")
}

// ValidateInt is ValidateString for integer types. (The three are written
// out: a shared helper taking the check as a function value would move e
// to the heap, an allocation on valid input.)
func ValidateInt(c *Check, v int64, budget bool) error {
	var e wire.Errors
	if budget {
		e.UseBudget(new(check.Budget))
	}
	CheckInt(c, v, nil, &e)
	return e.Err("")
}

// ValidateFloat is ValidateString for number types.
func ValidateFloat(c *Check, v float64, budget bool) error {
	var e wire.Errors
	if budget {
		e.UseBudget(new(check.Budget))
	}
	CheckFloat(c, v, nil, &e)
	return e.Err("")
}

// CheckString records the violations of s, a value of a string type with
// constraints c, at p in e: a named string type's validate method.
func CheckString(c *Check, s string, p *wire.Path, e *wire.Errors) {
	w := walker{base: p, e: e}
	w.str(c, s)
}

// CheckInt is CheckString for integer types.
func CheckInt(c *Check, v int64, p *wire.Path, e *wire.Errors) {
	w := walker{base: p, e: e}
	w.int(c, v)
}

// CheckFloat is CheckString for number types.
func CheckFloat(c *Check, v float64, p *wire.Path, e *wire.Errors) {
	w := walker{base: p, e: e}
	w.float(c, v)
}

// walker is a validation in progress: the steps from base to the value
// being checked. The wire.Path of a violation is built from them only
// when one is recorded: a chain of Paths down a recursive walk would make
// the compiler move every one of them to the heap, and valid input must
// not allocate.
type walker struct {
	base  *wire.Path
	e     *wire.Errors
	steps []step
}

// step is one reference token: a property name, or an index when key is
// not set.
type step struct {
	key   string
	index int
	isKey bool
}

// MaxDepth is how many steps (properties and items) from a table's
// object a value may lie: the generator does not table an object nested
// deeper (no tool schema is), and a violation's path is built on the
// stack from at most this many steps.
const MaxDepth = 32

// record adds a violation at the path of the value being checked, built
// on the stack (passing a pointer to the array instead would move it to
// the heap) (of the kind the
// arguments' presence selects: a string, int or number received value,
// an enum with its values, or none).
func (w walker) record(r *Rule, kind Kind, s string, i int64, f float64, values []string) {
	var ps [MaxDepth]wire.Path
	p := w.base
	for n, st := range w.steps[:min(len(w.steps), MaxDepth)] {
		if st.isKey {
			ps[n] = p.Key(st.key)
		} else {
			ps[n] = p.Index(st.index)
		}
		p = &ps[n]
	}
	switch {
	case values != nil:
		w.e.AddEnum(p, r[0], r[1], r[2], s, values)
	case kind == String:
		w.e.AddString(p, r[0], r[1], r[2], s)
	case kind == Int:
		w.e.AddInt(p, r[0], r[1], r[2], i)
	case kind == Float:
		w.e.AddNumber(p, r[0], r[1], r[2], f)
	default:
		w.e.Add(p, r[0], r[1], r[2], "", "")
	}
}

// match reports whether s matches re; a backtracking match not decided
// in time is recorded (wire.Errors.Match) and ok is false.
func (w walker) match(re *check.Regexp, s string) (matched, ok bool) {
	if !re.Budgeted() {
		return re.MatchString(s), true
	}
	var ps [MaxDepth]wire.Path
	p := w.base
	for n, st := range w.steps[:min(len(w.steps), MaxDepth)] {
		if st.isKey {
			ps[n] = p.Key(st.key)
		} else {
			ps[n] = p.Index(st.index)
		}
		p = &ps[n]
	}
	return w.e.Match(p, re, s, "pattern")
}

func (w walker) object(t *Table, x unsafe.Pointer) {
	if t.Union != nil {
		w.union(t.Union, x)
		return
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		if f.Check == nil && f.ItemCheck == nil && (f.Kind != Object || !f.Object.Checked) {
			continue
		}
		v := unsafe.Add(x, f.Offset)
		c := w
		c.steps = append(c.steps, step{key: t.Names[i], isKey: true})
		switch f.Form {
		case Value:
			c.value(f, v)
		case Pointer:
			if v = *(*unsafe.Pointer)(v); v != nil {
				c.value(f, v)
			}
		case Slice:
			c.array(f, v)
		case OptSlice:
			if *(*unsafe.Pointer)(v) != nil {
				c.array(f, v)
			}
		case Nullable:
			c.nullable(f, v)
		}
	}
}

// nullable checks the value of the runtime.Nullable scalar at v, when it
// holds one.
func (w walker) nullable(f *Field, v unsafe.Pointer) {
	switch f.Kind {
	case String:
		if s, ok := (*runtime.Nullable[string])(v).Get(); ok {
			w.str(f.Check, s)
		}
	case Int:
		if n, ok := (*runtime.Nullable[int64])(v).Get(); ok {
			w.int(f.Check, n)
		}
	case Float:
		if x, ok := (*runtime.Nullable[float64])(v).Get(); ok {
			w.float(f.Check, x)
		}
	}
}

// oneOfRule is the violation of a oneOf union with several branches set.
var oneOfRule = Rule{"oneOf", "sets more than one branch of a oneOf", "exactly one branch"}

// union checks the branches set in the union at x, at the union's own
// path.
func (w walker) union(u *Union, x unsafe.Pointer) {
	if u.OneOf && len(u.Branches) > 1 {
		n := 0
		for i := range u.Branches {
			if *(*unsafe.Pointer)(unsafe.Add(x, u.Branches[i].Offset)) != nil {
				n++
			}
		}
		if n > 1 {
			w.record(&oneOfRule, 0, "", 0, 0, nil)
		}
	}
	for i := range u.Branches {
		b := &u.Branches[i]
		if v := *(*unsafe.Pointer)(unsafe.Add(x, b.Offset)); v != nil && b.Table.Checked {
			w.object(b.Table, v)
		}
	}
}

// value checks one value of f's kind at v.
func (w walker) value(f *Field, v unsafe.Pointer) {
	switch f.Kind {
	case Object:
		if f.Object.Checked {
			w.object(f.Object, v)
		}
	case String:
		w.str(f.Check, *(*string)(v))
	case Int:
		w.int(f.Check, *(*int64)(v))
	case Float:
		w.float(f.Check, *(*float64)(v))
	}
}

// array checks the slice at v: its item count and uniqueness, then each
// item.
func (w walker) array(f *Field, v unsafe.Pointer) {
	data, n := *(*unsafe.Pointer)(v), (*[3]int)(v)[1]
	if c := f.Check; c != nil {
		if c.MinItemsRule[0] != "" && int64(n) < c.MinItems {
			w.record(&c.MinItemsRule, 0, "", 0, 0, nil)
		}
		if c.MaxItemsRule[0] != "" && int64(n) > c.MaxItems {
			w.record(&c.MaxItemsRule, 0, "", 0, 0, nil)
		}
		if c.Unique {
			if i, j, ok := duplicate(f.Kind, data, n); ok {
				r := Rule{"uniqueItems", "items " + strconv.Itoa(i) + " and " + strconv.Itoa(j) + " are equal", "unique items"}
				w.record(&r, 0, "", 0, 0, nil)
			}
		}
	}
	if f.Kind == Object && !f.Object.Checked || f.Kind != Object && f.ItemCheck == nil {
		return
	}
	w.steps = append(w.steps, step{})
	last := len(w.steps) - 1
	var size uintptr
	if f.Kind == Object {
		size = f.Object.size()
	}
	for i := range n {
		w.steps[last].index = i
		switch f.Kind {
		case Object:
			w.object(f.Object, unsafe.Add(data, uintptr(i)*size))
		case String:
			w.str(f.ItemCheck, unsafe.Slice((*string)(data), n)[i])
		case Int:
			w.int(f.ItemCheck, unsafe.Slice((*int64)(data), n)[i])
		case Float:
			w.float(f.ItemCheck, unsafe.Slice((*float64)(data), n)[i])
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

func (w walker) str(c *Check, s string) {
	if c == nil {
		return
	}
	// Runes are counted only when the length in bytes leaves a bound
	// open: a rune is one to four bytes.
	if n := int64(len(s)); c.MinLenRule[0] != "" && (c.MinLen > math.MaxInt64/4 || n < 4*c.MinLen-3) || c.MaxLenRule[0] != "" && n > c.MaxLen {
		n = int64(check.Len(s))
		if c.MinLenRule[0] != "" && n < c.MinLen {
			w.record(&c.MinLenRule, String, s, 0, 0, nil)
		}
		if c.MaxLenRule[0] != "" && n > c.MaxLen {
			w.record(&c.MaxLenRule, String, s, 0, 0, nil)
		}
	}
	if c.Pattern != nil {
		if m, ok := w.match(*c.Pattern, s); ok && !m {
			w.record(&c.PatternRule, String, s, 0, 0, nil)
		}
	}
	if c.Format != nil && !c.Format(s) {
		w.record(&c.FormatRule, String, s, 0, 0, nil)
	}
	if c.ConstRule[0] != "" && s != c.Const {
		w.record(&c.ConstRule, String, s, 0, 0, nil)
	}
	if c.Enum != nil {
		for _, v := range c.Enum {
			if v == s {
				return
			}
		}
		w.record(&c.EnumRule, String, s, 0, 0, c.Enum)
	}
}

func (w walker) int(c *Check, v int64) {
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
			w.record(&b.Rule, Int, "", v, 0, nil)
		}
	}
	if c.notMultipleInt(v) {
		w.record(&c.MultRule, Int, "", v, 0, nil)
	}
}

func (w walker) float(c *Check, v float64) {
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
			w.record(&b.Rule, Float, "", 0, v, nil)
		}
	}
	if c.notMultiple(v) {
		w.record(&c.MultRule, Float, "", 0, v, nil)
	}
}

// notMultiple reports a multipleOf violation by v: through Divisor when
// the table sets one, else through the divisor's text.
func (c *Check) notMultiple(v float64) bool {
	if c.Divisor != nil {
		return !c.Divisor.Of(v)
	}
	return c.MultipleOf != "" && !check.MultipleOf(v, c.MultipleOf)
}

// notMultipleInt is notMultiple for an integer.
func (c *Check) notMultipleInt(v int64) bool {
	if c.Divisor != nil {
		return !c.Divisor.OfInt(v)
	}
	return c.MultipleOf != "" && !check.MultipleOfInt(v, c.MultipleOf)
}
