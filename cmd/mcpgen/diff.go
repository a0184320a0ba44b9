package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/internal/apidiff"
	"github.com/mcpgen/mcpgen/schema"
)

// runDiff prints the Go API changes from the schema oldArg to newArg (each an embedded version
// or a schema file): both are generated in memory, their exported APIs compared, and the
// changelogs of the spec versions after old up to new matched against the changes.
func runDiff(oldArg, newArg string, stdout io.Writer) error {
	var sides [2]*apidiff.API
	var ins [2]*input
	for i, arg := range []string{oldArg, newArg} {
		in, err := openDiffInput(arg)
		if err != nil {
			return err
		}
		files, err := in.generate(packageFor(in.version), &config.File{})
		if err != nil {
			return err
		}
		if sides[i], err = apidiff.Read(files); err != nil {
			return fmt.Errorf("reading the Go API generated from %s: %v", in.describe(), err)
		}
		ins[i] = in
	}
	report := apidiff.Compare(sides[0], sides[1])
	var entries []apidiff.Entry
	var logs []string
	for _, v := range versionsBetween(ins[0].version, ins[1].version) {
		if data, ok := schema.Changelog(v); ok {
			entries = append(entries, apidiff.ParseChangelog(v, data)...)
			logs = append(logs, v)
		}
	}
	report.MatchChangelog(entries)
	side := func(in *input) string {
		if in.embedded {
			return fmt.Sprintf("MCP %s (package %s)", in.version, packageFor(in.version))
		}
		return fmt.Sprintf("%s (MCP %s, package %s)", in.name, in.version, packageFor(in.version))
	}
	return report.Write(stdout, side(ins[0]), side(ins[1]), strings.Join(logs, ", "))
}

// openDiffInput opens an argument of -diff: an embedded version, unless a file of that name
// exists, or a schema file.
func openDiffInput(arg string) (*input, error) {
	if slices.Contains(schema.Versions, arg) {
		if _, err := os.Stat(arg); err != nil {
			return openInput("", arg)
		}
	}
	if _, err := os.Stat(arg); err != nil {
		return nil, fmt.Errorf("%s is neither an embedded version (%s) nor a schema file: %v",
			arg, strings.Join(schema.Versions, ", "), err)
	}
	return openInput(arg, "")
}

// versionsBetween lists the embedded versions after old up to new, whose changelogs describe the
// changes from old to new; none when either is not embedded or new is not after old.
func versionsBetween(old, new string) []string {
	i, j := slices.Index(schema.Versions, old), slices.Index(schema.Versions, new)
	if i < 0 || j <= i {
		return nil
	}
	return schema.Versions[i+1 : j+1]
}
