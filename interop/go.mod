module github.com/mcpgen/mcpgen/interop

go 1.26

replace github.com/mcpgen/mcpgen/gen => ../gen

require (
	github.com/mcpgen/mcpgen/gen v0.0.0-00010101000000-000000000000
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/yosida95/uritemplate/v3 v3.0.2
)

require golang.org/x/text v0.14.0 // indirect
