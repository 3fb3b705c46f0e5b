package collisions_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/collisions"
)

// Colliding property names get the same Go names whatever their order in
// the schema: tool a-b lists a_b, aB, AB and tool A_B lists them reversed,
// and in both AB reads "AB", AB2 reads "aB" and AB3 reads "a_b".
func TestCollidingPropertiesReadTheirOwnKeys(t *testing.T) {
	args := []byte(`{"a_b":"snake","aB":"camel","AB":"upper"}`)
	for _, tool := range []string{"a-b", "A_B"} {
		v, err := collisions.DecodeArgs(tool, args)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var ab, ab2, ab3 *string
		switch p := v.(type) {
		case *collisions.AB2Params:
			ab, ab2, ab3 = p.AB, p.AB2, p.AB3
		case *collisions.ABParams:
			ab, ab2, ab3 = p.AB, p.AB2, p.AB3
		default:
			t.Fatalf("%s: decoded %T", tool, v)
		}
		if ab == nil || *ab != "upper" || ab2 == nil || *ab2 != "camel" || ab3 == nil || *ab3 != "snake" {
			t.Errorf("%s: AB=%v AB2=%v AB3=%v", tool, deref(ab), deref(ab2), deref(ab3))
		}
	}
}

// Tools whose names collide (get_item, Get_Item) are both callable, each
// with its own params type.
func TestCollidingToolsBothDecode(t *testing.T) {
	if _, err := collisions.DecodeArgs("get_item", []byte(`{"id":"x"}`)); err != nil {
		t.Errorf("get_item: %v", err)
	}
	if _, err := collisions.DecodeArgs("Get_Item", []byte(`{"id":7}`)); err != nil {
		t.Errorf("Get_Item: %v", err)
	}
	if _, err := collisions.DecodeArgs("Get_Item", []byte(`{"id":"x"}`)); err == nil {
		t.Error("Get_Item accepted a string id")
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
