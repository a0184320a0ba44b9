package backfill

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/openai/openai-go/v3"
)

// A provider's four conversions, for the table-driven tests.
type conversions struct {
	name string
	// toRequest converts params and encodes the provider request as the SDK does.
	toRequest func(p *mcp.CreateMessageRequestParams, model string) ([]byte, error)
	// fromRequest decodes a provider request as the SDK does and converts it.
	fromRequest func(data []byte) (*mcp.CreateMessageRequestParams, string, error)
	// fromResponse decodes a provider response as the SDK does and converts it.
	fromResponse func(data []byte) (*mcp.CreateMessageResult, error)
	// toResponse converts a result and returns the provider response's JSON.
	toResponse func(r *mcp.CreateMessageResult) ([]byte, error)
}

var providers = []conversions{
	{
		name: ProviderAnthropic,
		toRequest: func(p *mcp.CreateMessageRequestParams, model string) ([]byte, error) {
			r, err := ToAnthropicRequest(p, model)
			if err != nil {
				return nil, err
			}
			return json.Marshal(r)
		},
		fromRequest: func(data []byte) (*mcp.CreateMessageRequestParams, string, error) {
			var r anthropic.MessageNewParams
			if err := json.Unmarshal(data, &r); err != nil {
				return nil, "", err
			}
			return FromAnthropicRequest(&r)
		},
		fromResponse: func(data []byte) (*mcp.CreateMessageResult, error) {
			var m anthropic.Message
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, err
			}
			return FromAnthropicMessage(&m)
		},
		toResponse: func(r *mcp.CreateMessageResult) ([]byte, error) {
			m, err := ToAnthropicMessage(r)
			if err != nil {
				return nil, err
			}
			return []byte(m.RawJSON()), nil
		},
	},
	{
		name: ProviderOpenAI,
		toRequest: func(p *mcp.CreateMessageRequestParams, model string) ([]byte, error) {
			r, err := ToOpenAIRequest(p, model)
			if err != nil {
				return nil, err
			}
			return json.Marshal(r)
		},
		fromRequest: func(data []byte) (*mcp.CreateMessageRequestParams, string, error) {
			var r openai.ChatCompletionNewParams
			if err := json.Unmarshal(data, &r); err != nil {
				return nil, "", err
			}
			return FromOpenAIRequest(&r)
		},
		fromResponse: func(data []byte) (*mcp.CreateMessageResult, error) {
			var c openai.ChatCompletion
			if err := json.Unmarshal(data, &c); err != nil {
				return nil, err
			}
			return FromOpenAICompletion(&c)
		},
		toResponse: func(r *mcp.CreateMessageResult) ([]byte, error) {
			c, err := ToOpenAICompletion(r)
			if err != nil {
				return nil, err
			}
			return []byte(c.RawJSON()), nil
		},
	},
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// canonical decodes JSON for comparison: numbers stay exact, and the string value of an
// "arguments" member (OpenAI's tool call arguments, JSON in a string) is compared as the JSON it
// holds, since its spacing and member order are not meaningful.
func canonical(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, data)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && k == "arguments" {
					var inner any
					d := json.NewDecoder(strings.NewReader(s))
					d.UseNumber()
					if d.Decode(&inner) == nil {
						v[k] = map[string]any{"(json)": inner}
						continue
					}
				}
				v[k] = walk(e)
			}
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		}
		return v
	}
	return walk(v)
}

func pretty(data []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, data, "", "  ") != nil {
		return string(data)
	}
	return b.String()
}

func assertJSONEqual(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !reflect.DeepEqual(canonical(t, got), canonical(t, want)) {
		t.Errorf("%s differs\ngot:\n%s\nwant:\n%s", what, pretty(got), pretty(want))
	}
}

func decodeParams(t *testing.T, data []byte) *mcp.CreateMessageRequestParams {
	t.Helper()
	var p mcp.CreateMessageRequestParams
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("decoding sampling params: %v", err)
	}
	return &p
}

func modelOf(t *testing.T, data []byte) string {
	t.Helper()
	var m struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Model == "" {
		t.Fatalf("no model in the provider request: %v", err)
	}
	return m.Model
}

// TestRequests converts each MCP request of testdata/requests to each provider's request and
// compares it with the provider's file; converts the provider's file back and compares it with the
// MCP request (or with <provider>.mcp.json where the mapping loses something); and converts that
// back again, which must give the provider's file once more. A <provider>.error.txt instead says
// that the conversion must fail, and with what message.
func TestRequests(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "requests", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no request testdata: %v", err)
	}
	for _, dir := range dirs {
		mcpJSON := readFile(t, filepath.Join(dir, "mcp.json"))
		for _, prov := range providers {
			t.Run(filepath.Base(dir)+"/"+prov.name, func(t *testing.T) {
				if errFile := filepath.Join(dir, prov.name+".error.txt"); exists(errFile) {
					want := strings.TrimSpace(string(readFile(t, errFile)))
					_, err := prov.toRequest(decodeParams(t, mcpJSON), "model")
					var ce *ConversionError
					if !errors.As(err, &ce) {
						t.Fatalf("converting: got error %v, want a *ConversionError", err)
					}
					if !strings.Contains(err.Error(), want) {
						t.Fatalf("error %q does not contain %q", err, want)
					}
					return
				}
				provJSON := readFile(t, filepath.Join(dir, prov.name+".json"))
				model := modelOf(t, provJSON)

				got, err := prov.toRequest(decodeParams(t, mcpJSON), model)
				if err != nil {
					t.Fatalf("MCP → %s: %v", prov.name, err)
				}
				assertJSONEqual(t, "MCP → "+prov.name, got, provJSON)

				back, backModel, err := prov.fromRequest(provJSON)
				if err != nil {
					t.Fatalf("%s → MCP: %v", prov.name, err)
				}
				if backModel != model {
					t.Errorf("%s → MCP: model %q, want %q", prov.name, backModel, model)
				}
				wantBack := mcpJSON
				if lossy := filepath.Join(dir, prov.name+".mcp.json"); exists(lossy) {
					wantBack = readFile(t, lossy)
				}
				backJSON, err := json.Marshal(back)
				if err != nil {
					t.Fatal(err)
				}
				assertJSONEqual(t, prov.name+" → MCP", backJSON, wantBack)

				again, err := prov.toRequest(back, backModel)
				if err != nil {
					t.Fatalf("%s → MCP → %s: %v", prov.name, prov.name, err)
				}
				assertJSONEqual(t, prov.name+" → MCP → "+prov.name, again, provJSON)
			})
		}
	}
}

// TestResponses converts each recorded or documented provider response of testdata/responses to a
// sampling result and compares it with <case>.mcp.json (which must also decode with the generated
// types); converts the result back to the provider's response and compares the fields the
// mapping keeps; and converts that again, which must give the same result.
func TestResponses(t *testing.T) {
	n := 0
	for _, prov := range providers {
		files, err := filepath.Glob(filepath.Join("testdata", "responses", prov.name, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, ".mcp.json") {
				continue
			}
			n++
			name := strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(prov.name+"/"+name, func(t *testing.T) {
				provJSON := readFile(t, file)
				wantJSON := readFile(t, strings.TrimSuffix(file, ".json")+".mcp.json")
				var want mcp.CreateMessageResult
				if err := json.Unmarshal(wantJSON, &want); err != nil {
					t.Fatalf("%s.mcp.json does not decode as a CreateMessageResult: %v", name, err)
				}

				res, err := prov.fromResponse(provJSON)
				if err != nil {
					t.Fatalf("%s → MCP: %v", prov.name, err)
				}
				got, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				assertJSONEqual(t, prov.name+" → MCP", got, wantJSON)

				back, err := prov.toResponse(res)
				if err != nil {
					t.Fatalf("MCP → %s: %v", prov.name, err)
				}
				kept := keptResponseFields[prov.name]
				assertJSONEqual(t, "MCP → "+prov.name+" (the fields kept)", kept(t, back), kept(t, provJSON))

				again, err := prov.fromResponse(back)
				if err != nil {
					t.Fatalf("MCP → %s → MCP: %v", prov.name, err)
				}
				againJSON, _ := json.Marshal(again)
				assertJSONEqual(t, "MCP → "+prov.name+" → MCP", againJSON, got)
			})
		}
	}
	if n < 15 {
		t.Fatalf("only %d response files", n)
	}
}

// keptResponseFields projects a provider response onto what a sampling result keeps of it, with
// the absent, null and zero forms of the same thing made equal.
var keptResponseFields = map[string]func(t *testing.T, data []byte) []byte{
	ProviderAnthropic: func(t *testing.T, data []byte) []byte {
		var m struct {
			ID           string            `json:"id"`
			Model        string            `json:"model"`
			Content      []json.RawMessage `json:"content"`
			StopReason   string            `json:"stop_reason"`
			StopSequence string            `json:"stop_sequence"`
			Usage        *struct {
				InputTokens          int64 `json:"input_tokens"`
				OutputTokens         int64 `json:"output_tokens"`
				CacheReadInputTokens int64 `json:"cache_read_input_tokens"`
				CacheCreationTokens  int64 `json:"cache_creation_input_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(m)
		return out
	},
	ProviderOpenAI: func(t *testing.T, data []byte) []byte {
		var c struct {
			ID      string `json:"id"`
			Model   string `json:"model"`
			Choices []struct {
				Message struct {
					Content   string            `json:"content"`
					Refusal   string            `json:"refusal"`
					ToolCalls []json.RawMessage `json:"tool_calls"`
				} `json:"message"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens        int64 `json:"prompt_tokens"`
				CompletionTokens    int64 `json:"completion_tokens"`
				TotalTokens         int64 `json:"total_tokens"`
				PromptTokensDetails struct {
					CachedTokens int64 `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(c)
		return out
	},
}

func TestStopReasons(t *testing.T) {
	mcpReasons := []string{"endTurn", "stopSequence", "maxTokens", "toolUse", "refusal", "pause_turn", "someFutureReason"}
	tests := []struct {
		provider string
		to       map[string]string // MCP → provider
		from     map[string]string // provider → MCP
	}{
		{
			provider: ProviderAnthropic,
			to: map[string]string{"endTurn": "end_turn", "stopSequence": "stop_sequence", "maxTokens": "max_tokens",
				"toolUse": "tool_use", "refusal": "refusal", "pause_turn": "pause_turn", "someFutureReason": "someFutureReason"},
			from: map[string]string{"end_turn": "endTurn", "stop_sequence": "stopSequence", "max_tokens": "maxTokens",
				"tool_use": "toolUse", "refusal": "refusal", "pause_turn": "pause_turn",
				"model_context_window_exceeded": "model_context_window_exceeded", "": ""},
		},
		{
			provider: ProviderOpenAI,
			to: map[string]string{"endTurn": "stop", "stopSequence": "stopSequence", "maxTokens": "length",
				"toolUse": "tool_calls", "refusal": "refusal", "pause_turn": "pause_turn", "someFutureReason": "someFutureReason"},
			from: map[string]string{"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse",
				"content_filter": "content_filter", "function_call": "function_call", "": ""},
		},
	}
	for _, tt := range tests {
		table := anthropicStopReasons
		if tt.provider == ProviderOpenAI {
			table = openAIFinishReasons
		}
		for _, r := range mcpReasons {
			sr := mcp.CreateMessageResultStopReason(r)
			if got := toProviderStopReason(table, &sr); got != tt.to[r] {
				t.Errorf("%s: MCP %q → %q, want %q", tt.provider, r, got, tt.to[r])
			}
		}
		if got := toProviderStopReason(table, nil); got != "" {
			t.Errorf("%s: absent stop reason → %q", tt.provider, got)
		}
		for p, want := range tt.from {
			got := fromProviderStopReason(table, p)
			if want == "" {
				if got != nil {
					t.Errorf("%s: %q → %q, want none", tt.provider, p, *got)
				}
				continue
			}
			if got == nil || string(*got) != want {
				t.Errorf("%s: %q → %v, want %q", tt.provider, p, got, want)
			}
		}
	}
}

// TestOpenAIStopReasonsInResults checks what ToOpenAICompletion makes of the MCP stop reasons
// that Chat Completions has no finish reason for.
func TestOpenAIStopReasonsInResults(t *testing.T) {
	for _, tt := range []struct {
		stop       *mcp.CreateMessageResultStopReason
		wantFinish string
		wantBack   string
	}{
		{ptr(mcp.CreateMessageResultStopReasonStopSequence), "stop", "endTurn"}, // OpenAI does not say a stop sequence was hit
		{nil, "stop", "endTurn"},
		{ptr(StopReasonRefusal), "stop", "refusal"},
		{ptr(mcp.CreateMessageResultStopReason("content_filter")), "content_filter", "content_filter"},
	} {
		r := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", StopReason: tt.stop,
			Content: mcp.NewSamplingMessageContent(textBlock("x"))}
		c, err := ToOpenAICompletion(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Choices[0].FinishReason; got != tt.wantFinish {
			t.Errorf("%v: finish_reason %q, want %q", tt.stop, got, tt.wantFinish)
		}
		back, err := FromOpenAICompletion(c)
		if err != nil {
			t.Fatal(err)
		}
		if back.StopReason == nil || string(*back.StopReason) != tt.wantBack {
			t.Errorf("%v: back as %v, want %q", tt.stop, back.StopReason, tt.wantBack)
		}
	}
}

// objectTool is a tool that takes any object; its schema is made where meta.go makes schemas.
func objectTool(name string) mcp.Tool {
	schema, err := inputSchemaFromJSON(nil)
	if err != nil {
		panic(err)
	}
	return mcp.Tool{Name: name, InputSchema: schema}
}

func textMsg(role mcp.Role, text string) mcp.SamplingMessage {
	return mcp.SamplingMessage{Role: role, Content: mcp.NewSamplingMessageContent(textBlock(text))}
}

// TestConversionErrors checks that what a provider cannot take is a *ConversionError that says
// where and why.
func TestConversionErrors(t *testing.T) {
	params := func(msgs ...mcp.SamplingMessage) *mcp.CreateMessageRequestParams {
		return &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: msgs}
	}
	list := func(role mcp.Role, bs ...mcp.SamplingMessageContentBlock) mcp.SamplingMessage {
		return mcp.SamplingMessage{Role: role, Content: mcp.NewSamplingMessageContentList(bs...)}
	}
	image := func(mime string) *mcp.ImageContent {
		return &mcp.ImageContent{Type: "image", MimeType: mime, Data: "AAAA"}
	}
	audio := func(mime string) *mcp.AudioContent {
		return &mcp.AudioContent{Type: "audio", MimeType: mime, Data: "AAAA"}
	}
	result := func(cs ...mcp.ContentBlock) *mcp.ToolResultContent {
		return &mcp.ToolResultContent{Type: "tool_result", ToolUseID: "t1", Content: cs}
	}
	unknown := &mcp.UnknownSamplingMessageContentBlock{Raw: json.RawMessage(`{"type":"video","url":"x"}`)}
	tests := []struct {
		name     string
		provider string
		params   *mcp.CreateMessageRequestParams
		want     string
	}{
		{"bmp image", ProviderAnthropic, params(list(mcp.RoleUser, image("image/bmp"))), "/messages/0/content/0/mimeType: the Messages API takes images of type image/jpeg, image/png, image/gif, image/webp"},
		{"audio", ProviderAnthropic, params(list(mcp.RoleUser, textBlock("hi"), audio("audio/wav"))), "/messages/0/content/1: the Messages API does not accept audio"},
		{"audio in a tool result", ProviderAnthropic, params(list(mcp.RoleUser, result(audio("audio/wav")))), "/messages/0/content/0/content/0: a tool result cannot carry audio"},
		{"unknown block", ProviderAnthropic, params(list(mcp.RoleUser, unknown)), `/messages/0/content/0: content block of unknown type: {"type":"video"`},
		{"no max tokens", ProviderAnthropic, &mcp.CreateMessageRequestParams{Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")}}, "/maxTokens: must be at least 1"},
		{"unknown role", ProviderAnthropic, params(textMsg("system", "hi")), `/messages/0/role: unknown role "system"`},
		{"ogg audio", ProviderOpenAI, params(list(mcp.RoleUser, audio("audio/ogg"))), `/messages/0/content/0/mimeType: Chat Completions takes WAV or MP3 audio, not "audio/ogg"`},
		{"assistant image", ProviderOpenAI, params(list(mcp.RoleAssistant, image("image/png"))), "/messages/0/content/0: an assistant message holds text and tool calls, not image"},
		{"tool results mixed with text", ProviderOpenAI, params(list(mcp.RoleUser, textBlock("here"), result(textBlock("r")))), "/messages/0/content: a user message with tool results must hold only tool results"},
		{"tool use from the user", ProviderOpenAI, params(list(mcp.RoleUser, &mcp.ToolUseContent{Type: "tool_use", ID: "a", Name: "n"})), "/messages/0/content/0: a user message cannot hold tool_use"},
		{"unknown tool choice", ProviderOpenAI, &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")},
			Tools: []mcp.Tool{objectTool("t")}, ToolChoice: &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceMode("any"))}}, `/toolChoice/mode: unknown mode "any"`},
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.name, func(t *testing.T) {
			var err error
			if tt.provider == ProviderAnthropic {
				_, err = ToAnthropicRequest(tt.params, "m")
			} else {
				_, err = ToOpenAIRequest(tt.params, "m")
			}
			var ce *ConversionError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConversionError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\ndoes not contain %q", err, tt.want)
			}
		})
	}
}

// TestReverseConversionErrors checks the provider requests and responses that have no MCP form.
func TestReverseConversionErrors(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		request  string // a provider request, or
		response string // a provider response
		want     string
	}{
		{"named tool", ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[],"tools":[{"name":"t","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"t"}}`, "",
			`/tool_choice: MCP cannot force one named tool ("t")`},
		{"image by URL", ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}]}]}`, "",
			"/messages/0/content/0/source: MCP images carry base64 data"},
		{"document", ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"}}]}]}`, "",
			"/messages/0/content/0: this content block has no MCP equivalent"},
		{"server tool", ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`, "",
			"/tools/0: only client tools"},
		{"tool input not an object", ProviderAnthropic, "", `{"id":"msg","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"a","name":"n","input":[1]}],"stop_reason":"tool_use"}`,
			"/content/0/input: tool input is not a JSON object"},
		{"server tool use", ProviderAnthropic, "", `{"id":"msg","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"x"},{"type":"server_tool_use","id":"a","name":"web_search","input":{}}],"stop_reason":"end_turn"}`,
			`/content/1: content block of type "server_tool_use" has no MCP equivalent`},
		{"late system message", ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"},{"role":"system","content":[{"type":"text","text":"be brief"}]}]}`, "",
			"/messages/1: MCP has one system prompt"},
		{"no token limit", ProviderOpenAI, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "",
			"/max_completion_tokens: MCP requires a token limit"},
		{"image by URL", ProviderOpenAI, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`, "",
			"/messages/0/content/0/image_url/url: MCP images carry base64 data"},
		{"late system message", ProviderOpenAI, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"},{"role":"system","content":"be brief"}]}`, "",
			"/messages/1: MCP has one system prompt"},
		{"named tool", ProviderOpenAI, `{"model":"m","max_tokens":5,"messages":[],"tool_choice":{"type":"function","function":{"name":"t"}}}`, "",
			"/tool_choice: MCP cannot restrict the model to named tools"},
		{"arguments not JSON", ProviderOpenAI, "", `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"n","arguments":"{\"city\": \"Par"}}]},"finish_reason":"tool_calls"}]}`,
			"/choices/0/message/tool_calls/0/function/arguments: tool input is not valid JSON"},
		{"no choices", ProviderOpenAI, "", `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[]}`,
			"/choices: the completion has no choices"},
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.name, func(t *testing.T) {
			prov := providers[0]
			if tt.provider == ProviderOpenAI {
				prov = providers[1]
			}
			var err error
			if tt.request != "" {
				_, _, err = prov.fromRequest([]byte(tt.request))
			} else {
				_, err = prov.fromResponse([]byte(tt.response))
			}
			var ce *ConversionError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConversionError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\ndoes not contain %q", err, tt.want)
			}
		})
	}
}

// TestToolResultContent checks how tool results that the providers have no block for are sent.
func TestToolResultContent(t *testing.T) {
	link := &mcp.ResourceLink{Type: "resource_link", URI: "file:///report.pdf", Name: "report"}
	tr := &mcp.ToolResultContent{Type: "tool_result", ToolUseID: "t1", Content: []mcp.ContentBlock{textBlock("see"), link}}
	structured := &mcp.ToolResultContent{Type: "tool_result", ToolUseID: "t2", Content: []mcp.ContentBlock{},
		StructuredContent: map[string]json.RawMessage{"temperature": json.RawMessage("18")}}
	p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{
		{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContentList(tr, structured)},
	}}
	linkData, err := json.Marshal(link)
	if err != nil {
		t.Fatal(err)
	}
	linkJSON := string(linkData)

	a, err := ToAnthropicRequest(p, "m")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(a.Messages)
	assertJSONEqual(t, "anthropic messages", got, []byte(`[{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"see"},{"type":"text","text":`+quote(linkJSON)+`}]},
		{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"{\"temperature\":18}"}]}]}]`))

	o, err := ToOpenAIRequest(p, "m")
	if err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(o.Messages)
	assertJSONEqual(t, "openai messages", got, []byte(`[
		{"role":"tool","tool_call_id":"t1","content":[{"type":"text","text":"see"},{"type":"text","text":`+quote(linkJSON)+`}]},
		{"role":"tool","tool_call_id":"t2","content":"{\"temperature\":18}"}]`))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestEdgeCases pins down small decisions of the mapping: of requests, of tool choices and of
// results.
func TestEdgeCases(t *testing.T) {
	edgeCasesOfRequests(t)
	edgeCasesOfToolChoices(t, []mcp.Tool{objectTool("t")})
	edgeCasesOfResults(t)
}

// edgeCasesOfRequests are TestEdgeCases' subtests of requests: what is left out of or joined in
// them, and thinking in _meta that is not Anthropic's.
func edgeCasesOfRequests(t *testing.T) {
	t.Run("empty texts are not sent to Anthropic", func(t *testing.T) {
		p := &mcp.CreateMessageRequestParams{MaxTokens: 10, SystemPrompt: ptr(""), Messages: []mcp.SamplingMessage{
			textMsg(mcp.RoleUser, "hi"), textMsg(mcp.RoleAssistant, ""), textMsg(mcp.RoleUser, "again"),
		}}
		r, err := ToAnthropicRequest(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r)
		assertJSONEqual(t, "request", got, []byte(`{"model":"m","max_tokens":10,"messages":[
			{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"user","content":[{"type":"text","text":"again"}]}]}`))
	})
	t.Run("temperature is not sent to Anthropic", func(t *testing.T) {
		// API version 2026-10-21 refuses temperature, top_p and top_k, even at their defaults.
		p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Temperature: ptr(0.5), Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")}}
		r, err := ToAnthropicRequest(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r)
		assertJSONEqual(t, "request", got, []byte(`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`))
	})
	t.Run("leading Anthropic system messages join the system prompt", func(t *testing.T) {
		p, _, err := providers[0].fromRequest([]byte(`{"model":"m","max_tokens":5,"system":[{"type":"text","text":"one"}],"messages":[
			{"role":"system","content":[{"type":"text","text":"two"},{"type":"text","text":"three"}]},{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(p)
		assertJSONEqual(t, "params", got, []byte(`{"systemPrompt":"one\n\ntwo\n\nthree","maxTokens":5,"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`))
	})
	t.Run("malformed thinking in _meta", func(t *testing.T) {
		for _, bad := range []string{`"not an array"`, `[{"type":"thinking","thinking":"no signature"}]`, `[{"type":"tool_use"}]`} {
			block := &mcp.TextContent{Type: "text", Text: "x", Meta: &mcp.MetaObject{Extra: map[string]json.RawMessage{ThinkingMetaKey: json.RawMessage(bad)}}}
			p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{
				textMsg(mcp.RoleUser, "hi"), {Role: mcp.RoleAssistant, Content: mcp.NewSamplingMessageContentList(block)}}}
			_, err := ToAnthropicRequest(p, "m")
			var ce *ConversionError
			if !errors.As(err, &ce) || !strings.HasPrefix(ce.Pointer, "/messages/1/content/0/_meta/io.github.mcpgen~1backfill~1thinking") {
				t.Errorf("%s: got %v", bad, err)
			}
			// OpenAI has no place for Anthropic's thinking: the member is not read, nor sent.
			if _, err := ToOpenAIRequest(p, "m"); err != nil {
				t.Errorf("%s: openai: %v", bad, err)
			}
		}
	})
}

// edgeCasesOfToolChoices are TestEdgeCases' subtests of tool choices, with tools: parallel tool
// use disabled without a mode, a choice without tools, a bad extension value.
func edgeCasesOfToolChoices(t *testing.T, tools []mcp.Tool) {
	t.Run("parallel tool use disabled without a mode", func(t *testing.T) {
		tc := &mcp.ToolChoice{}
		DisableParallelToolUse(tc)
		p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")}, Tools: tools, ToolChoice: tc}
		a, err := ToAnthropicRequest(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(a.ToolChoice)
		assertJSONEqual(t, "anthropic tool_choice", got, []byte(`{"type":"auto","disable_parallel_tool_use":true}`))
		o, err := ToOpenAIRequest(p, "m")
		if err != nil {
			t.Fatal(err)
		}
		got, _ = json.Marshal(o)
		assertJSONEqual(t, "openai request", got, []byte(`{"model":"m","max_completion_tokens":10,"messages":[{"role":"user","content":"hi"}],
			"tools":[{"type":"function","function":{"name":"t","parameters":{"type":"object"}}}],"parallel_tool_calls":false}`))
	})
	t.Run("a tool choice without tools is not sent", func(t *testing.T) {
		p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")},
			ToolChoice: &mcp.ToolChoice{Mode: ptr(mcp.ToolChoiceModeNone)}}
		a, _ := ToAnthropicRequest(p, "m")
		o, _ := ToOpenAIRequest(p, "m")
		ga, _ := json.Marshal(a)
		gob, _ := json.Marshal(o)
		if bytes.Contains(ga, []byte("tool_choice")) || bytes.Contains(gob, []byte("tool_choice")) {
			t.Errorf("tool_choice sent without tools:\n%s\n%s", ga, gob)
		}
	})
	t.Run("a bad extension value", func(t *testing.T) {
		tc := &mcp.ToolChoice{Extra: map[string]json.RawMessage{DisableParallelToolUseMember: json.RawMessage(`"yes"`)}}
		p := &mcp.CreateMessageRequestParams{MaxTokens: 10, Messages: []mcp.SamplingMessage{textMsg(mcp.RoleUser, "hi")}, Tools: tools, ToolChoice: tc}
		_, err := ToAnthropicRequest(p, "m")
		if err == nil || !strings.Contains(err.Error(), "/toolChoice/disableParallelToolUse: must be a boolean") {
			t.Errorf("got %v", err)
		}
	})
}

// edgeCasesOfResults are TestEdgeCases' subtests of results: large integers in tool input, an
// empty OpenAI answer, results without backfill meta, images and audio.
func edgeCasesOfResults(t *testing.T) {
	t.Run("large integers in tool input survive", func(t *testing.T) {
		input := map[string]json.RawMessage{"id": json.RawMessage("12345678901234567890")}
		r := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", StopReason: ptr(mcp.CreateMessageResultStopReasonToolUse),
			Content: mcp.NewSamplingMessageContentList(&mcp.ToolUseContent{Type: "tool_use", ID: "a", Name: "n", Input: input})}
		for _, prov := range providers {
			data, err := prov.toResponse(r)
			if err != nil {
				t.Fatal(err)
			}
			back, err := prov.fromResponse(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(back.Content.List[0].(*mcp.ToolUseContent).Input["id"]); got != "12345678901234567890" {
				t.Errorf("%s: input id %s", prov.name, got)
			}
		}
	})
	t.Run("an OpenAI answer with neither text nor tool calls", func(t *testing.T) {
		res, err := providers[1].fromResponse([]byte(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null},"finish_reason":"length"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res)
		assertJSONEqual(t, "result", got, []byte(`{"_meta":{"io.github.mcpgen/backfill":{"provider":"openai","id":"c"}},"role":"assistant","content":{"type":"text","text":""},"model":"m","stopReason":"maxTokens"}`))
	})
	t.Run("results without backfill meta", func(t *testing.T) {
		r := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: mcp.NewSamplingMessageContent(textBlock("x"))}
		if info, err := Info(r); info != nil || err != nil {
			t.Errorf("Info = %v, %v", info, err)
		}
		r.Meta = &mcp.MetaObject{Extra: map[string]json.RawMessage{MetaKey: json.RawMessage(`"not an object"`)}}
		if _, err := Info(r); err == nil {
			t.Error("Info accepted a bad record")
		}
	})
	t.Run("images and audio in results", func(t *testing.T) {
		r := &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m",
			Content: mcp.NewSamplingMessageContent(&mcp.ImageContent{Type: "image", MimeType: "image/png", Data: "AAAA"})}
		if _, err := ToAnthropicMessage(r); err == nil || !strings.Contains(err.Error(), "/content: a Messages API response holds text and tool_use blocks, not image") {
			t.Errorf("anthropic: %v", err)
		}
		if _, err := ToOpenAICompletion(r); err == nil || !strings.Contains(err.Error(), "/content: a chat completion holds text and tool calls, not image") {
			t.Errorf("openai: %v", err)
		}
	})
}
