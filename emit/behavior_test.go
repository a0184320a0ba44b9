package emit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBehavior runs, next to the package generated for each testdata/X.ts, the tests of
// testdata/X.behavior_test.go: presence, defaults, errors and union decisions of the generated
// code.
func TestBehavior(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	helpers, err := os.ReadFile("testdata/helpers.behavior_test.go")
	require.NoError(t, err)
	for _, file := range goldenInputs(t) {
		tests, err := os.ReadFile(strings.TrimSuffix(file, ".ts") + ".behavior_test.go")
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			files := generate(t, load(t, file, "test"), "mcptest")
			files["behavior_test.go"] = tests
			files["helpers_test.go"] = helpers
			goTool(t, writeModule(t, "mcptest", files), "test", "./...")
		})
	}
}
