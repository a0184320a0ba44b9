// Command mcpgen generates a Go package of types and JSON codecs from the Model Context Protocol
// schema.
//
// Usage:
//
//	mcpgen [-version v] [-schema file] [-o dir] [-pkg name] [-check]
//
// With no flags it reads the draft schema.ts embedded in the binary and writes the package
// mcpdraft into the current directory. It is shaped for go:generate:
//
//	//go:generate go run -C .. ./cmd/mcpgen -version 2025-11-25 -o gen/mcp20251125
//
// The output is written atomically: every file is generated in memory first, and a failed run
// leaves the previous files untouched. Generated files that the schema no longer produces (they
// start with the mcpgen header) are removed. With -check nothing is written: mcpgen exits with
// status 1 and names the files that differ when the output on disk is stale.
package main

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/jsonschema"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/templates"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// cli runs mcpgen, prints its error unless that was done already, and returns the exit status.
func cli(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout, stderr)
	var printed flagError
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.As(err, &printed) {
		fmt.Fprintln(stderr, "mcpgen:", err)
	}
	return exitCode(err)
}

// errStale is returned by -check when the output differs from what would be generated.
var errStale = errors.New("stale")

// flagError is a command-line error that the flag package has already printed, with the usage.
type flagError struct{ error }

func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errStale):
		return 1
	}
	return 2
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", schema.Default, "spec `version` to generate: "+strings.Join(schema.Versions, ", "))
	input := fs.String("schema", "", "schema `file` to read (schema.ts, or schema.json); default: the embedded schema.ts of -version")
	out := fs.String("o", ".", "output `directory`")
	pkg := fs.String("pkg", "", "Go package `name`; default: mcp followed by the version without dashes (mcpdraft, mcp20251125)")
	check := fs.Bool("check", false, "write nothing; exit 1 if the files in -o differ from what would be generated")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `mcpgen generates Go types and JSON codecs from the Model Context Protocol schema.

Usage: mcpgen [flags]

Examples:
  mcpgen -o ./mcpdraft                      # the embedded draft schema
  mcpgen -version 2025-11-25 -o ./mcp       # another embedded version
  mcpgen -schema path/to/schema.ts -version draft -o ./mcp
  mcpgen -check -o ./mcpdraft               # fail if ./mcpdraft is stale

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return flagError{err}
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *pkg == "" {
		*pkg = "mcp" + strings.ReplaceAll(*version, "-", "")
		if !validPackage(*pkg) {
			return fmt.Errorf("the default package name %q (from -version %q) is not a valid Go package name; pass -pkg", *pkg, *version)
		}
	} else if !validPackage(*pkg) {
		return fmt.Errorf("-pkg %q is not a valid Go package name (an identifier that is not a keyword or _)", *pkg)
	}

	files, err := generate(*input, *version, *pkg)
	if err != nil {
		return err
	}
	if *check {
		stale, err := diff(*out, files)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return fmt.Errorf("%w: %s differs from the %s schema in %s; regenerate it (go generate ./... in gen/)", errStale, *out, *version, strings.Join(stale, ", "))
		}
		return nil
	}
	return write(*out, files)
}

// validPackage reports whether name can name a Go package: an identifier other than _ that is
// not a keyword.
func validPackage(name string) bool {
	return token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_"
}

// generate reads the schema and returns the generated files by name.
func generate(input, version, pkg string) (map[string][]byte, error) {
	name, src, err := readSchema(input, version)
	if err != nil {
		return nil, err
	}
	source := ""
	if input == "" {
		source = "github.com/modelcontextprotocol/modelcontextprotocol/schema/" + name + "\n" +
			"at commit " + schema.SourceCommit
	}
	var s *model.Schema
	if strings.HasSuffix(name, ".json") {
		s, err = jsonschema.Load(name, src)
	} else {
		s, err = parser.Load(name, src)
	}
	if err != nil {
		return nil, err
	}
	s.Version = version
	if err := model.Classify(s); err != nil {
		return nil, err
	}
	return emit.Generate(s, emit.Options{
		Package:    pkg,
		Version:    version,
		SchemaHash: fmt.Sprintf("sha256:%x", sha256.Sum256(src)),
		Source:     source,
		Runtime:    templates.Runtime(),
		PackageDoc: templates.Doc,
	})
}

func readSchema(input, version string) (name string, src []byte, err error) {
	if input == "" {
		return schema.File(version, "schema.ts")
	}
	src, err = os.ReadFile(input)
	return input, src, err
}

// generatedLine matches the first line of a file mcpgen wrote: emit's header, of this or an
// earlier version of mcpgen. The files of an output directory that start with it are mcpgen's:
// it replaces them, and removes those the schema no longer produces.
var generatedLine = regexp.MustCompile(`^// Code generated by mcpgen( v[^ ]+)?\. DO NOT EDIT\.$`)

// diff lists the files that would change in dir: differing, missing, or generated files that
// would be removed.
func diff(dir string, files map[string][]byte) ([]string, error) {
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
	old, err := ownedFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, name := range old {
		if _, ok := files[name]; !ok {
			stale = append(stale, name+" (no longer generated)")
		}
	}
	slices.Sort(stale)
	return stale, nil
}

// ownedFiles lists the .go files in dir whose first line is mcpgen's header (generatedLine).
func ownedFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		first, _ := bufio.NewReader(io.LimitReader(f, 200)).ReadString('\n')
		f.Close()
		if generatedLine.MatchString(strings.TrimSuffix(first, "\n")) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// rename is os.Rename; tests replace it to make a rename fail.
var rename = os.Rename

// write replaces the generated files in dir and removes the generated files that are no longer
// produced, all at once or not at all: the new files are written to temporary files, then every
// file to be replaced or removed is moved aside to a backup, the new files are renamed into place,
// and only then are the backups deleted. On a failure the backups are restored and the new files
// removed, so dir is left as it was.
func write(dir string, files map[string][]byte) error {
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
	old, err := ownedFiles(dir)
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
