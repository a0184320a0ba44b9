package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// exampleTypes maps the spec's example directories (named after schema declarations) to the
// types of the package, renamed by mcpgen.yaml.
var exampleTypes = map[string]func() any{
	"Tool":                       func() any { return new(Tool) },
	"ListToolsResult":            func() any { return new(ListToolsResult) },
	"CallToolRequestParams":      func() any { return new(CallToolParams) },
	"CallToolResult":             func() any { return new(CallToolResult) },
	"CreateMessageRequestParams": func() any { return new(CreateMessageParams) },
	"CreateMessageResult":        func() any { return new(CreateMessageResult) },
	"ClientCapabilities":         func() any { return new(ClientCapabilities) },
}

// TestExamples decodes every example of the spec for these types, validates it and encodes it
// back to the same JSON: the schemas of tools go through go-sdk's JSON Schema type.
func TestExamples(t *testing.T) {
	n, schemas := 0, 0
	for dir, newValue := range exampleTypes {
		files, err := filepath.Glob(filepath.Join("testdata", "examples", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no examples of %s: %v", dir, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			v := newValue()
			if err := json.Unmarshal(data, v); err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			if err := v.(interface{ Validate() error }).Validate(); err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			if tool, ok := v.(*Tool); ok && tool.InputSchema != nil && tool.InputSchema.Type == "object" {
				schemas++
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			var a, b any
			if err := json.Unmarshal(data, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s:\ngot  %s\nwant %s", file, out, data)
				continue
			}
			n++
		}
	}
	t.Logf("%d examples round-tripped, %d tool input schemas decoded as jsonschema.Schema", n, schemas)
	if schemas == 0 {
		t.Error("no input schema was decoded into jsonschema.Schema")
	}
}

// TestInputSchema validates a tool's arguments with the substituted type's own validator.
func TestInputSchema(t *testing.T) {
	var tool Tool
	err := json.Unmarshal([]byte(`{"name":"get","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}`), &tool)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := tool.InputSchema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(map[string]any{"id": "1"}); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
	if err := resolved.Validate(map[string]any{}); err == nil {
		t.Error("arguments without id validated")
	}
}

// TestUI: the extension's types use the package's Tool and runtime.
func TestUI(t *testing.T) {
	in := `{"tool":{"name":"get","inputSchema":{"type":"object"}},"resourceUri":"ui://get","visibility":["app"]}`
	var ui ToolUI
	if err := json.Unmarshal([]byte(in), &ui); err != nil {
		t.Fatal(err)
	}
	if err := ui.Validate(); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(ui)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("got  %s\nwant %s", out, in)
	}
	if UISchemaVersion != "ui-1" || SchemaVersion != "2026-07-28" {
		t.Errorf("versions %q, %q", UISchemaVersion, SchemaVersion)
	}
}
