package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCopies fails when gen/'s copies of schema/ files differ from their source.
func TestCopies(t *testing.T) {
	if err := doMain(filepath.Join("..", ".."), false); err != nil {
		t.Fatalf("%v\nRun: cd gen && go generate ./...", err)
	}
}

// TestDoMain copies a file and a directory, then updates them: changed and new files are written,
// files the source no longer has are removed, and the check then passes.
func TestDoMain(t *testing.T) {
	root := t.TempDir()
	write := func(path, data string) {
		t.Helper()
		require.NoError(t, writeFile(filepath.Join(root, path), []byte(data)))
	}
	write("schema/LICENSE", "license")
	write("schema/draft/examples/Tool/a.json", "{}")
	write("schema/draft/examples/Tool/b.json", "[]")
	write("schema/2025-01-01/schema.ts", "") // no examples: not copied

	require.Error(t, doMain(root, false))
	require.NoError(t, doMain(root, true))
	require.NoError(t, doMain(root, false))
	got, err := os.ReadFile(filepath.Join(root, "gen/testdata/examples/draft/Tool/b.json"))
	require.NoError(t, err)
	require.Equal(t, "[]", string(got))
	require.NoDirExists(t, filepath.Join(root, "gen/testdata/examples/2025-01-01"))

	write("schema/draft/examples/Tool/a.json", `{"a":1}`)
	require.NoError(t, os.Remove(filepath.Join(root, "schema/draft/examples/Tool/b.json")))
	err = doMain(root, false)
	require.ErrorContains(t, err, "gen/testdata/examples/draft/Tool/a.json")
	require.ErrorContains(t, err, "Tool/b.json (not in schema/draft/examples)")
	require.NoError(t, doMain(root, true))
	require.NoError(t, doMain(root, false))
	require.NoFileExists(t, filepath.Join(root, "gen/testdata/examples/draft/Tool/b.json"))
}
