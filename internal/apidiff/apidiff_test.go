package apidiff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const oldSrc = `package p

import "encoding/json"

// Tool is a tool.
type Tool struct {
	Name        string          ` + "`json:\"name\"`" + `
	Temperature *float64        ` + "`json:\"temperature,omitzero\"`" + `
	Hints       []string        ` + "`json:\"hints\"`" + `
	URL         string          ` + "`json:\"url\"`" + `
	Gone        bool            ` + "`json:\"gone\"`" + `
	Data        json.RawMessage ` + "`json:\"data\"`" + `
	Extra       map[string]json.RawMessage ` + "`json:\"-\"`" + `
}

// ResourceReference is renamed.
type ResourceReference struct {
	Type string ` + "`json:\"type\"`" + `
	URI  string ` + "`json:\"uri\"`" + `
}

// Content is a union.
type Content interface{ isContent() }

func (*Tool) isContent() {}
func (*ResourceReference) isContent() {}

// Role is an enum.
type Role string

const (
	RoleUser Role = "user"
	RoleBot  Role = "bot"
)

// Shape becomes a union.
type Shape struct{}

// PingRequest goes away.
type PingRequest struct {
	Method string ` + "`json:\"method\"`" + `
}

const (
	MethodPing = "ping"
	ParseError = -32700
	Version    = "1"
)

func UnmarshalContent(data []byte) (Content, error) { return nil, nil }
`

const newSrc = `package p

import "encoding/json"

// Tool is a tool.
type Tool struct {
	Name        string          ` + "`json:\"name\"`" + `
	Temperature float64         ` + "`json:\"temperature\"`" + `
	Hints       []string        ` + "`json:\"hints,omitzero\"`" + `
	// Deprecated: use Name.
	WebURL      string          ` + "`json:\"url\"`" + `
	Data        map[string]json.RawMessage ` + "`json:\"data\"`" + `
	Title       *string         ` + "`json:\"title,omitzero\"`" + `
	Extra       map[string]json.RawMessage ` + "`json:\"-\"`" + `
}

// ResourceTemplateReference is renamed.
//
// Deprecated: use something else.
type ResourceTemplateReference struct {
	Type string ` + "`json:\"type\"`" + `
	URI  string ` + "`json:\"uri\"`" + `
}

// DiscoverRequest is new; it is not PingRequest renamed.
type DiscoverRequest struct {
	Method string ` + "`json:\"method\"`" + `
}

// Content is a union.
type Content interface{ isContent() }

func (*Tool) isContent() {}
func (*ResourceTemplateReference) isContent() {}

// Role is an enum.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Shape became a union.
type Shape interface{ isShape() }

const (
	MethodDiscover = "server/discover"
	ParseErrorCode = -32700
	Version        = "2"
)

func UnmarshalContent(data []byte) (Content, error) { return nil, nil }
func UnmarshalShape(data []byte) (Shape, error)     { return nil, nil }
`

func compare(t *testing.T) *Report {
	t.Helper()
	old, err := Read(map[string][]byte{"types.go": []byte(oldSrc), "x_test.go": []byte("package p\nfunc Test() {}")})
	require.NoError(t, err)
	new, err := Read(map[string][]byte{"types.go": []byte(newSrc)})
	require.NoError(t, err)
	return Compare(old, new)
}

func TestCompare(t *testing.T) {
	r := compare(t)
	var removed, added []string
	for _, ty := range r.Removed {
		removed = append(removed, ty.Name)
	}
	for _, ty := range r.Added {
		added = append(added, ty.Name)
	}
	assert.Equal(t, []string{"PingRequest"}, removed)
	assert.Equal(t, []string{"DiscoverRequest"}, added)
	assert.Equal(t, []Rename{{"ResourceReference", "ResourceTemplateReference"}}, r.Renamed)

	var lines []string
	for _, c := range r.Changed {
		head := c.Name
		if c.OldName != "" {
			head += " was " + c.OldName
		}
		if c.Kind != nil {
			head += " " + c.Kind[0] + " → " + c.Kind[1]
		}
		if c.Deprecated {
			head += " deprecated"
		}
		lines = append(lines, head)
		for _, m := range c.Members {
			lines = append(lines, "  "+m.String())
		}
	}
	assert.Equal(t, []string{
		"Content",
		"  + variant *ResourceTemplateReference",
		"  - variant *ResourceReference",
		"ResourceTemplateReference was ResourceReference deprecated",
		"Role",
		`  + value "assistant"`,
		`  - value "bot"`,
		"Shape struct → union",
		"Tool",
		"  ~ Temperature made required: *float64 → float64",
		"  ~ Hints made optional",
		"  ~ URL renamed WebURL",
		"  ~ WebURL deprecated",
		"  ~ Data: json.RawMessage → map[string]json.RawMessage",
		"  + Title *string (optional)",
		"  - Gone bool",
	}, lines)

	assert.Equal(t, "MethodPing", r.ConstsRemoved[0].Name)
	assert.Equal(t, "MethodDiscover", r.ConstsAdded[0].Name)
	assert.Equal(t, [][2]*Const{{{Name: "ParseError", Value: "-32700"}, {Name: "ParseErrorCode", Value: "-32700"}}}, r.ConstsRenamed)
	assert.Equal(t, `"2"`, r.ConstsChanged[0][1].Value)
	assert.Equal(t, []string{"UnmarshalShape"}, r.FuncsAdded)
	assert.Empty(t, r.FuncsRemoved)
}

const changelog = `---
title: Key Changes
---

## Major changes

1. Add ` + "`server/discover`" + `: servers MUST implement this RPC
   ([SEP-2575](https://example.com/2575)).
2. Something about transports.

## Minor changes

1. Rename ResourceReference to
   ResourceTemplateReference and add the ` + "`title`" + ` field.
2. Add the ` + "`\"assistant\"`" + ` role.

## Full changelog

See GitHub.
`

func TestChangelog(t *testing.T) {
	entries := ParseChangelog("v2", []byte(changelog))
	require.Len(t, entries, 4)
	assert.Equal(t, Entry{Version: "v2", Section: "Major changes", Number: 1,
		Text: "Add `server/discover`: servers MUST implement this RPC (SEP-2575)."}, entries[0])

	r := compare(t)
	r.MatchChangelog(entries)
	require.Len(t, r.Changelog, 3)
	assert.Equal(t, []string{"MethodDiscover"}, r.Changelog[0].Names)
	assert.Equal(t, []string{"ResourceTemplateReference", "Tool.Title"}, r.Changelog[1].Names)
	assert.Equal(t, []string{"Role"}, r.Changelog[2].Names)
	assert.Equal(t, 1, r.Unmatched)

	var out bytes.Buffer
	require.NoError(t, r.Write(&out, "v1", "v2", "v2"))
	for _, want := range []string{
		"Go API changes from v1 to v2",
		"Summary: 1 type removed, 1 type added, 1 type renamed, 5 types changed, 1 constant removed,\n" +
			"         1 constant added, 1 constant renamed, 1 constant changed, 1 function added.",
		"Renamed types (1):\n  ResourceReference → ResourceTemplateReference",
		"  renamed (1): ParseError → ParseErrorCode",
		"Spec changelog (v2): 3 of 4 entries name these changes:\n" +
			"  Major 1 (v2): Add `server/discover`: servers MUST implement this RPC (SEP-2575).\n" +
			"      → MethodDiscover",
	} {
		assert.Contains(t, out.String(), want)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		assert.LessOrEqual(t, len([]rune(line)), width, line)
	}
}

func TestNoChange(t *testing.T) {
	api, err := Read(map[string][]byte{"types.go": []byte(oldSrc)})
	require.NoError(t, err)
	r := Compare(api, api)
	assert.True(t, r.Empty())
	var out bytes.Buffer
	require.NoError(t, r.Write(&out, "a", "b", ""))
	assert.Contains(t, out.String(), "No change.")
}
