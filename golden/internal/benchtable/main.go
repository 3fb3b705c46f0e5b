// Command benchtable summarises `go test -bench` output (read from stdin) as
// a table. Benchmarks named Parent/toolgen are the reference of their
// siblings (Parent/gojsonschema, Parent/mcp-sdk, ...): each sibling's row
// shows how many times slower it is than toolgen's.
//
//	go test -run '^$' -bench . -benchmem ./... | go run ./golden/internal/benchtable
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
)

type row struct {
	pkg, name         string
	ns, bytes, allocs float64
	hasMem            bool
}

func main() {
	rows, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	write(os.Stdout, rows)
}

func parse(r io.Reader) ([]row, error) {
	var rows []row
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "pkg: ") {
			pkg = strings.TrimPrefix(line, "pkg: ")
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		rw := row{pkg: pkg, name: trimProcs(strings.TrimPrefix(f[0], "Benchmark"))}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				rw.ns = v
			case "B/op":
				rw.bytes, rw.hasMem = v, true
			case "allocs/op":
				rw.allocs = v
			}
		}
		rows = append(rows, rw)
	}
	return rows, sc.Err()
}

// trimProcs drops the -N GOMAXPROCS suffix.
func trimProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

func write(w io.Writer, rows []row) {
	ref := map[string]float64{}
	for _, r := range rows {
		if i := strings.LastIndexByte(r.name, '/'); i > 0 && r.name[i+1:] == "toolgen" {
			ref[r.pkg+" "+r.name[:i]] = r.ns
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\tbenchmark\tns/op\tB/op\tallocs/op\tvs toolgen\t")
	for _, r := range rows {
		ratio := ""
		if i := strings.LastIndexByte(r.name, '/'); i > 0 {
			if base, ok := ref[r.pkg+" "+r.name[:i]]; ok && base > 0 && r.name[i+1:] != "toolgen" {
				if r.ns >= base {
					ratio = fmt.Sprintf("%.1fx slower", r.ns/base)
				} else {
					ratio = fmt.Sprintf("%.1fx faster", base/r.ns)
				}
			}
		}
		mem, allocs := "", ""
		if r.hasMem {
			mem, allocs = fmt.Sprintf("%.0f", r.bytes), fmt.Sprintf("%.0f", r.allocs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%s\t\n", shortPkg(r.pkg), r.name, r.ns, mem, allocs, ratio)
	}
	tw.Flush()
}

func shortPkg(p string) string {
	return strings.TrimPrefix(p, "github.com/toolgen-go/toolgen/")
}
