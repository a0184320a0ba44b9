//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests its multi round-trip flow

package gosdk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMRTRWithGoSDKClient runs the multi round-trip flow of 2026-07-28 against the official Go
// SDK's client, whose middleware fulfils input requests and retries by itself: a stateless
// server written on mcpgen's 2026-07-28 types (its protocol layer decodes and encodes every
// message) answers server/discover and tools/call, and its agent tool runs the loop through
// mrtr.Runner. The SDK client's scripted model answers the sampling requests; the test checks
// the final result and that every retry echoed the requestState exactly.
func TestMRTRWithGoSDKClient(t *testing.T) {
	for _, tc := range []struct {
		name  string
		turns []turn
		want  string
	}{
		{"single tool call", []turn{
			answer("toolUse", use("call-1", "get_weather", `{"city":"Paris"}`)),
			echoResults(t, "call-1"),
		}, "call-1: Weather in Paris: 18°C, partly cloudy"},
		{"parallel tool calls and a failure", []turn{
			answer("toolUse", use("a", "get_weather", `{"city":"Paris"}`), use("b", "add", `{"numbers":[1,2]}`), use("c", "fail", `{}`)),
			answer("toolUse", use("d", "add", `{"numbers":[3,"4"]}`)),
			echoResults(t, "d"),
		}, `d: error: invalid input for tool "add": /numbers/1: got string, want number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			srv := newMRTRServer(t)
			cr, cw := io.Pipe()
			sr, sw := io.Pipe()
			go srv.serve(ctx, cr, sw)
			var mu sync.Mutex
			n := 0
			client := sdk.NewClient(&sdk.Implementation{Name: "scripted-client", Version: "0"}, &sdk.ClientOptions{
				CreateMessageWithToolsHandler: func(ctx context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
					p, err := gosdk.FromSDKParams(req.Params)
					if err != nil {
						return nil, err
					}
					mu.Lock()
					i := n
					n++
					mu.Unlock()
					var r v1125.CreateMessageResult
					if err := r.UnmarshalJSON([]byte(tc.turns[i](ctx, p))); err != nil {
						return nil, err
					}
					return gosdk.ToSDKResult(&r)
				},
			})
			cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: sr, Writer: cw}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if v := cs.InitializeResult().ProtocolVersion; v != mcp.LatestProtocolVersion {
				t.Fatalf("negotiated %s", v)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather in Paris?"}})
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, c := range res.Content {
				texts = append(texts, c.(*sdk.TextContent).Text)
			}
			if got := strings.Join(texts, "\n"); got != tc.want || res.IsError {
				t.Errorf("result %q (isError %v), want %q", got, res.IsError, tc.want)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if len(srv.calls) != len(tc.turns)+1 {
				t.Fatalf("%d tools/call requests, want %d", len(srv.calls), len(tc.turns)+1)
			}
			for i, call := range srv.calls[1:] {
				if call.RequestState == nil || *call.RequestState != srv.issued[i] {
					t.Errorf("retry %d did not echo the requestState", i+1)
				}
				if _, ok := call.InputResponses[srv.keys[i]].(*mcp.CreateMessageResult); !ok {
					t.Errorf("retry %d: inputResponses %v lack %s", i+1, call.InputResponses, srv.keys[i])
				}
				if call.Meta.ClientCapabilities.Sampling == nil || call.Meta.ClientCapabilities.Sampling.Tools == nil {
					t.Errorf("retry %d does not declare sampling.tools", i+1)
				}
			}
		})
	}
}

// mrtrServer is a stateless MCP server of 2026-07-28 on mcpgen's types, over newline-delimited
// JSON. It records the tools/call params it got and the states it issued.
type mrtrServer struct {
	t      *testing.T
	runner *mrtr.Runner

	wmu    sync.Mutex // serializes writes
	mu     sync.Mutex
	calls  []mcp.CallToolRequestParams
	issued []string // the requestStates issued, in order
	keys   []string // the keys of their sampling requests
}

func newMRTRServer(t *testing.T) *mrtrServer {
	tools := []*sampling.Tool{
		must(t)(sampling.NewTypedTool("get_weather", "", nil, func(_ context.Context, in struct {
			City string `json:"city"`
		}) (string, error) {
			return "Weather in " + in.City + ": 18°C, partly cloudy", nil
		})),
		must(t)(sampling.NewTypedTool("add", "", nil, func(_ context.Context, in struct {
			Numbers []float64 `json:"numbers"`
		}) (float64, error) {
			s := 0.0
			for _, x := range in.Numbers {
				s += x
			}
			return s, nil
		})),
		must(t)(sampling.NewTypedTool("fail", "", nil, func(context.Context, struct{}) (string, error) {
			return "", io.ErrUnexpectedEOF
		})),
	}
	return &mrtrServer{t: t, runner: &mrtr.Runner{
		Loop: &sampling.Loop{Tools: tools, MaxIterations: 5},
		Key:  []byte("a key of at least thirty-two bytes"),
	}}
}

func (s *mrtrServer) serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser) {
	defer out.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		data := append([]byte(nil), sc.Bytes()...)
		msg, err := mcp.DecodeClientMessage(data, nil)
		if err != nil {
			s.write(out, mcp.NewErrorResponse(nil, err))
			continue
		}
		switch m := msg.(type) {
		case *mcp.DiscoverRequest:
			s.write(out, &mcp.JSONRPCResultResponse{ID: m.ID, Result: &mcp.DiscoverResult{
				ResultType:        mcp.ResultTypeComplete,
				CacheScope:        "public",
				SupportedVersions: []string{mcp.LatestProtocolVersion},
				Capabilities:      mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}},
			}})
		case *mcp.CallToolRequest:
			go s.callTool(ctx, out, m)
		case *mcp.CancelledNotification:
		default:
			if r, ok := msg.(interface{ GetID() mcp.RequestID }); ok && r.GetID() != nil {
				s.write(out, mcp.NewErrorResponse(r.GetID(), &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "not supported"}))
			}
		}
	}
}

func (s *mrtrServer) callTool(ctx context.Context, out io.Writer, m *mcp.CallToolRequest) {
	if err := m.Validate(); err != nil {
		s.write(out, mcp.NewErrorResponse(m.ID, err))
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, m.Params)
	s.mu.Unlock()
	req, err := mrtr.CallTool(&m.Params, "")
	if err != nil {
		s.write(out, mcp.NewErrorResponse(m.ID, err))
		return
	}
	step, err := s.runner.Step(ctx, req, func() (*v1125.CreateMessageRequestParams, error) {
		var args struct{ Prompt string }
		if err := mcp.DecodeObject(m.Params.Arguments, &args); err != nil {
			return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: err.Error()}
		}
		return &v1125.CreateMessageRequestParams{
			Messages:  []v1125.SamplingMessage{{Role: v1125.RoleUser, Content: v1125.NewSamplingMessageContent(&v1125.TextContent{Text: args.Prompt})}},
			MaxTokens: 500,
		}, nil
	})
	switch {
	case err != nil:
		s.write(out, mcp.NewErrorResponse(m.ID, err))
	case step.InputRequired != nil:
		s.mu.Lock()
		s.issued = append(s.issued, *step.InputRequired.RequestState)
		for k := range step.InputRequired.InputRequests {
			s.keys = append(s.keys, k)
		}
		s.mu.Unlock()
		s.write(out, &mcp.JSONRPCResultResponse{ID: m.ID, Result: step.InputRequired})
	default:
		r := &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: step.Result.Text()}}}
		if step.Result.Stop != sampling.StopEndTurn {
			r.IsError = ptr(true)
		}
		s.write(out, &mcp.JSONRPCResultResponse{ID: m.ID, Result: r})
	}
}

func (s *mrtrServer) write(out io.Writer, m interface {
	json.Marshaler
	Validate() error
}) {
	data, err := mcp.Marshal(m)
	if err != nil {
		s.t.Errorf("the server's message is invalid: %v", err)
		return
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	out.Write(append(data, '\n'))
}

func ptr[T any](v T) *T { return &v }
