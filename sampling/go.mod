module github.com/mcpgen/mcpgen/sampling

go 1.26

require github.com/mcpgen/mcpgen/gen v0.0.0-00010101000000-000000000000

replace github.com/mcpgen/mcpgen/gen => ../gen
