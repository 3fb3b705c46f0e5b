package schema

import (
	"bytes"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// Names the taxonomy files still use from before the split; they go when
// the taxonomy moves to its own package.
type (
	Error     = jsonpos.Error
	ErrorList = jsonpos.ErrorList
)

// Errorf is jsonpos.Errorf.
var Errorf = jsonpos.Errorf

func writeJSONString(b *bytes.Buffer, s string) { jsonpos.WriteString(b, s) }
