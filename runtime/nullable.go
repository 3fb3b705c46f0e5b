package runtime

import (
	"bytes"
	"encoding/json"
)

// Nullable is an optional, nullable value that tells the three states a
// schema allows apart: absent (the zero Nullable), null, and a value. Update
// handlers rely on it: absent means "leave unchanged", null means "clear".
type Nullable[T any] struct {
	value T
	set   bool
	null  bool
}

// Value returns a Nullable holding v.
func Value[T any](v T) Nullable[T] { return Nullable[T]{value: v, set: true} }

// Null returns a Nullable holding null.
func Null[T any]() Nullable[T] { return Nullable[T]{set: true, null: true} }

// IsSet reports whether the field was present (null or a value).
func (n Nullable[T]) IsSet() bool { return n.set }

// IsNull reports whether the field was present and null.
func (n Nullable[T]) IsNull() bool { return n.set && n.null }

// Get returns the value and whether there is one (present and not null).
func (n Nullable[T]) Get() (T, bool) { return n.value, n.set && !n.null }

// IsZero reports absence, so that `json:",omitzero"` omits absent fields.
func (n Nullable[T]) IsZero() bool { return !n.set }

// MarshalJSON encodes null or the value; absent fields are omitted by the
// omitzero tag option.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.set || n.null {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON decodes null or a value and marks the field present.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		n.value, n.null = zero, true
		return nil
	}
	n.null = false
	return json.Unmarshal(b, &n.value)
}
