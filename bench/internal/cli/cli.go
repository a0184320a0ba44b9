// Package cli holds what the commands of the bench module share: finding the repository, and
// the configuration lines that record what was measured.
package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/bench"
	"github.com/mcpgen/mcpgen/bench/internal/results"
)

// Package is the import path of the benchmarks.
const Package = "github.com/mcpgen/mcpgen/bench"

// Root returns the repository's root directory: the parent of the bench module's, as the go
// command of the workspace finds it.
func Root() (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", Package)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding %s (run this inside the mcpgen repository): %v: %s", Package, err, strings.TrimSpace(stderr.String()))
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// Config returns the configuration lines to write before go test's: the environment, and for
// every contender its module's version and whether its decoding validates.
func Config() []results.KeyValue {
	kvs := results.Environment()
	for _, k := range bench.Contenders() {
		module := "encoding/json"
		if k.Module != "" {
			module = k.Module + " " + results.ModuleVersion(k.Module)
		}
		var validated []string
		types := []bench.Type{bench.CreateMessageRequestParams, bench.CreateMessageResult, bench.ListToolsResult, bench.CallToolResult}
		for _, t := range types {
			if codec, ok := k.Codec(t); ok && codec.Validates {
				validated = append(validated, string(t))
			}
		}
		validate := "decode does not validate (no Validate method)"
		switch {
		case len(validated) == len(types):
			validate = "decode calls Validate"
		case len(validated) > 0:
			validate = "decode calls Validate on " + strings.Join(validated, ", ")
		}
		kvs = append(kvs, results.KeyValue{Key: k.Name, Value: module + "; " + validate})
	}
	kvs = append(kvs, results.KeyValue{Key: "jx", Value: "github.com/go-faster/jx " + results.ModuleVersion("github.com/go-faster/jx")})
	return kvs
}

// Results runs go test rounds times with args (see [results.Run]), writing its output to raw
// (when not "") and progress to stderr; or, when in is not "", reads the output of an earlier
// run from that file.
func Results(in, raw string, rounds int, args []string) (*results.Results, error) {
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return results.Parse(f)
	}
	var out io.Writer = io.Discard
	if raw != "" {
		f, err := os.Create(raw)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		out = f
	}
	return results.Run(Package, Config(), rounds, args, out, os.Stderr)
}
