package prompt

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text/texttest"
)

// FuzzDecodeOpenSections feeds model-written arguments to the decoder: it
// never panics, accepts only what the schema allows, and reports failures
// as *runtime.ValidationError.
func FuzzDecodeOpenSections(f *testing.F) {
	for _, s := range []string{
		`{"section_keys":["context"],"reason":"r"}`, `{}`, ``, `[]`, `null`, `{"section_keys":[],"reason":""}`,
		`{"section_keys":[1,null,"a"],"reason":{}}`, `{"section_keys":"a","reason":"r","x/y~":1}`, `{"section_keys":["a"`,
		`{"section_keys":["nope"],"section_keys":["a"],"reason":"r"}`, "{\"section_keys\":[\"a\"],\"reason\":\"bad\xff\xfe\"}",
		`{"section_keys":["\ud800","a","a"],"reason":"\ud83d\ude42"}`, `{"section_keys":["a"],"reason":"r","x":{"b":1,"b":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		p, err := DecodeOpenSections(args)
		if err != nil {
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("error %T %v is not a validation error with fields", err, err)
			}
			return
		}
		if len(p.SectionKeys) == 0 || utf8.RuneCountInString(p.Reason) > MaxReasonLength {
			t.Fatalf("accepted %q as %+v", args, p)
		}
		if !json.Valid(args) {
			t.Fatalf("accepted invalid JSON %q", args)
		}
		// Accepted arguments are read without a loss: no member twice, no
		// invalid Unicode. Each key is kept once.
		if loss := texttest.Loss(args); loss != "" {
			t.Fatalf("accepted %q: %s", args, loss)
		}
		if repeatedKey(p.SectionKeys) {
			t.Fatalf("accepted %q with a key twice: %q", args, p.SectionKeys)
		}
	})
}

// FuzzOpenSectionsHandler runs arbitrary arguments through Dispatch: the
// result is a failed result or the expansion, never anything else.
func FuzzOpenSectionsHandler(f *testing.F) {
	f.Add([]byte(`{"section_keys":["context.examples"],"reason":"r"}`))
	f.Add([]byte(`{"section_keys":["intro","context"],"reason":"r"}`))
	f.Add([]byte(`{"section_keys":["context","context","context.history"],"reason":"r"}`))
	f.Add([]byte(`{"section_keys":["context"],"section_keys":["context.history"],"reason":"r"}`))
	f.Add([]byte(`{"section_keys":["context","context.examples","context.constraints","context.history","intro","x"],"reason":"r"}`))
	f.Add([]byte("{\"section_keys\":[\"context\"],\"reason\":\"\\udc00\xff\"}"))
	p := nestedPrompt(f)
	r, err := p.Render(nil)
	if err != nil {
		f.Fatal(err)
	}
	tools := r.Tools()
	tool := tools[len(tools)-1]
	f.Fuzz(func(t *testing.T, args []byte) {
		res, err := call(t, tool, nil, string(args))
		var exp *VisibilityExpansionRequired
		switch {
		case errors.As(err, &exp):
			if _, rerr := p.Render(exp.RequestedOverrides); rerr != nil {
				t.Fatalf("requested overrides do not render: %v", rerr)
			}
			if loss := texttest.Loss(args); loss != "" {
				t.Fatalf("opened sections for %q: %s", args, loss)
			}
			// Each key once, and no more keys than sections (five).
			if repeatedKey(exp.SectionKeys) || len(exp.SectionKeys) > 5 {
				t.Fatalf("opened sections for %q with keys %q", args, exp.SectionKeys)
			}
		case err != nil:
			t.Fatalf("unexpected error %v", err)
		case res.Success:
			t.Fatalf("open_sections succeeded for %q", args)
		}
	})
}

func repeatedKey(keys []string) bool {
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// TestHostileOpenSections: many unknown section keys and a huge one get a
// bounded answer (every key's error used to repeat the list of keys).
func TestHostileOpenSections(t *testing.T) {
	p := nestedPrompt(t)
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := r.Tools()
	tool := tools[len(tools)-1]
	keys := make([]string, 50000)
	for i := range keys {
		keys[i] = "nope" + strconv.Itoa(i)
	}
	keys[0] = strings.Repeat("k", 1<<20)
	args, _ := json.Marshal(map[string]any{"section_keys": keys, "reason": "r", strings.Repeat("x", 1<<20): 1})
	res, err := call(t, tool, nil, string(args))
	if err != nil {
		t.Fatal(err)
	}
	if text := runtime.RenderResult(res); res.Success || len(text) > 16<<10 {
		t.Errorf("success %v, %d bytes: %.300s", res.Success, len(text), text)
	}
}
