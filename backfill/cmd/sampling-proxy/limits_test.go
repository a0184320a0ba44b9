package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLimitFlags: -max-tokens caps what the provider is asked for, and a spent -token-budget
// refuses sampling with an error the server reads (its tool reports it).
func TestLimitFlags(t *testing.T) {
	p := providers[0]
	t.Run("max-tokens", func(t *testing.T) {
		fake, url := fakeProvider(t, p, recorded(p.replies...))
		var stderr syncBuffer
		cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-max-tokens", "50")})
		defer cs.Close()
		if text, isError := callAgent(t, cs); isError || text != finalAnswer {
			t.Fatalf("agent answered (isError %v) %q", isError, text)
		}
		for _, r := range fake.Requests() {
			var body struct {
				MaxTokens int `json:"max_tokens"`
			}
			json.Unmarshal(r.Body, &body)
			if body.MaxTokens != 50 {
				t.Errorf("the provider was asked for %d tokens, want the cap 50", body.MaxTokens)
			}
		}
		if !strings.Contains(stderr.String(), "capped maxTokens") {
			t.Errorf("the cap is not logged:\n%s", stderr.String())
		}
	})
	t.Run("token-budget", func(t *testing.T) {
		fake, url := fakeProvider(t, p, recorded(p.replies...))
		var stderr syncBuffer
		// The first call reserves 2,323 tokens (1,000 of output, 1,323 of estimated input) and
		// reports 470 of usage: the second (a longer conversation) does not fit in 2,800.
		cs := connect(t, &mcp.CommandTransport{Command: proxyCommand(t, p, url, &stderr, "-token-budget", "2800", "-max-tokens", "1000")})
		defer cs.Close()
		text, isError := callAgent(t, cs)
		if !isError || !strings.Contains(text, "token budget") {
			t.Fatalf("agent answered (isError %v) %q, want the budget's refusal", isError, text)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("the provider got %d requests, want 1", n)
		}
		if !strings.Contains(stderr.String(), "sampling refused: the token budget is spent") {
			t.Errorf("the refusal is not logged:\n%s", stderr.String())
		}
	})
}

// floodServer sends 200 sampling requests asking for 1,000,000 tokens each, reads 196 answers,
// writes to stderr how many were refused for which limit, and exits at the end of its input.
func floodServer() {
	for i := range 200 {
		fmt.Printf(`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":1000000}}`+"\n", i)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	counts := map[string]int{}
	for n := 0; n < 196 && sc.Scan(); n++ {
		var resp struct {
			Error *struct {
				Code int `json:"code"`
				Data struct {
					Limit string `json:"limit"`
				} `json:"data"`
			} `json:"error"`
		}
		json.Unmarshal(sc.Bytes(), &resp)
		switch {
		case resp.Error == nil:
			counts["answered"]++
		default:
			counts[fmt.Sprintf("%d/%s", resp.Error.Code, resp.Error.Data.Limit)]++
		}
	}
	fmt.Fprintf(os.Stderr, "flood: %v\n", counts)
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// TestFloodingServer: a server (a process) floods the proxy with 200 sampling requests of
// maxTokens 1,000,000 while the provider is slow: 4 calls reach it (-max-concurrent), capped to
// -max-tokens, and the other 196 are refused at once with -32000, which the server reads.
func TestFloodingServer(t *testing.T) {
	p := providers[0]
	fake := &testkit.Provider{Path: p.path, Replies: []testkit.Reply{{Delay: time.Hour, Body: "{}"}}}
	arrived := make(chan struct{}, 200)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], "-provider", p.name, "-model", p.model, "-max-concurrent", "4", "-max-tokens", "1000", "-kill-after", "1s", "--", os.Args[0], "test-server-flood")
	cmd.Env = environ(p.keyVar+"=k", p.urlVar+"="+srv.URL)
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	stderr.waitFor(t, "flood: ")
	for range 4 {
		select {
		case <-arrived:
		case <-time.After(20 * time.Second):
			t.Fatalf("fewer than 4 calls reached the provider\nstderr:\n%.3000s", stderr.String())
		}
	}
	stdin.Close()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the proxy did not exit\nstderr:\n%.3000s", stderr.String())
	}
	if !strings.Contains(stderr.String(), `line="flood: map[-32000/maxConcurrent:196]"`) {
		t.Errorf("the server did not read 196 refusals:\n%.3000s", stderr.String())
	}
	reqs := fake.Requests()
	if len(reqs) != 4 {
		t.Errorf("the provider got %d requests, want 4", len(reqs))
	}
	for _, r := range reqs {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		if body.MaxTokens != 1000 {
			t.Errorf("max_tokens %d, want the cap 1000", body.MaxTokens)
		}
	}
	if n := strings.Count(stderr.String(), "sampling refused: too many provider calls in progress"); n != 196 {
		t.Errorf("%d refusals logged, want 196", n)
	}
}
