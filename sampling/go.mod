module github.com/mcpgen/mcpgen/sampling

go 1.26

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/mcpgen/mcpgen/gen v0.0.0-00010101000000-000000000000
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
)

require golang.org/x/text v0.14.0 // indirect

replace github.com/mcpgen/mcpgen/gen => ../gen
