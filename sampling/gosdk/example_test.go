//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this shows its tool loop

package gosdk_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"log"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A go-sdk server whose tool runs the tool loop on the client's model, and a go-sdk client (at
// its default version, 2026-07-28) whose model calls get_weather once and then answers.
func ExampleStep() {
	type Input struct {
		Prompt string `json:"prompt"`
	}
	weather, err := sampling.NewTypedTool("get_weather", "Current weather of a city", nil,
		func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return "18°C in " + in.City, nil
		})
	if err != nil {
		log.Fatal(err)
	}
	key := make([]byte, 32) // shared by the server's instances, and secret
	rand.Read(key)

	// The server: the handler of the package doc.
	server := sdk.NewServer(&sdk.Implementation{Name: "agent-server", Version: "1"}, nil)
	runner := &mrtr.Runner{Loop: &sampling.Loop{Tools: []*sampling.Tool{weather}}, Key: key, Guard: &mrtr.MemoryGuard{}}
	sdk.AddTool(server, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in Input) (*sdk.CallToolResult, any, error) {
		res, out, err := gosdk.Step(ctx, runner, req, func() (*mcp.CreateMessageRequestParams, error) {
			return &mcp.CreateMessageRequestParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
				MaxTokens: 1024,
			}, nil
		})
		if err != nil {
			return nil, nil, gosdk.JSONRPCError(err)
		}
		if res != nil {
			return res, nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text()}}}, nil, nil
	})

	// The client: its model asks for the weather, then answers with the tool's result.
	client := sdk.NewClient(&sdk.Implementation{Name: "client", Version: "1"}, &sdk.ClientOptions{
		CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			last := req.Params.Messages[len(req.Params.Messages)-1]
			if r, ok := last.Content[0].(*sdk.ToolResultContent); ok {
				text := r.Content[0].(*sdk.TextContent).Text
				return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "endTurn",
					Content: []sdk.Content{&sdk.TextContent{Text: "It is " + text + "."}}}, nil
			}
			return &sdk.CreateMessageWithToolsResult{Role: "assistant", Model: "scripted", StopReason: "toolUse",
				Content: []sdk.Content{&sdk.ToolUseContent{ID: "call-1", Name: "get_weather", Input: map[string]any{"city": "Paris"}}}}, nil
		},
	})
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather in Paris?"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cs.InitializeResult().ProtocolVersion)
	fmt.Println(res.Content[0].(*sdk.TextContent).Text)
	// Output:
	// 2026-07-28
	// It is 18°C in Paris.
}
