package gateway

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var hostileHuge = flag.Bool("hostile.huge", false, "BenchmarkHostile: also run the 50 MB cases (about 1 GB of memory)")

// BenchmarkHostile measures the worst cases of issue 8 through tool_exec,
// tool_help and tool_search: huge unknown op paths, help paths, queries and
// argument names, long dotted paths and queries of many distinct words,
// a megabyte of members spread next to op (tool_exec, tool_batch) or
// beside a batch item's own, and a hundred ordinary batch items.
// It reports the answer's size; run it with -benchtime=1x, and
// -hostile.huge for the 50 MB cases:
//
//	go test -run '^$' -bench Hostile -benchtime 1x -benchmem ./runtime/gateway -hostile.huge
func BenchmarkHostile(b *testing.B) {
	huge := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name, tool string
		args       func() string
	}{
		{"exec_op_100KB", ExecTool, func() string { return `{"op":"` + huge(100<<10) + `","args":{}}` }},
		{"exec_op_1MB", ExecTool, func() string { return `{"op":"` + huge(1<<20) + `","args":{}}` }},
		{"exec_op_50MB", ExecTool, func() string { return `{"op":"` + huge(50<<20) + `","args":{}}` }},
		{"exec_key_50MB", ExecTool, func() string { return `{"op":"onto.task.get","args":{"task_id":"t1","` + huge(50<<20) + `":1}}` }},
		{"exec_op_dotted_64KB", ExecTool, func() string { return `{"op":"` + dottedPath(64<<10) + `","args":{}}` }},
		// Arguments spread next to op: about 1 MB of members beside it
		// (within Limits.ArgsBytes), read as the op's arguments.
		{"exec_stray_keys_1MB", ExecTool, func() string { return strayMembers(`{"op":"x.y"`, `"zz%d":1`, 1<<20) }},
		{"exec_stray_escaped_1MB", ExecTool, func() string { return strayMembers(`{"op":"x.y"`, `"\u007a%d":1`, 1<<20) }},
		{"exec_stray_key_1MB", ExecTool, func() string { return `{"op":"x.y","` + huge(1<<20-32) + `":1}` }},
		{"exec_stray_args_1MB", ExecTool, func() string { return strayMembers(`{"op":"util.web.visit","url":"https://x.test"`, `"zz%d":1`, 1<<20) }},
		{"exec_stray_idempotent_1MB", ExecTool, func() string {
			return strayMembers(`{"op":"util.web.visit","idempotency_key":"k1","url":"https://x.test"`, `"zz%d":1`, 1<<20)
		}},
		{"batch_stray_keys_1MB", BatchTool, func() string {
			return `{"items":[` + strayMembers(`{"tool":"exec","op":"util.web.visit","url":"https://x.test"`, `"zz%d":1`, 1<<20-16) + `]}`
		}},
		{"batch_help_stray_1MB", BatchTool, func() string {
			return `{"items":[` + strayMembers(`{"tool":"help","path":"util"`, `"zz%d":1`, 1<<20-16) + `]}`
		}},
		{"batch_10_items", BatchTool, func() string {
			items := make([]string, DefaultBatchLimit)
			for i := range items {
				items[i] = fmt.Sprintf(`{"tool":"exec","op":"util.web.visit","args":{"url":"https://x.test/%d"}}`, i)
			}
			return `{"items":[` + strings.Join(items, ",") + `]}`
		}},
		{"batch_100_items", BatchTool, func() string {
			items := make([]string, 100)
			for i := range items {
				switch i % 4 {
				case 0:
					items[i] = `{"tool":"help","path":"util.web.visit"}`
				case 1:
					items[i] = fmt.Sprintf(`{"tool":"search","query":"visit page %d"}`, i)
				default:
					items[i] = fmt.Sprintf(`{"tool":"exec","op":"util.web.visit","args":{"url":"https://x.test/%d"}}`, i)
				}
			}
			return `{"items":[` + strings.Join(items, ",") + `]}`
		}},
		{"batch_search_stray_1MB", BatchTool, func() string {
			return `{"items":[` + strayMembers(`{"tool":"search","query":"visit a web page"`, `"zz%d":1`, 1<<20-16) + `]}`
		}},
		{"batch_exec_escaped_1MB", BatchTool, func() string {
			return `{"items":[` + strayMembers(`{"tool":"exec","op":"x.y"`, `"\u007a%d":1`, 1<<20-16) + `]}`
		}},
		{"help_stray_1MB", HelpTool, func() string { return strayMembers(`{"path":"util"`, `"zz%d":1`, 1<<20) }},
		{"search_stray_1MB", SearchTool, func() string { return strayMembers(`{"query":"visit a web page"`, `"zz%d":1`, 1<<20) }},
		{"help_path_100KB", HelpTool, func() string { return `{"path":"` + huge(100<<10) + `"}` }},
		{"help_path_dotted_64KB", HelpTool, func() string { return `{"path":"` + dottedPath(64<<10) + `"}` }},
		{"search_query_100KB", SearchTool, func() string { return `{"query":"` + strings.Repeat("task ", 20<<10) + `"}` }},
		{"search_word_100KB", SearchTool, func() string { return `{"query":"` + huge(100<<10) + `"}` }},
		{"search_words_512KB", SearchTool, func() string { return `{"query":"` + randomWords(512<<10) + `"}` }},
		{"search_query_50MB", SearchTool, func() string { return `{"query":"` + huge(50<<20) + `"}` }},
	}
	// Options of a case beside WithWrites(true): a hundred items take a
	// batch limit of a hundred.
	opts := map[string][]Option{"batch_100_items": {WithBatchLimit(100)}}
	// With the size limits lifted the same inputs reach the suggestion
	// and error paths, which must be linear by themselves.
	lifted := WithLimits(Limits{ArgsBytes: 1 << 30, OpBytes: 1 << 30, PathBytes: 1 << 30, KeyBytes: 1 << 30, QueryBytes: 1 << 30})
	for _, c := range cases {
		if strings.HasSuffix(c.name, "50MB") && !*hostileHuge {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			h := newHarness(b, append([]Option{WithWrites(true)}, opts[c.name]...)...)
			args := c.args()
			b.ResetTimer()
			var n int
			for i := 0; i < b.N; i++ {
				n = len(h.call(c.tool, args))
			}
			b.ReportMetric(float64(n), "answer-bytes")
		})
		if c.tool == SearchTool && strings.HasSuffix(c.name, "50MB") {
			continue // the ranking's own cost on huge queries: see Limits.QueryBytes
		}
		b.Run(c.name+"_lifted", func(b *testing.B) {
			h := newHarness(b, append([]Option{WithWrites(true), lifted}, opts[c.name]...)...)
			args := c.args()
			b.ResetTimer()
			var n int
			for i := 0; i < b.N; i++ {
				n = len(h.call(c.tool, args))
			}
			b.ReportMetric(float64(n), "answer-bytes")
		})
	}
}

// strayMembers is the JSON object that starts with head and goes on with
// members made from format (with %d, numbered from 0) while it stays
// within size bytes.
func strayMembers(head, format string, size int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		m := fmt.Sprintf(format, i)
		if b.Len()+1+len(m)+1 > size {
			break
		}
		b.WriteByte(',')
		b.WriteString(m)
	}
	b.WriteByte('}')
	return b.String()
}
