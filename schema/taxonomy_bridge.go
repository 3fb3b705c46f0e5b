package schema

import (
	"bytes"
	"slices"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/manifest"
)

// Names the taxonomy files still use from before the split; they go when
// the taxonomy moves to its own package.
type (
	Error      = jsonpos.Error
	ErrorList  = jsonpos.ErrorList
	Manifest   = manifest.Manifest
	ManifestOp = manifest.Op
	Override   = manifest.Override
)

// Errorf is jsonpos.Errorf.
var Errorf = jsonpos.Errorf

// LoadManifest is manifest.Load.
var LoadManifest = manifest.Load

func writeJSONString(b *bytes.Buffer, s string) { jsonpos.WriteString(b, s) }

func mfContains(list []string, s string) bool { return slices.Contains(list, s) }

func mfClosest(s string, candidates []string) string { return text.Closest(s, candidates) }
