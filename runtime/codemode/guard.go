package codemode

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"
	"golang.org/x/text/unicode/norm"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// arrayMethods are the Array.prototype methods wrapped with a length check:
// goja runs their loops in Go, where neither the wall-time interrupt nor
// the memory watch can stop them, so an array longer than Limits.Length
// (a sparse new Array(4e9), say) ends the run before the loop starts.
var arrayMethods = []string{
	"at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find", "findIndex",
	"findLast", "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join",
	"keys", "lastIndexOf", "map", "pop", "push", "reduce", "reduceRight", "reverse", "shift",
	"slice", "some", "sort", "splice", "toLocaleString", "toString", "unshift", "values",
	"toReversed", "toSorted", "toSpliced", "with",
}

// removedGlobals are globals a tool script has no use for and that allocate
// large buffers in one native call.
//
// BigInt among them: its operators compute in Go, one step each, that
// no limit stops (3n ** (2n ** 24n) ran 1.9 s past a 1 s limit; 1n <<
// (2n ** 40n) asked for 128 GiB, a fatal out-of-memory error that ended
// the process). The transform (target ES2017) writes a BigInt literal as
// a call BigInt("…"), so that without the global a script has no way to
// make one (op results are JSON: numbers).
var removedGlobals = []string{
	"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array", "Uint8ClampedArray",
	"Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
	"BigInt64Array", "BigUint64Array", "WeakRef", "FinalizationRegistry", "BigInt",
}

// maxNativeNesting bounds the nesting of wrapped built-ins calling each
// other (nested arrays joined by toString), which recurses in Go.
const maxNativeNesting = 128

// guard wraps the built-ins that could allocate without bound or loop
// without interruption, replaces JSON.stringify with the bounded
// marshaler and removes the typed-array globals.
func (r *run) guard() error {
	vm := r.vm
	g := vm.GlobalObject()
	for _, name := range removedGlobals {
		_ = g.Delete(name)
	}
	if err := r.interruptibleNext(); err != nil {
		return err
	}
	arrayProto := g.Get("Array").ToObject(vm).Get("prototype").ToObject(vm)
	depth := 0
	// joined counts the characters of the joins nested in one (an array
	// of arrays joined: each element's toString joins it in Go), joining
	// how deep they nest: each nested join is within the limit, their
	// sum was not (a thousand copies of a 1 MB array joined took 13 s and
	// 3 GB, past every limit).
	var joined int64
	joining := 0
	for _, name := range arrayMethods {
		orig, ok := goja.AssertFunction(arrayProto.Get(name))
		if !ok {
			continue
		}
		name := name
		wrapped := func(call goja.FunctionCall) goja.Value {
			// The lengths checked must be the ones the built-in reads: a
			// getter or a Proxy answered 0 to the check and 1e12 to
			// indexOf, which looped in Go past every limit.
			measured := []goja.Value{call.This}
			if name == "concat" {
				measured = append(measured, call.Arguments...)
			}
			lengths := make([]int64, len(measured))
			for i, v := range measured {
				l, ok := r.plainLength(v)
				if !ok {
					panic(vm.NewTypeError(fmt.Sprintf("Array.prototype.%s takes arrays and array-likes whose length is a plain value, not a getter or a Proxy", name)))
				}
				lengths[i] = l
			}
			n := lengths[0]
			switch name {
			case "concat":
				for _, l := range lengths[1:] {
					n += l
				}
			case "join", "toString", "toLocaleString":
				if name == "join" && !goja.IsUndefined(call.Argument(0)) {
					// The separator is read once: the built-in gets the
					// string (a toString answering "" to the count made a
					// join of megabytes).
					call.Arguments = []goja.Value{call.Argument(0).ToString()}
				}
				n = r.joinedLength(call.This, call.Argument(0))
			case "flat":
				d := 1.0
				if a := call.Argument(0); !goja.IsUndefined(a) {
					if d = a.ToFloat(); d != d {
						d = 0
					}
				}
				// The depth is read once: the built-in gets the number.
				call.Arguments = []goja.Value{vm.ToValue(d)}
				n = r.flatLength(call.This, d)
			}
			// Measuring a join or a flat reads the elements, and an
			// element's getter may change a length.
			for i, v := range measured {
				if l, _ := r.plainLength(v); l != lengths[i] {
					panic(vm.NewTypeError(fmt.Sprintf("Array.prototype.%s: the length of an array changed while it was measured (by a getter?)", name)))
				}
			}
			if name == "join" || name == "toLocaleString" {
				// An array's toString calls its join, which counts.
				if joining == 0 {
					joined = 0
				}
				joined += n
				n = joined
				joining++
				defer func() { joining-- }()
			}
			if n > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("Array.prototype.%s over %d elements or characters", name, n))
			}
			depth++
			defer func() { depth-- }()
			if depth > maxNativeNesting {
				r.stop(LimitCallDepth, fmt.Sprintf("built-in calls nested deeper than %d (deeply nested arrays?)", maxNativeNesting))
				panic(vm.NewGoError(fmt.Errorf("nesting limit exceeded")))
			}
			if name == "indexOf" || name == "lastIndexOf" || name == "includes" {
				if obj, ok := call.This.(*goja.Object); ok {
					if s, ok := call.Argument(0).(goja.String); ok && int64(s.Length())*lengths[0] > searchBudget {
						return r.searchString(name, obj, lengths[0], s, call.Arguments[1:])
					}
				}
			}
			// The iterator values makes ends a stopped run by its next
			// (interruptibleNext).
			if name == "sort" || name == "toSorted" {
				call.Arguments = r.stoppableCompare(call.Arguments)
			}
			return r.callOrThrow(orig, call)
		}
		if err := arrayProto.DefineDataProperty(name, vm.ToValue(wrapped), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	// Spreads, destructuring and for…of take an array's iterator from
	// Symbol.iterator, the original values until now: a spread of a sparse
	// array with a length of 1e7 ran for minutes in Go.
	if err := arrayProto.DefineDataPropertySymbol(goja.SymIterator, arrayProto.Get("values"), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	arrayCtor := g.Get("Array").ToObject(vm)
	if from, ok := goja.AssertFunction(arrayCtor.Get("from")); ok {
		if err := arrayCtor.DefineDataProperty("from", vm.ToValue(func(call goja.FunctionCall) goja.Value {
			if obj, ok := call.Argument(0).(*goja.Object); ok {
				call.Arguments = append([]goja.Value(nil), call.Arguments...)
				call.Arguments[0] = r.fromSource(obj)
			}
			return r.callOrThrow(from, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}

	strProto := g.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	strWrap := func(name string, size func(call goja.FunctionCall) int64) error {
		orig, ok := goja.AssertFunction(strProto.Get(name))
		if !ok {
			return nil
		}
		return strProto.DefineDataProperty(name, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			call.Arguments = append([]goja.Value(nil), call.Arguments...)
			readOnce(name, &call)
			if n := size(call); n > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("String.prototype.%s making %d characters", name, n))
			}
			return r.callOrThrow(orig, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	thisLen := func(call goja.FunctionCall) int64 { return r.strLen(call.This) }
	for name, size := range map[string]func(goja.FunctionCall) int64{
		"repeat": func(c goja.FunctionCall) int64 {
			n := c.Argument(0).ToFloat()
			l := thisLen(c)
			if l == 0 || n <= 0 || n != n {
				return 0
			}
			if n > float64(r.lim.Length)+1 {
				return int64(r.lim.Length) + 1
			}
			return l * int64(n)
		},
		"padStart": func(c goja.FunctionCall) int64 { return clampLen(c.Argument(0).ToFloat(), r.lim.Length) },
		"padEnd":   func(c goja.FunctionCall) int64 { return clampLen(c.Argument(0).ToFloat(), r.lim.Length) },
		"concat": func(c goja.FunctionCall) int64 {
			n := thisLen(c)
			for _, a := range c.Arguments {
				n += r.strLen(a)
			}
			return n
		},
	} {
		if err := strWrap(name, size); err != nil {
			return err
		}
	}

	if orig, ok := goja.AssertFunction(strProto.Get("normalize")); ok {
		if err := strProto.DefineDataProperty("normalize", vm.ToValue(r.guardedNormalize(orig)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	if orig, ok := goja.AssertFunction(strProto.Get("split")); ok {
		if err := strProto.DefineDataProperty("split", vm.ToValue(r.guardedSplit(orig)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	for _, name := range []string{"replace", "replaceAll"} {
		if orig, ok := goja.AssertFunction(strProto.Get(name)); ok {
			if err := strProto.DefineDataProperty(name, vm.ToValue(r.guardedReplace(name, orig)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
				return err
			}
		}
	}

	jsonObj := g.Get("JSON").ToObject(vm)
	if err := jsonObj.DefineDataProperty("stringify", vm.ToValue(r.stringify), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return r.guardNative()
}

// maxJSONNesting bounds the nesting JSON.parse accepts: goja parses by
// recursion in Go, where a deep enough text overflows the goroutine's
// stack, which no recover catches.
const maxJSONNesting = 1000

// maxSourceNesting bounds how deep a script's brackets nest: the
// TypeScript transform and the compiler take time superlinear in it, and
// both run before the wall-time limit can stop anything.
const maxSourceNesting = 100

// maxExpressionRun bounds the operators of one expression at one level:
// the compiler takes time quadratic in a chain of binary operators
// (1+1+…: 0.5 s for 10,000, 7 s for 30,000) and the transform in a comma
// sequence (a,a,…: 1 s for 10,000, 11 s for 30,000), before the wall-time
// limit can stop anything. At this bound each takes about 10 ms.
const maxExpressionRun = 1000

// sourceShape reads a script roughly: how deep its brackets nest, and
// the longest run of operators of one expression at one level (binary
// operators, !, ~ and the keywords that nest a statement without braces —
// if, else, for, while, do, with — between commas, or commas between
// statements; the commas of an array or object literal separate its
// elements and do not count). String literals and comments are skipped,
// a template literal's text too, but the code of its ${…} is read. A
// slash where an operand belongs starts a regular expression: its quotes
// and brackets are skipped, its operator characters still count. A
// statement ends at ';' or at a line break that neither follows nor
// precedes an operator. The reading errs toward deeper and longer, which
// only refuses code no one writes.
func sourceShape(src string) (deepest, longest int) {
	type frame struct {
		open byte // '(', '[', '{', '$' for ${ in a template, 0 at the top
		// literal: an array or object literal, whose commas do not count;
		// control: the parentheses of if, for, while or with, after which
		// an operand (a regular expression) may follow.
		literal, control bool
		ops, commas      int
	}
	stack := []frame{{}}
	template := false // reading a template literal's text
	lastOp := false   // the last token read was an operator
	operand := true   // an operand may come next (a slash starts a regex)
	arrow := false    // the last token was =>, so a { opens a function body
	control := false  // the last word was if, for, while or with
	countOp := func(top *frame) {
		top.ops++
		longest = max(longest, top.ops)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if template {
			switch {
			case c == '\\':
				i++
			case c == '`':
				template = false
				operand = false
			case c == '$' && i+1 < len(src) && src[i+1] == '{':
				i++
				stack = append(stack, frame{open: '$'})
				deepest = max(deepest, len(stack)-1)
				template, operand = false, true
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		top := &stack[len(stack)-1]
		wasArrow, wasControl := arrow, control
		arrow, control = false, false
		switch {
		case c == '(' || c == '[' || c == '{':
			f := frame{open: c}
			switch c {
			case '(':
				f.control = wasControl
			case '[':
				f.literal = operand
			case '{':
				f.literal = operand && !wasArrow
			}
			stack = append(stack, f)
			deepest = max(deepest, len(stack)-1)
			lastOp, operand = false, true
		case c == ')' || c == ']' || c == '}':
			lastOp, operand = false, false
			if len(stack) == 1 {
				continue
			}
			stack = stack[:len(stack)-1]
			switch {
			case c == '}' && top.open == '$':
				template = true
			case c == ')':
				operand = top.control
			case c == '}':
				operand = !top.literal // after a block, a statement
			}
		case c == '`':
			template = true
			lastOp = false
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			lastOp, operand = false, false
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if end := strings.Index(src[i+2:], "*/"); end >= 0 {
				i += end + 3
			} else {
				i = len(src)
			}
		case c == '/' && operand:
			// A regular expression, up to its closing slash (not in a
			// class) or the line's end.
			class := false
			for i++; i < len(src) && src[i] != '\n'; i++ {
				d := src[i]
				if d == '\\' {
					i++
					continue
				}
				if d == '/' && !class {
					break
				}
				switch {
				case d == '[':
					class = true
				case d == ']':
					class = false
				case isOperator(d):
					countOp(top)
				}
			}
			lastOp, operand = false, false
		case c == ';':
			top.ops, top.commas, lastOp, operand = 0, 0, false, true
		case c == ',':
			top.ops = 0
			if !top.literal {
				top.commas++
				longest = max(longest, top.commas)
			}
			lastOp, operand = true, true
		case c == '\n':
			// The blank run after the break is read once, here.
			j := i + 1
			for j < len(src) && strings.IndexByte(" \t\r\n", src[j]) >= 0 {
				j++
			}
			if !lastOp && (j == len(src) || !continues(src[j])) {
				top.ops, top.commas = 0, 0
			}
			i = j - 1
			arrow, control = wasArrow, wasControl
		case isOperator(c) || c == '!' && i+1 < len(src) && src[i+1] == '=':
			start := i
			for i+1 < len(src) && isOperator(src[i+1]) {
				i++
			}
			arrow = src[start:i+1] == "=>"
			countOp(top)
			lastOp, operand = true, true
		case c == '!' || c == '~':
			// Unary: each one counts (!!!… took 0.43 s to transform at
			// 64 KB).
			countOp(top)
			lastOp, operand = true, true
		case isWordByte(c):
			start := i
			for i+1 < len(src) && isWordByte(src[i+1]) {
				i++
			}
			w := src[start : i+1]
			switch w {
			case "if", "for", "while", "with":
				control = true
				countOp(top)
				operand = true
			case "else", "do":
				countOp(top)
				operand = true
			case "return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await":
				operand = true
			default:
				operand = false
			}
			lastOp = false
		default:
			lastOp, operand = false, false
		}
	}
	return deepest, longest
}

// isWordByte reports whether c can be part of an identifier, a keyword or
// a number.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// isOperator reports whether c can be part of a binary operator.
func isOperator(c byte) bool {
	return strings.IndexByte("+-*/%&|^<>=?:", c) >= 0
}

// continues reports whether a line starting with c carries the
// expression of the line before on.
func continues(c byte) bool {
	return isOperator(c) || c == ',' || c == '.'
}

// guardNative closes the other ways into loops and allocations in Go:
// code built from strings (eval, the Function constructors), whose
// compiler recurses and runs in time superlinear in the source; deep
// JSON.parse; and the built-ins that turn an array-like into a list by its
// length (Function.prototype.apply, Reflect.apply and construct,
// String.raw, a RegExp's Symbol.replace), read here once and copied.
func (r *run) guardNative() error {
	vm := r.vm
	g := vm.GlobalObject()
	deny := vm.ToValue(func(goja.FunctionCall) goja.Value {
		panic(vm.NewTypeError("code built from strings (eval, Function) is disabled in tool scripts"))
	})
	_ = g.Delete("eval")
	var funcProto *goja.Object
	if fn, err := vm.RunString("(function(){})"); err == nil {
		funcProto = fn.ToObject(vm).Prototype()
	}
	if funcProto == nil {
		return errors.New("engine lacks Function.prototype")
	}
	// Function stays the name of functions' prototype, for instanceof and
	// Function.prototype, but builds nothing.
	if err := deny.ToObject(vm).DefineDataProperty("prototype", funcProto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	for _, src := range []string{"(function(){})", "(async function(){})", "(function*(){})"} {
		fn, err := vm.RunString(src)
		if err != nil {
			continue // the engine lacks this kind of function
		}
		proto := fn.ToObject(vm).Prototype()
		if proto == nil {
			continue
		}
		if err := proto.DefineDataProperty("constructor", deny, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	if err := g.DefineDataProperty("Function", deny, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}

	jsonObj := g.Get("JSON").ToObject(vm)
	if parse, ok := goja.AssertFunction(jsonObj.Get("parse")); ok {
		if err := jsonObj.DefineDataProperty("parse", vm.ToValue(func(call goja.FunctionCall) goja.Value {
			// The text is read once, and the built-in gets it. Parsed in
			// one call in Go, a text of 2^24 characters (doubled up from
			// one of 2^20) ran 9 s past a 3 s limit.
			call.Arguments = append([]goja.Value(nil), call.Arguments...)
			src := r.toString(call.Argument(0))
			if len(call.Arguments) == 0 {
				call.Arguments = []goja.Value{src}
			}
			call.Arguments[0] = src
			if n := r.strLen(src); n > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("JSON.parse of a text of %d characters", n))
			}
			if text.JSONNesting(src.String()) > maxJSONNesting {
				panic(vm.NewTypeError(fmt.Sprintf("JSON.parse: the text nests deeper than %d", maxJSONNesting)))
			}
			return r.callOrThrow(parse, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}

	// list copies an array-like into a real array, its length read once.
	list := func(v goja.Value, what string) goja.Value {
		obj, ok := v.(*goja.Object)
		if !ok {
			return v // undefined, null: the built-in's own answer
		}
		n := r.lengthOf(obj)
		if n > int64(r.lim.Length) {
			r.tooLong(fmt.Sprintf("%s over %d elements", what, n))
		}
		return r.copyElements(obj, n)
	}
	wrap := func(obj *goja.Object, name string, fix func(call *goja.FunctionCall)) error {
		orig, ok := goja.AssertFunction(obj.Get(name))
		if !ok {
			return nil
		}
		return obj.DefineDataProperty(name, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			call.Arguments = append([]goja.Value(nil), call.Arguments...)
			fix(&call)
			return r.callOrThrow(orig, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	argList := func(k int, what string) func(call *goja.FunctionCall) {
		return func(call *goja.FunctionCall) {
			if len(call.Arguments) > k {
				call.Arguments[k] = list(call.Arguments[k], what)
			}
		}
	}
	if err := wrap(funcProto, "apply", argList(1, "Function.prototype.apply")); err != nil {
		return err
	}
	if reflect, ok := g.Get("Reflect").(*goja.Object); ok {
		if err := wrap(reflect, "apply", argList(2, "Reflect.apply")); err != nil {
			return err
		}
		if err := wrap(reflect, "construct", argList(1, "Reflect.construct")); err != nil {
			return err
		}
	}
	// Object.entries, values, keys, getOwnPropertyNames,
	// getOwnPropertyDescriptors, assign, freeze, seal, defineProperties
	// and create, and Reflect.ownKeys, make an array, a key, a value or a
	// property per member in one call in Go, and a string or an array,
	// cheap to make, has a member per character or element:
	// getOwnPropertyDescriptors of "x".repeat(1<<20) ran 22.7 s past a 5 s
	// limit, Object.entries of it made 800 MB, and Object.keys or
	// getOwnPropertyNames of it, or of an array of 2^20 elements, made a
	// million strings (0.2 s and 80 MB in one step, again at each call).
	// An object built by a loop is a few seconds away:
	// getOwnPropertyDescriptors of one with 2^20 properties ran 5 s,
	// Object.entries 2.7 s and Object.assign 2.3 s in one step. Over
	// Limits.Length/16 members, counted (members), they are refused; a
	// sparse array counts the elements it has, not its length.
	objectCtor := g.Get("Object").ToObject(vm)
	countKeys, err := vm.RunString(`(function (o, max) { var n = 0; for (var k in o) { if (++n > max) break } return n })`)
	if err != nil {
		return err
	}
	var isFn bool
	if r.countKeys, isFn = goja.AssertFunction(countKeys); !isFn {
		return errors.New("engine could not make the key counter")
	}
	// memberCheck counts the members of the arguments from the from-th
	// on; objectsOnly leaves out the primitives, which the built-in
	// returns as they are or refuses.
	memberCheck := func(what string, from int, objectsOnly bool) func(call *goja.FunctionCall) {
		return func(call *goja.FunctionCall) {
			limit := int64(r.lim.Length / 16)
			var n int64
			for _, v := range call.Arguments[min(from, len(call.Arguments)):] {
				if _, obj := v.(*goja.Object); !obj && objectsOnly {
					continue
				}
				if n += r.members(v, limit-n); n > limit {
					r.stop(LimitMemory, fmt.Sprintf("%s of more than %d members (a character of a string, an element of an array and a property each count one); work on smaller pieces", what, limit))
					panic(vm.NewGoError(errors.New("memory limit exceeded")))
				}
			}
		}
	}
	for name, from := range map[string]int{
		"entries": 0, "values": 0, "keys": 0, "getOwnPropertyNames": 0, "getOwnPropertyDescriptors": 0,
		"freeze": 0, "seal": 0,
		"assign":           1,              // the target is written, not read
		"defineProperties": 1, "create": 1, // the descriptors are read
	} {
		objectsOnly := name == "freeze" || name == "seal" // a primitive is returned as it is
		if err := wrap(objectCtor, name, memberCheck("Object."+name, from, objectsOnly)); err != nil {
			return err
		}
	}
	if reflect, ok := g.Get("Reflect").(*goja.Object); ok {
		// A primitive is the built-in's TypeError.
		if err := wrap(reflect, "ownKeys", memberCheck("Reflect.ownKeys", 0, true)); err != nil {
			return err
		}
	}
	strCtor := g.Get("String").ToObject(vm)
	if err := wrap(strCtor, "raw", func(call *goja.FunctionCall) {
		if tpl, ok := call.Argument(0).(*goja.Object); ok {
			raw := vm.NewObject()
			_ = raw.Set("raw", list(tpl.Get("raw"), "String.raw"))
			call.Arguments[0] = raw
		}
		if n := int64(len(call.Arguments)); n > int64(r.lim.Length) {
			r.tooLong(fmt.Sprintf("String.raw of %d substitutions", n))
		}
	}); err != nil {
		return err
	}
	regexpProto := g.Get("RegExp").ToObject(vm).Get("prototype").ToObject(vm)
	// A global replace, a match, matchAll or split ran its matches in Go,
	// each up to RegexpMatchTimeout: a hundred matches of a backtracking
	// pattern ran 5.7 s past a 2 s limit. With exec replaced, the engine
	// makes each match through it, and it ends the run once a limit has
	// stopped it.
	if exec, ok := goja.AssertFunction(regexpProto.Get("exec")); ok {
		if err := regexpProto.DefineDataProperty("exec", vm.ToValue(func(call goja.FunctionCall) goja.Value {
			if r.stopped() {
				panic(vm.NewGoError(errors.New("the run was stopped")))
			}
			return r.callOrThrow(exec, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	if sym, ok := g.Get("Symbol").ToObject(vm).Get("replace").(*goja.Symbol); ok {
		orig, ok := goja.AssertFunction(regexpProto.GetSymbol(sym))
		if ok {
			r.regexpReplace = vm.ToValue(func(call goja.FunctionCall) goja.Value {
				return r.replaceRegExp(orig, call.This, call.Argument(0), call.Argument(1), "RegExp.prototype[Symbol.replace]")
			})
			r.regexpReplaceOrig = orig
			if err := regexpProto.DefineDataPropertySymbol(sym, r.regexpReplace, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
				return err
			}
		}
	}
	return nil
}

// readOnce converts the arguments that the size of String.prototype.name
// depends on, and a this that is not a primitive, once: the built-in gets
// the numbers and strings the size was computed from. Converted again by
// the built-in, a valueOf answered 1 to the check and 5e6 to repeat.
func readOnce(name string, call *goja.FunctionCall) {
	if _, ok := call.This.(*goja.Object); ok {
		call.This = call.This.ToString()
	}
	args := call.Arguments
	switch name {
	case "repeat", "padStart", "padEnd":
		if len(args) > 0 {
			args[0] = args[0].ToNumber()
		}
		if name != "repeat" && len(args) > 1 && !goja.IsUndefined(args[1]) {
			args[1] = args[1].ToString()
		}
	case "concat":
		for i, a := range args {
			args[i] = a.ToString()
		}
	}
}

func clampLen(f float64, limit int) int64 {
	if f != f || f <= 0 {
		return 0
	}
	if f > float64(limit)+1 {
		return int64(limit) + 1
	}
	return int64(f)
}

// searchBudget bounds the characters that indexOf, lastIndexOf and
// includes of a string compare in one call of the built-in: it compares
// in Go, where no limit stops it, each element of the length sought at
// the cost of that length (a string of 2^20 characters looked for among
// 2^18 copies of one that differed in its last took 8.7 s past a 1 s
// limit; among 2^20, which Length allows, it would have taken 35 s).
// Past it (elements times the length sought; 2^28 is some 20 ms), the
// string is looked for by searchString. A variable for the tests.
var searchBudget int64 = 1 << 28

// searchString is Array.prototype.indexOf, lastIndexOf or includes
// (name) of the string s in obj, whose length n was read and checked,
// from the index in args, if any: the elements are compared in turn, and
// the run ends once a limit has stopped it. Only a string equals a
// string, strictly or as includes compares, and a hole (read as
// undefined) never does.
func (r *run) searchString(name string, obj *goja.Object, n int64, s goja.String, args []goja.Value) goja.Value {
	last := name == "lastIndexOf"
	notFound := r.vm.ToValue(-1)
	if name == "includes" {
		notFound = r.vm.ToValue(false)
	}
	if n == 0 {
		return notFound
	}
	// The start as the built-in reads it (ToIntegerOrInfinity, once).
	from := 0.0
	if last {
		from = float64(n - 1)
	}
	if len(args) > 0 {
		if from = args[0].ToFloat(); from != from {
			from = 0
		}
		from = math.Trunc(from)
	}
	var k, end, step int64
	switch {
	case last && from < 0:
		k, end, step = n+int64(max(from, -float64(n)-1)), -1, -1
	case last:
		k, end, step = int64(min(from, float64(n-1))), -1, -1
	case from < 0:
		k, end, step = max(n+int64(max(from, -float64(n))), 0), n, 1
	default:
		k, end, step = int64(min(from, float64(n))), n, 1
	}
	for i := 0; k != end && k >= 0; k, i = k+step, i+1 {
		if i%256 == 255 && r.stopped() {
			panic(r.vm.NewGoError(errors.New("the run was stopped")))
		}
		if v, ok := obj.Get(strconv.FormatInt(k, 10)).(goja.String); ok && v.Length() == s.Length() && v.SameAs(s) {
			if name == "includes" {
				return r.vm.ToValue(true)
			}
			return r.vm.ToValue(k)
		}
	}
	return notFound
}

// tooLong ends the run on the memory limit.
func (r *run) tooLong(what string) {
	r.stop(LimitMemory, fmt.Sprintf("%s: more than the limit of %d; work on smaller pieces", what, r.lim.Length))
	panic(r.vm.NewGoError(fmt.Errorf("memory limit exceeded")))
}

// fromSource is what Array.from reads in place of obj, so that it reads
// obj once: obj's iterator method, called on obj, or else a copy of its
// elements, its length checked. Read by the built-in after the check, a
// getter answered the check 0 and the built-in 5e6.
func (r *run) fromSource(obj *goja.Object) goja.Value {
	vm := r.vm
	if it := obj.GetSymbol(goja.SymIterator); it != nil && !goja.IsUndefined(it) && !goja.IsNull(it) {
		fn, ok := goja.AssertFunction(it)
		if !ok {
			panic(vm.NewTypeError("Array.from: the argument's Symbol.iterator is not a function"))
		}
		src := vm.NewObject()
		_ = src.SetSymbol(goja.SymIterator, func(goja.FunctionCall) goja.Value {
			return r.callOrThrow(fn, goja.FunctionCall{This: obj})
		})
		return src
	}
	n := r.lengthOf(obj)
	if n > int64(r.lim.Length) {
		r.tooLong(fmt.Sprintf("Array.from of %d elements", n))
	}
	return r.copyElements(obj, n)
}

// copyElements is a new array of the first n elements of obj, n checked
// against the limits by the caller. A missing element is undefined (nil
// would make it null: ((a = 5) => a).apply(null, [,]) answered null).
func (r *run) copyElements(obj *goja.Object, n int64) goja.Value {
	items := make([]any, n)
	for i := range items {
		items[i] = goja.Undefined()
		if v := obj.Get(strconv.Itoa(i)); v != nil {
			items[i] = v
		}
	}
	return r.vm.NewArray(items...)
}

// interruptibleNext wraps the next method of the built-in iterators (of
// arrays, strings, sets and maps), which a spread or a for…of consumes in
// Go: its next ends the run once a limit has stopped it. Wrapping the
// methods that make iterators was not enough: Math.max(...a.keys()) and a
// spread of a string, a Set or a Map ran for 15 s past a 5 s limit, and
// every arguments object holds the unwrapped Array.prototype.values (a
// spread of a sparse array of 1e6 through it ran 17 s past a 1 s limit).
func (r *run) interruptibleNext() error {
	vm := r.vm
	for _, src := range []string{"[][Symbol.iterator]()", `""[Symbol.iterator]()`, "new Set()[Symbol.iterator]()", "new Map()[Symbol.iterator]()"} {
		it, err := vm.RunString(src)
		if err != nil {
			return err
		}
		proto := it.ToObject(vm).Prototype()
		if proto == nil {
			continue
		}
		next, ok := goja.AssertFunction(proto.Get("next"))
		if !ok {
			continue
		}
		calls := 0
		if err := proto.DefineDataProperty("next", vm.ToValue(func(call goja.FunctionCall) goja.Value {
			if calls++; calls%256 == 0 && r.stopped() {
				panic(vm.NewGoError(errors.New("the run was stopped")))
			}
			return r.callOrThrow(next, call)
		}), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// stoppableCompare gives a sort (its arguments args) a comparator that
// ends the run once a limit has stopped it: a sort compares in Go, where
// the wall-time interrupt does not reach (2^20 numbers, compared by their
// strings, sorted for 12.7 s past a 5 s limit; a built-in comparator such
// as Math.max runs in Go too). Without a comparator it compares as the
// built-in does: by the elements' strings, in UTF-16 code units (the sort
// itself puts undefined and holes last). A comparator that is not a
// function is left for the built-in to refuse.
func (r *run) stoppableCompare(args []goja.Value) []goja.Value {
	vm := r.vm
	cmp := goja.Undefined()
	if len(args) > 0 {
		cmp = args[0]
	}
	var compare goja.Callable
	if !goja.IsUndefined(cmp) {
		fn, ok := goja.AssertFunction(cmp)
		if !ok {
			return args
		}
		compare = fn
	}
	calls := 0
	wrapped := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if calls++; calls%256 == 0 && r.stopped() {
			panic(vm.NewGoError(errors.New("the run was stopped")))
		}
		x, y := call.Argument(0), call.Argument(1)
		if compare != nil {
			v, err := compare(goja.Undefined(), x, y)
			if err != nil {
				panic(err)
			}
			return v
		}
		xs, xok := x.ToString().(goja.String)
		ys, yok := y.ToString().(goja.String)
		if !xok || !yok {
			return vm.ToValue(strings.Compare(x.String(), y.String()))
		}
		return vm.ToValue(xs.CompareTo(ys))
	})
	return append([]goja.Value{wrapped}, args[min(len(args), 1):]...)
}

// stopped reports whether a limit has stopped the run.
func (r *run) stopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hit != nil
}

// callOrThrow calls a built-in, rethrowing its exception in the script.
func (r *run) callOrThrow(fn goja.Callable, call goja.FunctionCall) goja.Value {
	v, err := fn(call.This, call.Arguments...)
	if err != nil {
		panic(err)
	}
	return v
}

// lengthOf is the length property of an object (0 for other values),
// without running getters on anything but the object itself.
func (r *run) lengthOf(v goja.Value) int64 {
	obj, ok := v.(*goja.Object)
	if !ok {
		return r.strLen(v)
	}
	l := obj.Get("length")
	if l == nil || goja.IsUndefined(l) {
		return 0
	}
	f := l.ToFloat()
	if f != f || f <= 0 {
		return 0
	}
	if f > 1e15 {
		return 1e15
	}
	return int64(f)
}

// plainLength is the length of v read without running script code, and
// whether it could be read so: a primitive's (a string's length, 0 for
// others), an array's, or an object's whose length is a data property
// holding a primitive, found on it or on its prototypes, none of them a
// Proxy (0 when there is none). A getter or a Proxy runs script code,
// which may answer a check one length and the built-in after it another.
func (r *run) plainLength(v goja.Value) (int64, bool) {
	obj, ok := v.(*goja.Object)
	if !ok {
		return r.strLen(v), true
	}
	if !isProxy(obj) && obj.ClassName() == "Array" {
		return r.lengthOf(obj), true
	}
	for o := obj; o != nil; o = o.Prototype() {
		if isProxy(o) {
			return 0, false
		}
		d, err := r.ownDescriptor(goja.Undefined(), o, r.vm.ToValue("length"))
		if err != nil {
			return 0, false
		}
		desc, ok := d.(*goja.Object)
		if !ok {
			continue
		}
		if !slices.Contains(desc.Keys(), "value") {
			return 0, false
		}
		if _, isObj := desc.Get("value").(*goja.Object); isObj {
			return 0, false // its valueOf would run
		}
		return r.lengthOf(obj), true
	}
	return 0, true
}

// members counts the members of v that the Object built-ins read, up to
// max+1: a string's characters, or an object's enumerable properties by
// a for…in (a String object's characters, an array's elements, holes
// left out, and properties its prototypes lend, which only count more).
// A Proxy counts for its target, in Go unless its traps are the script's.
func (r *run) members(v goja.Value, max int64) int64 {
	obj, ok := v.(*goja.Object)
	if !ok {
		return r.strLen(v)
	}
	for depth := 0; isProxy(obj); depth++ {
		// A Proxy without traps answers from its target, in Go.
		p, _ := obj.Export().(goja.Proxy)
		if obj = p.Target(); obj == nil || depth > maxNativeNesting {
			return 0
		}
	}
	n, err := r.countKeys(goja.Undefined(), obj, r.vm.ToValue(max))
	if err != nil {
		panic(err)
	}
	return n.ToInteger()
}

// strLen is the length of a primitive string (0 for other values).
func (r *run) strLen(v goja.Value) int64 {
	// In UTF-16 code units, as String.prototype.length: the bytes of the
	// exported string counted "é" twice and "\uffff" three times.
	if s, ok := v.(goja.String); ok {
		return int64(s.Length())
	}
	return 0
}

// joinedLength bounds the length of a join: the element count plus the
// lengths of the string elements and separators.
func (r *run) joinedLength(this, sep goja.Value) int64 {
	obj, ok := this.(*goja.Object)
	if !ok {
		return 0
	}
	n := r.lengthOf(obj)
	if n > int64(r.lim.Length) {
		return n
	}
	sepLen := int64(1)
	if !goja.IsUndefined(sep) && sep != nil {
		sepLen = int64(len(sep.String()))
	}
	total := n * sepLen
	for i := int64(0); i < n && total <= int64(r.lim.Length); i++ {
		total += r.strLen(obj.Get(fmt.Sprint(i)))
	}
	return total
}

// flatLength bounds the work of a flat to depth: the lengths of the
// arrays it walks, the array itself and those nested in it, down to
// depth. flat copies their elements in Go, where no limit can stop it (a
// flat of 200 copies of a 1<<20 array was a fatal out-of-memory error).
// The count stops once past the limit.
func (r *run) flatLength(this goja.Value, depth float64) int64 {
	obj, ok := this.(*goja.Object)
	if !ok {
		return 0
	}
	var total int64
	type array struct {
		obj *goja.Object
		n   int64
	}
	var nested []array
	var walk func(obj *goja.Object, depth float64)
	walk = func(obj *goja.Object, depth float64) {
		n := r.lengthOf(obj)
		total += n
		for i := int64(0); depth >= 1 && i < n && total <= int64(r.lim.Length); i++ {
			el, ok := obj.Get(strconv.FormatInt(i, 10)).(*goja.Object)
			switch {
			case !ok:
			case isProxy(el):
				// Its traps could answer this count one length and the
				// built-in another.
				panic(r.vm.NewTypeError("Array.prototype.flat of an array holding a Proxy"))
			case el.ClassName() == "Array":
				nested = append(nested, array{el, r.lengthOf(el)})
				walk(el, depth-1)
			}
		}
	}
	walk(obj, depth)
	// A getter of a later element may have changed a nested length.
	for _, a := range nested {
		if r.lengthOf(a.obj) != a.n {
			panic(r.vm.NewTypeError("Array.prototype.flat: the length of an array changed while it was measured (by a getter?)"))
		}
	}
	return total
}

// guardedReplace is String.prototype.replace or replaceAll (name) around
// the built-in orig. It dispatches as the built-in does, reading each
// property once: a pattern that is an object with a Symbol.replace method
// (a regular expression) is handed to it (replaceAll refusing a regular
// expression that is not global, as the built-in does), whose own guard
// bounds it; any other pattern is searched for as its string, a
// primitive's Symbol.replace left unread (a script's
// String.prototype[Symbol.replace] is not called for "a".replace("a",
// …)), as the specification has it since ecma262 #3009 and as the
// built-in does. The subject, the pattern and a string replacement are
// converted once, here, and the built-in gets the strings (converted again, a valueOf or a
// toString answered the bound one thing and the built-in another, and a
// Symbol.replace getter could answer the dispatch a method and the
// built-in nothing).
//
// A string replacement is inserted at each occurrence of the pattern
// (once for replace), each $ reference in it copying up to what it names
// (substitutionBound). When that bound is within Limits.Length, the
// built-in runs as it is. Past it, the bound is no answer (a replaceAll
// of a frequent letter by "$`" is quadratic, one of a rare one is not),
// and the replacement is made by countedReplacement, which counts what
// the replace makes as it makes it, as it does for a function
// replacement, and ends the run once that passes the limit.
func (r *run) guardedReplace(name string, orig goja.Callable) func(goja.FunctionCall) goja.Value {
	what := "String.prototype." + name
	all := name == "replaceAll"
	return func(call goja.FunctionCall) goja.Value {
		vm := r.vm
		this, pattern, repl := call.This, call.Argument(0), call.Argument(1)
		if goja.IsUndefined(this) || goja.IsNull(this) {
			return r.callOrThrow(orig, call) // the built-in's TypeError
		}
		if obj, ok := pattern.(*goja.Object); ok {
			if all && r.isRegExp(obj) {
				flags := obj.Get("flags")
				if flags == nil || goja.IsUndefined(flags) || goja.IsNull(flags) || !strings.Contains(flags.String(), "g") {
					panic(vm.NewTypeError("String.prototype.replaceAll called with a non-global RegExp argument"))
				}
			}
			if m := obj.GetSymbol(goja.SymReplace); m != nil && !goja.IsUndefined(m) && !goja.IsNull(m) {
				fn, ok := goja.AssertFunction(m)
				if !ok {
					panic(vm.NewTypeError("the Symbol.replace of the pattern is not a function"))
				}
				if r.regexpReplace != nil && m.SameAs(r.regexpReplace) {
					// The guarded RegExp.prototype[Symbol.replace], named
					// as the script called it.
					return r.replaceRegExp(r.regexpReplaceOrig, obj, this, repl, what)
				}
				return r.callOrThrow(fn, goja.FunctionCall{This: obj, Arguments: []goja.Value{this, repl}})
			}
		}
		subject := r.toString(this)
		search := r.toString(pattern)
		fn, isFn := goja.AssertFunction(repl)
		if !isFn {
			repl = r.toString(repl)
		}
		l := r.strLen(subject)
		p := r.strLen(search)
		matches := int64(1)
		switch {
		case !all:
		case p > 0:
			matches = l/p + 1
		default:
			matches = l + 1
		}
		var tmpl goja.String
		counted := isFn
		if !isFn {
			tmpl, _ = repl.(goja.String)
			counted = l+matches*substitutionBound(repl, l, p) > int64(r.lim.Length)
		}
		if counted {
			if l > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("%s of a string of %d characters", what, l))
			}
			repl = r.countedReplacement(fn, tmpl, l, what)
		}
		if all && p == 0 {
			return r.replaceAllEmpty(subject, repl)
		}
		return r.callOrThrow(orig, goja.FunctionCall{This: subject, Arguments: []goja.Value{search, repl}})
	}
}

// guardedSplit is String.prototype.split around the built-in orig: a
// split by a string makes an array of as many pieces as the separator
// occurs, in one call in Go ("".split of a string of 2^25 characters,
// doubled up from one of 2^20, made 2^25 strings: 9.6 s past a 3 s limit
// and 1.5 GB for a limit of 256 MiB). More than Limits.Length pieces end
// the run. It dispatches as the built-in does: a separator that is an
// object with a Symbol.split method (a regular expression, whose matches
// run through the guarded exec) is handed to it; the subject, the limit
// and the separator are converted once, in the built-in's order, and the
// built-in gets what was counted.
func (r *run) guardedSplit(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		vm := r.vm
		this, sep, limit := call.This, call.Argument(0), call.Argument(1)
		if goja.IsUndefined(this) || goja.IsNull(this) {
			return r.callOrThrow(orig, call) // the built-in's TypeError
		}
		if obj, ok := sep.(*goja.Object); ok {
			if m := obj.GetSymbol(goja.SymSplit); m != nil && !goja.IsUndefined(m) && !goja.IsNull(m) {
				fn, ok := goja.AssertFunction(m)
				if !ok {
					panic(vm.NewTypeError("the Symbol.split of the separator is not a function"))
				}
				return r.callOrThrow(fn, goja.FunctionCall{This: obj, Arguments: []goja.Value{this, limit}})
			}
		}
		subject := r.toString(this)
		lim := int64(1<<32 - 1) // ToUint32 of the limit
		if !goja.IsUndefined(limit) {
			limit = limit.ToNumber()
			lim = 0
			if f := limit.ToFloat(); !math.IsNaN(f) && !math.IsInf(f, 0) {
				lim = int64(uint32(int64(math.Mod(math.Trunc(f), 1<<32))))
			}
		}
		// The engine splits by "undefined" too.
		by, _ := r.vm.ToValue("undefined").(goja.String)
		if !goja.IsUndefined(sep) {
			by = r.toString(sep)
			sep = by
		}
		if l := r.strLen(subject); l >= int64(r.lim.Length) && lim > int64(r.lim.Length) {
			if pieces := min(splitPieces(subject, by), lim); pieces > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("String.prototype.split making %d pieces", pieces))
			}
		}
		return r.callOrThrow(orig, goja.FunctionCall{This: subject, Arguments: []goja.Value{sep, limit}})
	}
}

// normForms are the forms of String.prototype.normalize, and how many
// characters each makes of one at most (the decompositions of
// compatibility: U+FDFA makes 18).
var normForms = map[string]struct {
	form   norm.Form
	expand int64
}{"NFC": {norm.NFC, 3}, "NFD": {norm.NFD, 4}, "NFKC": {norm.NFKC, 18}, "NFKD": {norm.NFKD, 18}}

// guardedNormalize is String.prototype.normalize around the built-in
// orig: a normalization makes up to 18 characters of one, in one call in
// Go ("\uFDFA".repeat(2^20).normalize("NFKD") made 18.9 million in 1.6
// s, one of 2^22 ran 8.8 s past a 5 s limit to 550 MB). When the string
// times its form's expansion passes Limits.Length, the characters it
// makes are counted first (as the engine makes them, from the string's
// UTF-8), and more than Length end the run. The subject and the form are
// converted once, and the built-in gets them.
func (r *run) guardedNormalize(orig goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		if goja.IsUndefined(call.This) || goja.IsNull(call.This) {
			return r.callOrThrow(orig, call) // the built-in's TypeError
		}
		subject := r.toString(call.This)
		args := []goja.Value{}
		form := "NFC"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			f := r.toString(a)
			form = f.String()
			args = append(args, f)
		}
		if nf, ok := normForms[form]; ok && r.strLen(subject)*nf.expand > int64(r.lim.Length) {
			var it norm.Iter
			it.InitString(nf.form, subject.String())
			var n int64
			for !it.Done() && n <= int64(r.lim.Length) {
				for _, c := range string(it.Next()) {
					n += int64(utf16.RuneLen(c))
				}
			}
			if n > int64(r.lim.Length) {
				r.tooLong(fmt.Sprintf("String.prototype.normalize making %d characters or more", n))
			}
		}
		return r.callOrThrow(orig, goja.FunctionCall{This: subject, Arguments: args})
	}
}

// splitPieces bounds the pieces of subject.split(sep): one a character
// for an empty sep, else one more than the times sep occurs. It counts
// in UTF-8, where a lone surrogate of the subject reads as U+FFFD: a sep
// holding no surrogate matches wherever it does in UTF-16, and perhaps
// at such a U+FFFD too, so that the count is exact or more; a sep holding
// one is bounded by the subject's length over its own.
func splitPieces(subject, sep goja.String) int64 {
	l, sl := int64(subject.Length()), int64(sep.Length())
	if sl == 0 {
		return l
	}
	for i := range int(sl) {
		if c := sep.CharAt(i); c >= 0xD800 && c <= 0xDFFF {
			return l/sl + 1
		}
	}
	return int64(strings.Count(subject.String(), sep.String())) + 1
}

// replaceRegExp is rx[Symbol.replace](str, repl) by the built-in orig,
// guarded: the subject and the replacement are read once, here, and the
// built-in gets what was read (converted again, a subject's toString
// answered "" to the count and a megabyte to the built-in). A regular
// expression's exec may be the script's, answering captures and matches
// of any length at any position, so that no bound of the subject holds:
// the replacement is always counted as it is made (countedReplacement).
// what names the call in the error.
func (r *run) replaceRegExp(orig goja.Callable, rx, str, repl goja.Value, what string) goja.Value {
	subject := r.toString(str)
	fn, isFn := goja.AssertFunction(repl)
	var tmpl goja.String
	if !isFn {
		tmpl = r.toString(repl)
	}
	l := r.strLen(subject)
	if l > int64(r.lim.Length) {
		r.tooLong(fmt.Sprintf("%s of a string of %d characters", what, l))
	}
	return r.callOrThrow(orig, goja.FunctionCall{This: rx, Arguments: []goja.Value{subject, r.countedReplacement(fn, tmpl, l, what)}})
}

// toString is ToString(v) as a string value: Value.ToString leaves a
// number or a boolean as it is, and an object whose toString answers one
// gives that.
func (r *run) toString(v goja.Value) goja.String {
	sv := v.ToString()
	if s, ok := sv.(goja.String); ok {
		return s
	}
	s, _ := r.vm.ToValue(sv.String()).(goja.String)
	return s
}

// isRegExp is the IsRegExp of the specification: an object's
// Symbol.match, if it has one, else whether it is a regular expression.
func (r *run) isRegExp(obj *goja.Object) bool {
	if m := obj.GetSymbol(goja.SymMatch); m != nil && !goja.IsUndefined(m) {
		return m.ToBoolean()
	}
	return obj.ClassName() == "RegExp"
}

// countedReplacement is the function replacement that a replace of a
// subject of l characters runs with in place of fn, or of the string
// replacement tmpl (expanded as the built-in expands it: substitute). It
// counts the characters the replace makes, as the built-in makes them
// (the text between the matches, and each replacement in turn), and ends
// the run once they pass the limit, before the built-in has joined them.
// A function's answer is converted once, and the string counted is the
// one inserted.
func (r *run) countedReplacement(fn goja.Callable, tmpl goja.String, l int64, what string) goja.Value {
	var made, next int64 // characters made so far; where the subject's next copy starts
	return r.vm.ToValue(func(inner goja.FunctionCall) goja.Value {
		var v goja.Value
		if fn != nil {
			var err error
			if v, err = fn(inner.This, inner.Arguments...); err != nil {
				panic(err)
			}
			v = r.toString(v)
		} else {
			v = r.substitute(tmpl, inner.Arguments)
		}
		// The built-in's arguments: the match, the captures, the position,
		// the subject and, when the pattern names groups, the groups. A
		// match starting inside an earlier one (a regular expression's own
		// exec may answer so) is skipped by the built-in.
		args := inner.Arguments
		if p := replacePosition(args); p >= 0 {
			pos := args[p].ToInteger()
			if pos >= next {
				made += pos - next + r.strLen(v)
				next = pos + r.strLen(args[0])
			}
		} else {
			made += r.strLen(v)
		}
		if total := made + max(l-next, 0); total > int64(r.lim.Length) {
			r.tooLong(fmt.Sprintf("%s making over %d characters", what, total))
		}
		return v
	})
}

// replaceAllEmpty is subject.replaceAll("", repl), repl read once (a
// string or a function): repl's replacement before each character and at
// the end. The engine's own loops without end on a subject that is not
// ASCII, its search for "" past the end finding it there again, and ends
// the process out of memory ("é".replaceAll("", "x")).
func (r *run) replaceAllEmpty(subject goja.String, repl goja.Value) goja.Value {
	fn, isFn := goja.AssertFunction(repl)
	var tmpl goja.String
	if !isFn {
		tmpl = r.toString(repl)
	}
	empty := r.vm.ToValue("")
	var b goja.StringBuilder
	l := subject.Length()
	for pos := 0; pos <= l; pos++ {
		args := []goja.Value{empty, r.vm.ToValue(pos), subject}
		var v goja.Value
		if isFn {
			var err error
			if v, err = fn(goja.Undefined(), args...); err != nil {
				panic(err)
			}
		} else {
			v = r.substitute(tmpl, args)
		}
		b.WriteString(r.toString(v))
		if pos < l {
			b.WriteSubstring(subject, pos, pos+1)
		}
	}
	return b.String()
}

// replacePosition is the index of the match's position among the
// arguments a replace passes a function replacement (match, captures…,
// position, subject[, groups]), or -1 if they are not so.
func replacePosition(args []goja.Value) int {
	n := len(args)
	if n < 3 {
		return -1
	}
	if _, subject := args[n-2].(goja.String); subject {
		// … position, subject, groups.
		if n < 4 {
			return -1
		}
		return n - 3
	}
	return n - 2
}

// substitute expands the string replacement tmpl for one match, whose
// arguments (as a function replacement gets them) are args, as the
// engine expands it (GetSubstitution): $$, $&, $` and $', $n and $nn of
// the captures there are, $<name> of the named groups when there are
// any; anything else stands for itself.
func (r *run) substitute(tmpl goja.String, args []goja.Value) goja.Value {
	p := replacePosition(args)
	if p < 1 {
		return tmpl
	}
	str := func(v goja.Value) (s goja.String) {
		if v != nil && !goja.IsUndefined(v) {
			s = r.toString(v)
		}
		return s
	}
	subject := str(args[p+1])
	matched := str(args[0])
	position := int(args[p].ToInteger())
	var groups *goja.Object
	if len(args) > p+2 && !goja.IsUndefined(args[p+2]) {
		groups = args[p+2].ToObject(r.vm)
	}
	numCaptures := p // the match and the captures
	capture := func(i int) goja.String { return str(args[i]) }
	var b goja.StringBuilder
	write := func(s goja.String) {
		if s != nil {
			b.WriteString(s)
		}
	}
	l, rl := 0, tmpl.Length()
	if subject != nil {
		l = subject.Length()
	}
	tail := position
	if matched != nil {
		tail += matched.Length()
	}
	for i := 0; i < rl; i++ {
		c := tmpl.CharAt(i)
		if c != '$' || i == rl-1 {
			b.WriteRune(rune(c))
			continue
		}
		ch := tmpl.CharAt(i + 1)
		switch ch {
		case '$':
			b.WriteRune('$')
		case '`':
			if subject != nil {
				write(subject.Substring(0, min(max(position, 0), l)))
			}
		case '\'':
			if subject != nil && tail < l {
				write(subject.Substring(max(tail, 0), l))
			}
		case '&':
			write(matched)
		case '<':
			end := -1
			for j := i + 2; j < rl; j++ {
				if tmpl.CharAt(j) == '>' {
					end = j
					break
				}
			}
			if end >= 0 && groups != nil {
				if v := groups.Get(tmpl.Substring(i+2, end).String()); v != nil && !goja.IsUndefined(v) {
					write(str(v))
				}
				i = end
				continue
			}
			b.WriteRune('$')
			b.WriteRune('<')
		default:
			index, j := 0, i+1
			for lim := min(j+2, rl); j < lim; j++ {
				d := tmpl.CharAt(j)
				if d < '0' || d > '9' {
					break
				}
				m := index*10 + int(d-'0')
				if m >= numCaptures {
					break
				}
				index = m
			}
			if index > 0 {
				write(capture(index))
				i = j - 1
				continue
			}
			b.WriteRune('$')
			b.WriteRune(rune(ch))
		}
		i++
	}
	return b.String()
}

// substitutionBound is the most characters one insertion of the
// replacement repl makes, in a subject of l characters with matches and
// captures of at most match characters: $` and $' copy up to l, $&, $n and
// $<name> up to match (and are left as they are when there is no such
// capture, hence the 2), $$ is one character.
func substitutionBound(repl goja.Value, l, match int64) int64 {
	s, ok := repl.(goja.String)
	if !ok {
		return int64(len(repl.String()))
	}
	var n int64
	rl := s.Length()
	for i := 0; i < rl; i++ {
		if s.CharAt(i) != '$' || i == rl-1 {
			n++
			continue
		}
		switch c := s.CharAt(i + 1); {
		case c == '`' || c == '\'':
			n += l
		case c == '&' || c == '<' || (c >= '0' && c <= '9'):
			n += match + 2
		default: // $$, or a $ standing for itself
			n += 2
		}
		i++
	}
	return n
}

// stringify replaces JSON.stringify with the bounded marshaler: same
// results for data, no unbounded recursion or output.
func (r *run) stringify(call goja.FunctionCall) goja.Value {
	m := &marshaler{vm: r.vm, max: r.lim.Length}
	if fn, ok := goja.AssertFunction(call.Argument(1)); ok {
		m.replacer = fn
	} else if obj, ok := call.Argument(1).(*goja.Object); ok && obj.ClassName() == "Array" {
		m.allow = map[string]bool{}
		n := r.lengthOf(obj)
		for i := int64(0); i < n && i < 10000; i++ {
			m.allow[obj.Get(fmt.Sprint(i)).String()] = true
		}
	}
	switch sp := primitive(call.Argument(2)).(type) {
	case int64:
		m.indent = strings.Repeat(" ", int(max(0, min(sp, 10))))
	case float64:
		m.indent = strings.Repeat(" ", int(max(0, min(sp, 10))))
	case string:
		m.indent = sp[:min(len(sp), 10)]
	}
	ok, err := m.top(call.Argument(0))
	if err == errTooBig {
		r.tooLong("JSON.stringify output")
	}
	if err != nil {
		panic(r.vm.NewTypeError(err.Error()))
	}
	if !ok {
		return goja.Undefined()
	}
	return r.vm.ToValue(string(m.b))
}

// primitive exports a primitive value; an object exports as nil (Export
// of an object would convert all that it reaches).
func primitive(v goja.Value) any {
	if v == nil {
		return nil
	}
	if _, ok := v.(*goja.Object); ok {
		return nil
	}
	return v.Export()
}
