package schema

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSmokeCorpusTools(t *testing.T) {
	dir := filepath.Join(loadCorpusDir(t), "tools")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.tools.json"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		doc, err := Load([]Input{{Name: filepath.Base(f), Data: data}}, LoadOptions{})
		if err != nil {
			t.Logf("%s: load: %v", f, err)
			continue
		}
		fam, err := Compile(doc, CompileOptions{Package: "p"})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if filepath.Base(f) == "server-everything.tools.json" || filepath.Base(f) == "server-filesystem.tools.json" {
			t.Log(dumpFamily(fam))
		}
	}
}
