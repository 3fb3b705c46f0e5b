package gateway

import "strings"

// Values a query holds are evidence of the arguments an op takes: "the
// forecast for Berkeley on April 25th" names no argument, but its date
// fits an op with a date argument better than one without. Near-duplicate
// tools ("weather_forecast", "weather_get_by_city_date") often differ in
// just that.

// valueKinds is a set of kinds of value (a bit per kind).
type valueKinds uint16

const (
	valueDate valueKinds = 1 << iota
	valueTime
	valueURL
	valueEmail
	valueMoney
	valueLanguage
	valueZone
	valueYear
)

// kindWords are the argument-name words that take each kind of value.
var kindWords = map[string]valueKinds{
	"date": valueDate, "birthday": valueDate, "deadline": valueDate,
	"time": valueTime,
	"url":  valueURL, "uri": valueURL, "link": valueURL, "endpoint": valueURL, "website": valueURL,
	"email": valueEmail, "mail": valueEmail,
	"language": valueLanguage, "lang": valueLanguage, "locale": valueLanguage,
	"year":     valueYear,
	"timezone": valueZone, "zone": valueZone, "tz": valueZone,
	"amount": valueMoney, "price": valueMoney, "budget": valueMoney, "cost": valueMoney, "payment": valueMoney, "salary": valueMoney, "balance": valueMoney, "fee": valueMoney,
}

// stemKinds is kindWords by stem: an op takes the kinds of its argument
// names' terms.
var stemKinds = func() map[string]valueKinds {
	m := make(map[string]valueKinds, len(kindWords))
	for w, k := range kindWords {
		m[stem(w)] |= k
	}
	return m
}()

var (
	monthNames = setOf("january", "february", "march", "april", "june", "july", "august", "september",
		"october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
	currencyWords = setOf("dollar", "dollars", "usd", "euro", "euros", "eur", "yen", "jpy", "gbp", "rupee", "rupees", "inr", "cad", "aud", "yuan", "cny")
	languageNames = setOf("english", "spanish", "french", "german", "chinese", "mandarin", "cantonese", "japanese", "korean",
		"italian", "portuguese", "russian", "arabic", "hindi", "dutch", "swedish", "norwegian", "danish", "finnish",
		"turkish", "greek", "hebrew", "thai", "vietnamese", "indonesian", "malay", "ukrainian", "czech", "hungarian", "romanian")
	dayNames = setOf("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tomorrow", "yesterday", "weekend")
)

// queryKinds are the kinds of value the query holds: a date (a month or
// weekday name beside a number, a weekday, 2023-04-25, 25/4/2023), a time
// of day (13:30, 7 pm), a URL, an email address, an amount of money
// ($125, 500 dollars), a language's name, a time zone (GMT+7, PST) or a
// year (1970).
func queryKinds(query string) valueKinds {
	var k valueKinds
	fields := strings.Fields(strings.ToLower(query))
	for i, f := range fields {
		f = strings.Trim(f, ",;.!?()[]{}'\"")
		switch {
		case strings.Contains(f, "://") || strings.HasPrefix(f, "www."):
			k |= valueURL
		case isEmail(f):
			k |= valueEmail
		case dayNames[f]:
			k |= valueDate
		case monthNames[f] || f == "may":
			// a month name counts beside a number
			if adjacentNumber(fields, i) {
				k |= valueDate
			}
		case isMoneySymbol(f) || currencyWords[f] && nearNumber(fields, i):
			k |= valueMoney
		case languageNames[f]:
			k |= valueLanguage
		case isZone(f):
			k |= valueZone
		case isYear(f):
			k |= valueYear
		case isNumericDate(f):
			k |= valueDate
		case isClockTime(f, fields, i):
			k |= valueTime
		}
	}
	return k
}

// nearNumber reports whether one of the two fields before or after
// fields[i] starts with a digit ("March 8th", "the 14th of March", "500 US
// dollars").
func nearNumber(fields []string, i int) bool {
	for j := max(i-2, 0); j <= min(i+2, len(fields)-1); j++ {
		if j != i && fields[j] != "" && fields[j][0] >= '0' && fields[j][0] <= '9' {
			return true
		}
	}
	return false
}

// isNumericDate reports whether f is three numbers joined by one of "-",
// "/" or "." with a year among them (2023-04-25, 25/4/2023, 2023.10.1), or
// by "/" (25/4/23).
func isNumericDate(f string) bool {
	for _, sep := range "-/." {
		parts, year, n := 0, false, 0
		for i := 0; i <= len(f); i++ {
			if i < len(f) && f[i] >= '0' && f[i] <= '9' {
				n++
				continue
			}
			if i < len(f) && rune(f[i]) != sep || n == 0 || n > 4 {
				parts = -1
				break
			}
			parts++
			year = year || n == 4
			n = 0
		}
		if parts == 3 && (year || sep == '/') {
			return true
		}
	}
	return false
}

// isClockTime reports whether f is a time of day: 13:30, 7pm, or a number
// followed by "am"/"pm".
func isClockTime(f string, fields []string, i int) bool {
	if h, m, ok := strings.Cut(f, ":"); ok && isDigits(h) && len(h) <= 2 && len(m) >= 2 && isDigits(m[:2]) {
		return true
	}
	num := strings.TrimSuffix(strings.TrimSuffix(f, "am"), "pm")
	if num != f {
		return isDigits(num) && len(num) <= 2
	}
	if isDigits(f) && len(f) <= 2 && i+1 < len(fields) {
		next := strings.Trim(fields[i+1], ",;.!?()")
		return next == "am" || next == "pm" || next == "a.m" || next == "p.m"
	}
	return false
}

// isZone reports whether f names a time zone by its UTC offset or a
// common abbreviation (GMT+7, UTC, PST).
func isZone(f string) bool {
	for _, p := range [...]string{"gmt", "utc"} {
		if rest, ok := strings.CutPrefix(f, p); ok {
			return rest == "" || (rest[0] == '+' || rest[0] == '-') && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9'
		}
	}
	return zoneNames[f]
}

var zoneNames = setOf("pst", "pdt", "mdt", "cst", "cdt", "est", "edt", "cet", "cest", "jst", "aest")

// isYear reports whether f is a year of the last or next few centuries
// (1800, 2023; not 500 or 12345).
func isYear(f string) bool {
	return len(f) == 4 && isDigits(f) && (f[:2] == "18" || f[:2] == "19" || f[:2] == "20")
}

// adjacentNumber reports whether a field right beside fields[i] starts
// with a digit, or the one before an "of" before it ("March 8th", "8 May",
// "the 14th of March"; not "it may take 3 days").
func adjacentNumber(fields []string, i int) bool {
	d := func(j int) bool {
		return j >= 0 && j < len(fields) && fields[j] != "" && fields[j][0] >= '0' && fields[j][0] <= '9'
	}
	return d(i-1) || d(i+1) || i >= 2 && fields[i-1] == "of" && d(i-2)
}

// isMoneySymbol reports whether f is an amount after a currency symbol
// ($125, €20; not $PATH).
func isMoneySymbol(f string) bool {
	for _, sym := range [...]string{"$", "€", "£", "¥"} {
		if rest, ok := strings.CutPrefix(f, sym); ok {
			return rest != "" && rest[0] >= '0' && rest[0] <= '9'
		}
	}
	return false
}

// isEmail reports whether f looks like an email address: text, "@", and
// a domain that starts with a letter and has a dot (not lodash@4.17.21).
func isEmail(f string) bool {
	at := strings.IndexByte(f, '@')
	if at <= 0 {
		return false
	}
	dom := f[at+1:]
	return dom != "" && dom[0] >= 'a' && dom[0] <= 'z' && strings.Contains(dom, ".")
}
