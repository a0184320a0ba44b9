package main

// The output directory: which of its files mcpgen owns (ownedFiles), which would change
// (diff, for -check), and the transaction that replaces them all at once or not at all (write).

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit"
)

// generatedLine matches the first line of a file mcpgen wrote (emit.GeneratedLine). The files of
// an output directory that start with it are mcpgen's: it replaces them, and removes those the
// schema no longer produces.
var generatedLine = emit.GeneratedLine

// noLongerGenerated marks the names that diff lists of generated files the schema no longer
// produces.
const noLongerGenerated = " (no longer generated)"

// diff lists the files that would change in dir: differing, missing, or generated files that
// would be removed (of those the output owns, see ownedFiles).
func diff(dir, prefix string, files map[string][]byte) ([]string, error) {
	var stale []string
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if string(got) != string(want) {
			stale = append(stale, name)
		}
	}
	old, err := ownedFiles(dir, prefix)
	if err != nil {
		return nil, err
	}
	for _, name := range old {
		if _, ok := files[name]; !ok {
			stale = append(stale, name+noLongerGenerated)
		}
	}
	slices.Sort(stale)
	return stale, nil
}

// ownedFiles lists the .go files in dir that an output with the given file prefix owns: those
// whose first line is mcpgen's header (generatedLine) and whose name starts with the prefix. An
// output without a prefix leaves alone the files of the outputs with one, which their doc.go
// records (emit.FilesLine).
func ownedFiles(dir, prefix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names, others []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		r := bufio.NewReader(io.LimitReader(f, 4096))
		first, _ := r.ReadString('\n')
		if generatedLine.MatchString(strings.TrimSuffix(first, "\n")) {
			names = append(names, e.Name())
			for {
				line, err := r.ReadString('\n')
				if m := filesLine.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
					others = append(others, m[1])
				}
				if err != nil || !strings.HasPrefix(line, "//") {
					break
				}
			}
		}
		f.Close()
	}
	return slices.DeleteFunc(names, func(name string) bool {
		if prefix != "" {
			return !strings.HasPrefix(name, prefix)
		}
		return slices.ContainsFunc(others, func(p string) bool { return strings.HasPrefix(name, p) })
	}), nil
}

// filesLine matches the line of a generated file's header comment that records the file prefix
// of its output (emit.FilesLine).
var filesLine = regexp.MustCompile(`^// ` + strings.Replace(regexp.QuoteMeta(emit.FilesLine("PREFIX")), "PREFIX", `([a-z0-9_]+)`, 1) + `$`)

// rename is os.Rename; tests replace it to make a rename fail.
var rename = os.Rename

// write replaces the generated files in dir and removes the generated files that are no longer
// produced, all at once or not at all: the new files are written to temporary files, then every
// file to be replaced or removed is moved aside to a backup, the new files are renamed into place,
// and only then are the backups deleted. On a failure the backups are restored and the new files
// removed, so dir is left as it was.
func write(dir, prefix string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(files))
	var existing []string // the files to move aside
	for _, name := range names {
		path := filepath.Join(dir, name)
		switch fi, err := os.Lstat(path); {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		case !fi.Mode().IsRegular():
			return fmt.Errorf("cannot replace %s: it is not a regular file", path)
		default:
			existing = append(existing, name)
		}
	}
	old, err := ownedFiles(dir, prefix)
	if err != nil {
		return err
	}
	for _, name := range old {
		if _, ok := files[name]; !ok {
			existing = append(existing, name)
		}
	}

	r := &replacement{dir: dir, temps: map[string]string{}, backups: map[string]string{}}
	if err := r.apply(files, existing); err != nil {
		if rerr := r.rollback(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return err
	}
	return r.commit()
}

// replacement is the state of a write in progress, for undoing it.
type replacement struct {
	dir     string
	temps   map[string]string // file name → temporary file with its new content, not yet in place
	backups map[string]string // file name → backup its previous content was moved to
	placed  []string          // files whose new content is in place
}

func (r *replacement) path(name string) string { return filepath.Join(r.dir, name) }

// apply writes files to temporary files, moves the existing files aside, and renames the
// temporary files into place.
func (r *replacement) apply(files map[string][]byte, existing []string) error {
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		tmp, err := r.createTemp(name, files[name])
		if err != nil {
			return err
		}
		r.temps[name] = tmp
	}
	for _, name := range existing {
		backup, err := r.createTemp(name, nil)
		if err != nil {
			return err
		}
		if err := rename(r.path(name), backup); err != nil {
			os.Remove(backup)
			return err
		}
		r.backups[name] = backup
	}
	for _, name := range names {
		if err := rename(r.temps[name], r.path(name)); err != nil {
			return err
		}
		delete(r.temps, name)
		r.placed = append(r.placed, name)
	}
	return nil
}

// commit deletes the backups of a successful apply.
func (r *replacement) commit() error {
	var errs []error
	for _, backup := range r.backups {
		if err := os.Remove(backup); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// createTemp writes data to a new temporary file next to name and returns its path.
func (r *replacement) createTemp(name string, data []byte) (string, error) {
	f, err := os.CreateTemp(r.dir, "."+name+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Name(), nil
}

// rollback puts dir back as it was before the write. A backup that cannot be restored is kept,
// and named in the error.
func (r *replacement) rollback() error {
	var errs []error
	for _, name := range r.placed {
		if _, ok := r.backups[name]; !ok {
			if err := os.Remove(r.path(name)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for name, backup := range r.backups {
		if err := rename(backup, r.path(name)); err != nil {
			errs = append(errs, fmt.Errorf("restoring %s: %w; its previous content is in %s", name, err, backup))
		}
	}
	for _, tmp := range r.temps {
		os.Remove(tmp)
	}
	return errors.Join(errs...)
}
