// Package bench measures the JSON codecs of mcpgen's generated types against the Go MCP SDKs'
// types, encoding/json on map[string]any, and floors that build no value.
//
// It holds the corpora (the spec's examples, and sampling requests and tool lists constructed
// deterministically by [SamplingRequest] and [ToolsList]), the contenders ([Contenders]: a codec
// per corpus type each), the floors ([Floors]), and the round-trip check ([Hold]) that decides
// whether a contender holds a corpus, and so whether it is timed on it. It also holds the hostile
// shapes ([HostileShapes]: a 50 MB string, a million members, a million elements,
// nesting near the depth limit), decoded by mcpgen and by encoding/json into an any
// ([HostileDecoders]). The benchmarks are in bench_test.go and hostile_test.go; cmd/benchtable
// and cmd/benchplot run them and print the tables and the plot of docs/benchmarks.md.
//
// The module is apart from gen/ so that gen/ gains no dependency: only this module requires the
// SDKs, jx and the JSON Schema validator.
package bench
