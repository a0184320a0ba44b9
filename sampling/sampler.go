package sampling

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// A Sampler asks a model for one message: what an MCP sampling/createMessage request does. The
// client's model behind an MCP session, a model provider's API and a scripted model in a test are
// all Samplers.
type Sampler interface {
	CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error)
}

// SamplerFunc adapts a function to a Sampler.
type SamplerFunc func(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error)

// CreateMessage calls f.
func (f SamplerFunc) CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return f(ctx, params)
}
