package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench"
	"github.com/mcpgen/mcpgen/bench/internal/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// render turns results into the targets table and one table per operation and corpus, with the
// reason in place of the numbers of a contender that cannot hold a corpus.
func TestRender(t *testing.T) {
	corpora, err := bench.Corpora("../../..")
	require.NoError(t, err)

	var out strings.Builder
	fmt.Fprintln(&out, "cpu: Test CPU\ncores: 2\ngo: go1.26.8")
	line := func(name string, ns, allocs float64) {
		fmt.Fprintf(&out, "%s-2 \t 100 \t %g ns/op \t 10.00 MB/s \t 1000 B/op \t %g allocs/op\n", name, ns, allocs)
	}
	for _, c := range []string{sampling, toolList} {
		line("BenchmarkDecode/"+c+"/mcpgen-draft", 1000, 100)
		line("BenchmarkDecode/"+c+"/go-sdk", 25000, 2000)
		line("BenchmarkDecode/"+c+"/jx.Skip", 400, 0)
		fmt.Fprintf(&out, "BenchmarkDecode/%s/mcp-go\n    bench_test.go:1: cannot hold: lost /x\n--- SKIP: BenchmarkDecode/%s/mcp-go\n", c, c)
		line("BenchmarkEncode/"+c+"/mcpgen-draft", 1300, 2)
		line("BenchmarkEncode/"+c+"/json.Compact", 1000, 0)
	}
	res, err := results.Parse(strings.NewReader(out.String()))
	require.NoError(t, err)
	text := render(res, corpora)

	for _, row := range []string{
		"| decode (and Validate) within 2× of jx.Skip | sampling-40msg | 2.50× jx.Skip | no |",
		"| decode at least 20× faster than go-sdk | sampling-40msg | 25.0× faster | yes |",
		"| encode within 1.2× of json.Compact | tools-list-200 | 1.30× json.Compact | no |",
		"| allocs per decode at most 1/10 of go-sdk's | sampling-40msg | 0.05× go-sdk's (100 vs 2,000) | yes |",
		"| mcp-go | mcp.CreateMessageParams | cannot hold: lost /x |",
		"| mcpgen-draft | mcpdraft.CreateMessageRequestParams | 1 µs | 0% | 10 | 1000 B | 100 | 1× | 0.04× | 2.5× |",
		"| mcpgen-2025-11-25 | mcp20251125.CreateMessageRequestParams | not run |",
	} {
		assert.Contains(t, text, row)
	}
	// Corpora with no results have no table.
	assert.NotContains(t, text, "Decode call-tool-result")
}
