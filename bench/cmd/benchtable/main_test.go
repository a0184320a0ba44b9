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
		line("BenchmarkDecode/"+c+"/mcpgen-draft-nocopy", 800, 100)
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
		"| decode (and Validate) within 2× of jx.Skip | sampling-40msg | mcpgen-draft | 2.50× jx.Skip | no |",
		"| decode (and Validate) within 2× of jx.Skip | sampling-40msg | mcpgen-draft-nocopy | 2.00× jx.Skip | yes |",
		"| decode at least 20× faster than go-sdk | sampling-40msg | mcpgen-draft | 25.0× faster | yes |",
		"| decode at least 20× faster than go-sdk | sampling-40msg | mcpgen-draft-nocopy | 31.2× faster | yes |",
		"| encode within 1.2× of json.Compact | tools-list-200 | mcpgen-draft | 1.30× json.Compact | no |",
		"| allocs per decode at most 1/10 of go-sdk's | sampling-40msg | mcpgen-draft | 0.05× go-sdk's (100 vs 2,000) | yes |",
		"| mcp-go | mcp.CreateMessageParams | cannot hold: lost /x |",
		"| mcpgen-draft | mcpdraft.CreateMessageRequestParams | 1 µs | 0% | 10 | 1000 B | 100 | 1× | 1.2× | 0.04× | 2.5× |",
		"| mcpgen-2025-11-25 | mcp20251125.CreateMessageRequestParams | not run |",
	} {
		assert.Contains(t, text, row)
	}
	// A contender that only decodes has no row in the encode tables.
	assert.Equal(t, 2, strings.Count(text, "| mcpgen-draft-nocopy | mcpdraft."), "a row in each decode table")
	// Corpora with no results have no table.
	assert.NotContains(t, text, "Decode call-tool-result")
}

// renderHostile turns results of BenchmarkHostile into the summary against the hostile-shape target and a table
// per shape, with the time per unit and its growth from the smallest size to the largest that ran.
func TestRenderHostile(t *testing.T) {
	var out strings.Builder
	fmt.Fprintln(&out, "cpu: Test CPU\ncores: 2\ngo: go1.26.8\nrounds: 3")
	line := func(name string, ns float64) {
		fmt.Fprintf(&out, "%s-2 \t 1 \t %g ns/op \t 10.00 MB/s \t 1000 B/op \t 7 allocs/op\n", name, ns)
	}
	// string: linear, twice as fast as any; meta-members: 3 times slower per member at 1M.
	for i, size := range []string{"1MB", "10MB", "50MB"} {
		n := []float64{1, 10, 50}[i]
		line("BenchmarkHostile/string/"+size+"/mcpgen-draft", 1e6*n)
		line("BenchmarkHostile/string/"+size+"/any", 2e6*n)
		line("BenchmarkHostile/string/"+size+"/jx.Skip", 0.5e6*n)
	}
	for i, size := range []string{"10k", "100k", "1M"} {
		n := []float64{1e4, 1e5, 1e6}[i]
		per := []float64{100, 100, 300}[i]
		line("BenchmarkHostile/meta-members/"+size+"/mcpgen-draft", per*n)
		line("BenchmarkHostile/meta-members/"+size+"/any", 2*per*n)
		line("BenchmarkHostile/meta-members/"+size+"/jx.Skip", 10*n)
	}
	// deep-arrays: the largest size skipped (-short).
	line("BenchmarkHostile/deep-arrays/100/mcpgen-draft", 1000)
	line("BenchmarkHostile/deep-arrays/100/any", 5000)
	line("BenchmarkHostile/deep-arrays/100/jx.Skip", 500)
	line("BenchmarkHostile/deep-arrays/1000/mcpgen-draft", 10000)
	line("BenchmarkHostile/deep-arrays/1000/any", 50000)
	line("BenchmarkHostile/deep-arrays/1000/jx.Skip", 5000)
	fmt.Fprintln(&out, "BenchmarkHostile/deep-arrays/9999\n    hostile_test.go:1: the largest size is not run under -short\n--- SKIP: BenchmarkHostile/deep-arrays/9999")
	res, err := results.Parse(strings.NewReader(out.String()))
	require.NoError(t, err)
	text := renderHostile(res)

	for _, row := range []string{
		"| string | 50MB | 0.5× | yes | 1.00 (1.00 ns per byte, from 1MB) | yes | 1.00 | 1.00 |",
		"| meta-members | 1M members | 0.5× | yes | 3.00 (300 ns per member, from 10k) | no | 3.00 | 1.00 |",
		"| deep-arrays | 1000 levels | 0.2× | yes | 1.00 (10 ns per level, from 100) | yes | 1.00 | 1.00 |",
		"| 1M | 17.1 MiB | 300 ms | 0% | 10 | 1000 B | 7 | 600 ms | 0% | 10 | 1000 B | 7 | 10 ms | 0% | 10 | 0.5× | 300 ns | 600 ns |",
		"| 9999 | 19.6 KiB | the largest size is not run under -short |",
	} {
		assert.Contains(t, text, row)
	}
	assert.NotContains(t, text, "**content-array**", "a shape with no results has no table")
}
