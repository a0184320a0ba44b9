// Command gencopy copies into the gen module the files of schema/ that gen/ needs on its own, so
// that gen/ builds and tests from the module cache, where nothing outside it exists: the spec's
// examples (schema/<version>/examples → gen/testdata/examples/<version>), which the example tests
// round-trip, and the spec's license (schema/LICENSE → gen/SPEC-LICENSE), which covers them and
// the generated doc comments.
//
// It runs from the repository root, by go generate in gen/ (see gen/generate.go):
//
//	go run ./internal/gencopy
//
// The copies are exact, and files in the destination that the source no longer has are removed.
// TestCopies fails when the copies are stale.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

func main() {
	if err := doMain(".", true); err != nil {
		fmt.Fprintln(os.Stderr, "gencopy:", err)
		os.Exit(1)
	}
}

// copies lists what is copied, relative to the repository root: a file, or a directory copied
// with everything below it. The examples of every version that has them.
func copies(root string) ([][2]string, error) {
	list := [][2]string{{"schema/LICENSE", "gen/SPEC-LICENSE"}}
	dirs, err := filepath.Glob(filepath.Join(root, "schema", "*", "examples"))
	if err != nil {
		return nil, err
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		version := filepath.Base(filepath.Dir(dir))
		list = append(list, [2]string{"schema/" + version + "/examples", "gen/testdata/examples/" + version})
	}
	return list, nil
}

// doMain brings the copies under root up to date (write) or lists how they differ, as an error.
func doMain(root string, write bool) error {
	list, err := copies(root)
	if err != nil {
		return err
	}
	var stale []string
	for _, c := range list {
		want, err := tree(filepath.Join(root, c[0]))
		if err != nil {
			return err
		}
		if len(want) == 0 {
			return fmt.Errorf("%s is empty or missing", c[0])
		}
		dst := filepath.Join(root, c[1])
		have, err := tree(dst)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, name := range sortedKeys(want) {
			if old, ok := have[name]; !ok || !bytes.Equal(old, want[name]) {
				stale = append(stale, filepath.Join(c[1], name))
				if write {
					if err := writeFile(filepath.Join(dst, name), want[name]); err != nil {
						return err
					}
				}
			}
		}
		for _, name := range sortedKeys(have) {
			if _, ok := want[name]; !ok {
				stale = append(stale, filepath.Join(c[1], name)+" (not in "+c[0]+")")
				if write {
					if err := os.Remove(filepath.Join(dst, name)); err != nil {
						return err
					}
				}
			}
		}
	}
	if !write && len(stale) > 0 {
		return fmt.Errorf("stale copies of schema/ files in gen/: %v", stale)
	}
	return nil
}

// tree reads a file (by the name "") or every file below a directory (by slash-separated path).
func tree(path string) (map[string][]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		data, err := os.ReadFile(path)
		return map[string][]byte{"": data}, err
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	return files, err
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
