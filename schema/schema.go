// Package schema embeds the vendored MCP schema files (schema.ts and schema.json of every spec
// version, and the spec's changelogs) so that the generator runs without the files on disk.
package schema

import (
	"embed"
	"fmt"
	"slices"
)

// SourceCommit is the commit of github.com/modelcontextprotocol/modelcontextprotocol the files
// were copied from.
const SourceCommit = "b0f60ba5409db7a6582440a7b473cc0398890f15"

// Default is the version the generator uses when none is given.
const Default = "draft"

// Versions lists the embedded spec versions, oldest first.
var Versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"}

//go:embed */schema.ts */schema.json */changelog.mdx
var files embed.FS

// File returns the embedded file name ("schema.ts" or "schema.json") of a version, and the path
// it is known by ("<version>/<name>").
func File(version, name string) (path string, data []byte, err error) {
	if !slices.Contains(Versions, version) {
		return "", nil, fmt.Errorf("unknown schema version %q (known: %v)", version, Versions)
	}
	path = version + "/" + name
	data, err = files.ReadFile(path)
	return path, data, err
}

// Changelog returns the spec's changelog ("Key Changes" page, changelog.mdx) of a version: the
// changes since the previous version. ok is false when the spec has none for that version.
func Changelog(version string) (data []byte, ok bool) {
	data, err := files.ReadFile(version + "/changelog.mdx")
	return data, err == nil
}
