package templates

import (
	"bytes"
	"embed"
	"text/template"
)

//go:embed family/*.tmpl
var files embed.FS

// Family is the data the family templates render.
type Family struct {
	// Package is the Go package name, also the default group name.
	Package string
}

// FamilyFiles renders the scaffold of a new family and returns file name →
// content (tools.json, toolgen.yaml, README.md).
func FamilyFiles(f Family) (map[string][]byte, error) {
	t, err := template.ParseFS(files, "family/*.tmpl")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, name := range []string{"tools.json", "toolgen.yaml", "README.md"} {
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, name+".tmpl", f); err != nil {
			return nil, err
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}
