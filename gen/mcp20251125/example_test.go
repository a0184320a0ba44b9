package mcp20251125_test

import (
	"encoding/json"
	"fmt"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// A server reads each line from its client with DecodeClientMessage, which gives the typed
// request or notification in one pass, dispatches on its type, and answers a request with a
// JSONRPCResultResponse holding the typed result, or with NewErrorResponse.
func ExampleDecodeClientMessage() {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{"tools":{}}},"clientInfo":{"name":"example-client","version":"1.0.0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":42}}`,
		`{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"loud"}}`,
		`{"jsonrpc":"2.0","id":6,"method":`,
	}
	for _, line := range lines {
		msg, err := mcp.DecodeClientMessage([]byte(line), nil)
		if err != nil { // not JSON, or not a message of this version: the error has the id, if any
			reply, _ := json.Marshal(mcp.NewErrorResponse(nil, err))
			fmt.Println(string(reply))
			continue
		}
		if _, unknown := msg.(*mcp.UnknownClientRequest); !unknown {
			if err := msg.Validate(); err != nil { // the value rules: -32602 in params, -32600 elsewhere
				reply, _ := json.Marshal(mcp.NewErrorResponse(msg.GetID(), err))
				fmt.Println(string(reply))
				continue
			}
		}
		var result mcp.AnyResult
		switch m := msg.(type) {
		case *mcp.InitializeRequest:
			fmt.Println("initialize from", m.Params.ClientInfo.Name)
			result = &mcp.InitializeResult{
				ProtocolVersion: mcp.LatestProtocolVersion,
				Capabilities:    mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}},
				ServerInfo:      mcp.Implementation{Name: "example-server", Version: "1.0.0"},
			}
		case *mcp.InitializedNotification:
			fmt.Println("initialized")
			continue // a notification gets no response
		case *mcp.ListToolsRequest:
			result = &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: "add", InputSchema: mcp.ToolInputSchema{Type: "object"}}}}
		case mcp.ClientRequest: // not served here, or a method this version does not define (*UnknownClientRequest)
			reply, _ := json.Marshal(mcp.NewErrorResponse(m.GetID(), &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "method not found: " + m.GetMethod()}))
			fmt.Println(string(reply))
			continue
		default: // other notifications
			continue
		}
		reply, err := mcp.Marshal(&mcp.JSONRPCResultResponse{ID: msg.GetID(), Result: result})
		if err != nil {
			panic(err)
		}
		fmt.Println(string(reply))
	}
	// Output:
	// initialize from example-client
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"example-server","version":"1.0.0"}}}
	// initialized
	// {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}
	// {"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: server/discover"}}
	// {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"invalid params: /params/name: expected string, found number"}}
	// {"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid params: /params/level: \"loud\" is not one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\"","data":[{"pointer":"/params/level","message":"\"loud\" is not one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\""}]}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: /method: expected value, found end of input"}}
}

// A tools/call request is answered with a typed CallToolResult: its arguments are decoded into a Go
// value with DecodeObject, and the result goes into the response as it is, without a second encode.
func ExampleCallToolResult() {
	msg, err := mcp.DecodeClientMessage([]byte(`{"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":40}}}`), nil)
	if err != nil {
		panic(err)
	}
	call := msg.(*mcp.CallToolRequest)
	var args struct{ A, B int }
	if err := mcp.DecodeObject(call.Params.Arguments, &args); err != nil {
		panic(err)
	}
	sum, _ := mcp.EncodeObject(map[string]int{"sum": args.A + args.B})
	reply, err := mcp.Marshal(&mcp.JSONRPCResultResponse{ID: call.ID, Result: &mcp.CallToolResult{
		Content:           []mcp.ContentBlock{&mcp.TextContent{Text: fmt.Sprint(args.A + args.B)}},
		StructuredContent: sum,
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(reply))
	// Output:
	// {"jsonrpc":"2.0","id":"call-7","result":{"content":[{"type":"text","text":"42"}],"structuredContent":{"sum":42}}}
}

// A server sends a sampling request with tools (after checking the client's sampling.tools
// capability), records it in Pending, and reads the client's answer with DecodeClientMessage: the
// result is typed by the method of the request it answers, and its content holds the model's tool
// uses.
func ExampleCreateMessageRequest() {
	client := mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}
	weather := mcp.Tool{Name: "get_weather", InputSchema: mcp.ToolInputSchema{
		Type:       "object",
		Properties: map[string]map[string]json.RawMessage{"city": {"type": json.RawMessage(`"string"`)}},
		Required:   []string{"city"},
	}}
	req := &mcp.CreateMessageRequest{ID: mcp.RequestIDNumber(1), Params: mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{
			Role:    mcp.RoleUser,
			Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: "What is the weather in Paris?"}),
		}},
		MaxTokens: 400,
		Tools:     []mcp.Tool{weather},
	}}
	if err := req.Params.CheckCapabilities(&client); err != nil {
		panic(err)
	}
	out, err := mcp.Marshal(req)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	var pending mcp.Pending
	pending.Add(req.ID, req.GetMethod())

	// The client's answer.
	in := `{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","model":"claude-sonnet","stopReason":"toolUse","content":[` +
		`{"type":"text","text":"Let me check."},` +
		`{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}]}}`
	msg, err := mcp.DecodeClientMessage([]byte(in), pending.Take)
	if err != nil {
		panic(err)
	}
	result := msg.(*mcp.JSONRPCResultResponse).Result.(*mcp.CreateMessageResult)
	fmt.Println("stop reason:", *result.StopReason)
	for _, block := range result.Content.List {
		if use, ok := block.(*mcp.ToolUseContent); ok {
			var input struct{ City string }
			if err := mcp.DecodeObject(use.Input, &input); err != nil {
				panic(err)
			}
			fmt.Printf("tool use %s: %s(city=%s)\n", use.ID, use.Name, input.City)
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the weather in Paris?"}}],"maxTokens":400,"tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}}
	// stop reason: toolUse
	// tool use toolu_01: get_weather(city=Paris)
}
