package server

// run.sh -sdk mcp-go -validate adds this file to mcp-go's server package as
// zz_sdkshape_validate.go, and renames mcp-go's HandleMessage (request_handler.go) to
// handleMessageUnchecked: every message a server receives, and its answer, is checked by the
// generated validators (mcp/zz_sdkshape_validate.go) and passes on as it is.

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// HandleMessage checks message, handles it as mcp-go does, and checks the answer.
func (s *MCPServer) HandleMessage(ctx context.Context, message json.RawMessage) mcp.JSONRPCMessage {
	method := mcp.SdkshapeCheckReceived(message)
	resp := s.handleMessageUnchecked(ctx, message)
	if resp != nil {
		mcp.SdkshapeCheckSent(method, resp)
	}
	return resp
}
