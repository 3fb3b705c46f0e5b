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
