package proxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// metaRootsOnly declares roots and no elicitation in a 2026-07-28 request's _meta.
const metaRootsOnly = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`

// TestCaseCollidingMembersRefused: input requests whose members differ only in case, read one way
// by the proxy's checks and another by the client, are refused, not forwarded: URL elicitation
// dressed as form elicitation to a client that declared form only, and an elicitation dressed as
// roots/list to a client that declared roots only. Duplicate members likewise.
func TestCaseCollidingMembersRefused(t *testing.T) {
	for _, tt := range []struct{ name, call, reqs string }{
		{"mode", toolCall("1"), `"go":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://evil.example","elicitationId":"e","Mode":"form"}}`},
		{"method", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"agent","arguments":{},` + metaRootsOnly + `}}` + "\n",
			`"go":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}},"Method":"roots/list"}`},
		{"duplicate", toolCall("1"), `"go":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://evil.example","elicitationId":"e","mode":"form"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &scripted{}
			h := startWith(t, &proxy.Proxy{Sampler: s})
			h.send(h.client, tt.call)
			h.nextToServer()
			h.send(h.server, inputRequired("1", tt.reqs, ""))
			resp := decode(t, h.nextToClient())
			e, _ := resp["error"].(map[string]any)
			if e == nil {
				t.Fatalf("the client got %v", resp)
			}
			if msg, _ := e["message"].(string); !strings.Contains(msg, "ambiguous") {
				t.Errorf("error %v", e)
			}
			h.expectNothing(h.toClient, "client")
		})
	}
}

// TestCaseCollidingClientMessages: a client's request with members that differ only in case is
// refused, its answer replaced by an error; in tool arguments such names are the user's and pass.
func TestCaseCollidingClientMessages(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &scripted{}})
	h.send(h.client, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","IO.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`+"\n")
	if resp := decode(t, h.nextToClient()); resp["error"] == nil {
		t.Errorf("the client got %v", resp)
	}
	// An answer to the server's request becomes an error the server reads.
	h.send(h.server, `{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`+"\n")
	h.nextToClient()
	h.send(h.client, `{"jsonrpc":"2.0","id":"s1","result":{"roots":[],"Roots":[{"uri":"file:///etc"}]}}`+"\n")
	if resp := decode(t, h.nextToServer()); resp["id"] != "s1" || resp["error"] == nil {
		t.Errorf("the server got %v", resp)
	}
	ok := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","arguments":{"name":"x","Name":"y"}}}` + "\n"
	h.send(h.client, ok)
	if got := h.nextToServer(); string(got) != ok {
		t.Errorf("the server got %s", got)
	}
}

// TestServerBatchWithSampling: a sampling request inside a JSON-RPC batch from the server is
// answered by the proxy and does not reach the client; the batch's other messages do.
func TestServerBatchWithSampling(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"A"}}`
	h.send(h.server, "["+strings.TrimSpace(samplingRequest)+","+note+"]\n")
	resp := decode(t, h.nextToServer())
	if resp["id"] != float64(7) || resp["result"] == nil {
		t.Errorf("the server got %v", resp)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(h.nextToClient(), &batch); err != nil || len(batch) != 1 || string(batch[0]) != note {
		t.Errorf("the client got %s (%v)", batch, err)
	}
	if len(s.params) != 1 {
		t.Errorf("the sampler was asked %d times", len(s.params))
	}
}

// TestProxyStateSingleUse: the proxy's own requestState is accepted once; presented again it is
// refused (-32602, replayed), so a replay cannot lead the server to ask for more samples.
func TestProxyStateSingleUse(t *testing.T) {
	s := &scripted{}
	h := startWith(t, &proxy.Proxy{Sampler: s})
	h.send(h.client, toolCall("1"))
	h.nextToServer()
	elicit := `{"method":"elicitation/create","params":{"mode":"form","message":"OK?","requestedSchema":{"type":"object","properties":{}}}}`
	h.send(h.server, inputRequired("1", `"ask":`+elicit+`,"model":`+samplingInput, "server-state"))
	state := decode(t, h.nextToClient())["result"].(map[string]any)["requestState"].(string)
	retry := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"agent","arguments":{"prompt":"hi","n":[1,{"b":2,"a":1}]},` + meta2026 +
		`,"inputResponses":{"ask":{"action":"accept","content":{}}},"requestState":"` + state + `"}}` + "\n"
	h.send(h.client, retry)
	if got := decode(t, h.nextToServer()); got["params"].(map[string]any)["requestState"] != "server-state" {
		t.Fatalf("the server got %v", got)
	}
	h.send(h.client, retry)
	resp := decode(t, h.nextToClient())
	e, _ := resp["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "already used") {
		t.Errorf("a replayed state: %v", resp)
	}
	h.expectNothing(h.toServer, "server")
}

// TestClientAnswersOnlyItsRequests: a client's response, result or error, reaches the server only
// when it answers a request the server sent that client, and only the first time; one to the
// server's sampling request (which the proxy answered itself), or a second answer, is dropped.
func TestClientAnswersOnlyItsRequests(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &scripted{}})
	h.send(h.server, samplingRequest)
	if resp := decode(t, h.nextToServer()); resp["id"] != float64(7) || resp["result"] == nil {
		t.Fatalf("the server got %v", resp)
	}
	h.send(h.server, `{"jsonrpc":"2.0","id":"r1","method":"roots/list"}`+"\n")
	h.send(h.server, `{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
	h.nextToClient()
	h.nextToClient()
	first := `{"jsonrpc":"2.0","id":"r1","result":{"roots":[]}}` + "\n"
	failed := `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}` + "\n"
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{"role":"assistant","content":{"type":"text","text":"the client's"},"model":"m"}}` + "\n",
		first,
		`{"jsonrpc":"2.0","id":"r1","result":{"roots":[{"uri":"file:///etc"}]}}` + "\n",
		failed,
		`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":"3","result":{}}` + "\n",
	} {
		h.send(h.client, line)
	}
	for _, want := range []string{first, failed} {
		if got := h.nextToServer(); string(got) != want {
			t.Errorf("the server got %q, want %q", got, want)
		}
	}
	h.expectNothing(h.toServer, "server")
}

// TestClientBatchAnswersOnlyItsRequests: in a batch from the client, a response that answers no
// request sent to it is dropped as it would be alone, and the rest goes on as a batch; a batch
// of such responses only does not reach the server. The request answered came in a batch too.
func TestClientBatchAnswersOnlyItsRequests(t *testing.T) {
	h := startWith(t, &proxy.Proxy{Sampler: &scripted{}})
	h.send(h.server, `[{"jsonrpc":"2.0","id":"r1","method":"roots/list"}]`+"\n")
	h.nextToClient()
	foreign := `{"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"the client's"},"model":"m"}}`
	answer := `{"jsonrpc":"2.0","id":"r1","result":{"roots":[]}}`
	note := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	h.send(h.client, "["+foreign+"]\n")
	h.send(h.client, "["+foreign+","+answer+","+note+"]\n")
	var batch []json.RawMessage
	if err := json.Unmarshal(h.nextToServer(), &batch); err != nil || len(batch) != 2 || string(batch[0]) != answer || string(batch[1]) != note {
		t.Errorf("the server got %s (%v)", batch, err)
	}
	h.expectNothing(h.toServer, "server")
}
