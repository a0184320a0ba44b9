package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLintSpec runs mcpgen -lint-spec as a spec author does: the findings on stdout, one a line,
// and the exit status 1 when there are any, 0 when there are none, 2 when the directory is not a
// spec repository or the command line is wrong.
func TestLintSpec(t *testing.T) {
	cases := filepath.Join("..", "..", "internal", "speclint", "testdata")
	golden, err := os.ReadFile(filepath.Join(cases, "override.golden"))
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string // a part of it
	}{
		{"findings", []string{"-lint-spec", filepath.Join(cases, "override")}, 1, string(golden),
			"mcpgen: found 3 contradictions of the spec in 1 version ("},
		{"none", []string{"-lint-spec", filepath.Join(cases, "override-clean")}, 0, "", ""},
		{"silenced", []string{"-lint-spec", filepath.Join(cases, "allow-list-clean")}, 0, "",
			"mcpgen: 2 findings silenced by " + filepath.Join(cases, "allow-list-clean", "mcpgen-lint-spec.allow")},
		{"not a repository", []string{"-lint-spec", cases}, 2, "", "no schema directory"},
		{"no directory", []string{"-lint-spec", filepath.Join(cases, "nope")}, 2, "", "no such file or directory"},
		{"a file", []string{"-lint-spec", filepath.Join(cases, "override.golden")}, 2, "", "not a directory"},
		{"with another flag", []string{"-lint-spec", cases, "-o", "x"}, 2, "", "-lint-spec takes the directory"},
		{"with an argument", []string{"-lint-spec", cases, "more"}, 2, "", "-lint-spec takes the directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := cli(tc.args, &stdout, &stderr)
			assert.Equal(t, tc.status, status, "stderr: %s", stderr.String())
			assert.Equal(t, tc.stdout, stdout.String())
			assert.True(t, strings.Contains(stderr.String(), tc.stderr), "stderr %q, want it to contain %q", stderr.String(), tc.stderr)
		})
	}
}
