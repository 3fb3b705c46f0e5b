package codemode_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// BenchmarkScript runs scripts of the kind a model writes: string work
// with regular expressions, array methods and spreads, the paths the
// guards wrap.
func BenchmarkScript(b *testing.B) {
	scripts := []struct{ name, src string }{
		{"regexp", `let n = 0; for (let i = 0; i < 200; i++) { n += "a1-b22-c333-d4444".replace(/[0-9]+/g, "#").split(/-/).length + ("x" + i).match(/\d+/g)!.length } return n`},
		{"replace", `const s = "a1-b22-c333-".repeat(75); let n = 0; for (let i = 0; i < 50; i++) { n += s.replace(/(\d+)/g, "<$1>").length + s.replaceAll("-", "$&$&").length } return n`},
		{"arrays", `const a = Array.from({length: 1000}, (_, i) => i); let n = 0; for (let i = 0; i < 20; i++) { n += Math.max(...a) + a.map(x => x * 2).filter(x => x % 3 === 0).join(",").length + [...a, ...a].length } return n`},
		{"spread", `const a = new Array(50000).fill(0), s = "x".repeat(50000); return [...a].length + [...s].length + Object.keys({...a.slice(0, 2000)}).length + Object.entries(a.slice(0, 2000)).length`},
	}
	for _, s := range scripts {
		b.Run(s.name, func(b *testing.B) {
			m := newModeLimits(b, false, codemode.Limits{})
			b.ReportAllocs()
			for b.Loop() {
				if out, _ := runScript(b, m, s.src); out.Error != nil {
					b.Fatalf("%s: %v", s.name, out.Error)
				}
			}
		})
	}
}
