package bench

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/hold.txt")

// TestHold decides, with a real round trip, which contender holds which corpus (and which
// request of the scaling series); the benchmarks time only those. The findings are kept in
// testdata/hold.txt, so a change of any contender's behavior (a new SDK release, the generated
// Validate) shows up here first: rewrite the file with -update and say why in the commit.
func TestHold(t *testing.T) {
	var lines []string
	record := func(c Corpus, k Contender) {
		codec, err := status(k, c)
		line := fmt.Sprintf("%s %s (%s): holds", c.Name, k.Name, codec.GoType)
		if err != nil {
			line = fmt.Sprintf("%s %s (%s): %v", c.Name, k.Name, codec.GoType, err)
		}
		lines = append(lines, line)
		if k.Name == "mcpgen-draft" || k.Name == "mcpgen-draft-nocopy" {
			// The design's promise (DESIGN.md: lossless round trips), not a finding.
			assert.NoError(t, err, "%s: %s must hold every corpus", c.Name, k.Name)
		}
	}
	for _, c := range corpora(t) {
		for _, k := range Contenders() {
			record(c, k)
		}
	}
	for _, c := range ScaleSeries() {
		for _, k := range Contenders() {
			for _, name := range scaleContenders {
				if k.Name == name {
					record(c, k)
				}
			}
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	file := filepath.Join("testdata", "hold.txt")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "the contenders' round trips changed: check, then run go test -run TestHold -update")
}

func TestDiffJSON(t *testing.T) {
	for _, tc := range []struct {
		name, want, got string
		diffs           []string
	}{
		{"member order is not a difference", `{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1}`, nil},
		{"numbers compare by value", `{"a":1.0,"b":100,"c":2.5e1}`, `{"a":1,"b":1e2,"c":25}`, nil},
		{"big integers stay exact", `{"a":12345678901234567890}`, `{"a":12345678901234567000}`,
			[]string{"/a: 12345678901234567890 became 12345678901234567000"}},
		{"dropped member", `{"a":{"b":false,"c":1}}`, `{"a":{"c":1}}`, []string{"/a/b dropped (was false)"}},
		{"added member", `{"a":[]}`, `{"a":[],"n":{}}`, []string{"/n added ({})"}},
		{"changed kind", `{"a":"1"}`, `{"a":1}`, []string{`/a: "1" became 1`}},
		{"array form", `{"c":[{"t":1}]}`, `{"c":{"t":1}}`, []string{`/c: [{"t":1}] became {"t":1}`}},
		{"array length", `[1,2]`, `[1]`, []string{"the document: [1,2] became [1]"}},
		{"pointer escapes", `{"a/b":{"~":1}}`, `{"a/b":{"~":2}}`, []string{"/a~1b/~0: 1 became 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs, err := DiffJSON([]byte(tc.want), []byte(tc.got))
			require.NoError(t, err)
			var got []string
			for _, d := range diffs {
				got = append(got, d.String())
			}
			assert.Equal(t, tc.diffs, got)
		})
	}
	_, err := DiffJSON([]byte(`{}`), []byte(`{} {}`))
	assert.Error(t, err)
}

// Hold reports each way of losing a document.
func TestHoldReportsLoss(t *testing.T) {
	type lossy struct {
		A int `json:"a"`
	}
	type strict struct {
		A string `json:"a"`
	}
	assert.NoError(t, Hold(codecOf[map[string]any](), []byte(`{"a":1,"b":[{}]}`)))
	err := Hold(codecOf[lossy](), []byte(`{"a":1,"b":2}`))
	assert.EqualError(t, err, "re-encodes differently: /b dropped (was 2)")
	err = Hold(codecOf[strict](), []byte(`{"a":1}`))
	assert.ErrorContains(t, err, "decode: ")
}
