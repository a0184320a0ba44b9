package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlagsDocumented: docs/generator.md, the page about running mcpgen, names every flag.
func TestFlagsDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "generator.md"))
	require.NoError(t, err)
	var o options
	n := 0
	newFlagSet(&o).VisitAll(func(f *flag.Flag) {
		n++
		named := regexp.MustCompile("[\\s`]-" + regexp.QuoteMeta(f.Name) + "[\\s`]")
		assert.Regexp(t, named, string(data), "docs/generator.md does not name -%s", f.Name)
	})
	assert.Greater(t, n, 5, "the flags")
}
