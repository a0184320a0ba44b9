package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP conformance suite's client scenarios for authorization, with the proxy as the client
// under test: the suite starts an MCP server that wants OAuth (and its authorization server), and
// runs "<test binary> conformance-auth-client <server URL>", which starts the proxy in front of
// that URL and, as the MCP host the proxy serves on stdio, lists the tools and calls the
// scenario's tool. Every request of the OAuth flow is the proxy's.

// cimdURL is the client ID metadata document URL that the suite's basic-cimd scenario expects.
const cimdURL = "https://conformance-test.local/client-metadata.json"

// conformanceAuthClient is the host of the suite's auth scenarios; it exits with the outcome.
// With login, it first runs the proxy with -oauth-login, then the proxy on the token stored.
func conformanceAuthClient(args []string, login bool) {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: conformance-auth-client SERVER_URL")
		os.Exit(2)
	}
	// The suite passes a pre-registered client, when the scenario has one, in its context.
	var cc struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if s := os.Getenv("MCP_CONFORMANCE_CONTEXT"); s != "" {
		if err := json.Unmarshal([]byte(s), &cc); err != nil {
			fmt.Fprintln(os.Stderr, "MCP_CONFORMANCE_CONTEXT:", err)
			os.Exit(2)
		}
	}
	dir, err := os.MkdirTemp("", "sampling-proxy-oauth-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	err = authScenario(args[0], dir, cc.ClientID, cc.ClientSecret, login)
	os.RemoveAll(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance-auth-client:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func authScenario(serverURL, dir, clientID, clientSecret string, login bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	oauthFlags := []string{"-oauth-non-interactive", "-oauth-client-metadata-url", cimdURL,
		"-oauth-token-file", filepath.Join(dir, "token.json")}
	if clientID != "" {
		oauthFlags = append(oauthFlags, "-oauth-client-id", clientID)
	}
	flags := append([]string{"-v", "-provider", "anthropic", "-model", "unused", "-kill-after", "2s"}, oauthFlags...)
	env := append(os.Environ(), "SAMPLING_PROXY_TEST_MAIN=1", "ANTHROPIC_API_KEY=unused", clientSecretVar+"="+clientSecret)
	var log syncBuffer
	if login {
		cmd := exec.CommandContext(ctx, os.Args[0], append(oauthFlags, "-oauth-login", "--", serverURL)...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = os.Stderr, io.MultiWriter(os.Stderr, &log)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("-oauth-login: %v", err)
		}
	}
	cmd := exec.Command(os.Args[0], append(flags, "--", serverURL)...)
	cmd.Env = env
	var proxyLog syncBuffer
	cmd.Stderr = io.MultiWriter(os.Stderr, &log, &proxyLog)
	err := hostScenario(ctx, cmd)
	if login && err == nil && strings.Contains(proxyLog.String(), "wants OAuth authorization") {
		err = errors.New("the proxy authorized again after -oauth-login")
	}
	// The suite's tokens are "test-token-<time>" or "cc-token-..."; none may reach the log, nor
	// the client secret.
	if i := strings.Index(log.String(), "-token-"); i >= 0 {
		return fmt.Errorf("the proxy's log shows a token: %q", log.String()[max(0, i-10):min(len(log.String()), i+20)])
	}
	if clientSecret != "" && strings.Contains(log.String(), clientSecret) {
		return errors.New("the proxy's log shows the client secret")
	}
	return err
}

// hostScenario runs the proxy command and, as its MCP host, lists the tools and calls the
// scenario's tool.
func hostScenario(ctx context.Context, cmd *exec.Cmd) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "conformance-auth-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("connecting through the proxy: %w", err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test-tool", Arguments: map[string]any{}}); err != nil {
		return fmt.Errorf("tools/call test-tool: %w", err)
	}
	return nil
}

// conformanceSuite returns the suite's command, installed by backfill/conformance/install.sh,
// with its Node.js first on PATH; the test is skipped when it is not installed, and fails under
// CI=true.
func conformanceSuite(t *testing.T) (string, []string) {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "..", "conformance", "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "conformance")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the conformance suite is not installed (run backfill/conformance/install.sh): %v", err)
		}
		t.Skipf("the conformance suite is not installed (backfill/conformance/install.sh): %v", err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return filepath.Join(bin, "conformance"), env
}

// authSuites are the suite's groups of authorization-code scenarios: the 2025-11-25 ones, the
// 2025-03-26 fallbacks, and the draft's (resource mismatch, offline_access). Its "extensions"
// (client credentials, enterprise-managed authorization) are other grants, which the proxy does
// not do.
var authSuites = []struct {
	name      string
	scenarios int
}{{"auth", 14}, {"backcompat", 2}, {"draft", 3}}

// knownFailures are the scenarios that do not pass yet, and why.
var knownFailures = map[string]string{
	// No protected resource metadata; the authorization server metadata at the root's well-known
	// URL names the issuer http://host/oauth, where go-sdk v1.8.0 wants the issuer to be the
	// authorization base URL it fetched it for (http://host, RFC 8414 section 3.3), and stops.
	"auth/2025-03-26-oauth-metadata-backcompat": "the metadata's issuer is not the authorization base URL",
}

var suiteLine = regexp.MustCompile(`^([✓✗]) (\S+): (\d+) passed, (\d+) failed`)

// TestConformanceAuthLogin runs a few scenarios (dynamic registration of a confidential client, a
// pre-registered client, a public one) with -oauth-login first: the proxy run after it uses the
// token stored, and does not authorize.
func TestConformanceAuthLogin(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suite")
	}
	suite, env := conformanceSuite(t)
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, scenario := range []string{"auth/token-endpoint-auth-basic", "auth/pre-registration", "auth/token-endpoint-auth-none"} {
		cmd := exec.Command(suite, "client", "--scenario", scenario, "--timeout", "90000", "--command", self+" conformance-auth-login-client")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s with -oauth-login: %v\n%s", scenario, err, tail(string(out), 20000))
		}
	}
}

func TestConformanceAuthScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suite")
	}
	suite, env := conformanceSuite(t)
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range authSuites {
		name, want := s.name, s.scenarios
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(suite, "client", "--suite", name, "--timeout", "90000",
				"--command", self+" conformance-auth-client")
			cmd.Env = env
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			passed, total := 0, 0
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				m := suiteLine.FindStringSubmatch(sc.Text())
				if m == nil {
					continue
				}
				total++
				why, known := knownFailures[m[2]]
				switch {
				case m[1] == "✓":
					passed++
					if known {
						t.Errorf("scenario %s passes now: take it out of knownFailures", m[2])
					}
				case known:
					t.Logf("scenario %s fails, as known: %s", m[2], why)
				default:
					t.Errorf("scenario %s: %s", m[2], sc.Text())
				}
			}
			t.Logf("%s: %d/%d scenarios pass", name, passed, total)
			if total != want {
				t.Errorf("the suite ran %d %s scenarios, want %d", total, name, want)
			}
			if t.Failed() {
				t.Errorf("conformance client --suite %s: %v\n%s\n%s", name, err, out, tail(stderr.String(), 20000))
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
