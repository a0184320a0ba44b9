package gosdk

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// Sampler answers a server's sampling request, with tools: the client's model.
type Sampler func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error)

// Client is a small MCP client: it initializes, lists and calls tools, and answers the server's
// sampling requests (with tools) with its Sampler.
type Client struct {
	conn   *Conn
	Server *mcp.InitializeResult
	done   chan error
}

// Connect starts a client on in and out (a server's stdout and stdin) and initializes it.
func Connect(ctx context.Context, in io.Reader, out io.Writer, sample Sampler) (*Client, error) {
	c := &Client{done: make(chan error, 1)}
	c.conn = NewClientConn(out, func(ctx context.Context, msg mcp.Message) (mcp.AnyResult, error) {
		switch m := msg.(type) {
		case *mcp.CreateMessageRequest:
			return sample(ctx, &m.Params)
		case *mcp.PingRequest:
			return &mcp.EmptyResult{}, nil
		case *mcp.ListRootsRequest:
			return &mcp.ListRootsResult{Roots: []mcp.Root{}}, nil
		}
		if msg.GetID() != nil {
			return nil, &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "not supported: " + msg.GetMethod()}
		}
		return nil, nil // notifications: logging, list changes, progress
	})
	go func() { c.done <- c.conn.Run(ctx, in) }()
	res, err := c.conn.Call(ctx, &mcp.InitializeRequest{ID: c.conn.NextID(), Params: mcp.InitializeRequestParams{
		ProtocolVersion: mcp.LatestProtocolVersion,
		Capabilities:    mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}},
		ClientInfo:      mcp.Implementation{Name: "mcpgen-example-client", Version: "0.1.0"},
	}})
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if c.Server, _ = res.(*mcp.InitializeResult); c.Server == nil {
		return nil, fmt.Errorf("initialize answered with a %T", res)
	}
	return c, c.conn.Notify(&mcp.InitializedNotification{})
}

// ListTools returns the server's tools (the first page).
func (c *Client) ListTools(ctx context.Context) ([]mcp.Tool, error) {
	res, err := c.conn.Call(ctx, &mcp.ListToolsRequest{ID: c.conn.NextID()})
	if err != nil {
		return nil, err
	}
	list, ok := res.(*mcp.ListToolsResult)
	if !ok {
		return nil, fmt.Errorf("tools/list answered with a %T", res)
	}
	return list.Tools, nil
}

// CallTool calls a tool with arguments (anything that encodes as a JSON object).
func (c *Client) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	arguments, err := mcp.EncodeObject(args)
	if err != nil {
		return nil, err
	}
	res, err := c.conn.Call(ctx, &mcp.CallToolRequest{ID: c.conn.NextID(), Params: mcp.CallToolRequestParams{Name: name, Arguments: arguments}})
	if err != nil {
		return nil, err
	}
	result, ok := res.(*mcp.CallToolResult)
	if !ok {
		return nil, fmt.Errorf("tools/call answered with a %T", res)
	}
	return result, nil
}

// Wait returns when the server closes its output, with the reading error, if any.
func (c *Client) Wait() error { return <-c.done }
