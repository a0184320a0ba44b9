package mcp20250326

import (
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsontest"
)

// TestDraftExamples round-trips, through the 2025-03-26 types, every draft example that the 2025-03-26
// schema.json accepts (the list is decided by a JSON Schema validator in internal/conformance).
func TestDraftExamples(t *testing.T) {
	jsontest.RoundTripListed(t, SchemaVersion, "../testdata/examples/draft", "testdata/draft-examples.txt", exampleTypes)
}

// exampleTypes maps each example directory (named after a schema declaration) to its Go type.
var exampleTypes = map[string]func() any{
	"AudioContent":                    func() any { return new(AudioContent) },
	"BlobResourceContents":            func() any { return new(BlobResourceContents) },
	"CallToolRequest":                 func() any { return new(CallToolRequest) },
	"CallToolResult":                  func() any { return new(CallToolResult) },
	"CancelledNotification":           func() any { return new(CancelledNotification) },
	"ClientCapabilities":              func() any { return new(ClientCapabilities) },
	"CompleteRequest":                 func() any { return new(CompleteRequest) },
	"CompleteResult":                  func() any { return new(CompleteResult) },
	"CreateMessageRequest":            func() any { return new(CreateMessageRequest) },
	"CreateMessageResult":             func() any { return new(CreateMessageResult) },
	"EmbeddedResource":                func() any { return new(EmbeddedResource) },
	"GetPromptRequest":                func() any { return new(GetPromptRequest) },
	"GetPromptResult":                 func() any { return new(GetPromptResult) },
	"ImageContent":                    func() any { return new(ImageContent) },
	"ListPromptsRequest":              func() any { return new(ListPromptsRequest) },
	"ListPromptsResult":               func() any { return new(ListPromptsResult) },
	"ListResourceTemplatesRequest":    func() any { return new(ListResourceTemplatesRequest) },
	"ListResourceTemplatesResult":     func() any { return new(ListResourceTemplatesResult) },
	"ListResourcesRequest":            func() any { return new(ListResourcesRequest) },
	"ListResourcesResult":             func() any { return new(ListResourcesResult) },
	"ListRootsRequest":                func() any { return new(ListRootsRequest) },
	"ListRootsResult":                 func() any { return new(ListRootsResult) },
	"ListToolsRequest":                func() any { return new(ListToolsRequest) },
	"ListToolsResult":                 func() any { return new(ListToolsResult) },
	"LoggingMessageNotification":      func() any { return new(LoggingMessageNotification) },
	"ModelPreferences":                func() any { return new(ModelPreferences) },
	"ProgressNotification":            func() any { return new(ProgressNotification) },
	"PromptListChangedNotification":   func() any { return new(PromptListChangedNotification) },
	"ReadResourceRequest":             func() any { return new(ReadResourceRequest) },
	"ReadResourceResult":              func() any { return new(ReadResourceResult) },
	"Resource":                        func() any { return new(Resource) },
	"ResourceListChangedNotification": func() any { return new(ResourceListChangedNotification) },
	"ResourceUpdatedNotification":     func() any { return new(ResourceUpdatedNotification) },
	"Root":                            func() any { return new(Root) },
	"SamplingMessage":                 func() any { return new(SamplingMessage) },
	"ServerCapabilities":              func() any { return new(ServerCapabilities) },
	"TextContent":                     func() any { return new(TextContent) },
	"TextResourceContents":            func() any { return new(TextResourceContents) },
	"Tool":                            func() any { return new(Tool) },
	"ToolListChangedNotification":     func() any { return new(ToolListChangedNotification) },
}
