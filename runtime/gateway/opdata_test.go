package gateway

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// fullOp has every field of Op set, with text that looks like the record
// syntax itself, so a field EncodeOp forgets or misreads shows.
func fullOp() Op {
	return Op{
		Path:        "onto.task.list",
		Tool:        "list_tasks",
		Description: "12:not a field; 3;\nline two `quoted` \xff",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"a:b":{"type":"string"}}}`),
		Group:       "onto",
		Kind:        runtime.OpWrite,
		Entity:      "task",
		Action:      "list",
		Usage:       `onto.task.list [state:enum(open|done)="open"]`,
		Args: []Arg{
			{Name: "state", Type: "enum(open|done)", Required: true, Default: `"open"`, Description: "Which; one:"},
			{Name: "limit", Type: "integer"},
		},
		Notes:         []string{"first", ""},
		Examples:      []Example{{Description: "Call it", Args: json.RawMessage(`{"state":"open"}`)}, {Args: json.RawMessage(`{}`)}},
		Policy:        &Policy{Do: []string{"do"}, Dont: []string{"don't", "never"}, EdgeCases: []string{"edge"}},
		DryRunDefault: true,
	}
}

func TestOpRecordRoundTrip(t *testing.T) {
	full := fullOp()
	// Every field of Op is set in fullOp: a field added to Op and not to
	// EncodeOp fails here.
	v := reflect.ValueOf(full)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("fullOp leaves Op.%s zero; set it so the round trip covers it", v.Type().Field(i).Name)
		}
	}
	bare := Op{Path: "a.b", Tool: "b", Kind: runtime.OpRead}
	policyOnly := Op{Path: "a.c", Policy: &Policy{Dont: []string{"x"}}}
	ops := []Op{full, bare, policyOnly}
	recs := make([]string, len(ops))
	for i, op := range ops {
		recs[i] = EncodeOp(op)
	}
	got, err := DecodeOps(recs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ops) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, ops)
	}
	if ops, err := DecodeOps(nil); err != nil || len(ops) != 0 {
		t.Errorf("no records: %v, %v", ops, err)
	}
}

func TestDecodeOpsErrors(t *testing.T) {
	good := EncodeOp(fullOp())
	cases := []struct {
		name, rec, want string
	}{
		{"empty", "", `record 0, byte 0: expected digits and ':'`},
		{"letters", "x:", "record 0, byte 0: expected a decimal number"},
		{"past the end", "99:onto", "record 0, byte 3: string runs past the end of the record"},
		{"huge length", "99999999999999:a", "record 0, byte 10: expected a decimal number"},
		{"cut off", good[:len(good)/2], "record 0"},
		{"trailing", good + "1;", "trailing data"},
		{"bad flag", strings.TrimSuffix(good, "1;") + "2;", "expected the flag 0 or 1"},
		{"huge count", "1:a1:b0:0:0:0:0:0:0:99999999;", "list longer than the record"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeOps([]string{c.rec})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("DecodeOps(%.40q) = %v; want an error containing %q", c.rec, err, c.want)
			}
		})
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "op record 0, byte 0") || !strings.Contains(fmt.Sprint(r), "regenerate the package") {
			t.Errorf("MustDecodeOps of a bad record: panic %v; want the record, the offset and what to do", r)
		}
	}()
	MustDecodeOps([]string{"x"})
}

// FuzzDecodeOps: any record decodes or fails with an error, never a panic
// or a large allocation, and what decodes encodes back to an equal op.
func FuzzDecodeOps(f *testing.F) {
	f.Add(EncodeOp(fullOp()))
	f.Add(EncodeOp(Op{}))
	f.Add("1:a1:b0:0:0:0:0:0:0:99999999;")
	f.Fuzz(func(t *testing.T, rec string) {
		ops, err := DecodeOps([]string{rec})
		if err != nil {
			return
		}
		again, err := DecodeOps([]string{EncodeOp(ops[0])})
		if err != nil {
			t.Fatalf("re-encoded op does not decode: %v", err)
		}
		if !reflect.DeepEqual(again, ops) {
			t.Fatalf("re-encoded op differs:\n got %#v\nwant %#v", again, ops)
		}
	})
}

// BenchmarkDecodeOps is what a large generated family's Registry costs
// when its package is initialised, per 1,000 ops like fullOp.
func BenchmarkDecodeOps(b *testing.B) {
	recs := make([]string, 1000)
	n := 0
	for i := range recs {
		op := fullOp()
		op.Path = fmt.Sprintf("onto.task%d.list", i)
		recs[i] = EncodeOp(op)
		n += len(recs[i])
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeOps(recs); err != nil {
			b.Fatal(err)
		}
	}
}
