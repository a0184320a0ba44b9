package mcp20250326

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

// TestBatches checks the JSON-RPC batches of this version: a message is an object or an array,
// and an array is a batch of requests and notifications or a batch of responses.
func TestBatches(t *testing.T) {
	for data, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:                                                               "*mcp20250326.JSONRPCRequest",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`:      "mcp20250326.JSONRPCBatchRequest",
		`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}]`: "mcp20250326.JSONRPCBatchResponse",
	} {
		m, err := UnmarshalJSONRPCMessage([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if got := fmt.Sprintf("%T", m); got != want {
			t.Errorf("%s decoded as %s, want %s", data, got, want)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := jsonvalue.Equal([]byte(data), out); err != nil {
			t.Errorf("%s: %v", data, err)
		}
	}
	if _, err := UnmarshalJSONRPCMessage([]byte(`[{"jsonrpc":"2.0"}]`)); err == nil {
		t.Errorf("a batch of neither requests nor responses decoded")
	}
}
