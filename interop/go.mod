module github.com/mcpgen/mcpgen/interop

go 1.26.0

replace (
	github.com/mcpgen/mcpgen => ../
	github.com/mcpgen/mcpgen/gen => ../gen
)

require (
	github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen/gen v0.0.0-00010101000000-000000000000
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/yosida95/uritemplate/v3 v3.0.2
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.2.1 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
