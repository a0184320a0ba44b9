// Hand-written companion of mcpgen's output in go-sdk's mcp package: the declarations that
// go-sdk's code needs next to the generated protocol types and that the schema does not have.
// run.sh copies it into the package as zz_sdkshape_companion.go.

package mcp
