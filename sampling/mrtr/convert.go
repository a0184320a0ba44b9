//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this converts its types

package mrtr

import (
	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
)

// The loop works on the types of 2025-11-25; the sampling types of 2026-07-28 have the same JSON.
// These convert at the boundary, through that JSON (unknown members are kept in Extra).

func toV1125Capabilities(c *mcp.ClientCapabilities) (*v1125.ClientCapabilities, error) {
	out := &v1125.ClientCapabilities{}
	if c == nil {
		return out, nil
	}
	data, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return out, out.UnmarshalJSON(data)
}

func toV2026Capabilities(c *v1125.ClientCapabilities) (*mcp.ClientCapabilities, error) {
	data, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := &mcp.ClientCapabilities{}
	return out, out.UnmarshalJSON(data)
}

func toV2026Params(p *v1125.CreateMessageRequestParams) (*mcp.CreateMessageRequestParams, error) {
	data, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := &mcp.CreateMessageRequestParams{}
	return out, out.UnmarshalJSON(data)
}

func toV1125Result(r *mcp.CreateMessageResult) (*v1125.CreateMessageResult, error) {
	data, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := &v1125.CreateMessageResult{}
	return out, out.UnmarshalJSON(data)
}
