package mcpdraft

import (
	"errors"
	"fmt"
	"testing"
)

// TestInvalidMessagesAreRejected sends through Unmarshal messages that break the schema in ways a
// new user easily does (a misspelled enum value, a wrong role, tool results mixed with text, ...)
// and checks what a receiver gets: a decoding error for a wrong JSON kind, and for the rest a *ValidationError (found with errors.As, through
// wrapping) with the pointer of the problem and code -32602, since every problem is in params.
func TestInvalidMessagesAreRejected(t *testing.T) {
	request := func(params string) string { return `{"method":"sampling/createMessage","params":` + params + `}` }
	hi := `{"role":"user","content":{"type":"text","text":"hi"}}`
	type value interface {
		UnmarshalJSON([]byte) error
		Validate() error
	}
	tests := []struct {
		name, data, want string
		v                value
	}{
		{"toolChoice mode sometimes",
			request(`{"messages":[` + hi + `],"maxTokens":10,"tools":[],"toolChoice":{"mode":"sometimes"}}`),
			`/params/toolChoice/mode: "sometimes" is not one of "auto", "required", "none"`, new(CreateMessageRequest)},
		{"role system",
			request(`{"messages":[{"role":"system","content":{"type":"text","text":"hi"}}],"maxTokens":10}`),
			`/params/messages/0/role: "system" is not one of "user", "assistant"`, new(CreateMessageRequest)},
		{"misspelled content type",
			request(`{"messages":[{"role":"user","content":{"type":"txet","text":"hi"}}],"maxTokens":10}`),
			`/params/messages/0/content/type: "txet" is not one of "text", "image", "audio", "tool_use", "tool_result" (unknown SamplingMessageContentBlock)`, new(CreateMessageRequest)},
		{"text mixed with tool results",
			request(`{"messages":[` + hi + `,{"role":"assistant","content":{"type":"tool_use","id":"a","name":"f","input":{}}},` +
				`{"role":"user","content":[{"type":"text","text":"here"},{"type":"tool_result","toolUseId":"a","content":[]}]}],"maxTokens":10}`),
			`/params/messages/2: a message with tool results must hold only tool results`, new(CreateMessageRequest)},
		{"tool use never answered",
			request(`{"messages":[` + hi + `,{"role":"assistant","content":{"type":"tool_use","id":"a","name":"f","input":{}}},` + hi + `],"maxTokens":10}`),
			`/params/messages/2: the tool uses of message 1 ("a") are not answered: the message after them must hold their tool results`, new(CreateMessageRequest)},
		{"input schema of type array",
			`{"name":"f","inputSchema":{"type":"array"}}`,
			`/inputSchema/type: must be "object", not "array"`, new(Tool)},
	}
	for _, tt := range tests {
		err := Unmarshal([]byte(tt.data), tt.v)
		var verr *ValidationError
		if !errors.As(fmt.Errorf("receive: %w", err), &verr) {
			t.Errorf("%s: got %v, want a *ValidationError", tt.name, err)
			continue
		}
		if len(verr.Problems) != 1 || verr.Problems[0].String() != tt.want || verr.Code != -32602 {
			t.Errorf("%s: got %v (code %d), want %s", tt.name, verr, verr.Code, tt.want)
		}
	}

	// A maxTokens of 100.5 is not an integer: a decoding error, not a validation error.
	err := Unmarshal([]byte(request(`{"messages":[],"maxTokens":100.5}`)), new(CreateMessageRequest))
	var verr *ValidationError
	if err == nil || errors.As(err, &verr) || err.Error() != "/params/maxTokens: not an integer" {
		t.Errorf("maxTokens 100.5: %v", err)
	}
}

// TestMarshalRefusesInvalidValues: a sender's Marshal writes nothing for what a receiver would
// reject, and the same value encodes once fixed.
func TestMarshalRefusesInvalidValues(t *testing.T) {
	tool := Tool{Name: "f", InputSchema: ToolInputSchema{Type: "array"}}
	b, err := Marshal(&tool)
	var verr *ValidationError
	if b != nil || !errors.As(err, &verr) || verr.Error() != `invalid: /inputSchema/type: must be "object", not "array"` {
		t.Errorf("got %s, %v", b, err)
	}
	if want := tool.Validate(); err.Error() != want.Error() {
		t.Errorf("Marshal: %v, Validate: %v", err, want)
	}
	tool.InputSchema.Type = ""
	if b, err := Marshal(&tool); err != nil || string(b) != `{"name":"f","inputSchema":{"type":"object"}}` {
		t.Errorf("the fixed tool: %s, %v", b, err)
	}

	result := CreateMessageResult{Role: RoleUser, Model: "m", Content: NewSamplingMessageContent(&ToolUseContent{ID: "a", Name: "f"})}
	b, err = Marshal(&result)
	if b != nil || !errors.As(err, &verr) || verr.Problems[0].String() != `/content: a tool use must be in an assistant message, not in a message of role "user"` {
		t.Errorf("got %s, %v", b, err)
	}
}
