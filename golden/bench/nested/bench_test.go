package nested

import (
	_ "embed"
	"testing"

	"github.com/toolgen-go/toolgen/golden/bench/internal/rival"
)

//go:embed tools.json
var toolsJSON []byte

// benchCase is create_order: objects in arrays in objects three levels
// deep, enums, patterns, formats (uuid, email, date, date-time), bounds and
// uniqueItems.
var benchCase = &rival.Case{
	Tool:       "create_order",
	Tools:      toolsJSON,
	DecodeArgs: DecodeArgs,
	Params:     func() rival.Validator { return new(CreateOrderParams) },
	Valid: []byte(`{
  "customer": {"id": "3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a12", "email": "ada@example.com", "name": "Ada Lovelace", "tier": "gold"},
  "items": [
    {"sku": "BOK-102938", "quantity": 2, "unit_price": 24.5, "options": [{"name": "gift_wrap", "value": "blue paper"}], "tags": ["books", "gift"]},
    {"sku": "MUG-5521", "quantity": 1, "unit_price": 12, "options": [{"name": "color", "value": "black"}, {"name": "engraving", "value": "A.L."}]},
    {"sku": "TEE-88001234", "quantity": 3, "unit_price": 19.99, "options": [{"name": "size", "value": "M"}, {"name": "color", "value": "white"}], "tags": ["apparel"]}
  ],
  "shipping": {"method": "express", "address": {"line1": "12 St James's Square", "city": "London", "postal_code": "SW1Y 4JH", "country": "GB"}, "requested_date": "2024-06-14"},
  "payment": {"method": "card", "currency": "GBP", "installments": 3},
  "notes": "Leave with the concierge.",
  "placed_at": "2024-06-10T09:15:00+01:00"
}`),
	Invalid: []byte(`{
  "customer": {"id": "3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a12", "email": "ada@example.com", "name": "", "tier": "platinum"},
  "items": [
    {"sku": "BOK-102938", "quantity": 0, "unit_price": 24.5, "options": [{"name": "gift-wrap", "value": "blue paper"}], "tags": ["books", "books"]},
    {"sku": "mug5521", "quantity": 1, "unit_price": -12}
  ],
  "shipping": {"method": "drone", "address": {"line1": "12 St James's Square", "city": "London", "country": "UK"}},
  "payment": {"method": "card", "currency": "gbp", "installments": 24}
}`),
}

func TestAgree(t *testing.T) { benchCase.Agree(t) }

func TestValidateAllocs(t *testing.T) { benchCase.ZeroAllocs(t) }

func BenchmarkDecodeValid(b *testing.B)     { benchCase.BenchDecode(b, true) }
func BenchmarkDecodeInvalid(b *testing.B)   { benchCase.BenchDecode(b, false) }
func BenchmarkValidateValid(b *testing.B)   { benchCase.BenchValidate(b, true) }
func BenchmarkValidateInvalid(b *testing.B) { benchCase.BenchValidate(b, false) }
