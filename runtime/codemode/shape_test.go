package codemode

import (
	"strings"
	"testing"
)

// sourceShape counts what makes the transform and the compiler slow, and
// not what ordinary scripts are made of.
func TestSourceShape(t *testing.T) {
	tests := []struct {
		name          string
		src           string
		depth, length int
	}{
		{"empty", "", 0, 0},
		{"statements", "const a = 1 + 2 * 3;\nconst b = a - 1;\nreturn a + b", 0, 3},
		{"no semicolons", strings.Repeat("x = x + 1\n", 2000), 0, 2},
		{"continued lines", "return 1\n  + 2\n  + 3", 0, 2},
		{"operator at line end", "return 1 +\n 2 +\n 3", 0, 2},
		{"array elements", "return [" + strings.Repeat("1+1,", 3000) + "1]", 1, 1},
		{"call arguments", "f(1, 2, 3)", 1, 2},
		{"sequence", "(a, b, c, d)", 1, 3},
		{"brackets", "a[(b + {c: [1]}.c[0])]", 4, 1},
		{"strings and comments hide", "'(((' + \"[[[\" // (((\n/* [[[ */ + 1", 0, 2},
		{"template text hides", "`((( ${a + b} [[[`", 1, 1},
		{"template code counts", "`${`${((1))}`}`", 4, 0},
		{"escaped backtick", "`\\`(((` + 1", 0, 1},
		{"arrow and comparison", "xs.filter((x) => x.a !== 1 && x.b >= 2)", 2, 4},
		{"unbalanced close", ")))a+b", 0, 1},
		{"not", "if (!a && !!b) x = ~c", 1, 4},
		{"not equal", "a !== b", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d, l := sourceShape(tt.src); d != tt.depth || l != tt.length {
				t.Errorf("sourceShape = %d, %d; want %d, %d", d, l, tt.depth, tt.length)
			}
		})
	}
}
