package formats

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// decode runs the generated decoder and Validate over args, as the flat
// surface does.
func decode(t *testing.T, args string) (*ScheduleEventParams, error) {
	t.Helper()
	v, err := DecodeArgs("schedule_event", []byte(args))
	if err != nil {
		return nil, err
	}
	return v.(*ScheduleEventParams), nil
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestDecodeValid(t *testing.T) {
	p, err := decode(t, `{
		"at": "2024-05-06t07:08:09.25z",
		"due": "2024-02-29",
		"birthday": "1990-12-31",
		"stamp": "1998-12-31T23:59:60Z",
		"holidays": ["2024-12-25", "2024-12-26"],
		"checkpoints": {"a": "2024-05-06T10:00:00+02:00"},
		"when": "2024-05-06T07:08:09Z",
		"day_or_count": "2024-01-02",
		"span": ["2024-01-01", null],
		"owner": {"email": "a@b.example", "since": "2020-01-01"}
	}`)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want time.Time) {
		t.Helper()
		if !got.Equal(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("at", p.At, time.Date(2024, 5, 6, 7, 8, 9, 250000000, time.UTC))
	check("due", *p.Due, day(2024, 2, 29))
	check("birthday", *p.Birthday, day(1990, 12, 31))
	check("stamp (leap second)", *p.Stamp, day(1999, 1, 1))
	check("holidays[1]", p.Holidays[1], day(2024, 12, 26))
	check("checkpoints/a", p.Checkpoints["a"], time.Date(2024, 5, 6, 8, 0, 0, 0, time.UTC))
	check("when", *p.When.DateTime, time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))
	check("day_or_count", *p.DayOrCount.Date, day(2024, 1, 2))
	check("span/0", *p.Span.Item0, day(2024, 1, 1))
	check("owner/since", *p.Owner.Since, day(2020, 1, 1))
	if !p.Span.Item1.IsNull() {
		t.Errorf("span/1 = %v, want null", p.Span.Item1)
	}
	// Defaults of mapped fields.
	check("start (default)", p.Start, day(2024, 1, 1))
	check("reminder (default)", p.Reminder, time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC))
	if _, off := p.Reminder.Zone(); off != 3600 {
		t.Errorf("reminder offset = %d, want 3600", off)
	}
	// oneOf of two string formats: the one that parses is chosen.
	r, err := decode(t, `{"at": "2024-01-01T00:00:00Z", "birthday": null, "moment": "2024-07-01T12:00:00Z",
		"labels": {"launch": "2025-03-01"}, "maybe_days": [null, "2024-01-01"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Moment.DateTime == nil || r.Moment.Date != nil {
		t.Errorf("moment = %+v, want the date-time branch", r.Moment)
	}
	check("labels/launch", r.Labels.Extra["launch"], day(2025, 3, 1))
	if r.MaybeDays[0] != nil || !r.MaybeDays[1].Equal(day(2024, 1, 1)) {
		t.Errorf("maybe_days = %v", r.MaybeDays)
	}
	// The integer branch of the union still decodes.
	q, err := decode(t, `{"at": "2024-01-01T00:00:00Z", "birthday": null, "when": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	if q.When.Integer == nil || *q.When.Integer != 3 || q.When.DateTime != nil {
		t.Errorf("when = %+v, want the integer branch", q.When)
	}
}

func TestDecodeInvalid(t *testing.T) {
	_, err := decode(t, `{
		"at": "2024-05-06 07:08:09Z",
		"due": "2023-02-29",
		"birthday": 7,
		"stamp": "2024-05-06T07:08:09.123456789+02:00",
		"holidays": ["2024-12-25", "25/12/2024"],
		"checkpoints": {"a": "soon"},
		"when": "tomorrow",
		"span": ["2024-01-01", "2024-13-01"],
		"owner": {"email": "a@b.example", "since": "2020-01-01T00:00:00Z"},
		"moment": "July 1st",
		"labels": {"launch": "2025-02-30"}
	}`)
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *runtime.ValidationError", err)
	}
	type key struct{ path, code string }
	got := map[key]runtime.FieldError{}
	for _, f := range ve.Fields {
		got[key{f.Path, f.Code}] = f
	}
	want := []struct{ path, code, expected, received string }{
		{"/at", "format", "date-time", `"2024-05-06 07:08:09Z"`},
		{"/due", "format", "date", `"2023-02-29"`},
		{"/birthday", "type", "", ""},
		{"/stamp", "maxLength", "at most 25 characters", `"2024-05-06T07:08:09.123456789+02:00"`},
		{"/holidays/1", "format", "date", `"25/12/2024"`},
		{"/checkpoints/a", "format", "date-time", `"soon"`},
		{"/when", "format", "date-time", `"tomorrow"`},
		{"/span/1", "format", "date", `"2024-13-01"`},
		{"/owner/since", "format", "date", `"2020-01-01T00:00:00Z"`},
		{"/moment", "oneOf", "date or date-time", `"July 1st"`},
		{"/labels/launch", "format", "date", `"2025-02-30"`},
	}
	for _, w := range want {
		f, ok := got[key{w.path, w.code}]
		if !ok {
			t.Errorf("no %s error at %s; got %+v", w.code, w.path, ve.Fields)
			continue
		}
		if w.expected != "" && (f.Expected != w.expected || f.Received != w.received) {
			t.Errorf("%s %s: expected %q received %q, want %q %q", w.path, w.code, f.Expected, f.Received, w.expected, w.received)
		}
	}
	if len(ve.Fields) != len(want) {
		t.Errorf("%d errors, want %d: %+v", len(ve.Fields), len(want), ve.Fields)
	}
}

func TestPresence(t *testing.T) {
	absent, err := decode(t, `{"at": "2024-01-01T00:00:00Z", "birthday": null}`)
	if err != nil {
		t.Fatal(err)
	}
	if absent.Deadline.IsSet() || absent.Due != nil || absent.Birthday != nil {
		t.Errorf("absent: deadline set %v, due %v, birthday %v", absent.Deadline.IsSet(), absent.Due, absent.Birthday)
	}
	null, err := decode(t, `{"at": "2024-01-01T00:00:00Z", "birthday": null, "deadline": null}`)
	if err != nil {
		t.Fatal(err)
	}
	if !null.Deadline.IsNull() {
		t.Errorf("deadline null: %+v", null.Deadline)
	}
	value, err := decode(t, `{"at": "2024-01-01T00:00:00Z", "birthday": "2000-01-01", "deadline": "2024-06-30T18:00:00-04:00"}`)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := value.Deadline.Get(); !ok || !d.Equal(time.Date(2024, 6, 30, 22, 0, 0, 0, time.UTC)) {
		t.Errorf("deadline value = %v, %v", d, ok)
	}
	if _, err := decode(t, `{"at": "2024-01-01T00:00:00Z"}`); err == nil {
		t.Error("missing required nullable birthday accepted")
	}
}

func TestRoundTrip(t *testing.T) {
	in := `{"anniversaries":{"wedding":"2001-06-16"},"at":"2024-05-06T07:08:09.25Z","birthday":"1990-12-31",` +
		`"checkpoints":{"a":"2024-05-06T10:00:00+02:00"},` +
		`"day_or_count":"2024-01-02","deadline":null,"due":"2024-02-29","holidays":["2024-12-25","2024-12-26"],` +
		`"labels":{"launch":"2025-03-01","name":"x"},"maybe_days":["2024-01-01",null],"moment":"2024-07-01",` +
		`"owner":{"email":"a@b.example","since":"2020-01-01"},"reminder":"2024-03-10T08:00:00+01:00",` +
		`"span":["2024-01-01",null],"start":"2024-01-01","when":"2024-05-06T07:08:09Z"}`
	p, err := decode(t, in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("round trip:\n got %s\nwant %s", out, in)
	}
	// encoding/json goes through the generated decoder too.
	var back ScheduleEventParams
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if !back.At.Equal(p.At) || !back.Due.Equal(*p.Due) || back.Birthday == nil {
		t.Errorf("unmarshal of the marshalled params differs: %+v", back)
	}
	// A required nullable date that is nil is written as null, not left out.
	out, _ = json.Marshal(ScheduleEventParams{At: p.At, Start: p.Start, Reminder: p.Reminder})
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["birthday"]; !ok || v != nil {
		t.Errorf("birthday = %v (present %v), want null", v, ok)
	}
}
