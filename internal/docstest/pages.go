package docstest

import (
	"os"
	"path/filepath"
	"strings"
)

// Pages lists the repository's Markdown pages, relative to root and slash-separated: README.md,
// the docs/ pages and the README.md of every directory, but for those in testdata, in
// node_modules and in directories vendored from elsewhere (with a SOURCE-COMMIT). The links test
// here and the code-block test of internal/consumertest read the same pages.
func Pages(root string) ([]string, error) {
	var list []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata":
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "SOURCE-COMMIT")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.Name() == "README.md" || strings.HasPrefix(rel, "docs/") && strings.HasSuffix(rel, ".md") {
			list = append(list, rel)
		}
		return nil
	})
	return list, err
}
