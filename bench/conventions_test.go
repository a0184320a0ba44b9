package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The constructed corpora follow the spec examples' conventions (see construct.go), which also
// keep known losses of the official SDK out of the way of the timing. These are the losses, so
// that the README's account of them stays true: when an SDK release fixes one, this fails.
func TestConventionsAvoidKnownLosses(t *testing.T) {
	var goSDK Contender
	for _, k := range Contenders() {
		if k.Name == "go-sdk" {
			goSDK = k
		}
	}
	request, ok := goSDK.Codec(CreateMessageRequestParams)
	require.True(t, ok)
	list, ok := goSDK.Codec(ListToolsResult)
	require.True(t, ok)

	for name, tc := range map[string]struct {
		codec Codec
		doc   string
		loss  string
	}{
		"one block in an array": {request,
			`{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"maxTokens":1}`,
			`re-encodes differently: /messages/0/content: [{"text":"hi","type":"text"}] became {"text":"hi","type":"text"}`},
		"isError false": {request,
			`{"messages":[{"role":"assistant","content":{"type":"tool_use","id":"a","name":"x","input":{}}},` +
				`{"role":"user","content":{"type":"tool_result","toolUseId":"a","content":[],"isError":false}}],"maxTokens":1}`,
			`re-encodes differently: /messages/1/content/isError dropped (was false)`},
		"an annotation without idempotentHint": {list,
			`{"resultType":"complete","tools":[{"name":"x","inputSchema":{"type":"object"},` +
				`"annotations":{"readOnlyHint":true}}],"ttlMs":0,"cacheScope":"public"}`,
			`re-encodes differently: /tools/0/annotations/idempotentHint added (false)`},
	} {
		assert.EqualError(t, Hold(tc.codec, []byte(tc.doc)), tc.loss, name)
	}
}
