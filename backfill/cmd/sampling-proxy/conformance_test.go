package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// The MCP conformance suite (backfill/conformance: Node.js 22 and
// @modelcontextprotocol/conformance, pinned by its package-lock.json, installed by its
// install.sh) and its reference server (backfill/conformance/server).

// conformance is where the suite and node are installed.
type conformance struct {
	node, suite, serverDir string
}

// conformanceTools finds the installed suite; it skips the test when it is not installed, and
// fails it under CI, which installs it.
func conformanceTools(t *testing.T) conformance {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	c := conformance{
		node:      filepath.Join(dir, "node_modules", "node", "bin", "node"),
		suite:     filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
		serverDir: filepath.Join(dir, "server"),
	}
	for _, f := range []string{c.node, c.suite, filepath.Join(c.serverDir, "node_modules", "tsx", "dist", "cli.mjs")} {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the conformance suite is not installed (run backfill/conformance/install.sh): %v", err)
			}
			t.Skipf("the conformance suite is not installed (backfill/conformance/install.sh): %v", err)
		}
	}
	return c
}

// freePort is a loopback port free a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startProcess starts cmd in a process group of its own, stopped (the whole group) when the test
// ends.
func startProcess(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}

// referenceServer starts the suite's reference server on a free port and returns its MCP URL.
func (c conformance) referenceServer(t *testing.T) string {
	t.Helper()
	port := freePort(t)
	var out syncBuffer
	cmd := exec.Command(c.node, filepath.Join("node_modules", "tsx", "dist", "cli.mjs"), "everything-server.ts")
	cmd.Dir = c.serverDir
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = &out, &out
	started := out.await("MCP endpoint")
	startProcess(t, cmd)
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatalf("the reference server did not start:\n%s", out.String())
	}
	return fmt.Sprintf("http://localhost:%d/mcp", port)
}

// scenarioResult is a scenario's count of checks, from the suite's summary.
type scenarioResult struct {
	passed, failed int
}

var summaryLine = regexp.MustCompile(`^[✓✗] (\S+): (\d+) passed, (\d+) failed`)

// run runs the suite with args and returns each scenario's result, and the suite's output.
func (c conformance) run(t *testing.T, dir string, args ...string) (map[string]scenarioResult, string) {
	return c.runEnv(t, dir, nil, args...)
}

// runEnv is run with more environment variables.
func (c conformance) runEnv(t *testing.T, dir string, env []string, args ...string) (map[string]scenarioResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.node, append([]string{c.suite}, args...)...)
	cmd.Dir = dir
	// The suite's own node first on PATH: the client commands it starts run on it too.
	cmd.Env = append(append(os.Environ(), "PATH="+filepath.Dir(c.node)+string(os.PathListSeparator)+os.Getenv("PATH")), env...)
	out, _ := cmd.CombinedOutput() // it exits non-zero when a scenario fails: read its summary
	results := map[string]scenarioResult{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if m := summaryLine.FindStringSubmatch(sc.Text()); m != nil {
			p, _ := strconv.Atoi(m[2])
			f, _ := strconv.Atoi(m[3])
			results[m[1]] = scenarioResult{p, f}
		}
	}
	return results, string(out)
}

// checks reads the checks the suite saved for a scenario under dir (its -o directory).
func checks(t *testing.T, dir, scenario string) []map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"+scenario+"-*", "checks.json"))
	if len(files) != 1 {
		t.Fatalf("the checks of %s under %s: %v", scenario, dir, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// listeningProxy starts the proxy with -listen on a free loopback port in front of server (a URL
// or a command), its clients' token testClientToken, and returns its MCP URL.
func listeningProxy(t *testing.T, p provider, providerURL string, stderr *syncBuffer, server ...string) string {
	return listeningProxyEnv(t, p, providerURL, nil, stderr, server...)
}

// listeningProxyEnv is listeningProxy with more environment variables.
func listeningProxyEnv(t *testing.T, p provider, providerURL string, env []string, stderr *syncBuffer, server ...string) string {
	t.Helper()
	env = append([]string{clientTokenVar + "=" + testClientToken}, env...)
	endpoint := listenProxy(t, p, providerURL, env, []string{"-retry-backoff", "1ms", "-kill-after", "2s"}, stderr, server...)
	return strings.Replace(endpoint, "127.0.0.1", "localhost", 1)
}

// tokenFront serves a front to endpoint that adds testClientToken to every request (for a client
// that cannot send headers), and returns its URL. It reads a request's body whole before sending
// it on: streamed through (as httputil.ReverseProxy does), some answers of the proxy were cut
// off, the front's own connection to it closed mid-answer. What the proxy answers is passed on as
// it comes, and the request's Host as it was sent (the proxy checks it against DNS rebinding).
func tokenFront(t *testing.T, endpoint string) string {
	t.Helper()
	origin := strings.TrimSuffix(endpoint, "/mcp")
	transport := &http.Transport{DisableKeepAlives: true}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, origin+r.URL.RequestURI(), bytes.NewReader(body))
		out.Header = r.Header.Clone()
		out.Header.Del("Content-Length")
		out.Header.Set("Authorization", "Bearer "+testClientToken)
		out.Host = r.Host
		resp, err := transport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		maps.Copy(w.Header(), resp.Header)
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if _, werr := w.Write(buf[:n]); werr != nil || err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(front.Close)
	return front.URL + "/mcp"
}

// samplingByProvider is the check of the sampling scenario that fails through the proxy by
// design: the proxy answers the server's sampling request with the provider, so the suite's
// client is never asked.
const samplingByProvider = "tools-call-sampling"

// TestConformanceServer runs the suite's 32 server scenarios against the reference server
// directly, and against the proxy's -listen endpoint in front of it: by URL, and as a stdio child
// (a bridge from stdio to the reference server by URL, which forwards every message unchanged). Every scenario that passes
// directly passes through the proxy, but the sampling scenario, whose one check fails by design
// ("did not request sampling from client": the provider answered); the test checks that the
// tool's result is the provider's answer instead.
func TestConformanceServer(t *testing.T) {
	c := conformanceTools(t)
	ref := c.referenceServer(t)
	out := t.TempDir()
	direct, text := c.run(t, out, "server", "--url", ref, "--suite", "all", "-o", out)
	passedDirectly := 0
	for name, r := range direct {
		if r.failed == 0 {
			passedDirectly++
		} else {
			t.Logf("%s fails directly: %s", name, failures(t, out, name))
		}
	}
	t.Logf("directly: %d of %d scenarios pass", passedDirectly, len(direct))
	if len(direct) != 32 {
		t.Fatalf("the suite ran %d scenarios against the reference server, want 32:\n%s", len(direct), text)
	}

	p := providers[0]
	for _, tt := range []struct {
		name   string
		server []string
	}{
		{"by URL", []string{ref}},
		{"stdio child", []string{os.Args[0], "test-stdio-bridge", ref}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr syncBuffer
			fake, providerURL := fakeProvider(t, p, recorded("e2e/anthropic/2_final.json"))
			// The suite sends no headers of its own: a front adds the token.
			endpoint := tokenFront(t, listeningProxy(t, p, providerURL, &stderr, tt.server...))
			dir := t.TempDir()
			through, text := c.run(t, dir, "server", "--url", endpoint, "--suite", "all", "-o", dir)
			passed := 0
			for name, d := range direct {
				r, ok := through[name]
				switch {
				case d.failed > 0:
					continue
				case name == samplingByProvider && ok && r.failed == 1 && r.passed == 0:
					checkSamplingByProvider(t, dir, fake)
					passed++
				case !ok || r.failed > 0 || r.passed != d.passed:
					t.Errorf("%s: %d passed, %d failed through the proxy (directly %d passed): %s", name, r.passed, r.failed, d.passed, failures(t, dir, name))
				default:
					passed++
				}
			}
			t.Logf("through the proxy (%s): %d of the %d scenarios that pass directly pass (%s counted as passing: the provider answered)",
				tt.name, passed, passedDirectly, samplingByProvider)
			if t.Failed() {
				log := stderr.String()
				t.Logf("suite output:\n%s\nproxy log (its end):\n%s", text, log[max(0, len(log)-20000):])
			}
		})
	}
}

// failures are the messages of a scenario's failed checks.
func failures(t *testing.T, dir, scenario string) string {
	var out []string
	for _, c := range checks(t, dir, scenario) {
		if c["status"] == "FAILURE" {
			out = append(out, fmt.Sprintf("%v: %v", c["id"], c["errorMessage"]))
		}
	}
	return strings.Join(out, "; ")
}

// checkSamplingByProvider checks that the sampling scenario's one failure is the suite's client
// not being asked, and that the provider was asked instead. (The tool's result cannot tell: the
// reference server checks the sampling result against a schema that requires a "method" member,
// and answers "Sampling not supported or error" to any result, the client's included.)
func checkSamplingByProvider(t *testing.T, dir string, fake *testkit.Provider) {
	t.Helper()
	all := checks(t, dir, samplingByProvider)
	data, _ := json.Marshal(all)
	if len(all) != 1 || all[0]["status"] != "FAILURE" || !strings.Contains(fmt.Sprint(all[0]["errorMessage"]), "did not request sampling") {
		t.Errorf("%s: want one failure, the client not asked for sampling: %s", samplingByProvider, data)
	}
	asked := 0
	for _, r := range fake.Requests() {
		if strings.Contains(string(r.Body), "Test prompt for sampling") {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("%s: the provider was asked the scenario's prompt %d times, want 1", samplingByProvider, asked)
	}
}

// stdioBridge is a stdio MCP server made of a remote one: it forwards every message between its
// stdin and stdout and the server at url, unchanged (with HTTPConn, which reads the server's GET
// stream too). It answers no sampling request: the proxy in front of it does.
func stdioBridge(url string) {
	conn, err := proxy.NewHTTPConn(context.Background(), url, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() {
		r := bufio.NewReaderSize(os.Stdin, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				conn.Write(context.Background(), bytes.TrimSpace(line))
			}
			if err != nil {
				conn.Close()
				return
			}
		}
	}()
	for {
		msg, err := conn.Read(context.Background())
		if err != nil {
			os.Exit(0)
		}
		os.Stdout.Write(append(msg, '\n'))
	}
}
