package gateway

import (
	"slices"
	"testing"
)

func TestQueryKinds(t *testing.T) {
	cases := []struct {
		query string
		want  valueKinds
	}{
		{"weather forecast for Berkeley on April 25th", valueDate},
		{"what will it be like on 2023-04-15?", valueDate},
		{"book it for 25/4/2024", valueDate},
		{"the forecast for 2023.10.1 please", valueDate},
		{"anything on next Saturday", valueDate},
		{"a table for 4 on the 14th of March 2023 at 13:30", valueDate | valueTime | valueYear},
		{"the population of California in 1970", valueYear},
		{"remind me at 7 pm", valueTime},
		{"remind me at 7pm", valueTime},
		{"fetch https://example.com/data.json", valueURL},
		{"open www.example.org", valueURL},
		{"mail jo@example.com the report", valueEmail},
		{"send $125 to Alex", valueMoney},
		{"convert 500 US dollars to euros", valueMoney},
		{"translate it from English to Chinese", valueLanguage},
		{"Linh (GMT+7) and Maria (UTC-2) meet at 9 am PST", valueZone | valueTime},
		{"a call at 10:00 UTC", valueTime | valueZone},
		// not values
		{"May I march on the capital?", 0},
		{"a forecast for the next 3 days", 0},
		{"version 1.2.3 release notes", 0},
		{"the 500 best of 12345 songs", 0},
		{"reply @alex on the thread", 0},
		{"tell me about dollars and cents", 0},
		{"ratio 3:1 of water", 0},
		{"the gmtime function", 0},
		{"it may take 3 days to ship", 0},
		{"we may need 2 rooms", 0},
		{"set the $PATH variable", 0},
		{"compute the MST of a graph", 0},
		{"install lodash@4.17.21", 0},
		{"polish my resume", 0},
		{"", 0},
	}
	for _, c := range cases {
		if got := queryKinds(c.query); got != c.want {
			t.Errorf("queryKinds(%q) = %05b, want %05b", c.query, got, c.want)
		}
	}
}

// TestValueEvidence: of near-duplicate ops, the one whose arguments take
// the kind of value the query holds ranks first; without such a value the
// order is the lexical one.
func TestValueEvidence(t *testing.T) {
	ops := []Op{
		{Path: "weather.forecast", Tool: "weather_forecast", Description: "Retrieve the weather forecast for a location.",
			Parameters: []byte(`{"type":"object","properties":{"location":{"type":"string"},"days":{"type":"integer"}}}`)},
		{Path: "weather.forecast2", Tool: "weather_forecast2", Description: "Retrieve the weather forecast for a location.",
			Parameters: []byte(`{"type":"object","properties":{"location":{"type":"string"},"date":{"type":"string"}}}`)},
		{Path: "music.play", Tool: "play_song", Description: "Play a song.",
			Parameters: []byte(`{"type":"object","properties":{"date":{"type":"string"}}}`)},
	}
	ix := NewIndex(ops)
	top := func(q string) string {
		hs := ix.Search(q, 5)
		if len(hs) == 0 {
			t.Fatalf("Search(%q): no hits", q)
		}
		return hs[0].Tool
	}
	if got := top("weather forecast for Pacifica on April 11th, 2023"); got != "weather_forecast2" {
		t.Errorf("dated query: top %s, want weather_forecast2", got)
	}
	if got := top("weather forecast for Pacifica"); got != "weather_forecast" {
		t.Errorf("undated query: top %s, want weather_forecast", got)
	}
	// A value is evidence for ops the words already found, not a match
	// of its own.
	for _, h := range ix.Search("weather on April 11th", 5) {
		if h.Tool == "play_song" {
			t.Errorf("an op matching no query word was found by the date alone: %v", h)
		}
	}
}

// TestFrameWords: the words of a request's frame ("help me", "tell me",
// "let me know") are not searched for; the same words naming a need are;
// nor is the suffix of an ordinal written in digits.
func TestFrameWords(t *testing.T) {
	cases := []struct {
		query string
		want  []string // stems searched for
	}{
		{"Can you help me find a psychologist?", []string{"find", "psychologist"}},
		{"tell me the weather, thanks", []string{"weather"}},
		{"I'd like to know the price", []string{"price"}},
		{"show help for the deploy command", []string{"show", "help", "deploy", "command"}},
		{"tell the team", []string{"tell", "team"}},
		{"show me a movie directed by Quentin Tarantino", []string{"movie", "directed", "quentin", "tarantino"}},
		{"give me the details of the discovery", []string{"details", "discovery"}},
		{"show the shows playing tonight", []string{"show", "shows", "playing", "tonight"}},
		{"great circle distance", []string{"great", "circl", "distanc"}},
		// an ordinal's suffix is part of its number; a word alone is a word
		{"the forecast for the 14th of March, the 1st and 2nd", []string{"forecast", "march"}},
		{"the 3 rd street", []string{"street"}},
		{"st louis", []string{"st", "louis"}},
		// a frame and nothing else is searched for as it is
		{"hello", []string{"hello"}},
		{"help me", []string{"help"}},
	}
	for _, c := range cases {
		var got []string
		for _, st := range queryStems(splitWords(c.query)) {
			if st != "" {
				got = append(got, st)
			}
		}
		var want []string
		for _, w := range c.want {
			want = append(want, stem(w))
		}
		if !slices.Equal(got, want) {
			t.Errorf("queryStems(%q) = %v, want %v", c.query, got, want)
		}
	}
	// "show me" is not searched for, but still asks to read
	for _, q := range []string{"show me my tasks", "Could you show me the tasks?"} {
		words := splitWords(q)
		if a := queryAction(words, queryStems(words)); a != actRead {
			t.Errorf("queryAction(%q) = %v, want read", q, a)
		}
	}
}

// TestArgumentFit: of near-duplicate ops, one that requires a kind of
// value the question neither gives nor names ranks below one that does
// not; given the value, or the argument's name, it does not. The kind is
// the last word of the argument's name: "payment_id" requires no amount.
// A schema that requires every property it declares (strict function
// calling) requires nothing in particular.
func TestArgumentFit(t *testing.T) {
	ops := []Op{
		{Path: "weather.conditions", Tool: "weather_conditions", Description: "Get the current weather conditions for a city.",
			Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"},"date":{"type":"string"},"unit":{"type":"string"}},"required":["city","date"]}`)},
		{Path: "weather.conditions_now", Tool: "weather_conditions_now", Description: "Get the current weather conditions for a city.",
			Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"]}`)},
		// Args instead of a schema: Required marks what it needs
		{Path: "order.pay", Tool: "pay_order", Description: "Pay for an order.",
			Args: []Arg{{Name: "order_id", Required: true}, {Name: "amount", Required: true}, {Name: "note"}}},
		{Path: "order.pay2", Tool: "pay_order_with", Description: "Pay for an order with a payment method.",
			Args: []Arg{{Name: "order_id", Required: true}, {Name: "payment_id", Required: true}, {Name: "note"}}},
		// strict: every property required, so none is evidence
		{Path: "profile.update", Tool: "update_profile", Description: "Update the user's profile.",
			Parameters: []byte(`{"type":"object","properties":{"name":{"type":"string"},"email":{"type":"string"},"birth_date":{"type":"string"}},"required":["name","email","birth_date"]}`)},
	}
	ix := NewIndex(ops)
	if want := []valueKinds{valueDate, 0, valueMoney, 0, 0}; !slices.Equal(ix.needs, want) {
		t.Fatalf("needs %05b, want %05b (date, none, money, none, none)", ix.needs, want)
	}
	top := func(q string) string {
		hs := ix.Search(q, 5)
		if len(hs) == 0 {
			t.Fatalf("Search(%q): no hits", q)
		}
		return hs[0].Tool
	}
	for q, want := range map[string]string{
		"Could you tell me the current weather conditions in Boston, MA?":  "weather_conditions_now",
		"the current weather conditions in Boston, MA on April 11th, 2023": "weather_conditions",
		"current weather conditions in Boston for a date I choose":         "weather_conditions",
		"pay for my order with a payment method":                           "pay_order_with",
		"pay $45 for my order with a payment method":                       "pay_order_with",
	} {
		if got := top(q); got != want {
			t.Errorf("%q: top %s, want %s", q, got, want)
		}
	}
	// Without the factor the two weather ops score the same and the
	// dated one goes first by its path.
	p := defaultRank
	p.Fit = 0
	if hs := newIndex(ops, p).Search("Could you tell me the current weather conditions in Boston, MA?", 1); hs[0].Tool != "weather_conditions" {
		t.Errorf("without fit: top %s; the test no longer shows the factor", hs[0].Tool)
	}
}
