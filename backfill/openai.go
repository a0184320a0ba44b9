package backfill

import (
	"encoding/json"
	"fmt"
	"strings"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// ProviderOpenAI names the OpenAI Chat Completions API in errors and in [ResultInfo].
const ProviderOpenAI = "openai"

// OpenAIToolErrorPrefix starts the content of an OpenAI tool message whose MCP tool result has
// isError: true. OpenAI tool messages have no error flag, so the failure is stated in the text.
const OpenAIToolErrorPrefix = "[tool error] "

// The MIME types of the audio formats OpenAI takes as input, and the format names it uses.
var openAIAudioFormats = map[string]string{
	"audio/wav":   "wav",
	"audio/x-wav": "wav",
	"audio/wave":  "wav",
	"audio/mpeg":  "mp3",
	"audio/mp3":   "mp3",
}

// ToOpenAIRequest converts sampling params to a request of the OpenAI Chat Completions API for
// model: the system prompt becomes a leading system message, maxTokens max_completion_tokens,
// every tool result its own tool message (isError stated in the text, see
// [OpenAIToolErrorPrefix]), images data URLs. What cannot be sent (an image or audio block in an
// assistant message or a tool result, audio other than WAV or MP3, an unknown block) is a
// [*ConversionError] naming its place in p; what OpenAI has no field for (model preferences,
// includeContext, metadata, _meta) is left out, as the README's table says.
func ToOpenAIRequest(p *mcp.CreateMessageRequestParams, model string) (openai.ChatCompletionNewParams, error) {
	const prov = ProviderOpenAI
	r := openai.ChatCompletionNewParams{Model: shared.ChatModel(model), MaxCompletionTokens: openai.Int(p.MaxTokens)}
	if p.MaxTokens < 1 {
		return r, pointer("/maxTokens").errorf(prov, "must be at least 1, not %d", p.MaxTokens)
	}
	if p.SystemPrompt != nil && *p.SystemPrompt != "" {
		r.Messages = append(r.Messages, openai.SystemMessage(*p.SystemPrompt))
	}
	if p.Temperature != nil {
		r.Temperature = openai.Float(*p.Temperature)
	}
	if p.StopSequences != nil {
		r.Stop.OfStringArray = append([]string{}, p.StopSequences...)
	}
	for i := range p.Messages {
		ms, err := toOpenAIMessages(pointer("/messages").index(i), &p.Messages[i])
		if err != nil {
			return r, err
		}
		r.Messages = append(r.Messages, ms...)
	}
	for i := range p.Tools {
		t := &p.Tools[i]
		tp := pointer("/tools").index(i)
		schema, err := inputSchemaJSON(t)
		if err != nil {
			return r, tp.key("inputSchema").errorf(prov, "%v", err)
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if err := decodeValue(schema, &fn.Parameters); err != nil {
			return r, tp.key("inputSchema").errorf(prov, "%v", err)
		}
		if t.Description != nil {
			fn.Description = openai.String(*t.Description)
		}
		r.Tools = append(r.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if len(p.Tools) > 0 && p.ToolChoice != nil {
		noParallel, err := parallelToolUseDisabled(prov, p.ToolChoice)
		if err != nil {
			return r, err
		}
		if noParallel {
			r.ParallelToolCalls = openai.Bool(false)
		}
		if m := p.ToolChoice.Mode; m != nil {
			switch *m {
			case mcp.ToolChoiceModeAuto, mcp.ToolChoiceModeRequired, mcp.ToolChoiceModeNone:
				r.ToolChoice.OfAuto = openai.String(string(*m))
			default:
				return r, pointer("/toolChoice/mode").errorf(prov, "unknown mode %q (auto, required or none)", *m)
			}
		}
	}
	return r, nil
}

// toOpenAIMessages converts the sampling message at p into the Chat Completions messages it
// stands for: a user message (or one tool message per tool result) or an assistant message.
func toOpenAIMessages(p pointer, m *mcp.SamplingMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case mcp.RoleUser:
		return toOpenAIUserMessages(p, m)
	case mcp.RoleAssistant:
		return toOpenAIAssistantMessage(p, m)
	default:
		return nil, p.key("role").errorf(ProviderOpenAI, "unknown role %q", m.Role)
	}
}

// contentPointer returns the pointer to the jth content block of m, which is at p: the
// content itself when it is a single block rather than a list.
func contentPointer(p pointer, m *mcp.SamplingMessage, j int) pointer {
	if m.Content.IsList {
		return p.key("content").index(j)
	}
	return p.key("content")
}

// toOpenAIUserMessages converts a user message: one tool message per block when it holds tool
// results (it then must hold only those), a plain text message for a single text block, and a
// message of content parts otherwise.
func toOpenAIUserMessages(p pointer, m *mcp.SamplingMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	const prov = ProviderOpenAI
	blockPointer := func(j int) pointer { return contentPointer(p, m, j) }
	var results int
	for _, b := range m.Content.List {
		if _, ok := b.(*mcp.ToolResultContent); ok {
			results++
		}
	}
	if results > 0 {
		if results != len(m.Content.List) {
			return nil, p.key("content").errorf(prov, "a user message with tool results must hold only tool results")
		}
		var out []openai.ChatCompletionMessageParamUnion
		for j, b := range m.Content.List {
			msg, err := toOpenAIToolMessage(blockPointer(j), b.(*mcp.ToolResultContent))
			if err != nil {
				return nil, err
			}
			out = append(out, msg)
		}
		return out, nil
	}
	if t, ok := m.Content.List[0].(*mcp.TextContent); ok && !m.Content.IsList && len(m.Content.List) == 1 {
		return []openai.ChatCompletionMessageParamUnion{openai.UserMessage(t.Text)}, nil
	}
	parts := []openai.ChatCompletionContentPartUnionParam{}
	for j, b := range m.Content.List {
		bp := blockPointer(j)
		switch b := b.(type) {
		case *mcp.TextContent:
			parts = append(parts, openai.TextContentPart(b.Text))
		case *mcp.ImageContent:
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + b.MimeType + ";base64," + b.Data,
			}))
		case *mcp.AudioContent:
			format, ok := openAIAudioFormats[b.MimeType]
			if !ok {
				return nil, bp.key("mimeType").errorf(prov, "Chat Completions takes WAV or MP3 audio, not %q", b.MimeType)
			}
			parts = append(parts, openai.InputAudioContentPart(openai.ChatCompletionContentPartInputAudioInputAudioParam{Data: b.Data, Format: format}))
		default:
			return nil, bp.errorf(prov, "a user message cannot hold %s", blockType(b))
		}
	}
	return []openai.ChatCompletionMessageParamUnion{{OfUser: &openai.ChatCompletionUserMessageParam{
		Content: openai.ChatCompletionUserMessageParamContentUnion{OfArrayOfContentParts: parts},
	}}}, nil
}

// toOpenAIAssistantMessage converts an assistant message, whose blocks are text and tool calls,
// into one assistant message: its text as a string when it was a single block.
func toOpenAIAssistantMessage(p pointer, m *mcp.SamplingMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	const prov = ProviderOpenAI
	blockPointer := func(j int) pointer { return contentPointer(p, m, j) }
	a := &openai.ChatCompletionAssistantMessageParam{}
	var texts []openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion
	for j, b := range m.Content.List {
		bp := blockPointer(j)
		switch b := b.(type) {
		case *mcp.TextContent:
			texts = append(texts, openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{
				OfText: &openai.ChatCompletionContentPartTextParam{Text: b.Text},
			})
		case *mcp.ToolUseContent:
			args, err := encodeToolInput(b.Input)
			if err != nil {
				return nil, bp.key("input").errorf(prov, "%v", err)
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       b.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: b.Name, Arguments: string(args)},
				},
			})
		default:
			return nil, bp.errorf(prov, "an assistant message holds text and tool calls, not %s", blockType(b))
		}
	}
	if !m.Content.IsList && len(texts) == 1 {
		a.Content.OfString = openai.String(texts[0].OfText.Text)
	} else if len(texts) > 0 {
		a.Content.OfArrayOfContentParts = texts
	}
	return []openai.ChatCompletionMessageParamUnion{{OfAssistant: a}}, nil
}

func toOpenAIToolMessage(p pointer, tr *mcp.ToolResultContent) (openai.ChatCompletionMessageParamUnion, error) {
	parts, err := toolResultParts(ProviderOpenAI, p, tr)
	if err != nil {
		return openai.ChatCompletionMessageParamUnion{}, err
	}
	texts := make([]string, 0, len(parts))
	for i, part := range parts {
		if part.isImage {
			return openai.ChatCompletionMessageParamUnion{}, p.key("content").index(i).errorf(ProviderOpenAI, "OpenAI tool messages hold only text, not images")
		}
		texts = append(texts, part.text)
	}
	if tr.IsError != nil && *tr.IsError {
		if len(texts) == 0 {
			texts = []string{strings.TrimSpace(OpenAIToolErrorPrefix)}
		} else {
			texts[0] = OpenAIToolErrorPrefix + texts[0]
		}
	}
	msg := &openai.ChatCompletionToolMessageParam{ToolCallID: tr.ToolUseID}
	switch len(texts) {
	case 0:
		msg.Content.OfString = openai.String("")
	case 1:
		msg.Content.OfString = openai.String(texts[0])
	default:
		for _, t := range texts {
			msg.Content.OfArrayOfContentParts = append(msg.Content.OfArrayOfContentParts, openai.ChatCompletionContentPartTextParam{Text: t})
		}
	}
	return openai.ChatCompletionMessageParamUnion{OfTool: msg}, nil
}

// FromOpenAIRequest converts a request of the OpenAI Chat Completions API to sampling params and
// the model it names. Leading system and developer messages become the system prompt (joined
// with blank lines), consecutive tool messages one user message of tool results, data-URL images
// image blocks. Parameters MCP has no member for (top_p, n, seed, response_format...) are left
// out; what MCP cannot represent (an image by URL, a file, a system message in the middle of the
// conversation, a tool choice naming one tool, a request without a token limit) is a
// [*ConversionError] naming its place in r.
func FromOpenAIRequest(r *openai.ChatCompletionNewParams) (*mcp.CreateMessageRequestParams, string, error) {
	const prov = ProviderOpenAI
	p := &mcp.CreateMessageRequestParams{Messages: []mcp.SamplingMessage{}}
	switch {
	case r.MaxCompletionTokens.Valid():
		p.MaxTokens = r.MaxCompletionTokens.Value
	case r.MaxTokens.Valid():
		p.MaxTokens = r.MaxTokens.Value
	default:
		return nil, "", pointer("/max_completion_tokens").errorf(prov, "MCP requires a token limit (maxTokens)")
	}
	if r.Temperature.Valid() {
		p.Temperature = ptr(r.Temperature.Value)
	}
	if r.Stop.OfString.Valid() {
		p.StopSequences = []string{r.Stop.OfString.Value}
	} else if r.Stop.OfStringArray != nil {
		p.StopSequences = append([]string{}, r.Stop.OfStringArray...)
	}
	messages, system, err := fromOpenAIMessages(r.Messages)
	if err != nil {
		return nil, "", err
	}
	p.Messages = messages
	if system != nil {
		p.SystemPrompt = ptr(strings.Join(system, "\n\n"))
	}
	if p.Tools, err = fromOpenAITools(r.Tools); err != nil {
		return nil, "", err
	}
	if p.ToolChoice, err = fromOpenAIToolChoice(r); err != nil {
		return nil, "", err
	}
	return p, string(r.Model), nil
}

// fromOpenAIMessages converts the messages of a Chat Completions request: the leading system
// and developer messages are the texts of the system prompt, consecutive tool messages one user
// message of tool results; a system message after the conversation began, or a message of
// another role, is a [*ConversionError].
func fromOpenAIMessages(in []openai.ChatCompletionMessageParamUnion) (messages []mcp.SamplingMessage, system []string, err error) {
	const prov = ProviderOpenAI
	messages = []mcp.SamplingMessage{}
	var results []mcp.SamplingMessageContentBlock // tool messages waiting to become one user message
	flush := func() {
		if results != nil {
			messages = append(messages, mcp.SamplingMessage{Role: mcp.RoleUser, Content: contentOf(results, len(results) != 1)})
			results = nil
		}
	}
	for i, u := range in {
		mp := pointer("/messages").index(i)
		if u.OfTool == nil {
			flush()
		}
		switch {
		case u.OfSystem != nil || u.OfDeveloper != nil:
			if len(messages) > 0 {
				return nil, nil, mp.errorf(prov, "MCP has one system prompt, before the conversation; a system message after it has no place")
			}
			var c any
			if u.OfSystem != nil {
				c = u.OfSystem.Content
			} else {
				c = u.OfDeveloper.Content
			}
			system = append(system, openAISystemText(c))
		case u.OfUser != nil:
			m, err := fromOpenAIUser(mp, u.OfUser)
			if err != nil {
				return nil, nil, err
			}
			messages = append(messages, m)
		case u.OfAssistant != nil:
			m, err := fromOpenAIAssistant(mp, u.OfAssistant)
			if err != nil {
				return nil, nil, err
			}
			messages = append(messages, m)
		case u.OfTool != nil:
			tr := &mcp.ToolResultContent{Type: "tool_result", ToolUseID: u.OfTool.ToolCallID, Content: []mcp.ContentBlock{}}
			if u.OfTool.Content.OfString.Valid() {
				tr.Content = append(tr.Content, textBlock(u.OfTool.Content.OfString.Value))
			}
			for _, t := range u.OfTool.Content.OfArrayOfContentParts {
				tr.Content = append(tr.Content, textBlock(t.Text))
			}
			results = append(results, tr)
		default:
			return nil, nil, mp.errorf(prov, "only system, developer, user, assistant and tool messages have an MCP equivalent")
		}
	}
	flush()
	return messages, system, nil
}

// fromOpenAITools converts the tools of a Chat Completions request, nil for none; a tool that
// is not a function, or parameters that are not a schema, is a [*ConversionError].
func fromOpenAITools(in []openai.ChatCompletionToolUnionParam) ([]mcp.Tool, error) {
	const prov = ProviderOpenAI
	var out []mcp.Tool
	for i, t := range in {
		tp := pointer("/tools").index(i)
		if t.OfFunction == nil {
			return nil, tp.errorf(prov, "only function tools have an MCP equivalent")
		}
		fn := &t.OfFunction.Function
		var schema []byte
		if fn.Parameters != nil {
			var err error
			if schema, err = json.Marshal(fn.Parameters); err != nil {
				return nil, tp.key("function").key("parameters").errorf(prov, "%v", err)
			}
		}
		mt := mcp.Tool{Name: fn.Name}
		var err error
		if mt.InputSchema, err = inputSchemaFromJSON(schema); err != nil {
			return nil, tp.key("function").key("parameters").errorf(prov, "%v", err)
		}
		if fn.Description.Valid() {
			mt.Description = ptr(fn.Description.Value)
		}
		out = append(out, mt)
	}
	return out, nil
}

// fromOpenAIToolChoice converts the tool choice of a Chat Completions request, with
// parallel_tool_calls false as DisableParallelToolUse; nil for neither. A choice naming tools is
// a [*ConversionError]: MCP's modes are auto, required and none.
func fromOpenAIToolChoice(r *openai.ChatCompletionNewParams) (choice *mcp.ToolChoice, err error) {
	const prov = ProviderOpenAI
	switch tc := r.ToolChoice; {
	case tc.OfAuto.Valid():
		switch m := mcp.ToolChoiceMode(tc.OfAuto.Value); m {
		case mcp.ToolChoiceModeAuto, mcp.ToolChoiceModeRequired, mcp.ToolChoiceModeNone:
			choice = &mcp.ToolChoice{Mode: &m}
		default:
			return nil, pointer("/tool_choice").errorf(prov, "unknown tool choice %q", m)
		}
	case tc.OfAllowedTools != nil || tc.OfFunctionToolChoice != nil || tc.OfCustomToolChoice != nil:
		return nil, pointer("/tool_choice").errorf(prov, "MCP cannot restrict the model to named tools; its modes are auto, required and none")
	}
	if r.ParallelToolCalls.Valid() && !r.ParallelToolCalls.Value {
		if choice == nil {
			choice = &mcp.ToolChoice{}
		}
		DisableParallelToolUse(choice)
	}
	return choice, nil
}

func openAISystemText(c any) string {
	var s string
	var parts []openai.ChatCompletionContentPartTextParam
	switch c := c.(type) {
	case openai.ChatCompletionSystemMessageParamContentUnion:
		s, parts = c.OfString.Value, c.OfArrayOfContentParts
	case openai.ChatCompletionDeveloperMessageParamContentUnion:
		s, parts = c.OfString.Value, c.OfArrayOfContentParts
	}
	if parts == nil {
		return s
	}
	texts := make([]string, len(parts))
	for i, t := range parts {
		texts[i] = t.Text
	}
	return strings.Join(texts, "\n\n")
}

func fromOpenAIUser(p pointer, u *openai.ChatCompletionUserMessageParam) (mcp.SamplingMessage, error) {
	const prov = ProviderOpenAI
	m := mcp.SamplingMessage{Role: mcp.RoleUser}
	if u.Content.OfString.Valid() {
		m.Content = mcp.NewSamplingMessageContent(textBlock(u.Content.OfString.Value))
		return m, nil
	}
	bs := []mcp.SamplingMessageContentBlock{}
	for j, part := range u.Content.OfArrayOfContentParts {
		pp := p.key("content").index(j)
		switch {
		case part.OfText != nil:
			bs = append(bs, textBlock(part.OfText.Text))
		case part.OfImageURL != nil:
			mime, data, ok := parseDataURL(part.OfImageURL.ImageURL.URL)
			if !ok {
				return m, pp.key("image_url").key("url").errorf(prov, "MCP images carry base64 data; only a base64 data: URL can be converted, not an image by URL")
			}
			bs = append(bs, &mcp.ImageContent{Type: "image", MimeType: mime, Data: data})
		case part.OfInputAudio != nil:
			mime := "audio/" + part.OfInputAudio.InputAudio.Format
			if part.OfInputAudio.InputAudio.Format == "mp3" {
				mime = "audio/mpeg"
			}
			bs = append(bs, &mcp.AudioContent{Type: "audio", MimeType: mime, Data: part.OfInputAudio.InputAudio.Data})
		default:
			return m, pp.errorf(prov, "this content part has no MCP equivalent (MCP has text, image and audio)")
		}
	}
	m.Content = mcp.NewSamplingMessageContentList(bs...)
	return m, nil
}

func fromOpenAIAssistant(p pointer, a *openai.ChatCompletionAssistantMessageParam) (mcp.SamplingMessage, error) {
	const prov = ProviderOpenAI
	m := mcp.SamplingMessage{Role: mcp.RoleAssistant}
	var bs []mcp.SamplingMessageContentBlock
	single := false
	if a.Content.OfString.Valid() {
		bs = append(bs, textBlock(a.Content.OfString.Value))
		single = true
	}
	for j, part := range a.Content.OfArrayOfContentParts {
		switch {
		case part.OfText != nil:
			bs = append(bs, textBlock(part.OfText.Text))
		case part.OfRefusal != nil:
			bs = append(bs, textBlock(part.OfRefusal.Refusal))
		default:
			return m, p.key("content").index(j).errorf(prov, "this content part has no MCP equivalent")
		}
	}
	if a.Refusal.Valid() {
		bs = append(bs, textBlock(a.Refusal.Value))
		single = false
	}
	for j, call := range a.ToolCalls {
		cp := p.key("tool_calls").index(j)
		if call.OfFunction == nil {
			return m, cp.errorf(prov, "only function tool calls have an MCP equivalent")
		}
		input, err := decodeToolInput([]byte(call.OfFunction.Function.Arguments))
		if err != nil {
			return m, cp.key("function").key("arguments").errorf(prov, "%v", err)
		}
		bs = append(bs, &mcp.ToolUseContent{Type: "tool_use", ID: call.OfFunction.ID, Name: call.OfFunction.Function.Name, Input: input})
		single = false
	}
	if len(bs) == 0 {
		bs, single = []mcp.SamplingMessageContentBlock{textBlock("")}, true
	}
	m.Content = contentOf(bs, !single)
	return m, nil
}

// parseDataURL splits a base64 data: URL into its MIME type and data.
func parseDataURL(u string) (mime, data string, ok bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", false
	}
	head, data, ok := strings.Cut(rest, ",")
	if !ok {
		return "", "", false
	}
	mime, ok = strings.CutSuffix(head, ";base64")
	if !ok || mime == "" {
		return "", "", false
	}
	return mime, data, true
}

// FromOpenAICompletion converts a response of the OpenAI Chat Completions API (its first choice)
// to a sampling result: the text and tool calls become MCP content (text alone as a single
// value, with tool calls an array), a refusal becomes text with stop reason "refusal"
// ([StopReasonRefusal]), the finish reason is mapped (stop→endTurn, length→maxTokens,
// tool_calls→toolUse; any other, such as content_filter, kept as it is), and the completion id
// and usage are recorded in _meta (see [Info]). Tool call arguments that are not a JSON object
// are a [*ConversionError].
func FromOpenAICompletion(c *openai.ChatCompletion) (*mcp.CreateMessageResult, error) {
	const prov = ProviderOpenAI
	if len(c.Choices) == 0 {
		return nil, pointer("/choices").errorf(prov, "the completion has no choices")
	}
	ch := &c.Choices[0]
	msg := &ch.Message
	var bs []mcp.SamplingMessageContentBlock
	if msg.Content != "" {
		bs = append(bs, textBlock(msg.Content))
	}
	stop := fromProviderStopReason(openAIFinishReasons, ch.FinishReason)
	if msg.Refusal != "" {
		bs = append(bs, textBlock(msg.Refusal))
		stop = ptr(StopReasonRefusal)
	}
	for j, call := range msg.ToolCalls {
		cp := pointer("/choices/0/message/tool_calls").index(j)
		if call.Type != "function" {
			return nil, cp.errorf(prov, "only function tool calls have an MCP equivalent, not %q", call.Type)
		}
		input, err := decodeToolInput([]byte(call.Function.Arguments))
		if err != nil {
			return nil, cp.key("function").key("arguments").errorf(prov, "%v", err)
		}
		bs = append(bs, &mcp.ToolUseContent{Type: "tool_use", ID: call.ID, Name: call.Function.Name, Input: input})
	}
	if len(bs) == 0 {
		bs = []mcp.SamplingMessageContentBlock{textBlock("")}
	}
	r := &mcp.CreateMessageResult{
		Role:       mcp.RoleAssistant,
		Content:    contentOf(bs, len(msg.ToolCalls) > 0 || len(bs) > 1),
		Model:      c.Model,
		StopReason: stop,
	}
	info := &ResultInfo{Provider: prov, ID: c.ID}
	if c.JSON.Usage.Valid() {
		info.Usage = &Usage{
			InputTokens:          c.Usage.PromptTokens,
			OutputTokens:         c.Usage.CompletionTokens,
			CacheReadInputTokens: c.Usage.PromptTokensDetails.CachedTokens,
		}
	}
	if err := setInfo(r, info); err != nil {
		return nil, err
	}
	return r, nil
}

// ToOpenAICompletion converts a sampling result to a response of the OpenAI Chat Completions API
// with one choice, as the SDK decodes it. Several text blocks are joined with blank lines; stop
// reason "refusal" puts the text in the message's refusal; the id and usage come from _meta when
// the result carries a [ResultInfo]. Images and audio are a [*ConversionError].
func ToOpenAICompletion(r *mcp.CreateMessageResult) (*openai.ChatCompletion, error) {
	const prov = ProviderOpenAI
	info, err := Info(r)
	if err != nil {
		return nil, pointer("/_meta").key(MetaKey).errorf(prov, "%v", err)
	}
	if info == nil {
		info = &ResultInfo{}
	}
	texts, calls, err := openAICompletionBlocks(r)
	if err != nil {
		return nil, err
	}
	message := struct {
		Role      string                     `json:"role"`
		Content   *string                    `json:"content"`
		Refusal   *string                    `json:"refusal"`
		ToolCalls []openAICompletionToolCall `json:"tool_calls,omitempty"`
	}{Role: "assistant", ToolCalls: calls}
	finish := toProviderStopReason(openAIFinishReasons, r.StopReason)
	switch {
	case r.StopReason != nil && *r.StopReason == StopReasonRefusal:
		message.Refusal = ptr(strings.Join(texts, "\n\n"))
		finish = "stop"
	case texts != nil:
		message.Content = ptr(strings.Join(texts, "\n\n"))
	}
	if finish == "" || finish == string(mcp.CreateMessageResultStopReasonStopSequence) {
		finish = "stop"
	}
	type choice struct {
		Index        int    `json:"index"`
		Message      any    `json:"message"`
		Logprobs     any    `json:"logprobs"`
		FinishReason string `json:"finish_reason"`
	}
	doc := struct {
		ID      string                 `json:"id"`
		Object  string                 `json:"object"`
		Created int64                  `json:"created"`
		Model   string                 `json:"model"`
		Choices []choice               `json:"choices"`
		Usage   *openAICompletionUsage `json:"usage,omitempty"`
	}{ID: info.ID, Object: "chat.completion", Model: r.Model, Choices: []choice{{Message: message, FinishReason: finish}}, Usage: toOpenAICompletionUsage(info.Usage)}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var c openai.ChatCompletion
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: decoding the completion: %v", prov, err)
	}
	return &c, nil
}

// openAICompletionToolCall is a tool call of a chat completion's message, as the API sends it.
type openAICompletionToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// openAICompletionBlocks sorts a sampling result's content into the texts and the tool calls of
// a chat completion's message; any other block is a [*ConversionError] at its pointer.
func openAICompletionBlocks(r *mcp.CreateMessageResult) (texts []string, calls []openAICompletionToolCall, err error) {
	const prov = ProviderOpenAI
	for i, b := range r.Content.List {
		bp := pointer("/content")
		if r.Content.IsList {
			bp = bp.index(i)
		}
		switch b := b.(type) {
		case *mcp.TextContent:
			texts = append(texts, b.Text)
		case *mcp.ToolUseContent:
			args, err := encodeToolInput(b.Input)
			if err != nil {
				return nil, nil, bp.key("input").errorf(prov, "%v", err)
			}
			call := openAICompletionToolCall{ID: b.ID, Type: "function"}
			call.Function.Name, call.Function.Arguments = b.Name, string(args)
			calls = append(calls, call)
		default:
			return nil, nil, bp.errorf(prov, "a chat completion holds text and tool calls, not %s", blockType(b))
		}
	}
	return texts, calls, nil
}

// openAICompletionUsage is a chat completion's usage, as the API sends it.
type openAICompletionUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	TotalTokens         int64 `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details,omitempty"`
}

// toOpenAICompletionUsage is the usage of a chat completion for a result's [Usage], nil for
// none; cached tokens are given only when there are some.
func toOpenAICompletionUsage(usage *Usage) *openAICompletionUsage {
	if usage == nil {
		return nil
	}
	u := &openAICompletionUsage{PromptTokens: usage.InputTokens, CompletionTokens: usage.OutputTokens, TotalTokens: usage.InputTokens + usage.OutputTokens}
	if usage.CacheReadInputTokens != 0 {
		u.PromptTokensDetails = &struct {
			CachedTokens int64 `json:"cached_tokens"`
		}{usage.CacheReadInputTokens}
	}
	return u
}
