package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigMistakes runs mcpgen on a configuration with independent mistakes of every family
// (names the schema does not have, collisions, shape keys, embed, substitutes): one run prints
// them all, one a line, sorted, each at its entry's line and column, as testdata/mistakes/errors.txt
// has them (rewrite with -update); it exits with status 2 and leaves the previous output as it was.
func TestConfigMistakes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mcp")
	var stderr bytes.Buffer
	require.NoError(t, run([]string{"-spec", "2026-07-28", "-o", out}, &stderr, &stderr))
	before := snapshot(t, out)

	stderr.Reset()
	cfg := filepath.Join("testdata", "mistakes", "mcpgen.yaml")
	assert.Equal(t, 2, cli([]string{"-config", cfg, "-o", out}, &stderr, &stderr))
	golden := filepath.Join("testdata", "mistakes", "errors.txt")
	if *update {
		require.NoError(t, os.WriteFile(golden, stderr.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), stderr.String())
	assert.Equal(t, before, snapshot(t, out), "a failed run writes nothing")
	// Every mistake of the file is one line, at the line of its comment there.
	src, err := os.ReadFile(cfg)
	require.NoError(t, err)
	var lines []string
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "# a") {
			lines = append(lines, fmt.Sprintf("mcpgen: %s:%d:", cfg, i+1))
		}
	}
	got := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	require.Len(t, got, len(lines))
	for i, line := range got {
		assert.True(t, strings.HasPrefix(line, lines[i]), "%s: want %s", line, lines[i])
	}
	// docs/configuration.md shows some of them, as printed.
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	require.NoError(t, err)
	_, block, found := strings.Cut(string(page), "TestConfigMistakes compares with this block -->\n```\n")
	require.True(t, found, "docs/configuration.md shows the errors")
	block, _, _ = strings.Cut(block, "```")
	require.NotEmpty(t, block)
	for line := range strings.Lines(block) {
		assert.Contains(t, got, strings.TrimSuffix(line, "\n"), "docs/configuration.md")
	}
}

// TestConfigMistakesCapped: more mistakes than model.MaxErrors are the first twenty, by position,
// and how many more there are.
func TestConfigMistakesCapped(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("rename:\n")
	for i := range 25 {
		fmt.Fprintf(&b, "  Missing%02d: Name%02d\n", i, i)
	}
	cfg := writeFile(t, filepath.Join(dir, "mcpgen.yaml"), b.String())
	out := filepath.Join(dir, "mcp")
	var stderr bytes.Buffer
	assert.Equal(t, 2, cli([]string{"-config", cfg, "-o", out}, &stderr, &stderr))
	got := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	require.Len(t, got, 21)
	for i, line := range got[:20] {
		assert.Equal(t, fmt.Sprintf("mcpgen: %s:%d:14: rename: the schema declares no Missing%02d", cfg, i+2, i), line)
	}
	assert.Equal(t, "mcpgen: and 5 more", got[20])
	assert.NoDirExists(t, out)
}
