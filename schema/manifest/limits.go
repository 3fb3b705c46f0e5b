package manifest

// LimitKeys are the manifest keys under limits:, by limits.Limits field, in
// documentation order.
var LimitKeys = []string{
	"max_depth", "max_properties", "max_enum", "max_ref_expansions",
	"max_pattern_size", "max_identifier_length", "max_output_bytes",
	"max_input_bytes",
}
