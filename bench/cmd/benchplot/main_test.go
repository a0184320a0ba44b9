package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fits tell linear growth from growth faster than the size, and name what was not timed.
func TestFits(t *testing.T) {
	sizes := map[string]int{}
	var out strings.Builder
	for i, n := range []int{1 << 10, 10 << 10, 100 << 10, 1 << 20, 10 << 20} {
		size := fmt.Sprintf("size=%d", i)
		sizes[size] = n
		fmt.Fprintf(&out, "BenchmarkScale/%s/linear-2 \t 10 \t %d ns/op\n", size, 5*n)
		fmt.Fprintf(&out, "BenchmarkScale/%s/jx.Skip-2 \t 10 \t %d ns/op\n", size, n)
		fmt.Fprintf(&out, "BenchmarkScale/%s/quadratic-2 \t 10 \t %d ns/op\n", size, n/1000*n/1000+1000)
		if i == 0 {
			fmt.Fprintf(&out, "BenchmarkScale/%s/lossy-2 \t 10 \t %d ns/op\n", size, n)
		} else {
			fmt.Fprintf(&out, "BenchmarkScale/%s/lossy\n    bench_test.go:1: cannot hold: lost /x\n--- SKIP: BenchmarkScale/%s/lossy\n", size, size)
		}
	}
	res, err := results.Parse(strings.NewReader(out.String()))
	require.NoError(t, err)
	series, skipped, err := collect(res, sizes)
	require.NoError(t, err)
	require.Len(t, series, 4)
	assert.Len(t, skipped["lossy"], 4)

	text := fits(res, series, skipped)
	assert.Contains(t, text, "| linear | 1 KiB to 10 MiB | 1.00 | 1.00 | 1.00 | 0.00 | 5.00 | 5.00 | linear |")
	assert.Regexp(t, `\| quadratic \|.*\| superlinear \|`, text)
	assert.Contains(t, text, "lossy is not timed at 4 sizes: size=1: cannot hold: lost /x")

	svg, err := newPlot(res, series, skipped).SVG()
	require.NoError(t, err)
	assert.Contains(t, string(svg), "linear: slope 1.00")
	assert.Contains(t, string(svg), "lossy: 1 point (not timed at 4 sizes: cannot hold them)")
}
