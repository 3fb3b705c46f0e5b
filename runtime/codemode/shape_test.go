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

// What review found hidden from the first reading, and what it refused
// that compiles in linear time.
func TestSourceShapeReview(t *testing.T) {
	chain := strings.Repeat("+1", 1500)
	longer := []struct{ name, src string }{
		{"quote in a regex", `let q = /"/; let r = 1` + chain + `; let z = /"/;`},
		{"backtick in a regex", "let q = /`/;\nlet r = 1" + chain + "\nlet z = /`/;"},
		{"regex after if", `if (x) /"/.test(s), 1` + chain + `, /"/`},
		{"division after an object literal", "x = {} / 1" + chain + " / 1"},
		{"operators inside a regex", "x = /" + strings.Repeat("a+", 1500) + "/"},
		{"subscript commas", "let a = []; let r = a[0" + strings.Repeat(",0", 1500) + "]"},
		{"destructuring", "let [" + strings.Repeat("a,", 1500) + "b] = []"},
		{"braceless if", "let a = 1; " + strings.Repeat("if (a) ", 1500) + "a;"},
		{"braceless else", "let a = 1; if (a) a; " + strings.Repeat("else ", 1500) + "a;"},
		{"block of an arrow function", "const f = () => {" + strings.Repeat("a,", 1500) + "1}"},
	}
	for _, c := range longer {
		if _, l := sourceShape(c.src); l <= maxExpressionRun {
			t.Errorf("%s: run %d, want over %d", c.name, l, maxExpressionRun)
		}
	}
	shorter := []struct{ name, src string }{
		{"object literal", "const o = {" + strings.Repeat("a: 1, ", 3000) + "b: 2}"},
		{"object literal argument", "f({" + strings.Repeat("a: 1, ", 3000) + "b: 2})"},
		{"array of objects", "const xs = [" + strings.Repeat("{a: 1, b: 2}, ", 3000) + "]"},
		{"regex with brackets", "const re = /[(){}\\[\\]]+/g; return s.replace(re, '')"},
		{"division", "return (a + b) / 2 / c"},
	}
	for _, c := range shorter {
		if d, l := sourceShape(c.src); l > 10 || d > 3 {
			t.Errorf("%s: depth %d, run %d", c.name, d, l)
		}
	}
}
