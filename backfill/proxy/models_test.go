package proxy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/backfill/proxy"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
)

// named answers with its own name as the model.
type named string

func (n named) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: string(n),
		Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Type: "text", Text: "x"})}, nil
}

func TestRouter(t *testing.T) {
	routes, err := proxy.ParseModelMap(" sonnet = claude-sonnet-4-5 , haiku=claude-haiku-4-5,opus=claude-opus-4-1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range routes {
		routes[i].Sampler = named(routes[i].Model)
	}
	r := &proxy.Router{Routes: routes, Default: named("default-model")}
	hints := func(names ...string) *mcp.CreateMessageRequestParams {
		p := &mcp.CreateMessageRequestParams{MaxTokens: 1, ModelPreferences: &mcp.ModelPreferences{}}
		for _, n := range names {
			p.ModelPreferences.Hints = append(p.ModelPreferences.Hints, mcp.ModelHint{Name: &n})
		}
		return p
	}
	for _, tt := range []struct {
		params *mcp.CreateMessageRequestParams
		want   string
	}{
		{&mcp.CreateMessageRequestParams{MaxTokens: 1}, "default-model"}, // no preferences
		{hints(), "default-model"},                                       // no hints
		{hints("HAIKU"), "claude-haiku-4-5"},                             // case ignored
		{hints("claude-3-sonnet"), "default-model"},                      // a route's name inside the hint is no match (the spec: the hint is a substring)
		{hints("o"), "claude-sonnet-4-5"},                                // a one-letter hint: the first route that holds it
		{hints("pus"), "claude-opus-4-1"},                                // any substring of a name or model
		{hints("gpt-4o", "opus"), "claude-opus-4-1"},                     // the first hint that matches
		{hints("claude-haiku-4"), "claude-haiku-4-5"},                    // the hint inside a model
		{hints("claude", "haiku"), "claude-sonnet-4-5"},                  // first hint first, then routes in order
		{hints("gemini", "llama"), "default-model"},                      // none matches
	} {
		res, err := r.CreateMessage(context.Background(), tt.params)
		if err != nil || res.Model != tt.want {
			var names []string
			if tt.params.ModelPreferences != nil {
				for _, h := range tt.params.ModelPreferences.Hints {
					names = append(names, *h.Name)
				}
			}
			t.Errorf("hints %v: model %v (%v), want %s", names, res.Model, err, tt.want)
		}
	}
	for _, bad := range []string{"sonnet", "=m", "a=", "a=b,A=c"} {
		if _, err := proxy.ParseModelMap(bad); err == nil || !strings.Contains(err.Error(), "model map") {
			t.Errorf("ParseModelMap(%q): %v", bad, err)
		}
	}
}
