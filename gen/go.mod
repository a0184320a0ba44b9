module github.com/mcpgen/mcpgen/gen

go 1.23.0
