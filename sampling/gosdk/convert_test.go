//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577); this tests the 2025-11-25 flow, in which it remains

package gosdk_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
)

// TestConversionsOnSpecExamples: the spec's sampling examples cross to the SDK's types and back
// unchanged (but for the form of single content blocks, which the SDK chooses).
func TestConversionsOnSpecExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "spec", "*.json"))
	if err != nil || len(files) != 6 {
		t.Fatalf("%d examples: %v", len(files), err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var back []byte
		if strings.Contains(string(data), `"messages"`) {
			var p mcp.CreateMessageRequestParams
			if err := mcp.Unmarshal(data, &p); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			s, err := gosdk.ToSDKParams(&p)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			q, err := gosdk.FromSDKParams(s)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if back, err = mcp.Marshal(q); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		} else {
			var r mcp.CreateMessageResult
			if err := mcp.Unmarshal(data, &r); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			s, err := gosdk.ToSDKResult(&r)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			q, err := gosdk.FromSDKResult(s)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if back, err = mcp.Marshal(q); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		if !sameJSON(t, data, back) {
			t.Errorf("%s: came back as\n%s", file, back)
		}
	}
}

// TestLossesRefused: what the SDK's types would drop is refused, not sent changed.
func TestLossesRefused(t *testing.T) {
	base := `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10`
	for name, tc := range map[string]struct{ params, pointer string }{
		"temperature 0":        {base + `,"temperature":0}`, "/temperature"},
		"empty stopSequences":  {base + `,"stopSequences":[]}`, "/stopSequences"},
		"a message's _meta":    {`{"messages":[{"role":"user","content":{"type":"text","text":"hi"},"_meta":{"k":1}}],"maxTokens":10}`, "/messages/0/_meta"},
		"an unknown member":    {base + `,"x-vendor":true}`, "/x-vendor"},
		"a toolChoice's extra": {base + `,"tools":[{"name":"t","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto","disable_parallel_tool_use":true}}`, "/toolChoice/disable_parallel_tool_use"},
		"a tool's execution":   {base + `,"tools":[{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}`, "/tools/0/execution"},
	} {
		t.Run(name, func(t *testing.T) {
			var p mcp.CreateMessageRequestParams
			if err := mcp.Unmarshal([]byte(tc.params), &p); err != nil {
				t.Fatal(err)
			}
			_, err := gosdk.ToSDKParams(&p)
			var lerr *gosdk.LossError
			if !errors.As(err, &lerr) || lerr.Pointer != tc.pointer {
				t.Fatalf("error %v, want a LossError at %s", err, tc.pointer)
			}
			t.Log(err)
		})
	}
	// What the SDK carries: a temperature that is not 0, metadata, model preferences.
	var p mcp.CreateMessageRequestParams
	ok := base + `,"temperature":0.7,"metadata":{"k":"v"},"systemPrompt":"s","stopSequences":["x"],"modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.5}}`
	if err := mcp.Unmarshal([]byte(ok), &p); err != nil {
		t.Fatal(err)
	}
	if _, err := gosdk.ToSDKParams(&p); err != nil {
		t.Errorf("%v", err)
	}
}

// sameJSON reports whether a and b are the same JSON value, but for the form of single content
// blocks, which the SDK chooses; it logs the first difference.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	err := gosdk.Compare(a, b)
	var lerr *gosdk.LossError
	if err != nil && !errors.As(err, &lerr) {
		t.Fatal(err)
	}
	if err != nil {
		t.Log(err)
	}
	return err == nil
}
