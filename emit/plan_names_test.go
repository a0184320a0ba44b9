package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/templates"
)

func TestGoName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"RequestId", "RequestID"},
		{"JSONRPCRequest", "JSONRPCRequest"},
		{"JSONObject", "JSONObject"},
		{"ResourceTemplateReference", "ResourceTemplateReference"},
		{"ElicitRequestURLParams", "ElicitRequestURLParams"},
		{"HttpHeader", "HTTPHeader"},
		{"date-time", "DateTime"},
		{"input_required", "InputRequired"},
		{"endTurn", "EndTurn"},
		{"ref/prompt", "RefPrompt"},
		{"2.0", "20"},
		{"sha256Hash", "Sha256Hash"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, goName(tt.in), tt.in)
	}
}

func TestFieldName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"io.modelcontextprotocol/protocolVersion", "ProtocolVersion"},
		{"_meta", "Meta"},
		{"$schema", "Schema"},
		{"toolUseId", "ToolUseID"},
		{"websiteUrl", "WebsiteURL"},
		{"uriTemplate", "URITemplate"},
		{"jsonrpc", "JSONRPC"},
		{"id", "ID"},
		{"mimeType", "MimeType"},
		{"oneOf", "OneOf"},
		{"x-mcp-header", "XMcpHeader"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, fieldName(tt.in), tt.in)
	}
}

func TestConstNames(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"const", "JSONRPC_VERSION", "JSONRPCVersion"},
		{"const", "LATEST_PROTOCOL_VERSION", "LatestProtocolVersion"},
		{"const", "PARSE_ERROR", "ParseError"},
		{"method", "CallToolRequest", "MethodCallTool"},
		{"method", "CancelledNotification", "MethodCancelled"},
		{"method", "Ping", "MethodPing"},
	}
	for _, tt := range tests {
		got := constName(tt.in)
		if tt.name == "method" {
			got = methodConstName(tt.in)
		}
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestEnumConstName(t *testing.T) {
	tests := []struct{ typ, value, want string }{
		{"Role", "user", "RoleUser"},
		{"IconTheme", "dark", "IconThemeDark"},
		{"CreateMessageResultStopReason", "endTurn", "CreateMessageResultStopReasonEndTurn"},
		{"StringSchemaFormat", "date-time", "StringSchemaFormatDateTime"},
		{"Mode", "", "ModeEmpty"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, enumConstName(tt.typ, tt.value))
	}
}

func TestMemberTypeName(t *testing.T) {
	object, union := &model.Type{Kind: model.Object}, &model.Type{Kind: model.Union}
	assert.Equal(t, "ClientCapabilitiesSampling", memberTypeName("ClientCapabilities", "Sampling", object))
	assert.Equal(t, "HeaderMismatchErrorObject", memberTypeName("HeaderMismatchError", "Error", object))
	assert.Equal(t, "JSONRPCErrorObject", memberTypeName("JSONRPCError", "Error", object))
	assert.Equal(t, "EmbeddedResourceValue", memberTypeName("EmbeddedResource", "Resource", union))
	assert.Equal(t, "ToolInputSchema", memberTypeName("Tool", "InputSchema", object))
	// A word of the field inside the parent's name repeats too.
	assert.Equal(t, "CallToolResultResponseValue", memberTypeName("CallToolResultResponse", "Result", union))
	assert.Equal(t, "ToolResultResponseObject", memberTypeName("ToolResultResponse", "ToolResult", object))
	// Only whole words count: Messages is not Message, URITemplate not Template.
	assert.Equal(t, "CreateMessageRequestMessages", memberTypeName("CreateMessageRequest", "Messages", union))
	assert.Equal(t, "ResourceTemplateURITemplate", memberTypeName("ResourceTemplate", "URITemplate", union))
}

func TestIsErrorCode(t *testing.T) {
	for num, want := range map[string]bool{"-32700": true, "-32000": true, "-32768": true, "-32042": true,
		"-31999": false, "-32769": false, "100": false, "0": false} {
		assert.Equal(t, want, isErrorCode(model.Value{Kind: model.Integer, Num: num}), num)
	}
	assert.False(t, isErrorCode(model.Value{Kind: model.Number, Num: "-32700.5"}), "not an integer")
	assert.False(t, isErrorCode(model.Value{Kind: model.String, Str: "-32700"}), "a string")
}

// TestProtocolPartNames checks the names of the parts' types that the protocol layer writes
// (protocolNames) against the parts: MessageError and its id, MethodInfo and every field the
// method table sets.
func TestProtocolPartNames(t *testing.T) {
	fields := map[string][]string{} // the fields of each struct type of the parts
	types := map[string]bool{}      // every type the parts declare
	fset := token.NewFileSet()
	for name, src := range templates.Parts() {
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err, name)
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				types[ts.Name.Name] = true
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fd := range st.Fields.List {
						for _, id := range fd.Names {
							fields[ts.Name.Name] = append(fields[ts.Name.Name], id.Name)
						}
					}
				}
			}
			return true
		})
	}
	n, info := protocolNames, protocolNames.MethodInfo
	require.Contains(t, fields, n.MessageError)
	assert.Contains(t, fields[n.MessageError], n.MessageErrorID)
	require.Contains(t, fields, info.Name)
	for _, f := range []string{info.Method, info.Message, info.Params, info.FromClient, info.FromServer,
		info.Notification, info.Results, info.TaskAugmented, info.InputRequired} {
		assert.Contains(t, fields[info.Name], f)
	}
	assert.Len(t, fields[info.Name], 9, "the method table sets every field of %s", info.Name)
	assert.True(t, types[n.Params], "the parts declare %s", n.Params)
	assert.True(t, types[n.RawParams], "the parts declare %s", n.RawParams)
}
