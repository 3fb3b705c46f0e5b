package jsonpos

import (
	"runtime"
	"strconv"
	"sync"
)

// parallelMin is the size from which a document whose top-level value is
// an array (a tool catalogue) has its elements parsed on several
// goroutines. A variable so that tests can exercise the parallel path on
// small inputs.
var parallelMin = 1 << 20

// elemStart is where one top-level array element begins, with the line
// state the serial parser would have there.
type elemStart struct {
	off, line, lineStart int
}

// parseParallel parses a document whose top-level value is an array by
// splitting its elements among GOMAXPROCS parsers, each of which parses a
// contiguous run of elements exactly as the serial parser would (same
// positions, pointers and depth). It returns ok=false whenever the result
// might differ from the serial parse's: the document is not a large
// non-empty array, the split is not what the parsers find, an element
// has an error, or the pointer budget is spent. The caller then parses
// serially, which reports any error exactly.
func (p *parser) parseParallel() (n *Node, ok bool) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(p.src) < parallelMin || p.bare || p.maxDepth < 1 {
		return nil, false
	}
	open := p.off // after the leading space; document's skipSpace ran
	if open >= len(p.src) || p.src[open] != '[' {
		return nil, false
	}
	starts, ends, closeOff := p.splitArray(open)
	if len(starts) < 2*workers {
		return nil, false
	}
	// Contiguous runs of elements of about equal size in bytes.
	type run struct {
		from, to int
		items    []*Node
		spent    int
		ok       bool
	}
	runs := make([]run, 0, workers)
	per := (closeOff - open) / workers
	from := 0
	for w := 0; w < workers && from < len(starts); w++ {
		to := len(starts)
		if w < workers-1 {
			limit := starts[from].off + per
			to = from + 1
			for to < len(starts) && starts[to].off < limit {
				to++
			}
		}
		runs = append(runs, run{from: from, to: to})
		from = to
	}
	var wg sync.WaitGroup
	for i := range runs {
		r := &runs[i]
		wg.Go(func() {
			// A panic here (a bug) leaves r.ok false like any other
			// surprise: the serial parse then runs on the caller's
			// goroutine, where the same bug surfaces recoverably.
			defer func() { _ = recover() }()
			s := starts[r.from]
			q := &parser{file: p.file, src: p.src, off: s.off, line: s.line, lineStart: s.lineStart,
				maxDepth: p.maxDepth, depthHint: p.depthHint, ptrBudget: p.ptrBudget}
			r.items = make([]*Node, 0, r.to-r.from)
			for j := r.from; j < r.to; j++ {
				// The serial parser is here after '[' or ',' and the
				// space that follows it.
				q.off, q.line, q.lineStart = starts[j].off, starts[j].line, starts[j].lineStart
				ptr := "/" + strconv.Itoa(j)
				if q.spendPointer(ptr) != nil {
					return
				}
				it, err := q.value(ptr, 1)
				if err != nil {
					return
				}
				q.skipSpace()
				if q.off != ends[j] {
					return
				}
				r.items = append(r.items, it)
			}
			r.spent = p.ptrBudget - q.ptrBudget
			r.ok = true
		})
	}
	wg.Wait()
	spent := 0
	items := make([]*Node, 0, len(starts))
	for _, r := range runs {
		if !r.ok {
			return nil, false
		}
		spent += r.spent
		items = append(items, r.items...)
	}
	if spent > p.ptrBudget {
		return nil, false
	}
	// After the closing bracket only space may follow.
	end := &parser{src: p.src, off: closeOff + 1}
	end.skipSpace()
	if end.off != len(p.src) {
		return nil, false
	}
	open0 := p.pos(open, "")
	return &Node{Kind: ArrayNode, Pos: open0, Items: items}, true
}

// splitArray finds the top-level elements of the array opening at open:
// where each starts (after the space following '[' or ','), the offset of
// the ',' or ']' that ends it (after its trailing space), and the offset
// of the closing ']'. It only tracks strings and nesting, so the elements
// it finds are checked by parsing them; on input it cannot split (the
// array never closes) it returns no elements.
func (p *parser) splitArray(open int) (starts []elemStart, ends []int, closeOff int) {
	s := p.src
	line, lineStart := p.line, p.lineStart
	depth := 0
	i := open + 1
	// skip moves i past space, keeping the line state.
	skip := func() {
		for i < len(s) {
			switch s[i] {
			case ' ', '\t', '\r':
				i++
			case '\n':
				i++
				line++
				lineStart = i
			default:
				return
			}
		}
	}
	skip()
	if i >= len(s) || s[i] == ']' {
		return nil, nil, 0
	}
	starts = append(starts, elemStart{i, line, lineStart})
	for i < len(s) {
		c := s[i]
		switch c {
		case '"':
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				if i < len(s) && s[i] == '\n' {
					// Invalid in a string; the element's parse reports it.
					line++
					lineStart = i + 1
				}
				i++
			}
			i++
			continue
		case '\n':
			line++
			lineStart = i + 1
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				if c != ']' {
					return nil, nil, 0
				}
				ends = append(ends, i)
				return starts, ends, i
			}
			depth--
		case ',':
			if depth == 0 {
				ends = append(ends, i)
				i++
				skip()
				starts = append(starts, elemStart{i, line, lineStart})
				continue
			}
		}
		i++
	}
	return nil, nil, 0
}
