package wire

// The arguments as sent, for keywords whose verdict depends on them: a
// generated decoder keeps only the members an object declares and fills
// in defaults, so keywords over the whole object (minProperties,
// propertyNames, dependentRequired, not, if/then/else, a oneOf of
// required lists, ...) would judge a value the model did not send. The
// embedded validator checks those keywords on the value found at the
// same JSON pointer in the arguments.

// instance is the parsed arguments of one call.
type instance struct {
	value any
	ok    bool // the arguments parsed
}

// UseArgs makes the arguments as sent (the JSON DecodeArgs decoded)
// available to Instance. Generated decoders call it before validating a
// tool whose checks need them; the arguments are parsed on the first
// Instance call that needs them, and not at all when none does.
func (e *Errors) UseArgs(args []byte) { e.args, e.inst = args, nil }

// Instance returns the value at p in the arguments as sent, in generic
// form (as Decoder.Any reads it, but an integer beyond ±2^53 is an exact
// int64), for the embedded validator. x is the decoded value at p: when
// e has no arguments (Validate on a value built in Go) its generic form
// (Generic) stands in. ok is false when the
// arguments are at hand but hold nothing at p: the decoder filled the
// value in from a default, which was checked against its schema when the
// package was generated, so there is nothing to check.
func (e *Errors) Instance(p *Path, x any) (v any, ok bool) {
	if e.args == nil {
		return Generic(x), true
	}
	if e.inst == nil {
		d := NewArgsDecoder(e.args)
		d.exactInts = true // 9007199254740993 must not be judged as 9007199254740992
		e.inst = &instance{value: d.Any()}
		e.inst.ok = d.Close() == nil
	}
	if !e.inst.ok {
		// Not reached: DecodeArgs validates only arguments it decoded.
		return Generic(x), true
	}
	if v, found := at(e.inst.value, p); found {
		return v, true
	}
	if p != nil && p.baseBelow() {
		return Generic(x), true // a value validated below a root of its own
	}
	return nil, false
}

// AsSent returns the value at p in the arguments as sent, for the
// embedded validator, when x, a value of no declared type the decoder
// read there with float64 numbers, stands for it: the same value but for
// integers beyond ±2^53, which the arguments hold exactly
// (9007199254740993 is not judged as 9007199254740992). Otherwise it
// returns x: no arguments at hand, nothing at p, or another value there
// (a union's branch that the value did not set is nil, and the arguments
// hold what another branch read).
func (e *Errors) AsSent(p *Path, x any) any {
	if e.args == nil {
		return x
	}
	if v, ok := e.Instance(p, x); ok && sameRead(v, x) {
		return v
	}
	return x
}

// sameRead reports whether sent, a value Instance returned, is x read
// with float64 numbers: equal but that an integer of sent may be an
// int64 where x holds the nearest float64.
func sameRead(sent, x any) bool {
	switch s := sent.(type) {
	case int64:
		f, ok := x.(float64)
		return ok && float64(s) == f
	case []any:
		a, ok := x.([]any)
		if !ok || len(a) != len(s) {
			return false
		}
		for i := range s {
			if !sameRead(s[i], a[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		m, ok := x.(map[string]any)
		if !ok || len(m) != len(s) {
			return false
		}
		for k, v := range s {
			w, ok := m[k]
			if !ok || !sameRead(v, w) {
				return false
			}
		}
		return true
	}
	// nil, bool, float64 or string: comparable, and of another dynamic
	// type than x's when x is a slice or map, so == does not panic.
	return sent == x
}

// baseBelow reports whether p starts from a base path (At).
func (p *Path) baseBelow() bool {
	for ; p != nil; p = p.parent {
		if p.kind == pathBase {
			return true
		}
	}
	return false
}

// at returns the value at p below root.
func at(root any, p *Path) (any, bool) {
	if p == nil {
		return root, true
	}
	if p.kind == pathBase {
		return nil, false // validated below a root this call did not decode
	}
	v, ok := at(root, p.parent)
	if !ok {
		return nil, false
	}
	switch p.kind {
	case pathKey:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok = m[p.key]
		return v, ok
	case pathIndex:
		a, ok := v.([]any)
		if !ok || p.index < 0 || p.index >= len(a) {
			return nil, false
		}
		return a[p.index], true
	}
	return nil, false
}
