package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxNameLen is the longest tool name model providers accept, in bytes.
const MaxNameLen = 64

// NameChars says which bytes a tool name may hold: ASCII ones only (a
// letter such as 'é' or 'ǅ' is refused by model providers).
const NameChars = "only ASCII letters, digits, '_' and '-' are allowed"

// NameError is why model providers reject a tool name. It records both
// faults a name may have, so that each caller words the one it reports
// first (schema's located errors name the characters first, CheckName the
// length).
type NameError struct {
	Name string
	// At is the offset of the first byte outside [a-zA-Z0-9_-], or -1.
	At int
}

func (e *NameError) Error() string {
	switch {
	case e.Name == "":
		return "name is empty"
	case len(e.Name) > MaxNameLen:
		return fmt.Sprintf("name is %d bytes long, at most %d are allowed", len(e.Name), MaxNameLen)
	default:
		// The character, not its first byte: 'ǅ', not 'Ç' (0xC7).
		if r, size := utf8.DecodeRuneInString(e.Name[e.At:]); r != utf8.RuneError || size > 1 {
			return fmt.Sprintf("name has %q at byte %d; %s", r, e.At, NameChars)
		}
		return fmt.Sprintf("name has byte %#x at byte %d; %s", e.Name[e.At], e.At, NameChars)
	}
}

// CheckName reports whether name is accepted by model providers as a tool
// name: ^[a-zA-Z0-9_-]{1,64}$. A rejected name gets a *NameError. It is the
// one copy of the rule: schema checks definitions with it too.
func CheckName(name string) error {
	at := -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			at = i
			break
		}
	}
	if name == "" || len(name) > MaxNameLen || at >= 0 {
		return &NameError{Name: name, At: at}
	}
	return nil
}

// CheckStrictName applies the tool runtime spec's rule for hand-written
// tools: lowercase ASCII letters, digits, '_' or '-', 1–64 characters.
func CheckStrictName(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			return fmt.Errorf("name has uppercase %q at byte %d; hand-written tool names are lowercase", c, i)
		}
	}
	return nil
}

// CheckDescription applies the spec's rule for hand-written tools: 1–200
// ASCII characters.
func CheckDescription(d string) error {
	if d == "" {
		return errors.New("description is empty")
	}
	if len(d) > 200 {
		return fmt.Errorf("description is %d characters long, at most 200 are allowed", len(d))
	}
	for i := 0; i < len(d); i++ {
		if d[i] >= 0x80 {
			return fmt.Errorf("description has a non-ASCII byte at %d", i)
		}
	}
	return nil
}

// FreeName returns the name a builtin tool whose usual name is base takes
// beside tools whose names are taken: base when it is free, else the first
// free one of base_2, base_3, ... It is the one copy of the rule: the
// deferred surface's search tool and a prompt's open_sections take their
// names with it, and schema's warning says the name it picks. base is a
// short valid tool name, so every name it returns is one too.
func FreeName(base string, taken func(string) bool) string {
	name := base
	for n := 2; taken(name); n++ {
		name = base + "_" + strconv.Itoa(n)
	}
	return name
}

func quote(s string) string { return strconv.Quote(s) }
