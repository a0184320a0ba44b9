package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunErrors: bad input is a clear error, never a panic.
func TestRunErrors(t *testing.T) {
	empty := t.TempDir()
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "a.go"), []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		dir     string
		keep    []string
		measure bool
		orig    string
		want    string
	}{
		{"no Go files", empty, nil, false, "", "no Go files"},
		{"missing directory", filepath.Join(empty, "nope"), nil, false, "", "no Go files"},
		{"missing companion", pkg, []string{"companion.go"}, false, "", "no file companion.go"},
		{"measure without orig", pkg, nil, true, "", "-measure needs -orig"},
		{"measure a missing file", pkg, nil, true, pkg, "no file protocol.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.dir, tc.keep, tc.measure, tc.orig, []string{"protocol.go"}, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
