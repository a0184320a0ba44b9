package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A configOutput is a configuration generated into a package directory of its own (with the
// files written beside it: hand-written types, tests), whose result is to be checked: refused
// with an error that names a position of the configuration file, or Go that go vet accepts.
type configOutput struct {
	name  string            // the package directory, under the module's root
	files map[string]string // mcpgen.yaml and the other files of the directory, by name
	err   error             // what mcpgen said, nil when it wrote the package
}

// configModule is the module path of the outputs' module.
const configModule = "example.com/configs"

// generateOutputs runs mcpgen on each output's mcpgen.yaml, for the embedded 2026-07-28 schema,
// into its directory under root, after writing its other files there.
func generateOutputs(t *testing.T, root string, outs []*configOutput) {
	t.Helper()
	for _, o := range outs {
		dir := filepath.Join(root, o.name)
		for name, text := range o.files {
			writeFile(t, filepath.Join(dir, name), text)
		}
		var stderr bytes.Buffer
		o.err = run([]string{"-spec", "2026-07-28", "-config", filepath.Join(dir, "mcpgen.yaml"), "-o", dir}, &stderr, &stderr)
	}
}

// vetOutputs runs go vet once on every package that mcpgen wrote (each its directory under root,
// of one module, so that the go command starts once), then go test on those with tests, and
// returns what each failing package's output says, by directory.
func vetOutputs(t *testing.T, root string, outs []*configOutput) map[string]string {
	t.Helper()
	writeFile(t, filepath.Join(root, "go.mod"), "module "+configModule+"\n\ngo 1.24\n")
	var vet, test []string
	for _, o := range outs {
		if o.err != nil {
			continue
		}
		vet = append(vet, "./"+o.name)
		for name := range o.files {
			if strings.HasSuffix(name, "_test.go") {
				test = append(test, "./"+o.name)
				break
			}
		}
	}
	var commands [][]string
	if len(vet) > 0 {
		commands = append(commands, append([]string{"vet"}, vet...))
	}
	if len(test) > 0 {
		commands = append(commands, append([]string{"test", "-count=1"}, test...))
	}
	failed := map[string]string{}
	for _, args := range commands {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err == nil {
			continue
		}
		sections := packageSections(string(out))
		for dir, text := range sections {
			failed[dir] += fmt.Sprintf("go %s:\n%s", args[0], text)
		}
		require.NotEmpty(t, sections, "go %v failed, naming no package:\n%s", args, out)
	}
	return failed
}

// packageSections splits the go command's output by the package directory it is about: go vet
// heads a package's problems with "# module/dir", go test ends a package's output with
// "FAIL\tmodule/dir".
func packageSections(out string) map[string]string {
	heading := regexp.MustCompile(`^# ` + regexp.QuoteMeta(configModule) + `/([^\s\[]+)`)
	failLine := regexp.MustCompile(`^FAIL\s+` + regexp.QuoteMeta(configModule) + `/(\S+)`)
	sections := map[string]string{}
	owner, text := "", ""
	for _, line := range strings.SplitAfter(out, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			if owner != "" {
				sections[owner] += text
			}
			owner, text = m[1], ""
		}
		text += line
		if m := failLine.FindStringSubmatch(line); m != nil {
			sections[m[1]] += text
			owner, text = "", ""
		} else if strings.HasPrefix(line, "ok ") {
			owner, text = "", ""
		}
	}
	if owner != "" {
		sections[owner] += text
	}
	return sections
}

// configPosition is how an error at a configuration file's entry starts: the file, a line and
// a column.
func configPosition(dir string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.Join(dir, "mcpgen.yaml")) + `:\d+:\d+: `)
}

// readCase reads a case of testdata/configs: a comment (the lines before the first file) whose
// line "want: ..." says what mcpgen is to say (an error, after the file's path; none for a
// configuration that generates Go that go vet accepts), then files, each after a "-- name --"
// line.
func readCase(t *testing.T, path string) (want string, files map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	files = map[string]string{}
	name := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- "); ok && strings.HasSuffix(n, " --") {
			name = strings.TrimSuffix(n, " --")
			files[name] = ""
			continue
		}
		if name == "" {
			if w, ok := strings.CutPrefix(line, "want: "); ok {
				want = strings.TrimSpace(w)
			}
			continue
		}
		files[name] += line
	}
	require.Contains(t, files, "mcpgen.yaml", path)
	return want, files
}

// TestConfigCases runs the configurations of testdata/configs (the ones found to write Go that
// did not compile, to lose members, or to be refused for the wrong reason, by hand and by
// TestRandomConfigs): each is refused with its error, at its entry, or generates Go that go vet
// accepts and whose tests, written beside it, pass.
func TestConfigCases(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	paths, err := filepath.Glob("testdata/configs/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	root := t.TempDir()
	var outs []*configOutput
	wants := map[string]string{}
	for _, path := range paths {
		o := &configOutput{name: strings.TrimSuffix(filepath.Base(path), ".txt")}
		wants[o.name], o.files = readCase(t, path)
		outs = append(outs, o)
	}
	generateOutputs(t, root, outs)
	failed := vetOutputs(t, root, outs)
	for _, o := range outs {
		t.Run(o.name, func(t *testing.T) {
			want := wants[o.name]
			if want == "" {
				require.NoError(t, o.err)
				assert.Empty(t, failed[o.name])
				return
			}
			require.Error(t, o.err, "want %s", want)
			assert.Regexp(t, configPosition(filepath.Join(root, o.name)), o.err.Error())
			assert.Equal(t, filepath.Join(root, o.name, want), o.err.Error())
		})
	}
}

// TestPackageSections: the go command's output of several packages is split by package, so that
// a failure is blamed on its configuration only.
func TestPackageSections(t *testing.T) {
	out := "# example.com/configs/a\n# [example.com/configs/a]\nvet: a/types.go:1:1: bad\n" +
		"# example.com/configs/b\nvet: b/types.go:2:2: worse\n"
	assert.Equal(t, map[string]string{
		"a": "# example.com/configs/a\n# [example.com/configs/a]\nvet: a/types.go:1:1: bad\n",
		"b": "# example.com/configs/b\nvet: b/types.go:2:2: worse\n",
	}, packageSections(out))
	out = "ok  \texample.com/configs/a\t0.01s\n--- FAIL: TestX (0.00s)\n    x_test.go:3: no\nFAIL\nFAIL\texample.com/configs/b\t0.01s\n" +
		"# example.com/configs/c [example.com/configs/c.test]\nc/x_test.go:1:1: undefined: y\nFAIL\texample.com/configs/c [build failed]\nFAIL\n"
	assert.Equal(t, map[string]string{
		"b": "--- FAIL: TestX (0.00s)\n    x_test.go:3: no\nFAIL\nFAIL\texample.com/configs/b\t0.01s\n",
		"c": "# example.com/configs/c [example.com/configs/c.test]\nc/x_test.go:1:1: undefined: y\nFAIL\texample.com/configs/c [build failed]\n",
	}, packageSections(out))
}
