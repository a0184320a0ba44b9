// Package sdkshape proves that mcpgen can generate an existing SDK's own protocol API: go-sdk
// v1.8.0's mcp package, with its hand-written protocol types replaced by mcpgen's output
// (configured by gosdk.yaml and gosdk-20251125.yaml) and the small companion in testdata, is
// vetted and tested by go-sdk's own test suite (run.sh). The package has no code of its own:
// its test measures how much of go-sdk's API the output keeps. See README.md.
package sdkshape
