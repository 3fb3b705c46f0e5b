package matryoshka

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

func TestDecodeCall(t *testing.T) {
	var r recorder
	f := Facade("f", "F.", r.tools("read_file", "write_file"), Category("read", "read_file"))
	d, _ := Of(f)
	tests := []struct {
		in     string
		want   Call
		fields []runtime.FieldError
	}{
		{``, Call{}, nil},
		{`null`, Call{}, nil},
		{` {} `, Call{}, nil},
		{`{"category":"read"}`, Call{Category: "read"}, nil},
		{`{"category":null,"tool":null,"args":null}`, Call{}, nil},
		{`{"tool":"read_file","args":{"path":"a"}}`, Call{Tool: "read_file", Args: json.RawMessage(`{"path":"a"}`)}, nil},
		{`{"tool":"read_file","category":"nope"}`, Call{Tool: "read_file", Category: "nope"}, nil},
		{`[]`, Call{}, []runtime.FieldError{{Code: "type", Message: "arguments must be a JSON object", Expected: "object", Received: "[]"}}},
		{`{"category":1,"tool":true}`, Call{}, []runtime.FieldError{
			{Path: "/category", Code: "type", Message: "category must be a string", Expected: "string", Received: "1"},
			{Path: "/tool", Code: "type", Message: "tool must be a string", Expected: "string", Received: "true"},
		}},
		{`{"categroy":"read"}`, Call{}, []runtime.FieldError{
			{Path: "/categroy", Code: "additionalProperties", Message: `unknown argument "categroy"; facade arguments are category, tool and args`, Suggestion: "category"},
		}},
		{`{"a/b":1}`, Call{}, []runtime.FieldError{
			{Path: "/a~1b", Code: "additionalProperties", Message: `unknown argument "a/b"; facade arguments are category, tool and args`, Suggestion: "args"},
		}},
		{`{"category":"wrote"}`, Call{}, []runtime.FieldError{
			{Path: "/category", Code: "enum", Message: "unknown category", Expected: `one of ["read"]`, Received: "wrote", Suggestion: "read"},
		}},
		{`{"tool":"read_file","args":[1]}`, Call{}, []runtime.FieldError{
			{Path: "/args", Code: "type", Message: "args must be an object of arguments for tool", Expected: "object", Received: "[1]"},
		}},
		// a repeated member is refused: which tool was meant is unknown
		{`{"tool":"read_file","tool":"write_file","args":{"path":"a"}}`, Call{}, []runtime.FieldError{
			{Path: "/tool", Code: "duplicate", Message: "member sent twice"},
		}},
		{`{"args":{}}`, Call{}, []runtime.FieldError{
			{Path: "/tool", Code: "required", Message: "args given without tool; name the tool to run"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := d.decode(json.RawMessage(tt.in))
			if tt.fields != nil {
				var ve *runtime.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("err = %v, want a ValidationError", err)
				}
				if diff := cmp.Diff(tt.fields, ve.Fields); diff != "" {
					t.Errorf("fields (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Facade = d
			if diff := cmp.Diff(&tt.want, got, cmp.Comparer(func(a, b *FacadeDef) bool { return a == b })); diff != "" {
				t.Errorf("call (-want +got):\n%s", diff)
			}
		})
	}

	uncategorised, _ := Of(Facade("g", "G.", r.tools("a")))
	_, err := uncategorised.decode(json.RawMessage(`{"category":"x"}`))
	if err == nil || err.Error() != `invalid arguments for g: /category: this facade has no categories; omit category` {
		t.Errorf("err = %v", err)
	}
}

func FuzzFacadeArgs(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `{"category":"read"}`, `{"tool":"a","args":{"x":1}}`, `{"tool":"a","args":"{\"x\":1}"}`, `{"tool":"zz"}`, `[`, `{"args":"[}"}`} {
		f.Add([]byte(s))
	}
	var r recorder
	tool := Facade("f", "F.", r.tools("a", "b"), Category("read", "a"))
	d, _ := Of(tool)
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := d.decode(in)
		if (c == nil) == (err == nil) {
			t.Fatalf("decode(%q) = %v, %v", in, c, err)
		}
		if c != nil && c.Args != nil && !json.Valid(c.Args) {
			t.Fatalf("decode(%q) args not JSON: %q", in, c.Args)
		}
		res, perr := runtime.Dispatch(t.Context(), tool, runtime.ToolContext{}, in)
		if perr != nil {
			t.Fatalf("Dispatch(%q) propagated %v", in, perr)
		}
		_ = runtime.RenderResult(res)
	})
}

func FuzzUsageLine(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{"properties":{"x":{"type":"array","items":{"type":"array","items":{}}}}}`, `{"properties":{"e":{"enum":[1,null]}}}`, `{"properties":{`, `7`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		line := UsageLine(runtime.Tool{Name: "t", Parameters: schema})
		if len(line) < 3 || line[:2] != "t(" || line[len(line)-1] != ')' {
			t.Fatalf("UsageLine(%q) = %q", schema, line)
		}
	})
}

// TestDecodeCallStrict: what encoding/json would decode with a loss is
// refused with text.StrictProblem's one field error, the gateway's codes
// and its pointer into the facade's arguments, args included, before any
// other check.
func TestDecodeCallStrict(t *testing.T) {
	var r recorder
	d, _ := Of(Facade("f", "F.", r.tools("read_file", "write_file"), Category("read", "read_file")))
	dup := func(path string) []runtime.FieldError {
		return []runtime.FieldError{{Path: path, Code: text.CodeDuplicate, Message: text.DuplicateMessage}}
	}
	enc := func(path string, bad int) []runtime.FieldError {
		return []runtime.FieldError{{Path: path, Code: text.CodeEncoding, Message: text.EncodingMessage(bad)}}
	}
	tests := []struct {
		name, in string
		want     []runtime.FieldError
	}{
		{"repeated tool", `{"tool":"read_file","tool":"write_file"}`, dup("/tool")},
		{"repeated tool escaped", `{"tool":"read_file","to\u006fl":"write_file"}`, dup("/tool")},
		{"repeated category", `{"category":"read","category":"read"}`, dup("/category")},
		{"repeated args", `{"tool":"read_file","args":{},"args":{"id":"a"}}`, dup("/args")},
		{"repeated in args", `{"tool":"read_file","args":{"id":"a","id":"b"}}`, dup("/args/id")},
		{"repeated deep in args", `{"tool":"read_file","args":{"id":"a","o":[{"x":1},{"x":1,"x":2}]}}`, dup("/args/o/1/x")},
		{"repeated unknown", `{"tool":"read_file","x":1,"x":2}`, dup("/x")},
		{"lone surrogate in tool", `{"tool":"\ud800"}`, enc("/tool", 1)},
		{"reversed surrogates in tool", `{"tool":"read\udc00\ud800"}`, enc("/tool", 5)},
		{"invalid UTF-8 in category", "{\"category\":\"re\xffad\"}", enc("/category", 3)},
		{"invalid UTF-8 in args", "{\"tool\":\"read_file\",\"args\":{\"id\":\"\xc3\"}}", enc("/args/id", 1)},
		{"lone surrogate in a key", `{"tool":"read_file","\udfff":1}`, enc("/\ufffd", 1)},
		{"lone surrogate in string args", `{"tool":"read_file","args":"{\"id\":\"\ud800\"}"}`, enc("/args", 11)},
		{"repeated in string args", `{"tool":"read_file","args":"{\"id\":\"a\",\"o\":{\"id\":1,\"id\":2}}"}`, dup("/args/o/id")},
		// the first problem in text order
		{"first of two", "{\"category\":\"\xff\",\"tool\":\"a\",\"tool\":\"b\"}", enc("/category", 1)},
		{"first of two, duplicate first", "{\"tool\":\"a\",\"tool\":\"\xff\"}", dup("/tool")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := d.decode(json.RawMessage(tt.in))
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("decode = %+v, %v; want a ValidationError", c, err)
			}
			if ve.Tool != "f" {
				t.Errorf("tool = %q, want f", ve.Tool)
			}
			if diff := cmp.Diff(tt.want, ve.Fields); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFacadeStrictNotRun: a shortcut call with a repeated member or
// invalid Unicode, at any depth, fails without running the inner tool
// (whose handler here reads args as they come).
func TestFacadeStrictNotRun(t *testing.T) {
	for name, args := range map[string]string{
		"repeated tool":    `{"tool":"alpha","tool":"beta","args":{"id":"a"}}`,
		"repeated in args": `{"tool":"alpha","args":{"id":"a","id":"b"}}`,
		"surrogate":        `{"tool":"alpha","args":{"id":"\ud800"}}`,
		"invalid UTF-8":    "{\"tool\":\"alpha\",\"args\":{\"id\":\"\xfe\"}}",
		// args double encoded, as some models send them: the same holds
		// inside the string (a repeated member reached the tool).
		"repeated in string args":      `{"tool":"alpha","args":"{\"id\":\"a\",\"id\":\"b\"}"}`,
		"repeated deep in string args": `{"tool":"alpha","args":" {\"o\":[{\"x\":1,\"\\u0078\":2}]}"}`,
	} {
		t.Run(name, func(t *testing.T) {
			var r recorder
			tool := Facade("f", "F.", r.tools("alpha", "beta"))
			res, err := runtime.Dispatch(t.Context(), tool, runtime.ToolContext{}, []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			if res.Success || len(r.calls) != 0 {
				t.Fatalf("success %v, calls %q: %s", res.Success, r.calls, runtime.RenderResult(res))
			}
			var ve *runtime.ValidationError
			if !errors.As(res.Err, &ve) || len(ve.Fields) != 1 {
				t.Fatalf("err = %v, want one field error", res.Err)
			}
			if code := ve.Fields[0].Code; code != text.CodeDuplicate && code != text.CodeEncoding {
				t.Errorf("code = %q", code)
			}
		})
	}
}
