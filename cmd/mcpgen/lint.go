package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/internal/speclint"
)

// errFindings is what the error of -lint-spec is when it found contradictions in the spec.
var errFindings = errors.New("found contradictions of the spec")

// findingsError is the error of -lint-spec when it found contradictions: it counts them.
type findingsError struct {
	n, versions int
	dir         string
}

func (e findingsError) Error() string {
	return fmt.Sprintf("found %d contradiction%s of the spec in %d version%s (%s)", e.n, plural(e.n), e.versions, plural(e.versions), e.dir)
}

func (e findingsError) Is(target error) bool { return target == errFindings }

// runLint checks the spec repository in dir and prints its findings, one a line, to stdout.
func runLint(dir string, stdout, stderr io.Writer) error {
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("-lint-spec %s: not a directory (expected a checkout of the spec repository)", dir)
	}
	r, err := speclint.Lint(os.DirFS(dir))
	if err != nil {
		return fmt.Errorf("-lint-spec %s: %w", dir, err)
	}
	for _, f := range r.Findings {
		fmt.Fprintln(stdout, f)
	}
	if n := len(r.Silenced); n > 0 {
		fmt.Fprintf(stderr, "mcpgen: %d finding%s silenced by %s\n", n, plural(n), filepath.Join(dir, speclint.AllowFile))
	}
	if n := len(r.Findings); n > 0 {
		return findingsError{n, len(r.Versions), dir}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
