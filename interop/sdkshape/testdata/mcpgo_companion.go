// Hand-written companion of mcpgen's output in mcp-go's mcp package. mcp-go needs nothing beside
// the generated types that its own files do not declare: its methods on them (GetName,
// SetCacheHints, NeedsInput, the content markers, ...) stay in its files, on the generated types.
// run.sh -sdk mcp-go copies it into the package as zz_sdkshape_companion.go.

package mcp
