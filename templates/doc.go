// Package templates holds the text templates for the non-Go files toolgen
// writes when it scaffolds a new tool family (toolgen new): the starter tool
// definitions, the manifest and the family README.
//
// Data flow: the CLI's new command renders FamilyFiles into a temporary
// folder and runs the ordinary pipeline (schema, generator) on the
// tools.json and toolgen.yaml there; only when that succeeds without a
// warning are the files copied into the new folder. Go code is never
// templated; generator builds it with jennifer.
package templates
