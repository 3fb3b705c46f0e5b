package gatewaytest_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	toolruntime "github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway/gatewaytest"
)

// fakeTB records failures; Fatalf ends the calling goroutine like
// testing.T's does.
type fakeTB struct {
	testing.TB
	errs  []string
	fatal bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
	f.fatal = true
	runtime.Goexit()
}

// check runs fn with a fakeTB in its own goroutine and returns what it
// reported.
func check(fn func(tb testing.TB)) (errs []string, fatal bool) {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.errs, f.fatal
}

const (
	okEnv   = `{"op":"todo.list","ok":true,"result":[{"id":"td_1"}],"meta":{"trace_id":"tr_1","latency_ms":0,"warnings":[]}}`
	failEnv = `{"op":"todo.create","ok":false,"error":{"code":"VALIDATION_ERROR","message":"todo.create needs title","details":{"field_errors":[],"required":["title"]},"help_path":"todo.create"},"meta":{"trace_id":"tr_2","latency_ms":0,"warnings":[]}}`
)

func TestExpect(t *testing.T) {
	tests := []struct {
		name  string
		fn    func(tb testing.TB)
		errs  []string
		fatal bool
	}{
		{"ok", func(tb testing.TB) { gatewaytest.ExpectOK(tb, okEnv, "todo.list", `"id":"td_1"`) }, nil, false},
		{"ok lacks", func(tb testing.TB) { gatewaytest.ExpectOK(tb, okEnv, "todo.list", "td_2") },
			[]string{`todo.list result lacks "td_2": [{"id":"td_1"}]`}, false},
		{"ok of another op", func(tb testing.TB) { gatewaytest.ExpectOK(tb, okEnv, "todo.get") },
			[]string{"want ok envelope of todo.get, got ok=true op=todo.list error=<nil>"}, false},
		{"ok but failed", func(tb testing.TB) { gatewaytest.ExpectOK(tb, failEnv, "todo.create") },
			[]string{"want ok envelope of todo.create, got ok=false op=todo.create error=&{Code:VALIDATION_ERROR Message:todo.create needs title Details:{FieldErrors:[] Required:[title] Example:[] DidYouMean:[] Next:[] Repeated:0 More:0 Handler:map[]} HelpPath:todo.create}"}, false},
		{"not an envelope", func(tb testing.TB) { gatewaytest.ExpectOK(tb, "0 open items", "todo.list") },
			[]string{"answer is not an envelope: invalid character 'o' after top-level value\n0 open items"}, true},
		{"fail", func(tb testing.TB) {
			if e := gatewaytest.ExpectFail(tb, failEnv, "todo.create", toolruntime.CodeValidation); e.Message != "todo.create needs title" {
				tb.Errorf("message %q", e.Message)
			}
		}, nil, false},
		{"fail with another code", func(tb testing.TB) { gatewaytest.ExpectFail(tb, failEnv, "todo.create", toolruntime.CodeNotFound) },
			[]string{`todo.create: code VALIDATION_ERROR help_path "todo.create", want NOT_FOUND and "todo.create"`}, false},
		{"fail but ok", func(tb testing.TB) { gatewaytest.ExpectFail(tb, okEnv, "todo.list", toolruntime.CodeNotFound) },
			[]string{"want failed envelope of todo.list, got ok=true op=todo.list error=<nil>"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, fatal := check(tt.fn)
			if strings.Join(errs, "|") != strings.Join(tt.errs, "|") || fatal != tt.fatal {
				t.Errorf("reported %q (fatal %v)\nwant     %q (fatal %v)", errs, fatal, tt.errs, tt.fatal)
			}
		})
	}
}
