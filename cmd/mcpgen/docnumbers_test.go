package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/config"
)

// lines counts the lines of generated files: all of them, and the runtime's (wire*.go).
func lines(files map[string][]byte) (all, runtime int) {
	for name, data := range files {
		n := strings.Count(string(data), "\n")
		all += n
		if strings.HasPrefix(name, "wire") {
			runtime += n
		}
	}
	return all, runtime
}

// generateLines generates an embedded version with the configuration text cfg (YAML, "" for
// none) and counts the lines of the output.
func generateLines(t *testing.T, version, cfg string) (all, runtime int) {
	t.Helper()
	file := &config.File{}
	if cfg != "" {
		var err error
		file, err = config.Parse("mcpgen.yaml", []byte(cfg))
		require.NoError(t, err)
	}
	in, err := openInput("", version)
	require.NoError(t, err)
	in.cfg = file
	require.NoError(t, in.load())
	pkg := file.Package
	if pkg == "" {
		pkg = packageFor(version)
	}
	config.SubstituteKinds(&file.Config, t.TempDir())
	files, err := in.generate(pkg, file)
	require.NoError(t, err)
	return lines(files)
}

// about is n as the docs write a count: rounded to two significant digits, with thousands
// separated by commas (30,149 is "30,000", 3,107 is "3,100").
func about(n int) string {
	if n < 100 {
		return strconv.Itoa(n)
	}
	scale := math.Pow(10, math.Floor(math.Log10(float64(n)))-1)
	r := int(math.Round(float64(n)/scale) * scale)
	s := strconv.Itoa(r)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestAbout(t *testing.T) {
	for n, want := range map[int]string{30149: "30,000", 3107: "3,100", 9749: "9,700", 25291: "25,000", 1549: "1,500", 95: "95", 150: "150", 1_049_000: "1,000,000"} {
		assert.Equal(t, want, about(n), "%d", n)
	}
}

// TestDocNumbers: the line counts that docs/configuration.md gives are what mcpgen generates now,
// as the docs round them (about): the default output of 2026-07-28 and its runtime, the output of
// the page's own configuration example, and the draft with and without validators.
func TestDocNumbers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(data)), " ") // the sentences, whatever their line breaks
	example := regexp.MustCompile("(?s)<!-- README test: write sdk/mcpgen.yaml -->\n```yaml\n(.*?)```").FindSubmatch(data)
	require.NotNil(t, example, "docs/configuration.md's example configuration")

	all, runtime := generateLines(t, "2026-07-28", "")
	sdk, sdkRuntime := generateLines(t, "2026-07-28", string(example[1]))
	draft, _ := generateLines(t, "draft", "")
	novalidate, _ := generateLines(t, "draft", "validate: false\n")
	for _, c := range []struct {
		sentence string // the doc's, with %s for each count
		counts   []int
	}{
		{"about %s lines for 2026-07-28, of which about %s are the JSON runtime (wire*.go)", []int{all, runtime}},
		{"generates about %s lines (%s without the runtime)", []int{sdk, sdk - sdkRuntime}},
		{"The draft without validators is about %s lines instead of %s.", []int{novalidate, draft}},
		{"the runtime (wire*.go, about %s lines of unexported code the codecs call)", []int{runtime}},
	} {
		var args []any
		for _, n := range c.counts {
			args = append(args, about(n))
		}
		want := fmt.Sprintf(c.sentence, args...)
		assert.Contains(t, doc, want, "docs/configuration.md should say %q (the counts: %v)", want, c.counts)
		t.Logf("%s (%v)", want, c.counts)
	}
}

// TestStatusNumbers: docs/status.md's count of the examples that the draft and 2026-07-28
// round-trip (gen's example tests fail unless they round-trip them all) is the number of their
// example files.
func TestStatusNumbers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "status.md"))
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(data)), " ")
	var counts []int
	for _, v := range []string{"draft", "2026-07-28"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "schema", v, "examples", "*", "*.json"))
		require.NoError(t, err)
		counts = append(counts, len(files))
	}
	require.Equal(t, counts[0], counts[1], "the draft and 2026-07-28 have as many examples")
	assert.Contains(t, doc, fmt.Sprintf("the draft and 2026-07-28 round-trip all %d of their examples", counts[0]))
}
