package mcpdraft_test

import (
	"fmt"

	mcp "github.com/mcpgen/mcpgen/gen/mcpdraft"
)

// A server that needs the client's model answers tools/call with an InputRequiredResult
// (multi round-trip requests): it carries the sampling request, without an id, and an opaque
// requestState. The client reads it with DecodeServerMessage, answers each input request, and
// retries the call with inputResponses and the requestState; the server finds the typed sampling
// result in the retried request's params and completes the call.
func ExampleInputRequiredResult() {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`
	first := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `,"name":"weather_report","arguments":{"city":"Paris"}}}`

	// The server: a first call, without inputResponses, is answered with input_required.
	msg, err := mcp.DecodeClientMessage([]byte(first), nil)
	if err != nil {
		panic(err)
	}
	call := msg.(*mcp.CallToolRequest)
	state := "weather_report:Paris"
	ask := &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{
			Role:    mcp.RoleUser,
			Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "Write a one-line weather report for Paris."}),
		}},
		MaxTokens: 100,
	}}
	out, err := mcp.Marshal(&mcp.JSONRPCResultResponse{ID: call.ID, Result: &mcp.InputRequiredResult{
		ResultType:    mcp.ResultTypeInputRequired,
		InputRequests: mcp.InputRequests{"report": ask},
		RequestState:  &state,
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println("server:", string(out))

	// The client: the result of its tools/call is an InputRequiredResult; it samples, and retries
	// the call with the answers under the same keys and the requestState as received.
	var pending mcp.Pending
	pending.Add(mcp.RequestIDNumber(1), mcp.MethodCallTool)
	reply, err := mcp.DecodeServerMessage(out, pending.Take)
	if err != nil {
		panic(err)
	}
	ir := reply.(*mcp.JSONRPCResultResponse).Result.(*mcp.InputRequiredResult)
	answers := mcp.InputResponses{}
	for key, req := range ir.InputRequests {
		if _, ok := req.(*mcp.CreateMessageRequest); ok {
			answers[key] = &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "example-model",
				Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "Paris: sunny, 21°C."})}
		}
	}
	retry := *call // the same call: same name and arguments, a new id
	retry.ID = mcp.RequestIDNumber(2)
	retry.Params.InputResponses = answers
	retry.Params.RequestState = ir.RequestState
	out, err = mcp.Marshal(&retry)
	if err != nil {
		panic(err)
	}
	fmt.Println("client:", string(out))

	// The server: the retried call carries the typed sampling result; the call completes.
	msg, err = mcp.DecodeClientMessage(out, nil)
	if err != nil {
		panic(err)
	}
	call = msg.(*mcp.CallToolRequest)
	if call.Params.RequestState == nil || *call.Params.RequestState != state {
		panic("unexpected requestState")
	}
	sampled := call.Params.InputResponses["report"].(*mcp.CreateMessageResult)
	text := sampled.Content.List[0].(*mcp.TextContent).Text
	out, err = mcp.Marshal(&mcp.JSONRPCResultResponse{ID: call.ID, Result: &mcp.CallToolResult{
		ResultType: mcp.ResultTypeComplete,
		Content:    []mcp.ContentBlock{&mcp.TextContent{Text: text}},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println("server:", string(out))
	// Output:
	// server: {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"report":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Write a one-line weather report for Paris."}}],"maxTokens":100}}},"requestState":"weather_report:Paris"}}
	// client: {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}},"inputResponses":{"report":{"role":"assistant","content":{"type":"text","text":"Paris: sunny, 21°C."},"model":"example-model"}},"requestState":"weather_report:Paris","name":"weather_report","arguments":{"city":"Paris"}}}
	// server: {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Paris: sunny, 21°C."}]}}
}
