package runtime

import (
	"errors"
	"fmt"
	"strconv"
)

// CheckName reports whether name is accepted by model providers as a tool
// name: ^[a-zA-Z0-9_-]{1,64}$.
func CheckName(name string) error {
	if name == "" {
		return errors.New("name is empty")
	}
	if len(name) > 64 {
		return fmt.Errorf("name is %d bytes long, at most 64 are allowed", len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("name has %q at byte %d; only letters, digits, '_' and '-' are allowed", c, i)
		}
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

func quote(s string) string { return strconv.Quote(s) }
