package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A line the SDK cannot take is answered with a JSON-RPC error and the
// session goes on: each bad line below is followed by a ping that must be
// answered. Before, the SDK's stdio transport stopped at the first such
// line and the server exited.
func TestLineTransportSurvivesBadLines(t *testing.T) {
	cases := []struct {
		name, line string
		id         string // the error answer's id, as JSON
		code       int64
		msg        string
	}{
		{"not json", "this is not json", "null", jsonrpc.CodeParseError, "parse error: the line is not JSON"},
		{"truncated", `{"jsonrpc":"2.0","id":1,`, "null", jsonrpc.CodeParseError, "parse error"},
		{"empty object", "{}", "null", jsonrpc.CodeInvalidRequest, `"jsonrpc" must be "2.0"`},
		{"number", "1", "null", jsonrpc.CodeInvalidRequest, "a message is a JSON object"},
		{"null", "null", "null", jsonrpc.CodeInvalidRequest, "a message is a JSON object"},
		{"string", `"x"`, "null", jsonrpc.CodeInvalidRequest, "a message is a JSON object"},
		{"empty batch", "[]", "null", jsonrpc.CodeInvalidRequest, "empty batch"},
		{"no method, no id", `{"jsonrpc":"2.0"}`, "null", jsonrpc.CodeInvalidRequest, `a request needs a "method"`},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `"id" must be a string or an integer`},
		// the SDK took any number and answered 1.5 as 1, another request's id
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `"id" must be a string or an integer`},
		{"id past 64 bits", `{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `"id" must be a string or an integer`},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `"id" must be a string or an integer`},
		{"id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `at most 2^53`},
		// names are exact, as the SDK reads them: "Id" does not stand for "id"
		{"id beside Id", `{"jsonrpc":"2.0","id":1.5,"Id":1,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `at most 2^53`},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `given twice`},
		{"null id beside ID", `{"jsonrpc":"2.0","id":null,"ID":7,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `not null`},
		// and a request with a null id as a notification, unanswered
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", jsonrpc.CodeInvalidRequest, `not null`},
		{"old version", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, "3", jsonrpc.CodeInvalidRequest, `"jsonrpc" must be "2.0"`},
		{"no version", `{"id":"s4","method":"ping"}`, `"s4"`, jsonrpc.CodeInvalidRequest, `"jsonrpc" must be "2.0"`},
		{"method not a string", `{"jsonrpc":"2.0","id":7,"method":5}`, "7", jsonrpc.CodeInvalidRequest, `"method" must be a string`},
		{"batch before initialize", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, "null", jsonrpc.CodeInvalidRequest, "batches are taken only"},
		{"nesting past the SDK's limit", `[{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":` + strings.Repeat("[", 998) + strings.Repeat("]", 998) + `}}]`, "null", jsonrpc.CodeInvalidRequest, "nests 1001 deep"},
		// the id of a message nested too deep is answered when it reads
		{"message nested past the limit", `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}}`, "6", jsonrpc.CodeInvalidRequest, "nests 1001 deep"},
		{"long version quoted short", `{"jsonrpc":"` + strings.Repeat("v", 5000) + `","id":8,"method":"ping"}`, "8", jsonrpc.CodeInvalidRequest, `"jsonrpc" must be "2.0"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			answers := exchange(t, c.line+"\n"+`{"jsonrpc":"2.0","id":99,"method":"ping"}`+"\n", MaxLineLength, 2)
			if len(answers) != 2 {
				t.Fatalf("answers %q, want an error and the ping's result", answers)
			}
			var e struct {
				ID    json.RawMessage
				Error struct {
					Code    int64
					Message string
				}
			}
			if err := json.Unmarshal([]byte(answers[0]), &e); err != nil {
				t.Fatal(err)
			}
			if string(e.ID) != c.id || e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.msg) || len(e.Error.Message) > maxAnswerText {
				t.Errorf("answer %s, want id %s, code %d, a message with %q", answers[0], c.id, c.code, c.msg)
			}
			if answers[1] != `{"jsonrpc":"2.0","id":99,"result":{}}` {
				t.Errorf("after the bad line: %s", answers[1])
			}
		})
	}
}

// Blank lines are skipped, spaces after a message and CRLF endings are
// dropped (the SDK ended the session on a space there), batches pass in a
// protocol version that has them, and a line over the limit is answered
// and skipped to its end.
func TestLineTransportLines(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
		"\n  \r\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + " \t\r\n" +
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 500) + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n"
	got := exchange(t, in, 400, 5)
	got = slices.DeleteFunc(got, func(l string) bool { return strings.Contains(l, `"id":0`) }) // initialize's answer
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","id":2,"result":{}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message longer than 400 bytes"}}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
	}
	// Answers to different requests come in any order.
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// exchange runs a server on the guarded transport, writes input as the
// client and returns the first n lines the server writes, in order; then
// the client's side closes and the server must stop.
func exchange(t *testing.T, input string, max, n int) []string {
	t.Helper()
	server, err := NewServer("t", "v0", nil)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := NewLineTransport(inR, outW).(*mcp.IOTransport)
	tr.Reader.(*lineGuard).max = max
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, tr)
		_ = outW.Close()
	}()
	go func() { _, _ = io.WriteString(inW, input) }()
	var lines []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for len(lines) < n && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	_ = inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the server did not stop when its input closed")
	}
	return lines
}

// FuzzCheckMessage: whatever line the guard passes on, the SDK decodes (a
// batch's items one by one); nothing panics.
func FuzzCheckMessage(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[]`, `null`, `{"jsonrpc":"2.0","id":1.5,"result":{}}`,
		`[{"jsonrpc":"2.0","method":"x"}]`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, ` {"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m"}} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return
		}
		_, _, code, msg := checkMessage(line)
		if code != 0 {
			if msg == "" {
				t.Fatal("an error answer without a message")
			}
			return
		}
		if isBatch(bytes.TrimSpace(line)) {
			// A batch is handed over a message at a time.
			g := &lineGuard{out: newLockedWriter(discard{})}
			g.splitBatch(line)
			for _, m := range g.queue {
				if bytes.Count(m, []byte("\n")) != 1 || isBatch(m) {
					t.Fatalf("batch item handed over as %q", m)
				}
				if _, err := jsonrpc.DecodeMessage(m); err != nil {
					t.Fatalf("batch item passed that the SDK refuses: %v", err)
				}
			}
			return
		}
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			t.Fatalf("line passed that the SDK refuses: %v", err)
		}
	})
}

// A batch (protocol versions before 2025-06-18) is answered with one
// array, an answer per request in the batch's order, whatever its items:
// the SDK's own batch handling ended the session on a repeated id and on
// two notifications, and one bad item cost the others their answers.
// Each batch is followed by a ping that must be answered.
func TestLineTransportBatches(t *testing.T) {
	const (
		initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
		notify     = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
		ping99     = `{"jsonrpc":"2.0","id":99,"result":{}}`
	)
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	pong := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":{}}` }
	cases := []struct {
		name, batch string
		answer      string // "" when the batch has no answer
	}{
		{"two notifications", `[` + notify + `,` + notify + `]`, ""},
		{"a notification and a request", `[` + notify + `,` + ping("1") + `]`, `[` + pong("1") + `]`},
		{"requests", `[` + ping("1") + `,` + notify + `,` + ping(`"a"`) + `,` + ping("2") + `]`, `[` + pong("1") + `,` + pong(`"a"`) + `,` + pong("2") + `]`},
		{"a repeated id", `[` + ping("1") + `,` + ping("1") + `]`,
			`[` + pong("1") + `,{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: batch item 1: id 1 is in use by a request not answered yet; give each request its own id"}}]`},
		{"ids alike but of two types", `[` + ping("1") + `,` + ping(`"1"`) + `]`, `[` + pong("1") + `,` + pong(`"1"`) + `]`},
		{"a bad item", `[` + ping("1") + `,2,{"jsonrpc":"1.0","id":3,"method":"ping"}]`,
			`[` + pong("1") + `,{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batch item 1: a message is a JSON object (or a non-empty array of them)"}},{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: batch item 2: \"jsonrpc\" must be \"2.0\""}}]`},
		{"bad items alone", `[null]`, `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batch item 0: a message is a JSON object (or a non-empty array of them)"}}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := []string{ping99}
			if c.answer != "" {
				want = append(want, c.answer)
			}
			got := exchange(t, initialize+"\n"+c.batch+"\n"+ping("99")+"\n", MaxLineLength, 1+len(want))
			// Answers come in the order they are ready: the guard's own
			// may precede initialize's.
			got = slices.DeleteFunc(got, func(l string) bool { return strings.HasPrefix(l, `{"jsonrpc":"2.0","id":0,`) })
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// A client on 2025-06-18 or later gets an error for a batch, and the
// session goes on: the SDK ended it.
func TestLineTransportBatchAfterNewProtocol(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	got := exchange(t, in, MaxLineLength, 3)
	joined := strings.Join(got, "\n")
	if len(got) != 3 || !strings.Contains(joined, "batches are taken only") || !slices.Contains(got, `{"jsonrpc":"2.0","id":2,"result":{}}`) {
		t.Errorf("answers:\n%s", strings.Join(got, "\n"))
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Close() error                { return nil }

// A request whose id is that of a request not answered yet is refused,
// on a line of its own or in a batch: its answer would have been taken for
// the other's (a batch reusing the id of a running tool call got that
// call's answer in its array, and the call none). A cancelled request is
// not answered (its batch is answered without it), and its id stays taken
// until the SDK is done with it: the SDK answers it anyway, and a request
// reusing the id before then got that answer.
func TestLineTransportIDsInFlight(t *testing.T) {
	var out bytes.Buffer
	w := newLockedWriter(nopWriteCloser{&out})
	lines := []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`,
	}
	handed := guardRead(t, w, lines...)
	want := []string{lines[0], `{"jsonrpc":"2.0","id":8,"method":"ping"}`, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, lines[3], lines[5], lines[6]}
	if !slices.Equal(handed, want) {
		t.Errorf("handed over:\n%s\nwant:\n%s", strings.Join(handed, "\n"), strings.Join(want, "\n"))
	}
	inUse := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"invalid request: id ` + id + ` is in use by a request not answered yet; give each request its own id"}}`
	}
	if got := out.String(); got != inUse("7")+"\n"+inUse("9")+"\n" {
		t.Errorf("answered before the SDK:\n%s", got)
	}
	out.Reset()
	// The SDK answers the call, the batch's items (its third was
	// cancelled) and the cancelled call 6.
	for _, id := range []string{"7", "8", "9", "6"} {
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"))
	}
	want = []string{
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`[{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: batch item 0: id 7 is in use by a request not answered yet; give each request its own id"}},{"jsonrpc":"2.0","id":8,"result":{}}]`,
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("written:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(w.inFlight) != 0 {
		t.Errorf("ids still in flight: %v", w.inFlight)
	}
	// Answered, the ids are free again.
	if got := guardRead(t, w, lines[4]); !slices.Equal(got, []string{lines[4]}) {
		t.Errorf("handed over: %q", got)
	}
}

// guardRead passes lines through a line guard writing to w and returns
// the lines it handed over. The guard passes the end of the input on at
// once, without waiting for the answers (see lineGuard.drain).
func guardRead(t *testing.T, w *lockedWriter, lines ...string) []string {
	t.Helper()
	g := &lineGuard{in: bufio.NewReader(strings.NewReader(strings.Join(lines, "\n") + "\n")), out: w, max: MaxLineLength, batches: true, drained: true}
	handed, err := io.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(handed), "\n"), "\n")
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// A batch that cancels one of its own requests is answered without it:
// the cancellation was noted before the batch's ids were registered, and
// found nothing to cancel.
func TestLineTransportCancelInBatch(t *testing.T) {
	var out bytes.Buffer
	w := newLockedWriter(nopWriteCloser{&out})
	guardRead(t, w, `[{"jsonrpc":"2.0","id":5,"method":"tools/call"},{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}]`)
	for _, id := range []string{"5", "6"} {
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"))
	}
	if got := out.String(); got != `[{"jsonrpc":"2.0","id":6,"result":{}}]`+"\n" {
		t.Errorf("written:\n%s", got)
	}
}

// After initialize, a request whose method the server does not handle is
// answered with -32601 and its id (the SDK's answer, which HTTPHandler
// gives too: TestHTTPMethodNotFound), such a notification is not
// answered, and a second initialize is refused with -32600 and its id
// (the SDK's error had code 0); the session goes on.
func TestLineTransportMethods(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	in := strings.Join([]string{
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/frobnicate"}`,
		`{"jsonrpc":"2.0","method":"notifications/frobnicate"}`,
		strings.Replace(initialize, `"id":0`, `"id":"again"`, 1),
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`,
	}, "\n") + "\n"
	got := exchange(t, in, MaxLineLength, 4)
	got = slices.DeleteFunc(got, func(l string) bool { return strings.HasPrefix(l, `{"jsonrpc":"2.0","id":0,"result"`) })
	want := []string{
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: \"tools/frobnicate\""}}`,
		`{"jsonrpc":"2.0","id":"again","error":{"code":-32600,"message":"` + alreadyInitialized + `"}}`,
		`{"jsonrpc":"2.0","id":9,"result":{}}`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// answersByID runs exchange and returns the first n answers by their ids
// (as JSON).
func answersByID(t *testing.T, input string, n int) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, line := range exchange(t, input, MaxLineLength, n) {
		var m struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		got[string(m.ID)] = line
	}
	return got
}

// A request before initialize, other than ping, is answered with -32600
// (invalid request), its id and a message saying to initialize first,
// whatever its method: the SDK answered with code 0 and "method "…" is
// invalid during session initialization". That holds until an initialize
// succeeds: one the SDK refused does not count. ping is served, and the
// session goes on.
func TestLineTransportBeforeInitialize(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"two","method":"frobnicate"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"initialize"}`, // no params: refused
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`,
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`,
	}, "\n") + "\n"
	got := answersByID(t, in, 7)
	refused := func(id, method string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"invalid request: \"` + method + `\" before initialize; send initialize first and wait for its answer"}}`
	}
	want := map[string]string{
		"1":     refused("1", "tools/list"),
		`"two"`: refused(`"two"`, "frobnicate"),
		"3":     `{"jsonrpc":"2.0","id":3,"result":{}}`,
		"4":     `{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request: missing required \"params\""}}`,
		"5":     refused("5", "tools/call"),
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("answer to %s:\n %s\nwant\n %s", id, got[id], w)
		}
	}
	if !strings.Contains(got["0"], `"result"`) || !strings.Contains(got["6"], `"result":{`) {
		t.Errorf("after initialize: %s\n%s", got["0"], got["6"])
	}
}

// The SDK refuses on stdio, as JSON-RPC errors with -32600 and their ids,
// a request for a notification method and a request without the params
// its method requires, and ignores a notification of a request method
// and one missing its params. HTTPHandler answers them alike
// (TestHTTPEarlyRefusals), with these messages.
func TestLineTransportEarlyRefusals(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	in := strings.Join([]string{
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress"}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`,
	}, "\n") + "\n"
	got := answersByID(t, in, 4)
	want := map[string]string{
		"7": `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: unexpected id for \"notifications/initialized\""}}`,
		"8": `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"invalid request: missing required \"params\""}}`,
		"9": `{"jsonrpc":"2.0","id":9,"result":{}}`,
	}
	delete(got, "0")
	if !maps.Equal(got, want) {
		t.Errorf("answers %v\nwant %v", got, want)
	}
}
