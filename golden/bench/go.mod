// The comparative benchmarks live in their own module so that consumers of
// toolgen never inherit the rival validators they measure against.
module github.com/toolgen-go/toolgen/golden/bench

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/toolgen-go/toolgen v0.0.0
	github.com/xeipuuv/gojsonschema v1.2.0
)

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/xeipuuv/gojsonpointer v0.0.0-20180127040702-4e3ac2762d5f // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/toolgen-go/toolgen => ../..
