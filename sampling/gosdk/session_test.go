//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests its multi round-trip flow

package gosdk_test

import (
	"context"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHandlerBindsStateToSession: with the default principal and no OAuth, a state issued on one
// session is refused on another (otherPrincipal) and the tool does not run; on its own session it
// is accepted. With Unbound, any session may present it.
func TestHandlerBindsStateToSession(t *testing.T) {
	for _, unbound := range []bool{false, true} {
		ran := 0
		weather := must(t)(sampling.NewTypedTool("get_weather", "", nil, func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			ran++
			return "Weather in " + in.City + ": 18°C", nil
		}))
		h := &gosdk.Handler{Unbound: unbound, Runner: &mrtr.Runner{
			Loop: &sampling.Loop{Tools: []*sampling.Tool{weather}},
			Key:  []byte("a key of at least thirty-two bytes"),
		}}
		server := sdk.NewServer(&sdk.Implementation{Name: "session-test", Version: "0"}, nil)
		sdk.AddTool(server, &sdk.Tool{Name: "agent"}, func(ctx context.Context, req *sdk.CallToolRequest, in agentInput) (*sdk.CallToolResult, any, error) {
			res, out, err := h.Step(ctx, req, func() (*mcp.CreateMessageRequestParams, error) {
				return &mcp.CreateMessageRequestParams{
					Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
					MaxTokens: 100,
				}, nil
			})
			switch {
			case err != nil:
				return nil, nil, gosdk.JSONRPCError(err)
			case res != nil:
				return res, nil, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Text()}}}, nil, nil
		})
		args := map[string]any{"prompt": "Weather in Paris?"}
		alice := connectClient(t, server, "", clientOptions(&model{t: t}, "tools", true))
		mallory := connectClient(t, server, "", clientOptions(&model{t: t}, "tools", true))
		state, key, _ := firstRound(t, alice, "agent", args, "")
		retry := &sdk.CallToolParams{Name: "agent", Arguments: args, RequestState: state,
			InputResponses: sdk.InputResponseMap{key: sdkAnswer(t, answer("toolUse", use("w", "get_weather", `{"city":"Paris"}`)))}}
		res, err := mallory.CallTool(t.Context(), retry)
		if unbound {
			if err != nil || !res.NeedsInput() || ran != 1 {
				t.Errorf("Unbound: another session's retry: %v %+v (the tool ran %d times)", err, res, ran)
			}
			continue
		}
		if err == nil {
			t.Fatalf("another session's retry was accepted: %+v (the tool ran %d times)", res, ran)
		}
		if werr, data := rpcErr(t, err); werr.Code != -32602 || data["reason"] != "otherPrincipal" || ran != 0 {
			t.Errorf("another session: error %d %q, data %v; the tool ran %d times", werr.Code, werr.Message, data, ran)
		}
		res, err = alice.CallTool(t.Context(), retry)
		if err != nil || !res.NeedsInput() || ran != 1 {
			t.Errorf("the session's own retry: %v %+v (the tool ran %d times)", err, res, ran)
		}
	}
}
