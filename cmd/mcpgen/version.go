package main

// -version: mcpgen's own version, as Go tools print theirs, and the spec versions it embeds.

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/schema"
)

// readBuildInfo is debug.ReadBuildInfo's answer, nil when the binary has none.
func readBuildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// versionText is what -version prints: the version that the generated files name in their first
// line (emit.Version), with the commit mcpgen was built from when the build recorded one (a build
// in a clone of the repository), then the embedded spec versions and where they come from.
func versionText(bi *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpgen %s", emit.Version)
	if bi != nil && bi.Main.Path == "github.com/mcpgen/mcpgen" {
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			fmt.Fprintf(&b, " (built from commit %.12s", rev)
			if settings["vcs.modified"] == "true" {
				b.WriteString(", with uncommitted changes")
			}
			b.WriteString(")")
		}
	}
	var versions []string
	for _, v := range schema.Versions {
		if v == schema.Default {
			v += " (the default)"
		}
		versions = append(versions, v)
	}
	fmt.Fprintf(&b, "\nembedded MCP spec versions: %s\n", strings.Join(versions, ", "))
	fmt.Fprintf(&b, "their schemas: github.com/modelcontextprotocol/modelcontextprotocol at commit %s\n", schema.SourceCommit)
	return b.String()
}

// versionMisuse is the error for -version with other flags or arguments. -version chose the spec
// version before it printed mcpgen's own, so an argument that is a spec version gets the flag
// that chooses it now.
func versionMisuse(args []string) error {
	for _, a := range args {
		for _, v := range schema.Versions {
			if a == v {
				return usagef("-version prints mcpgen's own version and takes nothing else; to choose the spec version, pass -spec %s", v)
			}
		}
	}
	return usagef("-version prints mcpgen's own version and takes no other flag or argument")
}
