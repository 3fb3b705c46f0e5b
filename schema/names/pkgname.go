package names

import (
	"fmt"
	"go/token"
	"strconv"
)

// CheckPackageName returns why name cannot be a generated package's name,
// or "". The manifest's package:, the -p flag and generator.Generate all
// apply this one rule: ASCII letters, digits and '_', not starting with a
// digit, not a Go keyword and not "_" (the blank identifier cannot name
// a package).
func CheckPackageName(name string) string {
	q := strconv.Quote(name)
	switch {
	case name == "":
		return "the name is empty"
	case !asciiIdent(name):
		return fmt.Sprintf("%s is not a Go identifier of ASCII letters, digits and '_' (not starting with a digit)", q)
	case token.IsKeyword(name):
		return fmt.Sprintf("%s is a Go keyword", q)
	case name == "_":
		return `"_" cannot name a package`
	}
	return ""
}

func asciiIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
