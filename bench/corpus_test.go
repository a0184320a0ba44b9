package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every corpus, and every request of the scaling series, is an instance of its draft type as the
// draft's schema.json says, decided by a real JSON Schema validator.
func TestCorporaValidateAgainstDraftSchema(t *testing.T) {
	for _, c := range append(corpora(t), ScaleSeries()...) {
		t.Run(c.Name, func(t *testing.T) {
			require.NoError(t, validate("draft", c.Type, c.Data), c.Source)
		})
	}
}

// The validator does reject what the schema forbids, so the test above can fail.
func TestDraftSchemaRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"maxTokens missing":    `{"messages":[]}`,
		"tool_use without id":  `{"messages":[{"role":"assistant","content":{"type":"tool_use","name":"x","input":{}}}],"maxTokens":1}`,
		"role not a Role":      `{"messages":[{"role":"system","content":{"type":"text","text":"x"}}],"maxTokens":1}`,
		"maxTokens not an int": `{"messages":[],"maxTokens":1.5}`,
	} {
		assert.Error(t, validate("draft", CreateMessageRequestParams, []byte(doc)), name)
	}
}

func TestConstructedCorporaAreDeterministic(t *testing.T) {
	assert.True(t, bytes.Equal(SamplingRequest(SamplingShape), SamplingRequest(SamplingShape)))
	assert.True(t, bytes.Equal(ToolsList(ToolCount), ToolsList(ToolCount)))
}

// The constructed sampling request has the shape of the codec targets' corpus, and keeps the spec's
// sampling rules (docs/draft/client/sampling.mdx).
func TestSamplingRequestShape(t *testing.T) {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			InputSchema struct {
				Properties map[string]any `json:"properties"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(SamplingRequest(SamplingShape), &req))
	require.Len(t, req.Messages, SamplingShape.Messages)
	require.Len(t, req.Tools, SamplingShape.Tools)
	for _, tool := range req.Tools {
		assert.Len(t, tool.InputSchema.Properties, SamplingShape.Properties)
	}

	count := map[string]int{}
	for _, m := range req.Messages {
		blocks := contentBlocks(t, m.Content)
		uses := 0
		for _, b := range blocks {
			count[m.Role+" "+b.Type]++
			if b.Type == "tool_use" {
				uses++
			}
			if b.Type == "tool_result" && b.StructuredContent != nil {
				count["structuredContent"]++
			}
			if b.IsError {
				count["isError"]++
			}
		}
		if uses > 1 {
			count["parallel tool uses"]++
		}
	}
	for _, want := range []string{"user text", "assistant tool_use", "user tool_result",
		"assistant text", "parallel tool uses", "structuredContent", "isError"} {
		assert.Positive(t, count[want], "messages with %s", want)
	}
	t.Logf("%d bytes: %v", len(SamplingRequest(SamplingShape)), count)

	for _, c := range append([]Corpus{{Name: "sampling-40msg", Data: SamplingRequest(SamplingShape)}}, ScaleSeries()...) {
		assert.NoError(t, samplingRules(t, c.Data), c.Name)
	}
}

// The scaling series grows from about 1 KB to about 10 MB, each request larger than the last.
func TestScaleSeries(t *testing.T) {
	series := ScaleSeries()
	require.Len(t, series, len(ScaleSizes))
	for i, c := range series {
		assert.InEpsilon(t, ScaleSizes[i], len(c.Data), 0.35, c.Name)
		if i > 0 {
			assert.Greater(t, len(c.Data), len(series[i-1].Data), c.Name)
		}
	}
	assert.Equal(t, "size=1KB", series[0].Name)
	assert.Equal(t, "size=10MB", series[len(series)-1].Name)
}

func TestToolsListShape(t *testing.T) {
	var res struct {
		Tools []struct {
			Name        string         `json:"name"`
			Annotations map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(ToolsList(ToolCount), &res))
	require.Len(t, res.Tools, ToolCount)
	names := map[string]bool{}
	for _, tool := range res.Tools {
		assert.False(t, names[tool.Name], "duplicate tool %s", tool.Name)
		names[tool.Name] = true
		assert.NotEmpty(t, tool.Annotations, tool.Name)
	}
}

type block struct {
	Type              string          `json:"type"`
	ID                string          `json:"id"`
	ToolUseID         string          `json:"toolUseId"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func contentBlocks(t *testing.T, content json.RawMessage) []block {
	var blocks []block
	if bytes.HasPrefix(content, []byte("[")) {
		require.NoError(t, json.Unmarshal(content, &blocks))
	} else {
		var b block
		require.NoError(t, json.Unmarshal(content, &b))
		blocks = []block{b}
	}
	return blocks
}

// samplingRules checks the rules of the spec on tool use in sampling messages: a user message
// that holds tool results holds only tool results; every tool use is answered, in the next
// message, by a result with its id; tool use ids are unique.
func samplingRules(t *testing.T, data []byte) error {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return err
	}
	seen := map[string]bool{}
	var open []string // tool uses of the previous message, to be answered now
	for i, m := range req.Messages {
		blocks := contentBlocks(t, m.Content)
		results := map[string]bool{}
		var uses []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				if m.Role != "user" {
					return fmt.Errorf("message %d: a tool result in a %s message", i, m.Role)
				}
				results[b.ToolUseID] = true
			case "tool_use":
				if seen[b.ID] {
					return fmt.Errorf("message %d: tool use id %q used twice", i, b.ID)
				}
				seen[b.ID] = true
				uses = append(uses, b.ID)
			}
		}
		if len(results) > 0 && len(results) != len(blocks) {
			return fmt.Errorf("message %d: tool results mixed with other content", i)
		}
		for _, id := range open {
			if !results[id] {
				return fmt.Errorf("message %d: tool use %q is not answered", i, id)
			}
		}
		if len(results) != len(open) {
			return fmt.Errorf("message %d: %d results for %d tool uses", i, len(results), len(open))
		}
		open = uses
	}
	if len(open) > 0 {
		return fmt.Errorf("the last message has unanswered tool uses %q", open)
	}
	return nil
}

// samplingRules can fail.
func TestSamplingRulesReject(t *testing.T) {
	for name, doc := range map[string]string{
		"unanswered": `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"x","input":{}}}]}`,
		"wrong id": `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"x","input":{}}},
			{"role":"user","content":{"type":"tool_result","toolUseId":"b","content":[]}}]}`,
		"mixed": `{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"x","input":{}}},
			{"role":"user","content":[{"type":"tool_result","toolUseId":"a","content":[]},{"type":"text","text":"x"}]}]}`,
	} {
		assert.Error(t, samplingRules(t, []byte(doc)), name)
	}
}
