// Package names is toolgen's one naming module: it turns wire names (tool
// names, JSON property names, enum values) into Go identifiers.
//
// schema.Compile calls it while building the IR, so every ir.Tool, ir.Type,
// ir.Field and ir.EnumValue carries a decided GoName and the generator never
// invents names. GoName camel-cases with Go initialisms (target_id →
// TargetID), spells out symbols that carry meaning (60+ → X60Plus, 0-18 →
// X0To18), and prefixes names that cannot start an exported identifier
// (当前状态 → X当前状态). A Scope hands out unique names within one Go
// namespace (a struct's fields, a package's types and constants), with
// deterministic numeric suffixes in declaration order and reserved names
// (generated methods, imported packages) kept free.
package names
