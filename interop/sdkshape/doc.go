// Package sdkshape proves that mcpgen can generate an existing SDK's own protocol API, on two
// SDKs: go-sdk v1.8.0's mcp package (configured by gosdk.yaml and gosdk-20251125.yaml) and
// mcp-go v1.2.1's (mcpgo.yaml and mcpgo-20251125.yaml), each with its hand-written protocol
// types replaced by mcpgen's output and a small companion in testdata, vetted and tested by the
// SDK's own test suite (run.sh, run.sh -sdk mcp-go). The package has no code of its own: its
// tests measure how much of each SDK's API the output keeps. See README.md.
package sdkshape
