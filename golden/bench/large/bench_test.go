package large

import (
	_ "embed"
	"testing"

	"github.com/toolgen-go/toolgen/golden/bench/internal/rival"
)

//go:embed tools.json
var toolsJSON []byte

// benchCase is update_listing: 60 flat properties of twelve kinds (bounded
// strings, patterns, enums, bounded integers and numbers, booleans, arrays
// with item and count bounds, date, email and uuid formats, multipleOf).
var benchCase = &rival.Case{
	Tool:       "update_listing",
	Tools:      toolsJSON,
	DecodeArgs: DecodeArgs,
	Params:     func() rival.Validator { return new(UpdateListingParams) },
	Valid: []byte(`{"name_0":"Listing name 0","code_0":"GB1000","status_0":"draft","count_0":0,"ratio_0":0.25
,"enabled_0":true,"tags_0":["new"],"scores_0":[0],"start_0":"2024-01-10"
,"contact_0":"ops@example.com","ref_0":"0b5f0a2c-7e1d-4c3b-9a8f-2d6e4f1a0c90"
,"price_0":9.5,"name_1":"Listing name 1","code_1":"GB1037","status_1":"active"
,"count_1":123,"ratio_1":0.5,"enabled_1":false,"tags_1":["new","sale"],"scores_1":[10,50]
,"start_1":"2024-02-11","contact_1":"a.b@example.org"
,"ref_1":"0b5f1a2c-7e1d-4c3b-9a8f-2d6e4f1a0c91","price_1":120,"name_2":"Listing name 2"
,"code_2":"GB1074","status_2":"paused","count_2":246,"ratio_2":0.75,"enabled_2":true
,"tags_2":["new","sale","eco"],"scores_2":[20,50,99],"start_2":"2024-03-12"
,"contact_2":"team+x@example.net","ref_2":"0b5f2a2c-7e1d-4c3b-9a8f-2d6e4f1a0c92"
,"price_2":3.25,"name_3":"Listing name 3","code_3":"GB1111","status_3":"archived"
,"count_3":369,"ratio_3":1,"enabled_3":false,"tags_3":["new"],"scores_3":[30]
,"start_3":"2024-04-13","contact_3":"x@example.io"
,"ref_3":"0b5f3a2c-7e1d-4c3b-9a8f-2d6e4f1a0c93","price_3":49,"name_4":"Listing name 4"
,"code_4":"GB1148","status_4":"active","count_4":492,"ratio_4":0,"enabled_4":true
,"tags_4":["new","sale"],"scores_4":[40,50],"start_4":"2024-05-14"
,"contact_4":"desk@example.co.uk","ref_4":"0b5f4a2c-7e1d-4c3b-9a8f-2d6e4f1a0c94"
,"price_4":1000}`),
	// Ten violations: minLength, pattern, enum, maximum (integer and
	// number), item maxLength, minItems, item maximum, exclusiveMinimum and
	// date format.
	Invalid: []byte(`{"name_0":"","code_0":"GB1000","status_0":"draft","count_0":0,"ratio_0":0.25
,"enabled_0":true,"tags_0":["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],"scores_0":[0]
,"start_0":"2024-01-10","contact_0":"ops@example.com"
,"ref_0":"0b5f0a2c-7e1d-4c3b-9a8f-2d6e4f1a0c90","price_0":9.5,"name_1":"Listing name 1"
,"code_1":"gb12","status_1":"active","count_1":123,"ratio_1":0.5,"enabled_1":false
,"tags_1":["new","sale"],"scores_1":[],"start_1":"2024-02-11"
,"contact_1":"a.b@example.org","ref_1":"0b5f1a2c-7e1d-4c3b-9a8f-2d6e4f1a0c91"
,"price_1":120,"name_2":"Listing name 2","code_2":"GB1074","status_2":"deleted"
,"count_2":246,"ratio_2":0.75,"enabled_2":true,"tags_2":["new","sale","eco"]
,"scores_2":[101],"start_2":"2024-03-12","contact_2":"team+x@example.net"
,"ref_2":"0b5f2a2c-7e1d-4c3b-9a8f-2d6e4f1a0c92","price_2":3.25,"name_3":"Listing name 3"
,"code_3":"GB1111","status_3":"archived","count_3":10001,"ratio_3":1,"enabled_3":false
,"tags_3":["new"],"scores_3":[30],"start_3":"2024-04-13","contact_3":"x@example.io"
,"ref_3":"0b5f3a2c-7e1d-4c3b-9a8f-2d6e4f1a0c93","price_3":0,"name_4":"Listing name 4"
,"code_4":"GB1148","status_4":"active","count_4":492,"ratio_4":1.5,"enabled_4":true
,"tags_4":["new","sale"],"scores_4":[40,50],"start_4":"2024-02-30"
,"contact_4":"desk@example.co.uk","ref_4":"0b5f4a2c-7e1d-4c3b-9a8f-2d6e4f1a0c94"
,"price_4":1000}`),
}

func TestAgree(t *testing.T) { benchCase.Agree(t) }

func TestValidateAllocs(t *testing.T) { benchCase.ZeroAllocs(t) }

func BenchmarkDecodeValid(b *testing.B)     { benchCase.BenchDecode(b, true) }
func BenchmarkDecodeInvalid(b *testing.B)   { benchCase.BenchDecode(b, false) }
func BenchmarkValidateValid(b *testing.B)   { benchCase.BenchValidate(b, true) }
func BenchmarkValidateInvalid(b *testing.B) { benchCase.BenchValidate(b, false) }
