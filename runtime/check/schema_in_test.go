package check

import "testing"

// TestSchemaInDynamicScope: a $dynamicRef in a referenced document
// resolves to the outermost $dynamicAnchor of the dynamic scope, which
// starts at the schema MustSchemaIn compiles.
func TestSchemaInDynamicScope(t *testing.T) {
	docs := map[string]string{
		"https://x.test/list": `{"$id":"https://x.test/list","type":"array",` +
			`"items":{"$dynamicRef":"#item"},"$defs":{"item":{"$dynamicAnchor":"item"}}}`,
		"https://x.test/strings": `{"$id":"https://x.test/strings","$ref":"list","$defs":{"s":{"$dynamicAnchor":"item","type":"string"}}}`,
	}
	s := MustSchemaIn(`{"$ref":"https://x.test/strings#"}`, docs)
	if errs := s.Validate(generic(t, `["a","b"]`), ""); errs != nil {
		t.Errorf("strings: %v", errs)
	}
	errs := s.Validate(generic(t, `["a",1]`), "")
	if len(errs) != 1 || errs[0].Path != "/1" || errs[0].Code != "type" {
		t.Errorf("a number in the string list: %+v", errs)
	}
	// Entered at the list, the scope has no string anchor.
	if errs := MustSchemaIn(`{"$ref":"https://x.test/list#"}`, docs).Validate(generic(t, `["a",1]`), ""); errs != nil {
		t.Errorf("list: %v", errs)
	}
}

// TestSchemaInFileName: a reference to an unknown URI resolves by file
// name when exactly one document has it.
func TestSchemaInFileName(t *testing.T) {
	s := MustSchemaIn(`{"$ref":"file:///a/b.json#/$defs/n"}`, map[string]string{
		"file:///c/b.json": `{"$defs":{"n":{"type":"integer"}}}`,
	})
	if errs := s.Validate(generic(t, `"x"`), ""); len(errs) != 1 {
		t.Errorf("got %v, want one type error", errs)
	}
	if _, err := CompileSchemaIn(`{"$ref":"file:///a/z.json"}`, map[string]string{"file:///c/b.json": `{}`}); err == nil {
		t.Error("a reference to an unknown document compiled")
	}
}
