package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "run.txt"))
	require.NoError(t, err)
	defer f.Close()
	res, err := Parse(f)
	require.NoError(t, err)

	assert.Equal(t, "go1.26.8", res.Value("go"))
	assert.Equal(t, "Oxide Virtual Turin-like Processor", res.Value("cpu"))
	assert.Equal(t, "github.com/mcpgen/mcpgen/bench", res.Value("pkg"))

	require.Len(t, res.Benchmarks, 2)
	mcpgen := res.Get("BenchmarkDecode/sampling-40msg/mcpgen-draft")
	require.NotNil(t, mcpgen, "the -GOMAXPROCS suffix is not part of the name")
	require.Len(t, mcpgen.Samples, 4)
	assert.Equal(t, Sample{N: 1000, NsPerOp: 500000, MBPerS: 115, BPerOp: 100000, AllocsOp: 1000}, mcpgen.Samples[0])

	median, spread := mcpgen.Median(NsPerOp)
	assert.Equal(t, 475000.0, median, "the median of an even count is the mean of the middle two")
	assert.InDelta(t, 225000.0/475000, spread, 1e-9)

	jx := res.Get("BenchmarkDecode/sampling-40msg/jx.Skip")
	require.NotNil(t, jx)
	median, spread = jx.Median(AllocsOp)
	assert.Equal(t, 0.0, median)
	assert.Equal(t, 0.0, spread)

	assert.Equal(t, map[string]string{
		"BenchmarkDecode/sampling-40msg/mcp-go": "cannot hold: re-encodes differently: /tools/0/annotations added ({})",
	}, res.Skipped)
}

func TestParseRejectsFailures(t *testing.T) {
	_, err := Parse(strings.NewReader("BenchmarkX\n--- FAIL: BenchmarkX\n"))
	assert.ErrorContains(t, err, "line 2")
	_, err = Parse(strings.NewReader("BenchmarkX-2 \t 10 \t 12 furlongs/op\n"))
	assert.ErrorContains(t, err, "no ns/op")
}

func TestFormats(t *testing.T) {
	assert.Equal(t, "850 ns", Duration(850))
	assert.Equal(t, "12.3 µs", Duration(12345))
	assert.Equal(t, "3.71 ms", Duration(3.71e6))
	assert.Equal(t, "1.52 s", Duration(1.52e9))
	assert.Equal(t, "904 B", Bytes(904))
	assert.Equal(t, "1.38 MiB", Bytes(1.38*(1<<20)))
	assert.Equal(t, "1010 KiB", Bytes(1010*(1<<10)))
	assert.Equal(t, "1,050,145", Count(1050145))
	assert.Equal(t, "999", Count(999))
	assert.Equal(t, "0.053×", Ratio(0.053))
	assert.Equal(t, "3.6×", Ratio(3.6))
	assert.Equal(t, "48×", Ratio(48.2))
}

func TestReplaceBlock(t *testing.T) {
	file := filepath.Join(t.TempDir(), "README.md")
	require.NoError(t, os.WriteFile(file, []byte("a\n<!-- x:begin -->\nold\n<!-- x:end -->\nb\n"), 0o644))
	require.NoError(t, ReplaceBlock(file, "x", "new\n"))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "a\n<!-- x:begin -->\nnew\n<!-- x:end -->\nb\n", string(data))
	assert.Error(t, ReplaceBlock(file, "y", "new\n"))
}
