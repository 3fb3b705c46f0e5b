package schema

import (
	"strconv"
	"testing"
)

// A delegated schema checked once is not compiled again to know whether
// the embedded validator takes it, though past maxSchemasKept it is no
// longer kept compiled: catalogues repeat their delegated schemas.
func TestDelegatedInvalidCached(t *testing.T) {
	c := &compiler{}
	for i := range maxSchemasKept + 1 {
		if why := c.delegatedInvalid(`{"not":{"const":` + strconv.Itoa(i) + `}}`); why != "" {
			t.Fatalf("schema %d refused: %s", i, why)
		}
	}
	last := `{"not":{"const":` + strconv.Itoa(maxSchemasKept) + `}}`
	if cs, ok := c.schemas[last]; !ok || cs.s != nil {
		t.Fatalf("schema past maxSchemasKept: recorded %v, kept compiled %v", ok, cs.s != nil)
	}
	// A text recorded as taken, but that the validator refuses: answered
	// from the record, it is not compiled again.
	c.schemas[`{"minLength":"x"}`] = compiledSchema{}
	if why := c.delegatedInvalid(`{"minLength":"x"}`); why != "" {
		t.Errorf("compiled again: %s", why)
	}
}
