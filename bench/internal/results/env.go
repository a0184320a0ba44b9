package results

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Environment returns configuration lines that say what ran the benchmarks, to write before go
// test's own (goos, goarch, cpu): the Go release that builds them, the number of cores, the date,
// and the commit of the repository (with "+dirty" when tracked files have uncommitted changes).
func Environment() []KeyValue {
	kvs := []KeyValue{
		{"go", output("go", "env", "GOVERSION")},
		{"cores", strconv.Itoa(runtime.NumCPU())},
		{"date", time.Now().UTC().Format("2006-01-02")},
	}
	if commit := output("git", "rev-parse", "--short", "HEAD"); commit != "" {
		if output("git", "status", "--porcelain", "--untracked-files=no") != "" {
			commit += "+dirty"
		}
		kvs = append(kvs, KeyValue{"commit", commit})
	}
	return kvs
}

// ModuleVersion returns the version of a module that the running command was built with, or
// "(workspace)" for a module of the workspace, or "" when it was not built with it.
func ModuleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if info.Main.Path == path {
		return "(workspace)"
	}
	for _, dep := range info.Deps {
		if dep.Path != path {
			continue
		}
		if dep.Replace != nil && dep.Replace.Version == "" {
			return "(workspace)"
		}
		if dep.Version == "(devel)" {
			return "(workspace)"
		}
		return dep.Version
	}
	return ""
}

func output(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
