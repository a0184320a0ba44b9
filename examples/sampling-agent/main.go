//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this server speaks 2025-11-25, in which it remains

// Command sampling-agent is a stdio MCP server (protocol 2025-11-25, on the official Go SDK)
// with one tool, agent, that answers a prompt with the client's model: its handler runs the tool
// loop of github.com/mcpgen/mcpgen/sampling through sampling with tools, offering the model two
// local tools, get_weather (deterministic made-up weather) and add.
//
//	go build && ./sampling-agent     # in examples/sampling-agent; speaks MCP on stdin/stdout
//
// The agent tool takes {"prompt": string, "maxIterations"?: integer} (default 10, at most 50:
// the most sampling requests of one call). Its result is the model's final text. It is an error
// result (isError: true) saying why when the loop stops at maxIterations with the model still
// asking for tools, when the client lacks the sampling.tools capability, or when the client's
// model answers with something the loop refuses (a repeated tool use id, say). The client needs
// the sampling capability with tools: sampling: {tools: {}}.
//
// Logs go to stderr.
package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log"
	"strings"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	defaultMaxIterations = 10
	maxMaxIterations     = 50
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("sampling-agent: ")
	server, err := newServer()
	if err != nil {
		log.Fatal(err)
	}
	if err := server.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// Input is the agent tool's input.
type Input struct {
	Prompt        string `json:"prompt" jsonschema:"what to ask the model"`
	MaxIterations *int   `json:"maxIterations,omitempty" jsonschema:"the most sampling requests the tool loop makes (default 10, at most 50)"`
}

func newServer() (*sdk.Server, error) {
	tools, err := localTools()
	if err != nil {
		return nil, err
	}
	server := sdk.NewServer(&sdk.Implementation{Name: "sampling-agent", Version: "0.1.0"}, &sdk.ServerOptions{
		// Sampling requests from the server are the flow of 2025-11-25; in 2026-07-28 a server
		// asks through InputRequiredResult (package sampling/mrtr).
		SupportedProtocolVersions: []string{"2025-11-25"},
	})
	sdk.AddTool(server, &sdk.Tool{
		Name:        "agent",
		Description: "Answers a prompt with the client's model, which can look up the weather (get_weather) and add numbers (add).",
	}, func(ctx context.Context, req *sdk.CallToolRequest, in Input) (*sdk.CallToolResult, any, error) {
		return agent(ctx, req.Session, tools, in), nil, nil
	})
	return server, nil
}

// agent runs the tool loop for one call of the agent tool.
func agent(ctx context.Context, session *sdk.ServerSession, tools []*sampling.Tool, in Input) *sdk.CallToolResult {
	limit := defaultMaxIterations
	if in.MaxIterations != nil {
		limit = *in.MaxIterations
	}
	if limit < 1 || limit > maxMaxIterations {
		return errorResult("maxIterations must be between 1 and %d, not %d", maxMaxIterations, limit)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return errorResult("the prompt is empty")
	}
	loop := &sampling.Loop{Tools: tools, MaxIterations: limit}
	res, err := gosdk.Run(ctx, session, loop, &mcp.CreateMessageRequestParams{
		Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
		SystemPrompt: ptr("Answer the user's question. You can call get_weather for the weather of a city and add to add numbers."),
		MaxTokens:    1024,
	})
	var cerr *sampling.CapabilityError
	switch {
	case errors.As(err, &cerr):
		return errorResult("the client does not support sampling with tools (%v): it must declare the sampling.tools capability", cerr.Err)
	case err != nil:
		log.Printf("agent: the loop stopped (%s) after %d sampling requests: %v", res.Stop, res.Iterations, err)
		return errorResult("the tool loop failed after %d sampling requests: %v", res.Iterations, err)
	case res.Stop == sampling.StopMaxIterations:
		var names []string
		for _, u := range res.PendingToolUses() {
			names = append(names, u.Name)
		}
		return errorResult("the tool loop stopped at its limit of %d sampling requests (maxIterations) with the model still asking for tools (%s)",
			limit, strings.Join(names, ", "))
	}
	text := res.Text()
	if text == "" {
		reason := "none"
		if res.Last.StopReason != nil {
			reason = string(*res.Last.StopReason)
		}
		return errorResult("the model ended its turn without text (stopReason %s)", reason)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

func errorResult(format string, args ...any) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// WeatherInput is get_weather's input.
type WeatherInput struct {
	City string `json:"city" jsonschema:"the city's name"`
}

// AddInput is add's input.
type AddInput struct {
	Numbers []float64 `json:"numbers" jsonschema:"the numbers to add"`
}

// localTools are the tools the agent offers the model.
func localTools() ([]*sampling.Tool, error) {
	weather, err := sampling.NewTypedTool("get_weather", "Current weather of a city (made up, but the same every time).", nil,
		func(_ context.Context, in WeatherInput) (string, error) {
			return Weather(in.City)
		})
	if err != nil {
		return nil, err
	}
	add, err := sampling.NewTypedTool("add", "Adds numbers.", nil, func(_ context.Context, in AddInput) (float64, error) {
		if len(in.Numbers) == 0 {
			return 0, errors.New("no numbers to add")
		}
		sum := 0.0
		for _, n := range in.Numbers {
			sum += n
		}
		return sum, nil
	})
	if err != nil {
		return nil, err
	}
	return []*sampling.Tool{weather, add}, nil
}

// Weather returns made-up weather for a city: the spec's example values for Paris and London,
// and for any other city a temperature and sky chosen by a hash of its name.
func Weather(city string) (string, error) {
	city = strings.TrimSpace(city)
	switch city {
	case "":
		return "", errors.New("no city given")
	case "Paris":
		return "Weather in Paris: 18°C, partly cloudy", nil
	case "London":
		return "Weather in London: 15°C, rainy", nil
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(city)))
	n := h.Sum32()
	skies := []string{"sunny", "partly cloudy", "cloudy", "rainy", "windy", "foggy", "snowy"}
	return fmt.Sprintf("Weather in %s: %d°C, %s", city, int(n%35)-5, skies[(n/35)%uint32(len(skies))]), nil
}

func ptr[T any](v T) *T { return &v }
