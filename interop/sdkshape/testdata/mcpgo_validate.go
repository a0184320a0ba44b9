package mcp

// run.sh -sdk mcp-go -validate adds this file to mcp-go's mcp package as
// zz_sdkshape_validate.go, and testdata/mcpgo_validate_server.go to its server package:
// MCPServer.HandleMessage, the entry of every message a server receives (mcp-go's transports
// and most of its tests call it), becomes a wrapper that checks the message and the answer with
// the generated validators, by the functions below. Each message checked is a line
// "mcpgen-checked: DIRECTION METHOD TYPE" on the standard error, each problem a line
// "mcpgen-validate: DIRECTION METHOD TYPE: POINTER: MESSAGE", which run.sh attributes to the
// test running. The messages pass on as they are.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

type sdkshapeValue interface{ Validate() error }

// sdkshapeParams and sdkshapeResults are the generated types of the params of the requests and
// notifications a server receives, and of the results it answers them with, by method.
var (
	sdkshapeParams = map[string]func() sdkshapeValue{
		"initialize":               func() sdkshapeValue { return new(InitializeParams) },
		"tools/list":               func() sdkshapeValue { return new(PaginatedParams) },
		"tools/call":               func() sdkshapeValue { return new(CallToolParams) },
		"resources/list":           func() sdkshapeValue { return new(PaginatedParams) },
		"resources/templates/list": func() sdkshapeValue { return new(PaginatedParams) },
		"resources/read":           func() sdkshapeValue { return new(ReadResourceParams) },
		"resources/subscribe":      func() sdkshapeValue { return new(SubscribeParams) },
		"resources/unsubscribe":    func() sdkshapeValue { return new(UnsubscribeParams) },
		"prompts/list":             func() sdkshapeValue { return new(PaginatedParams) },
		"prompts/get":              func() sdkshapeValue { return new(GetPromptParams) },
		"completion/complete":      func() sdkshapeValue { return new(CompleteParams) },
		"logging/setLevel":         func() sdkshapeValue { return new(SetLevelParams) },
		"server/discover":          func() sdkshapeValue { return new(DiscoverParams) },
		"subscriptions/listen":     func() sdkshapeValue { return new(SubscriptionsListenParams) },
		"tasks/get":                func() sdkshapeValue { return new(GetTaskParams) },
		"tasks/result":             func() sdkshapeValue { return new(TaskResultParams) },
		"tasks/cancel":             func() sdkshapeValue { return new(CancelTaskParams) },
		"tasks/list":               func() sdkshapeValue { return new(PaginatedParams) },
		"notifications/cancelled":  func() sdkshapeValue { return new(CancelledNotificationParams) },
		"notifications/progress":   func() sdkshapeValue { return new(ProgressNotificationParams) },
	}
	sdkshapeResults = map[string]func() sdkshapeValue{
		"initialize":               func() sdkshapeValue { return new(InitializeResult) },
		"ping":                     func() sdkshapeValue { return new(EmptyResult) },
		"tools/list":               func() sdkshapeValue { return new(ListToolsResult) },
		"tools/call":               func() sdkshapeValue { return new(CallToolResult) },
		"resources/list":           func() sdkshapeValue { return new(ListResourcesResult) },
		"resources/templates/list": func() sdkshapeValue { return new(ListResourceTemplatesResult) },
		"resources/read":           func() sdkshapeValue { return new(ReadResourceResult) },
		"resources/subscribe":      func() sdkshapeValue { return new(EmptyResult) },
		"resources/unsubscribe":    func() sdkshapeValue { return new(EmptyResult) },
		"prompts/list":             func() sdkshapeValue { return new(ListPromptsResult) },
		"prompts/get":              func() sdkshapeValue { return new(GetPromptResult) },
		"completion/complete":      func() sdkshapeValue { return new(CompleteResult) },
		"logging/setLevel":         func() sdkshapeValue { return new(EmptyResult) },
		"server/discover":          func() sdkshapeValue { return new(DiscoverResult) },
		"tasks/get":                func() sdkshapeValue { return new(GetTaskResult) },
		"tasks/cancel":             func() sdkshapeValue { return new(CancelTaskResult) },
		"tasks/list":               func() sdkshapeValue { return new(ListTasksResult) },
	}
	// sdkshapeParsers decode the results whose members are mcp-go's interfaces (Content,
	// ResourceContents), which encoding/json cannot fill: by mcp-go's own functions, which leave
	// an empty array nil (sent as [] all the same, which the list gives back).
	sdkshapeParsers = map[string]func(*json.RawMessage) (sdkshapeValue, error){
		"resources/read": func(raw *json.RawMessage) (sdkshapeValue, error) {
			r, err := ParseReadResourceResult(raw)
			if err == nil && r.Contents == nil && sdkshapeHas(*raw, "contents") {
				r.Contents = []ResourceContents{}
			}
			return r, err
		},
		"prompts/get": func(raw *json.RawMessage) (sdkshapeValue, error) {
			r, err := ParseGetPromptResult(raw)
			if err == nil && r.Messages == nil && sdkshapeHas(*raw, "messages") {
				r.Messages = []PromptMessage{}
			}
			return r, err
		},
		"tools/call": func(raw *json.RawMessage) (sdkshapeValue, error) {
			if sdkshapeHas(*raw, "task") { // a task-augmented call is answered with its task
				r := new(CreateTaskResult)
				return r, json.Unmarshal(*raw, r)
			}
			r, err := ParseCallToolResult(raw)
			if err == nil && r.Content == nil && sdkshapeHas(*raw, "content") {
				r.Content = []Content{}
			}
			return r, err
		},
	}
)

// sdkshapeHas reports whether the JSON object raw has the member name.
func sdkshapeHas(raw json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}

// SdkshapeCheckReceived checks the params of a message a server received, and returns its
// method.
func SdkshapeCheckReceived(message []byte) string {
	var m struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(message, &m) != nil || m.Method == "" {
		return ""
	}
	if p := sdkshapeParams[m.Method]; p != nil && len(m.Params) > 0 {
		sdkshapeCheck("received", m.Method, p(), m.Params)
	}
	return m.Method
}

// SdkshapeCheckSent checks the result of the answer resp to a request of method.
func SdkshapeCheckSent(method string, resp any) {
	r := sdkshapeResults[method]
	data, err := json.Marshal(resp)
	if r == nil || err != nil {
		return
	}
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.Result) == 0 {
		return
	}
	if parse := sdkshapeParsers[method]; parse != nil {
		v, err := parse(&m.Result)
		if err == nil {
			err = v.Validate()
		}
		sdkshapeReport("sent", method, v, err)
		return
	}
	sdkshapeCheck("sent", method, r(), m.Result)
}

// sdkshapeCheck decodes raw into v and prints the problems its Validate finds.
func sdkshapeCheck(dir, method string, v sdkshapeValue, raw json.RawMessage) {
	err := json.Unmarshal(raw, v)
	if err == nil {
		err = v.Validate()
	}
	sdkshapeReport(dir, method, v, err)
}

// sdkshapeReport prints that a message was checked, then the problems of err, of a value of the
// type of v, one a line.
func sdkshapeReport(dir, method string, v sdkshapeValue, err error) {
	fmt.Fprintf(os.Stderr, "mcpgen-checked: %s %s %T\n", dir, method, v)
	var ve *ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			fmt.Fprintf(os.Stderr, "mcpgen-validate: %s %s %T: %s: %s\n", dir, method, v, p.Pointer, p.Message)
		}
	default:
		fmt.Fprintf(os.Stderr, "mcpgen-validate: %s %s %T: (decoding): %v\n", dir, method, v, err)
	}
}
