package generator

import "unicode"

func isLetterOrDigit(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
