module github.com/mcpgen/mcpgen/examples

go 1.26.0

replace (
	github.com/mcpgen/mcpgen/gen => ../gen
	github.com/mcpgen/mcpgen/sampling => ../sampling
	github.com/mcpgen/mcpgen/sampling/gosdk => ../sampling/gosdk
)

require (
	github.com/mcpgen/mcpgen/gen v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen/sampling v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen/sampling/gosdk v0.0.0-00010101000000-000000000000
	github.com/modelcontextprotocol/go-sdk v1.8.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
