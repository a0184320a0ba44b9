package mcp

// The MCP types of example.com/mysdk: the part of the 2026-07-28 schema the SDK uses, shaped by
// mcpgen.yaml, and the types of its UI extension (ui.ts), shaped by ui.yaml, in the same package.

//go:generate go tool mcpgen -spec 2026-07-28 -config mcpgen.yaml -o .
//go:generate go tool mcpgen -schema ui.ts -spec ui-1 -config ui.yaml -o .
