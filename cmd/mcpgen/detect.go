package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/schema"
)

var (
	// versionName matches a spec version: "draft" or a date.
	versionName = regexp.MustCompile(`^(draft|\d{4}-\d{2}-\d{2})$`)
	// versionIn finds a spec version in a URL ($id).
	versionIn = regexp.MustCompile(`(?:^|/)(draft|\d{4}-\d{2}-\d{2})(?:/|$)`)
	// draftLinks finds links to the draft spec in the schema's documentation.
	draftLinks = regexp.MustCompile(`/specification/draft/`)
)

// detectVersion tells the spec version of a schema file from its location and its content:
//
//   - the directory it is in, when it is named like a spec version ("draft", "2025-11-25"), as
//     in the spec repository's schema/<version>/schema.ts;
//   - otherwise what the file says: the draft's documentation links to /specification/draft/;
//     schema.ts names its version in LATEST_PROTOCOL_VERSION (the draft names the release it
//     follows); schema.json may name it in its $id.
//
// When both say a version and they disagree, it is an error (but for a draft directory, whose
// schema.ts names the last release). s is the file's parsed schema, whose constants hold
// LATEST_PROTOCOL_VERSION. how says where the version came from, for messages.
func detectVersion(path string, src []byte, s *model.Schema) (version, how string, err error) {
	dir := filepath.Base(filepath.Dir(path))
	if abs, err := filepath.Abs(path); err == nil {
		dir = filepath.Base(filepath.Dir(abs))
	}
	if !versionName.MatchString(dir) {
		dir = ""
	}
	content, what := contentVersion(path, src, s)
	switch {
	case dir != "" && content != "" && dir != content && dir != "draft":
		return "", "", fmt.Errorf("%s is in a directory named %s, but %s; pass -spec to say which version it is", path, dir, what)
	case dir != "":
		return dir, "from its directory", nil
	case content != "":
		return content, "from " + what, nil
	}
	return "", "", fmt.Errorf("cannot tell the spec version of %s: its directory is not named after a version "+
		"(%s) and the file does not say; pass -spec", path, strings.Join(schema.Versions, ", "))
}

// contentVersion is the version a schema file declares, and a phrase saying where.
func contentVersion(path string, src []byte, s *model.Schema) (version, what string) {
	if strings.HasSuffix(path, ".json") {
		var doc struct {
			ID string `json:"$id"`
		}
		if json.Unmarshal(src, &doc) == nil {
			if m := versionIn.FindStringSubmatch(doc.ID); m != nil {
				return m[1], "its $id is " + doc.ID
			}
		}
		return "", ""
	}
	if draftLinks.Match(src) {
		return "draft", "its documentation links to the draft spec"
	}
	for _, c := range s.Consts {
		if c.Name == "LATEST_PROTOCOL_VERSION" && c.Value.Kind == model.String {
			return c.Value.Str, "its LATEST_PROTOCOL_VERSION is " + c.Value.Str
		}
	}
	return "", ""
}

// packageFor is the default package name of a version: mcp followed by the version without
// dashes (mcpdraft, mcp20251125). It is not a valid name for every version ("1.0").
func packageFor(version string) string {
	return "mcp" + strings.ReplaceAll(version, "-", "")
}
