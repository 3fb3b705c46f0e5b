package deep_test

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/deep"
)

// Arguments as deep as the schema decode and validate; one level too deep
// is a validation error, not a panic.
func TestDeepArguments(t *testing.T) {
	arrays := strings.Repeat("[", 60) + `"leaf"` + strings.Repeat("]", 60)
	if _, err := deep.DecodeArgs("get_deep", []byte(`{"arrays":`+arrays+`,"unions":7,"refs":{"a":"x"}}`)); err != nil {
		t.Fatalf("valid arguments: %v", err)
	}
	tooDeep := strings.Repeat("[", 61) + `"leaf"` + strings.Repeat("]", 61)
	if _, err := deep.DecodeArgs("get_deep", []byte(`{"arrays":`+tooDeep+`}`)); err == nil {
		t.Fatal("61 levels of arrays accepted")
	}
	if _, err := deep.DecodeArgs("get_deep", []byte(`{"unions":true}`)); err == nil {
		t.Fatal("a boolean accepted by string|integer unions")
	}
}
