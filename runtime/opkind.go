package runtime

// OpKind says what calling an op does to the world: OpRead only looks,
// OpWrite may change something. The taxonomy decides it per op (from the
// verb, the description or the manifest), the IR carries it, generated
// registries declare it, and the gateway refuses writes unless they are
// allowed.
type OpKind string

// Op kinds.
const (
	OpRead  OpKind = "read"
	OpWrite OpKind = "write"
)
