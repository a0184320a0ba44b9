package mcp20251125

import (
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsontest"
)

// TestDraftExamples round-trips, through the 2025-11-25 types, every draft example that the 2025-11-25
// schema.json accepts (the list is decided by a JSON Schema validator in internal/conformance).
func TestDraftExamples(t *testing.T) {
	jsontest.RoundTripListed(t, SchemaVersion, "../testdata/examples/draft", "testdata/draft-examples.txt", exampleTypes)
}

// exampleTypes maps each example directory (named after a schema declaration) to its Go type.
var exampleTypes = map[string]func() any{
	"AudioContent":                      func() any { return new(AudioContent) },
	"BlobResourceContents":              func() any { return new(BlobResourceContents) },
	"BooleanSchema":                     func() any { return new(BooleanSchema) },
	"CallToolRequest":                   func() any { return new(CallToolRequest) },
	"CallToolRequestParams":             func() any { return new(CallToolRequestParams) },
	"CallToolResult":                    func() any { return new(CallToolResult) },
	"CancelledNotification":             func() any { return new(CancelledNotification) },
	"CancelledNotificationParams":       func() any { return new(CancelledNotificationParams) },
	"ClientCapabilities":                func() any { return new(ClientCapabilities) },
	"CompleteRequest":                   func() any { return new(CompleteRequest) },
	"CompleteRequestParams":             func() any { return new(CompleteRequestParams) },
	"CompleteResult":                    func() any { return new(CompleteResult) },
	"CreateMessageRequest":              func() any { return new(CreateMessageRequest) },
	"CreateMessageRequestParams":        func() any { return new(CreateMessageRequestParams) },
	"CreateMessageResult":               func() any { return new(CreateMessageResult) },
	"ElicitRequest":                     func() any { return new(ElicitRequest) },
	"ElicitRequestFormParams":           func() any { return new(ElicitRequestFormParams) },
	"ElicitRequestURLParams":            func() any { return new(ElicitRequestURLParams) },
	"ElicitResult":                      func() any { return new(ElicitResult) },
	"EmbeddedResource":                  func() any { return new(EmbeddedResource) },
	"GetPromptRequest":                  func() any { return new(GetPromptRequest) },
	"GetPromptRequestParams":            func() any { return new(GetPromptRequestParams) },
	"GetPromptResult":                   func() any { return new(GetPromptResult) },
	"ImageContent":                      func() any { return new(ImageContent) },
	"ListPromptsRequest":                func() any { return new(ListPromptsRequest) },
	"ListPromptsResult":                 func() any { return new(ListPromptsResult) },
	"ListResourceTemplatesRequest":      func() any { return new(ListResourceTemplatesRequest) },
	"ListResourceTemplatesResult":       func() any { return new(ListResourceTemplatesResult) },
	"ListResourcesRequest":              func() any { return new(ListResourcesRequest) },
	"ListResourcesResult":               func() any { return new(ListResourcesResult) },
	"ListRootsRequest":                  func() any { return new(ListRootsRequest) },
	"ListRootsResult":                   func() any { return new(ListRootsResult) },
	"ListToolsRequest":                  func() any { return new(ListToolsRequest) },
	"ListToolsResult":                   func() any { return new(ListToolsResult) },
	"LoggingMessageNotification":        func() any { return new(LoggingMessageNotification) },
	"LoggingMessageNotificationParams":  func() any { return new(LoggingMessageNotificationParams) },
	"ModelPreferences":                  func() any { return new(ModelPreferences) },
	"NumberSchema":                      func() any { return new(NumberSchema) },
	"PaginatedRequestParams":            func() any { return new(PaginatedRequestParams) },
	"ProgressNotification":              func() any { return new(ProgressNotification) },
	"ProgressNotificationParams":        func() any { return new(ProgressNotificationParams) },
	"PromptListChangedNotification":     func() any { return new(PromptListChangedNotification) },
	"ReadResourceRequest":               func() any { return new(ReadResourceRequest) },
	"ReadResourceResult":                func() any { return new(ReadResourceResult) },
	"Resource":                          func() any { return new(Resource) },
	"ResourceLink":                      func() any { return new(ResourceLink) },
	"ResourceListChangedNotification":   func() any { return new(ResourceListChangedNotification) },
	"ResourceUpdatedNotification":       func() any { return new(ResourceUpdatedNotification) },
	"ResourceUpdatedNotificationParams": func() any { return new(ResourceUpdatedNotificationParams) },
	"Root":                              func() any { return new(Root) },
	"SamplingMessage":                   func() any { return new(SamplingMessage) },
	"ServerCapabilities":                func() any { return new(ServerCapabilities) },
	"StringSchema":                      func() any { return new(StringSchema) },
	"TextContent":                       func() any { return new(TextContent) },
	"TextResourceContents":              func() any { return new(TextResourceContents) },
	"TitledMultiSelectEnumSchema":       func() any { return new(TitledMultiSelectEnumSchema) },
	"TitledSingleSelectEnumSchema":      func() any { return new(TitledSingleSelectEnumSchema) },
	"Tool":                              func() any { return new(Tool) },
	"ToolListChangedNotification":       func() any { return new(ToolListChangedNotification) },
	"ToolResultContent":                 func() any { return new(ToolResultContent) },
	"ToolUseContent":                    func() any { return new(ToolUseContent) },
	"UntitledMultiSelectEnumSchema":     func() any { return new(UntitledMultiSelectEnumSchema) },
	"UntitledSingleSelectEnumSchema":    func() any { return new(UntitledSingleSelectEnumSchema) },
}
