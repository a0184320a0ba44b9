package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The suite's client scenarios, with the proxy as the client under test: the suite starts a
// scenario's server and runs the command it is given with the server's URL. The command is this
// test binary as a host (conformanceHost): a go-sdk client on stdio to the proxy (the test binary
// as sampling-proxy) in front of that URL. The auth scenarios need OAuth, which is not here.
var clientScenarios = []string{"initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"}

// TestConformanceClient runs the client scenarios; every check of each must pass.
func TestConformanceClient(t *testing.T) {
	c := conformanceTools(t)
	p := providers[0]
	_, providerURL := fakeProvider(t, p, recorded("e2e/anthropic/2_final.json"))
	for _, scenario := range clientScenarios {
		t.Run(scenario, func(t *testing.T) {
			dir := t.TempDir()
			env := []string{p.keyVar + "=test-key", p.urlVar + "=" + providerURL}
			_, text := c.runEnv(t, dir, env, "client", "--command", os.Args[0]+" conformance-host", "--scenario", scenario, "-o", dir)
			// One scenario's summary: "Passed: 5/5, 0 failed, 0 warnings".
			var r scenarioResult
			m := regexp.MustCompile(`(?m)^Passed: (\d+)/\d+, (\d+) failed`).FindStringSubmatch(text)
			if m != nil {
				r.passed, _ = strconv.Atoi(m[1])
				r.failed, _ = strconv.Atoi(m[2])
			}
			if m == nil || r.failed > 0 || r.passed == 0 {
				t.Errorf("%s: %d passed, %d failed: %s\n%s", scenario, r.passed, r.failed, failures(t, dir, scenario), text)
				return
			}
			t.Logf("%s: %d checks passed", scenario, r.passed)
		})
	}
}

// conformanceHost is the host the suite runs as the client under test: a go-sdk client that
// starts the proxy in front of url, lists the server's tools and calls each (numbers for its
// required number arguments, text for the rest), accepting every elicitation (go-sdk fills in
// the schema's defaults).
func conformanceHost(url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(os.Args[0], "-provider", providers[0].name, "-model", providers[0].model, "-kill-after", "1s", "--", url)
	cmd.Env = append(os.Environ(), "SAMPLING_PROXY_TEST_MAIN=1")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "sampling-proxy-conformance-host", Version: "1.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connecting:", err)
		os.Exit(1)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "listing tools:", err)
		os.Exit(1)
	}
	for _, tool := range tools.Tools {
		args := map[string]any{}
		if schema, ok := tool.InputSchema.(map[string]any); ok {
			props, _ := schema["properties"].(map[string]any)
			required, _ := schema["required"].([]any)
			for i, name := range required {
				prop, _ := props[fmt.Sprint(name)].(map[string]any)
				if t := fmt.Sprint(prop["type"]); t == "number" || t == "integer" {
					args[fmt.Sprint(name)] = i + 1
				} else {
					args[fmt.Sprint(name)] = "x"
				}
			}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args})
		if err != nil {
			fmt.Fprintf(os.Stderr, "calling %s: %v\n", tool.Name, err)
			os.Exit(1)
		}
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		fmt.Printf("%s: %s\n", tool.Name, strings.Join(text, " "))
	}
}
