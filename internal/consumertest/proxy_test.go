package consumertest

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
)

// The modules the proxy serves, at the version of the generator (emit.Version): a release tags
// both, vX.Y.Z and gen/vX.Y.Z (see docs/releasing.md).
const (
	rootModule = "github.com/mcpgen/mcpgen"
	genModule  = "github.com/mcpgen/mcpgen/gen"
	version    = emit.Version
)

// repoRoot is the repository's root directory, from this package's.
var repoRoot = filepath.Join("..", "..")

// buildProxy writes a module proxy (the GOPROXY protocol, served from files) holding the root
// module and the gen module at version, made from the repository's files as they are on disk
// (tracked, or untracked and not ignored), and returns its file:// URL.
func buildProxy(t *testing.T) string {
	t.Helper()
	files := repoFiles(t)
	dir := t.TempDir()
	for _, m := range []struct{ path, dir string }{{rootModule, "."}, {genModule, "gen"}} {
		var mine []string
		for _, f := range files {
			if moduleOf(f, files) == m.dir {
				mine = append(mine, f)
			}
		}
		require.NotEmpty(t, mine, m.path)
		at := filepath.Join(dir, filepath.FromSlash(m.path), "@v")
		require.NoError(t, os.MkdirAll(at, 0o755))
		gomod, err := os.ReadFile(filepath.Join(repoRoot, m.dir, "go.mod"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(at, version+".info"),
			[]byte(`{"Version":"`+version+`","Time":"2026-01-01T00:00:00Z"}`), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(at, version+".mod"), gomod, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(at, version+".zip"), moduleZip(t, m.path, m.dir, mine), 0o644))
	}
	return "file://" + filepath.ToSlash(dir)
}

// repoFiles lists the repository's files (slash-separated, relative to its root) that exist on
// disk and that git tracks or would track.
func repoFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	require.NoError(t, err, "listing the repository's files with git")
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fi, err := os.Lstat(filepath.Join(repoRoot, f)); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files
}

// moduleOf is the directory of the module a file belongs to: the nearest directory above it with a
// go.mod among files ("." for the root).
func moduleOf(file string, files []string) string {
	for dir := filepath.ToSlash(filepath.Dir(file)); ; dir = filepath.ToSlash(filepath.Dir(dir)) {
		for _, f := range files {
			if f == dir+"/go.mod" || (dir == "." && f == "go.mod") {
				return dir
			}
		}
		if dir == "." {
			return "."
		}
	}
}

// moduleZip makes the zip of a module from its files: each file at path@version/<path in the
// module>. The workspace files are left out, as a module has no use for them.
func moduleZip(t *testing.T, path, dir string, files []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		rel := f
		if dir != "." {
			rel = strings.TrimPrefix(f, dir+"/")
		}
		if rel == "go.work" || rel == "go.work.sum" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		require.NoError(t, err)
		w, err := zw.Create(path + "@" + version + "/" + rel)
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// goEnv is the value of a go env variable in this process's environment.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// consumerEnv is the environment of a fresh consumer module: modules come from the proxy (if
// any: "" for none), then
// from this machine's module cache (the download cache is a proxy too), then from the usual
// proxy; the module cache is new and writable so that the test can delete it, the build cache is
// shared; no workspace; installed commands go to home/bin, which is first on PATH; the toolchain
// is the one named (a go version to download, or "local").
func consumerEnv(t *testing.T, proxy, toolchain, home string) []string {
	t.Helper()
	downloads := "file://" + filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"))
	goproxy := downloads
	if proxy != "" {
		goproxy = proxy + "," + downloads
	}
	if p := goEnv(t, "GOPROXY"); p != "" && p != "off" {
		goproxy += "," + p
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOFLAGS", "GOWORK", "GOMODCACHE",
			"GOTOOLCHAIN", "GOBIN", "GOPATH", "GO111MODULE":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GOPROXY="+goproxy,
		"GONOSUMDB="+rootModule, // the modules of the proxy are in no checksum database
		// -trimpath keeps the paths of the new module cache out of the build cache's keys, so that
		// the compiled gen packages are reused from one run to the next.
		"GOFLAGS=-modcacherw -trimpath",
		"GOWORK=off",
		"GOMODCACHE="+filepath.Join(home, "modcache"),
		"GOCACHE="+goEnv(t, "GOCACHE"),
		"GOPATH="+filepath.Join(home, "gopath"),
		"GOBIN="+filepath.Join(home, "bin"),
		"PATH="+filepath.Join(home, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOTOOLCHAIN="+toolchain,
	)
}

// command runs name with args in dir with env, and returns its combined output; it fails the
// test, showing the output, when the command fails.
func command(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s in %s:\n%s", name, strings.Join(args, " "), dir, out)
	t.Logf("%s %s: %.1fs", name, strings.Join(args, " "), time.Since(start).Seconds())
	return string(out)
}

// skipSlow skips a test that builds the gen packages from scratch under -short, and where the
// tools it runs are missing.
func skipSlow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the gen module from scratch; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to list the repository's files")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the README's commands are sh")
	}
}
