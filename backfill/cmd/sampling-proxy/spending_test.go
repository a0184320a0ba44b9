//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this server asks for it

package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addSpendingTools adds "many-samples", which asks for perRound sampling requests a round, for
// rounds rounds (2026-07-28), and then answers how many it got.
func addSpendingTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "many-samples", Description: "Asks for many samples"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			PerRound int `json:"perRound"`
			Rounds   int `json:"rounds"`
		}) (*mcp.CallToolResult, any, error) {
			round := 0
			if st := req.Params.RequestState; st != "" {
				round, _ = strconv.Atoi(st)
			}
			if round >= in.Rounds {
				return textResult(false, "done after %d rounds", round), nil, nil
			}
			reqs := mcp.InputRequestMap{}
			for i := range in.PerRound {
				reqs[fmt.Sprintf("r%d-%d", round, i)] = &mcp.CreateMessageWithToolsParams{MaxTokens: 100,
					Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}}}
			}
			return &mcp.CallToolResult{InputRequests: reqs, RequestState: strconv.Itoa(round + 1)}, nil, nil
		})
}

// TestDefaultsBoundSpending: with the default flags, the help states a finite token budget, and
// one tools/call of a server asking for 100 samples a round for 10 rounds, or 4 a round for 10
// rounds, reaches the provider at most -max-request-samples (20) times, not 1,000 or 40.
func TestDefaultsBoundSpending(t *testing.T) {
	p := providers[0]
	help := exec.Command(os.Args[0], "-help")
	help.Env = environ()
	out, _ := help.CombinedOutput()
	if !strings.Contains(string(out), "(default 1000000)") || !strings.Contains(string(out), "-max-request-samples") {
		t.Errorf("-help:\n%s", out)
	}
	for _, tt := range []struct {
		perRound, rounds, most int
		limit                  string
	}{{100, 10, 0, "maxRoundSamples"}, {4, 10, 20, "maxRequestSamples"}} {
		t.Run(fmt.Sprintf("%dx%d", tt.perRound, tt.rounds), func(t *testing.T) {
			fake, url := fakeProvider(t, p, recorded("e2e/anthropic/2_final.json"))
			var stderr syncBuffer
			cs := connectAt(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr)}, "", nil)
			defer cs.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "many-samples", Arguments: map[string]any{"perRound": tt.perRound, "rounds": tt.rounds}})
			n := len(fake.Requests())
			t.Logf("%d samples a round, %d rounds: %d provider calls; the client got %v", tt.perRound, tt.rounds, n, err)
			stderr.waitFor(t, "sampling refused")
			if err == nil {
				t.Errorf("the call ended with %v %+v", err, res)
			}
			if n != tt.most {
				t.Errorf("%d provider calls, want %d", n, tt.most)
			}
		})
	}
}

// TestProviderTextNotToServer: a provider whose error message quotes the key in a form no filter
// knows (base64) fails the call, and the server (whose tool reports the error it got) learns the
// provider, the status and the error type, not the message.
func TestProviderTextNotToServer(t *testing.T) {
	p := providers[0]
	const key = "sk-ant-test-key-0123456789"
	leak := base64.StdEncoding.EncodeToString([]byte(key))
	fake := &testkit.Provider{Path: p.path, Replies: []testkit.Reply{{Status: 400,
		Body: `{"type":"error","error":{"type":"invalid_request_error","message":"key ` + leak + ` is not allowed"}}`}}}
	url := newLoopback(t, fake)
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "--", os.Args[0], "test-server")
	cmd.Env = environ(p.keyVar+"="+key, p.urlVar+"="+url)
	cmd.Stderr = &stderr
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	defer cs.Close()
	text, isError := callAgent(t, cs)
	t.Logf("the server's tool reported: %s", text)
	if !isError || strings.Contains(text, leak) || strings.Contains(text, "is not allowed") || !strings.Contains(text, "invalid_request_error") {
		t.Errorf("the server got %q", text)
	}
}

// TestEndpointSecretsRedacted: a token in the remote server's query appears in no log line and in
// no error to the client (the server is unreachable: the error names the URL); a -header on the
// command line is warned about, and -header-file keeps it off it.
func TestEndpointSecretsRedacted(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there
	const token = "qtok-0123456789abcdef"
	endpoint := "http://" + addr + "/mcp?api_key=" + token
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-kill-after", "1s", "-header", "X-Trace: on", "--", endpoint)
	cmd.Env = environ(p.keyVar+"=test-key", p.urlVar+"="+url)
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Fatal("connected to nothing")
	}
	t.Logf("the client got: %v", err)
	if strings.Contains(err.Error(), token) {
		t.Errorf("the client's error shows the token: %v", err)
	}
	cmd.Wait()
	log := stderr.String()
	t.Logf("%d log lines of %d hold the token", strings.Count(log, token), strings.Count(log, "\n"))
	if strings.Contains(log, token) {
		t.Errorf("the log shows the token:\n%s", log)
	}
	for _, want := range []string{"api_key=REDACTED", "-header values are on the command line"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

// TestHeaderFile: headers for a remote server from -header-file, not on the command line.
func TestHeaderFile(t *testing.T) {
	p := providers[0]
	endpoint, refused := remoteServer(t, true)
	_, url := fakeProvider(t, p, recorded(p.replies...))
	file := t.TempDir() + "/headers"
	if err := os.WriteFile(file, []byte("Authorization: "+remoteToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-kill-after", "2s", "-header-file", file, "--", endpoint)
	cmd.Env = environ(p.keyVar+"=test-key", p.urlVar+"="+url)
	cmd.Stderr = &stderr
	cs := connectAt(t, &mcp.CommandTransport{Command: cmd}, "", nil)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "agent-mrtr", Arguments: map[string]any{"prompt": prompt}})
	if err != nil || res.IsError || refused.Load() != 0 {
		t.Fatalf("%v %+v (%d refused)\nstderr:\n%s", err, res, refused.Load(), stderr.String())
	}
	if strings.Contains(stderr.String(), "remote-t0ken-secret") || strings.Contains(stderr.String(), "on the command line") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// TestRootWarning: a proxy run as root warns that the server it starts can read its environment
// (root reads any process's); run as another user, it does not.
func TestRootWarning(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	var stderr syncBuffer
	cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr)})
	cs.Close()
	stderr.waitFor(t, "server exited")
	if warned := strings.Contains(stderr.String(), "the proxy runs as root"); warned != (os.Geteuid() == 0) {
		t.Errorf("euid %d, warned %v:\n%s", os.Geteuid(), warned, stderr.String())
	}
}
