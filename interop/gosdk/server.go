package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// Server is a small MCP server with two tools: "add" adds two integers; "weather_report" asks the
// client's model, through sampling with tools, to write a weather report, running the tool
// "get_weather" for the model as often as it asks.
type Server struct {
	conn   *Conn
	mu     sync.Mutex
	client mcp.ClientCapabilities // from initialize
}

// Serve runs the server on in and out (os.Stdin and os.Stdout for the stdio transport).
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s := &Server{}
	s.conn = NewServerConn(out, s.handle)
	return s.conn.Run(ctx, in)
}

var serverTools = []mcp.Tool{{
	Name:        "add",
	Description: ptr("Adds two integers."),
	InputSchema: mcp.ToolInputSchema{Type: "object", Required: []string{"a", "b"}, Properties: map[string]map[string]json.RawMessage{
		"a": {"type": json.RawMessage(`"integer"`)},
		"b": {"type": json.RawMessage(`"integer"`)},
	}},
}, {
	Name:        "weather_report",
	Description: ptr("Writes a weather report for a city, with the client's model."),
	InputSchema: mcp.ToolInputSchema{Type: "object", Required: []string{"city"}, Properties: map[string]map[string]json.RawMessage{
		"city": {"type": json.RawMessage(`"string"`)},
	}},
}}

// getWeather is the tool the server offers the model in its sampling requests.
var getWeather = mcp.Tool{
	Name:        "get_weather",
	Description: ptr("Current weather of a city."),
	InputSchema: mcp.ToolInputSchema{Type: "object", Required: []string{"city"}, Properties: map[string]map[string]json.RawMessage{
		"city": {"type": json.RawMessage(`"string"`)},
	}},
}

func (s *Server) handle(ctx context.Context, msg mcp.Message) (mcp.AnyResult, error) {
	switch m := msg.(type) {
	case *mcp.InitializeRequest:
		s.mu.Lock()
		s.client = m.Params.Capabilities
		s.mu.Unlock()
		return &mcp.InitializeResult{
			ProtocolVersion: mcp.LatestProtocolVersion,
			Capabilities:    mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}},
			ServerInfo:      mcp.Implementation{Name: "mcpgen-example-server", Version: "0.1.0"},
		}, nil
	case *mcp.PingRequest:
		return &mcp.EmptyResult{}, nil
	case *mcp.ListToolsRequest:
		return &mcp.ListToolsResult{Tools: serverTools}, nil
	case *mcp.CallToolRequest:
		return s.callTool(ctx, &m.Params)
	case *mcp.InitializedNotification, *mcp.CancelledNotification:
		return nil, nil
	}
	return nil, &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "not supported: " + msg.GetMethod()}
}

func (s *Server) callTool(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.AnyResult, error) {
	switch p.Name {
	case "add":
		var args struct{ A, B int64 }
		if err := mcp.DecodeObject(p.Arguments, &args); err != nil {
			return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "add: " + err.Error()}
		}
		sum := args.A + args.B
		return &mcp.CallToolResult{
			Content:           []mcp.ContentBlock{&mcp.TextContent{Text: fmt.Sprint(sum)}},
			StructuredContent: map[string]json.RawMessage{"sum": json.RawMessage(fmt.Sprint(sum))},
		}, nil
	case "weather_report":
		var args struct{ City string }
		if err := mcp.DecodeObject(p.Arguments, &args); err != nil {
			return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "weather_report: " + err.Error()}
		}
		text, err := s.weatherReport(ctx, args.City)
		if err != nil {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: err.Error()}}, IsError: ptr(true)}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}, nil
	}
	return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "unknown tool " + p.Name}
}

// weatherReport is the tool loop of sampling with tools: send the conversation with the tools,
// run the tool uses of the answer, append the answer and the tool results, and ask again until
// the model answers with text.
func (s *Server) weatherReport(ctx context.Context, city string) (string, error) {
	params := mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{
			Role:    mcp.RoleUser,
			Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "Write a one-line weather report for " + city + "."}),
		}},
		MaxTokens: 400,
		Tools:     []mcp.Tool{getWeather},
	}
	s.mu.Lock()
	err := params.CheckCapabilities(&s.client) // tools need the client's sampling.tools
	s.mu.Unlock()
	if err != nil {
		return "", err
	}
	for range 5 {
		res, err := s.conn.Call(ctx, &mcp.CreateMessageRequest{ID: s.conn.NextID(), Params: params})
		if err != nil {
			return "", err
		}
		answer, ok := res.(*mcp.CreateMessageResult)
		if !ok {
			return "", fmt.Errorf("sampling answered with a %T", res)
		}
		var results []mcp.SamplingMessageContentBlock
		var text []string
		for _, block := range answer.Content.List {
			switch b := block.(type) {
			case *mcp.ToolUseContent:
				results = append(results, runTool(b))
			case *mcp.TextContent:
				text = append(text, b.Text)
			}
		}
		if len(results) == 0 {
			return strings.Join(text, " "), nil
		}
		params.Messages = append(params.Messages,
			mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: answer.Content},
			mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContentList(results...)})
	}
	return "", errors.New("the model kept asking for tools")
}

// runTool runs a tool use of the model and returns its result.
func runTool(use *mcp.ToolUseContent) *mcp.ToolResultContent {
	var args struct{ City string }
	if err := mcp.DecodeObject(use.Input, &args); err != nil || use.Name != getWeather.Name {
		return &mcp.ToolResultContent{ToolUseID: use.ID, IsError: ptr(true),
			Content: []mcp.ContentBlock{&mcp.TextContent{Text: "cannot run " + use.Name}}}
	}
	return &mcp.ToolResultContent{ToolUseID: use.ID,
		Content: []mcp.ContentBlock{&mcp.TextContent{Text: args.City + ": sunny, 21°C"}}}
}

func ptr[T any](v T) *T { return &v }
