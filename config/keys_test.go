package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyCell is the first cell of a row of a table of keys: | `key` | or, in a row that points to
// other keys, | `a`, `b`, `c` |.
var keyCell = regexp.MustCompile("^ `[A-Za-z]+`(, `[A-Za-z]+`)* $")

// TestKeysDocumented: every key that Parse knows has a row of its own in the table of
// docs/configuration.md (the basic keys) or of docs/sdk-shapes.md (an SDK's own shapes), and the
// tables name no key that Parse does not know.
func TestKeysDocumented(t *testing.T) {
	own := map[string]bool{} // keys with a row of their own
	for _, page := range []string{"configuration.md", "sdk-shapes.md"} {
		data, err := os.ReadFile(filepath.Join("..", "docs", page))
		require.NoError(t, err)
		for _, line := range strings.Split(string(data), "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 4 || cells[0] != "" || !keyCell.MatchString(cells[1]) {
				continue
			}
			named := strings.Split(strings.TrimSpace(cells[1]), ", ")
			for _, key := range named {
				key = strings.Trim(key, "`")
				assert.Contains(t, keys, key, "docs/%s names %q, which is no key", page, key)
				if len(named) == 1 {
					own[key] = true
				}
			}
		}
	}
	for _, key := range keys {
		assert.True(t, own[key], "no row of its own for the key %q in docs/configuration.md or docs/sdk-shapes.md", key)
	}
}
