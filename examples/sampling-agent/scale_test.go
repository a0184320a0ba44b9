//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this tests it

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	v2026 "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr/redisguard/redistest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The scale test runs the agent as a server of many instances: a redis-server, three instances
// of the binary (-http, -redis, -key-file), a round-robin load balancer in front
// (httputil.ReverseProxy), and go-sdk v1.8.0 clients at their default version (2026-07-28: each
// round of a call is a request of its own, so rounds land on any instance) whose scripted model
// asks for two tools and then answers: 4 requests and 3 sampling rounds per conversation. The
// default is the short form that CI runs; -scale.full runs the floors of the README.
var scaleFull = flag.Bool("scale.full", false, "run the scale test's full form (200 conversations, 32 at a time, and the comparison with one instance)")

// scaleProfile is where TestScaleCost writes the CPU profiles of the instances over each measured
// window (go tool pprof -top DIR/config2-rep0-*.pprof); the binary is built for it (build tag
// scaleprofile).
var scaleProfile = flag.String("scale.profile", "", "write the CPU profile of each instance of TestScaleCost over its measured window to this directory")

// an instance is a running sampling-agent serving Streamable HTTP.
type instance struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{}
	mu     sync.Mutex
	log    bytes.Buffer
}

func startInstance(t *testing.T, args ...string) *instance {
	t.Helper()
	return launchInstance(t, exec.Command(binary, args...))
}

// launchInstance runs cmd, a command of the binary, with -http on a free loopback port.
func launchInstance(t *testing.T, cmd *exec.Cmd) *instance {
	t.Helper()
	cmd.Args = append(cmd.Args, "-http", "127.0.0.1:0")
	in := &instance{cmd: cmd, exited: make(chan struct{})}
	stderr, err := in.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			line := s.Text()
			if a, ok := strings.CutPrefix(line, "sampling-agent: listening on "); ok {
				addr <- a
			}
			in.mu.Lock()
			in.log.WriteString(line + "\n")
			in.mu.Unlock()
		}
		in.cmd.Wait()
		close(in.exited)
	}()
	t.Cleanup(func() { in.stop(t) })
	select {
	case in.addr = <-addr:
	case <-in.exited:
		t.Fatalf("sampling-agent exited: %s", in.logText())
	case <-time.After(20 * time.Second):
		t.Fatalf("sampling-agent did not listen: %s", in.logText())
	}
	return in
}

func (in *instance) logText() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.log.String()
}

// stop stops the instance with SIGTERM (it shuts down gracefully) and returns its CPU time.
func (in *instance) stop(t *testing.T) time.Duration {
	select {
	case <-in.exited:
	default:
		in.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-in.exited:
		case <-time.After(15 * time.Second):
			in.cmd.Process.Kill()
			<-in.exited
			t.Errorf("sampling-agent did not stop on SIGTERM")
		}
	}
	st := in.cmd.ProcessState
	return st.UserTime() + st.SystemTime()
}

// kill kills the instance at once (SIGKILL), as a crash does.
func (in *instance) kill() {
	in.cmd.Process.Kill()
	<-in.exited
}

// A balancer is a round-robin load balancer: each request goes to the next instance, and one
// that gets no response (the instance is down) is sent to the next (the replay guard makes
// sending a round again safe: at worst it is refused as replayed). It records which instance
// served each round of each conversation.
type balancer struct {
	backends  []*instance
	transport http.RoundTripper
	next      atomic.Uint64
	failovers atomic.Int64

	mu     sync.Mutex
	served map[string][]int // conversation (its prompt) → the instance of each tools/call
	counts []int            // tools/call requests per instance
}

func newBalancer(t *testing.T, backends []*instance) (*balancer, *httptest.Server) {
	b := &balancer{backends: backends, served: map[string][]int{}, counts: make([]int, len(backends)),
		transport: &http.Transport{MaxIdleConnsPerHost: 128, IdleConnTimeout: time.Minute}}
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "instance" },
		Transport: b,
		ErrorLog:  log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			t.Logf("balancer: %v", err)
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	lb := httptest.NewServer(proxy)
	t.Cleanup(lb.Close)
	return b, lb
}

func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var lastErr error
	first := int(b.next.Add(1) - 1)
	for attempt := range b.backends {
		i := (first + attempt) % len(b.backends)
		out := req.Clone(req.Context())
		out.URL.Host = b.backends[i].addr
		out.Host = out.URL.Host
		out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		res, err := b.transport.RoundTrip(out)
		if err != nil {
			lastErr = err
			b.failovers.Add(1)
			continue
		}
		if prompt := callPrompt(body); prompt != "" {
			b.mu.Lock()
			b.served[prompt] = append(b.served[prompt], i)
			b.counts[i]++
			b.mu.Unlock()
		}
		return res, nil
	}
	return nil, lastErr
}

// callPrompt returns the prompt of a tools/call request, "" for another message.
func callPrompt(body []byte) string {
	var msg struct {
		Method string
		Params struct{ Arguments struct{ Prompt string } }
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
		return ""
	}
	return msg.Params.Arguments.Prompt
}

// scriptedModel answers the agent's sampling requests: get_weather of the conversation's city,
// then add of two numbers, then a text with both results.
func scriptedModel(params *sdk.CreateMessageWithToolsParams) (*sdk.CreateMessageWithToolsResult, error) {
	data, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	var p mcp.CreateMessageRequestParams
	if err := mcp.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("the sampling request is invalid: %w", err)
	}
	prompt := p.Messages[0].Content.List[0].(*mcp.TextContent).Text
	var n int
	if _, err := fmt.Sscanf(prompt, "conversation %d", &n); err != nil {
		return nil, fmt.Errorf("prompt %q", prompt)
	}
	var results []string
	for _, m := range p.Messages {
		for _, c := range m.Content.List {
			if r, ok := c.(*mcp.ToolResultContent); ok {
				results = append(results, r.Content[0].(*mcp.TextContent).Text)
			}
		}
	}
	var reply string
	switch len(results) {
	case 0:
		reply = answer("toolUse", use(fmt.Sprintf("w%d", n), "get_weather", fmt.Sprintf(`{"city":"City %d"}`, n)))(context.Background(), nil)
	case 1:
		reply = answer("toolUse", use(fmt.Sprintf("a%d", n), "add", fmt.Sprintf(`{"numbers":[%d,0.5]}`, n)))(context.Background(), nil)
	default:
		reply = answer("endTurn", text(strings.Join(results, " | ")))(context.Background(), nil)
	}
	var res sdk.CreateMessageWithToolsResult
	if err := json.Unmarshal([]byte(reply), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// wantAnswer is the agent's final text for conversation n.
func wantAnswer(n int) string {
	w, _ := Weather(fmt.Sprintf("City %d", n))
	return fmt.Sprintf("%s | %g", w, float64(n)+0.5)
}

// A load is a run of conversations through a load balancer, and what it measured.
type load struct {
	endpoint string
	// during is called with the number of conversations complete, after each one (to kill an
	// instance, restart Redis, ...).
	during func(done int)

	mu        sync.Mutex
	rounds    []time.Duration             // the latency of each round answered
	retried   int                         // rounds sent again (guardUnavailable, or no response)
	restarted map[string]int              // conversations started over (their state refused as replayed), by the failure of the round before
	used      []*sdk.CallToolParams       // retries whose state the server used, for the replays
	errs      []error                     // conversations that failed
	completed map[int]bool                // conversations complete with the right answer
	reasons   map[string]int              // the reasons of the refusals the clients saw
	sessions  map[*sdk.ClientSession]bool // for the protocol version
}

// run runs conversations 0..n-1, concurrency at a time, each worker with its own go-sdk client.
func (l *load) run(t *testing.T, ctx context.Context, n, concurrency int, transport http.RoundTripper) time.Duration {
	l.completed, l.reasons, l.sessions, l.restarted = map[int]bool{}, map[string]int{}, map[*sdk.ClientSession]bool{}, map[string]int{}
	next := atomic.Int64{}
	done := atomic.Int64{}
	start := time.Now()
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			client := sdk.NewClient(&sdk.Implementation{Name: "scale-test", Version: "0"}, &sdk.ClientOptions{
				CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
					return scriptedModel(req.Params)
				},
				// The rounds are driven here, one request at a time, to time them and to send a
				// round again when it fails (go-sdk's middleware would fail the call).
				MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
			})
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: l.endpoint, HTTPClient: &http.Client{Transport: transport}}, nil)
			if err != nil {
				l.fail(fmt.Errorf("connect: %w", err))
				return
			}
			defer cs.Close()
			l.mu.Lock()
			l.sessions[cs] = true
			l.mu.Unlock()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := l.converse(ctx, cs, i); err != nil {
					l.fail(fmt.Errorf("conversation %d: %w", i, err))
				}
				if l.during != nil {
					l.during(int(done.Add(1)))
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

func (l *load) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

// converse runs conversation n to its end: it sends a round again when the server could not
// answer it (no response, or the guard unavailable), and starts over when its state is refused
// as replayed (a round whose response was lost after the state was used).
func (l *load) converse(ctx context.Context, cs *sdk.ClientSession, n int) error {
	args := map[string]any{"prompt": fmt.Sprintf("conversation %d: the weather and a sum", n)}
	first := &sdk.CallToolParams{Name: "agent", Arguments: args}
	p := first
	failed := "" // why the round before failed
	for attempt := 0; attempt < 200; attempt++ {
		start := time.Now()
		res, err := cs.CallTool(ctx, p)
		took := time.Since(start)
		if err != nil {
			var restart bool
			if failed, restart, err = l.failure(err, failed); err != nil {
				return err
			}
			if restart {
				p = first
			}
			continue
		}
		failed = ""
		l.mu.Lock()
		l.rounds = append(l.rounds, took)
		if p.RequestState != "" {
			l.used = append(l.used, p)
		}
		l.mu.Unlock()
		if !res.NeedsInput() {
			return l.finish(res, n)
		}
		responses, err := answerInputs(res)
		if err != nil {
			return err
		}
		p = &sdk.CallToolParams{Name: "agent", Arguments: args, InputResponses: responses, RequestState: res.RequestState}
	}
	return errors.New("no end after 200 requests")
}

// failure records err, the failure of a round, whose round before failed for the reason failed
// ("" if it did not), and says what comes next: the same round again after a pause (the server
// could not answer it; why is the reason), the conversation from its start (restart: its state
// was refused as replayed), or the end of the conversation (err returned).
func (l *load) failure(err error, failed string) (why string, restart bool, _ error) {
	var rpc *jsonrpc.Error
	reason := "no response"
	// go-sdk's client reports a request that got no response (the balancer's 502) as
	// an error of code -32005, "rejected by transport".
	if errors.As(err, &rpc) && rpc.Code != -32005 {
		var data struct{ Reason string }
		json.Unmarshal(rpc.Data, &data)
		reason = data.Reason
	}
	l.mu.Lock()
	l.reasons[reason]++
	l.mu.Unlock()
	switch reason {
	case "guardUnavailable", "no response":
		l.mu.Lock()
		l.retried++
		l.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		return reason, false, nil
	case "replayed":
		if failed == "" {
			failed = "a response lost on the way (the balancer sent the round again)"
		}
		l.mu.Lock()
		l.restarted["after "+failed]++
		l.mu.Unlock()
		return "", true, nil
	}
	return failed, false, err
}

// finish checks res, the last result of conversation n, for the conversation's answer, and
// records the conversation complete when it is.
func (l *load) finish(res *sdk.CallToolResult, n int) error {
	got := ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			got = tc.Text
		}
	}
	if res.IsError || got != wantAnswer(n) {
		return fmt.Errorf("the answer %q (isError %v), want %q", got, res.IsError, wantAnswer(n))
	}
	l.mu.Lock()
	l.completed[n] = true
	l.mu.Unlock()
	return nil
}

// answerInputs answers the sampling requests of res, a round that needs input, with the
// scripted model.
func answerInputs(res *sdk.CallToolResult) (sdk.InputResponseMap, error) {
	responses := sdk.InputResponseMap{}
	for key, r := range res.InputRequests {
		params, ok := r.(*sdk.CreateMessageWithToolsParams)
		if !ok {
			return nil, fmt.Errorf("input request %s is a %T", key, r)
		}
		out, err := scriptedModel(params)
		if err != nil {
			return nil, err
		}
		responses[key] = out
	}
	return responses, nil
}

func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func keyFile(t *testing.T) string {
	var lines []string
	for range 2 {
		k := make([]byte, 32)
		rand.Read(k)
		lines = append(lines, hex.EncodeToString(k))
	}
	path := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScale: the agent as three instances behind round robin with one Redis. Every conversation
// completes with its rounds spread over the instances, while the instances' clocks differ by up
// to 40 s (within the guard's grace of a minute), one instance is killed in the middle of the run
// and Redis is restarted (its data kept: appendonly); then every state used is presented again,
// each to the next instance, and every one is refused as replayed.
func TestScale(t *testing.T) {
	conversations, concurrency := 24, 8
	if *scaleFull {
		conversations, concurrency = 200, 32
	}
	redis := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	keys := keyFile(t)
	var instances []*instance
	for _, offset := range []string{"-20s", "0s", "20s"} {
		instances = append(instances, startInstance(t, "-redis", redis.URL(), "-key-file", keys, "-clock-offset", offset))
	}
	b, lb := newBalancer(t, instances)
	ctx := t.Context()

	during, redisBack := scaleFaults(t, conversations, instances, redis)
	l := &load{endpoint: lb.URL, during: during}
	elapsed := l.run(t, ctx, conversations, concurrency, http.DefaultTransport)
	redisBack()

	for _, err := range l.errs {
		t.Error(err)
	}
	for cs := range l.sessions {
		if v := cs.InitializeResult().ProtocolVersion; v != v2026.LatestProtocolVersion {
			t.Errorf("a client session negotiated %s, want %s", v, v2026.LatestProtocolVersion)
		}
	}
	if len(l.completed) != conversations {
		t.Errorf("%d conversations of %d complete", len(l.completed), conversations)
	}
	checkSpread(t, b, l, conversations, elapsed)
	if l.reasons["guardUnavailable"] == 0 {
		t.Error("no round met Redis stopped: the restart was not in the middle of the run")
	}
	checkReplays(t, lb.URL, l, conversations)
}

// scaleFaults are the faults of TestScale, as the load's during: instance 2 killed after a third
// of the conversations, and Redis stopped after half of them and restarted a second later.
// redisBack returns once Redis is back (at once when the run ended before it was stopped).
func scaleFaults(t *testing.T, conversations int, instances []*instance, redis *redistest.Server) (during func(done int), redisBack func()) {
	var killOnce, redisOnce sync.Once
	back := make(chan struct{})
	during = func(done int) {
		if done >= conversations/3 {
			killOnce.Do(func() {
				instances[2].kill()
				t.Logf("after %d conversations: instance 2 killed", done)
			})
		}
		if done >= conversations/2 {
			redisOnce.Do(func() {
				redis.Stop()
				t.Logf("after %d conversations: Redis stopped", done)
				go func() {
					time.Sleep(time.Second)
					redis.Restart()
					close(back)
				}()
			})
		}
	}
	redisBack = func() {
		redisOnce.Do(func() { close(back) }) // the run ended before Redis was stopped
		<-back
	}
	return during, redisBack
}

// checkSpread checks that the rounds of l, a run of conversations through b that took elapsed,
// are spread: every instance served rounds, and rounds went on on an instance other than the one
// that issued their state. It logs what the run measured and the faults it met.
func checkSpread(t *testing.T, b *balancer, l *load, conversations int, elapsed time.Duration) {
	crossed, moved := 0, 0
	b.mu.Lock()
	for _, served := range b.served {
		if slices.ContainsFunc(served, func(i int) bool { return i != served[0] }) {
			crossed++
		}
		for i := 1; i < len(served); i++ {
			if served[i] != served[i-1] {
				moved++
			}
		}
	}
	counts := slices.Clone(b.counts)
	b.mu.Unlock()
	for i, c := range counts {
		if c == 0 {
			t.Errorf("instance %d served no round", i)
		}
	}
	if crossed < conversations/2 {
		t.Errorf("%d conversations of %d had rounds on more than one instance", crossed, conversations)
	}
	t.Logf("%d conversations in %v, %d rounds (p50 %v, p99 %v); rounds per instance %v; %d conversations on more than one instance, %d rounds on another instance than the one before",
		len(l.completed), elapsed.Round(time.Millisecond), len(l.rounds), percentile(l.rounds, 0.5), percentile(l.rounds, 0.99), counts, crossed, moved)
	t.Logf("the faults: %d rounds sent again (refusals and failures seen: %v), %d requests failed over by the balancer, conversations started over: %v",
		l.retried, l.reasons, b.failovers.Load(), l.restarted)
}

// checkReplays presents each state l used again (with its answer) through the balancer at
// endpoint, so to each instance in turn, and checks that every one is refused as replayed.
func checkReplays(t *testing.T, endpoint string, l *load, conversations int) {
	ctx := t.Context()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "replayer", Version: "0"}, &sdk.ClientOptions{MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}}).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tried, accepted := 0, 0
	for _, p := range l.used[:min(len(l.used), conversations)] {
		tried++
		_, err := cs.CallTool(ctx, p)
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != v2026.CodeInvalidParams || !strings.Contains(string(rpc.Data), `"replayed"`) {
			accepted++
			t.Errorf("a replay was answered with %v", err)
		}
	}
	t.Logf("%d replays tried, %d accepted", tried, accepted)
	if tried < conversations {
		t.Errorf("only %d states to replay", tried)
	}
}

// TestScaleGoSDKLoop: go-sdk's own multi round-trip loop (its client middleware, which answers
// inputRequests and calls again by itself) completes conversations through the balancer.
func TestScaleGoSDKLoop(t *testing.T) {
	redis := redistest.Start(t)
	keys := keyFile(t)
	var instances []*instance
	for range 3 {
		instances = append(instances, startInstance(t, "-redis", redis.URL(), "-key-file", keys))
	}
	b, lb := newBalancer(t, instances)
	client := sdk.NewClient(&sdk.Implementation{Name: "scale-test", Version: "0"}, &sdk.ClientOptions{
		CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			return scriptedModel(req.Params)
		},
	})
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: lb.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for n := range 6 {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": fmt.Sprintf("conversation %d", n)}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*sdk.TextContent).Text; res.IsError || got != wantAnswer(n) {
			t.Errorf("conversation %d: %q", n, got)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if slices.Contains(b.counts, 0) || len(b.served) != 6 {
		t.Errorf("rounds per instance %v, conversations %d", b.counts, len(b.served))
	}
}

// TestStatelessOlderClient: a stateless instance cannot send sampling/createMessage to a client of
// 2025-11-25: the call is an error result that says so or, with -fallback, the provider's answer.
func TestStatelessOlderClient(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		t.Run(fmt.Sprintf("fallback=%v", fallback), func(t *testing.T) {
			api := &anthropicAPI{replies: []string{toolUseReply, answerReply}}
			cmd := exec.Command(binary)
			if fallback {
				cmd = withFallback(t, api)
			}
			in := launchInstance(t, cmd)
			sampled := atomic.Int64{}
			client := sdk.NewClient(&sdk.Implementation{Name: "old", Version: "0"}, &sdk.ClientOptions{
				CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
					sampled.Add(1)
					return scriptedModel(req.Params)
				},
			})
			cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: "http://" + in.addr}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "Weather in Paris?"}})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Content[0].(*sdk.TextContent).Text
			switch {
			case fallback:
				if want := "It is 18°C and partly cloudy in Paris."; got != want || res.IsError || api.count() != 2 {
					t.Errorf("result %q (isError %v), want %q; the provider got %d requests", got, res.IsError, want, api.count())
				}
			case !res.IsError || !strings.Contains(got, "cannot send sampling/createMessage to a client of protocol 2025-11-25"):
				t.Errorf("result %q (isError %v)", got, res.IsError)
			}
			if sampled.Load() != 0 {
				t.Errorf("the client was asked to sample %d times", sampled.Load())
			}
		})
	}
}

// measured is what a run of the load measured.
type measured struct {
	conversations int
	elapsed       time.Duration
	cpu           time.Duration   // of the instances
	rounds        []time.Duration // the latency of each round
}

// add adds the measures of another run to m.
func (m *measured) add(o measured) {
	m.conversations += o.conversations
	m.elapsed += o.elapsed
	m.cpu += o.cpu
	m.rounds = append(m.rounds, o.rounds...)
}

func (m measured) perCPUSecond() float64 { return float64(m.conversations) / m.cpu.Seconds() }

func (m measured) String() string {
	return fmt.Sprintf("%d conversations in %v: %.1f conversations/s, %.1f conversations per CPU-second of the instances (%v of CPU), per round p50 %v p99 %v",
		m.conversations, m.elapsed.Round(time.Millisecond), float64(m.conversations)/m.elapsed.Seconds(),
		m.perCPUSecond(), m.cpu.Round(time.Millisecond), percentile(m.rounds, 0.5).Round(10*time.Microsecond), percentile(m.rounds, 0.99).Round(10*time.Microsecond))
}

// A costConfig is a configuration of TestScaleCost: count instances started with args, each with
// GOMAXPROCS procs (0: the runtime's default, all the cores).
type costConfig struct {
	name  string
	count int
	procs int
	args  []string
}

// measure runs n conversations, concurrency at a time, on the instances of c behind the balancer,
// and reads the CPU time the instances spent on them (after a warm-up at the same concurrency, so
// that neither the start of the processes nor what they do once count). With -scale.profile it
// writes the CPU profile of each instance over the measured window to the directory, named by
// label.
func measure(t *testing.T, c costConfig, n, concurrency int, label string) measured {
	var instances []*instance
	for i := range c.count {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = os.Environ()
		if c.procs > 0 {
			cmd.Env = append(cmd.Env, fmt.Sprintf("GOMAXPROCS=%d", c.procs))
		}
		if *scaleProfile != "" {
			path := filepath.Join(*scaleProfile, fmt.Sprintf("%s-%d.pprof", label, i))
			// A profile of an earlier run would be taken for this one's.
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			cmd.Env = append(cmd.Env, "SAMPLING_AGENT_PROFILE="+path)
		}
		instances = append(instances, launchInstance(t, cmd))
	}
	_, lb := newBalancer(t, instances)
	// The warm-up runs the measured load's concurrency, so that each instance is in its steady
	// state when the measure begins (its heap and goroutine stacks grown, the balancer's
	// connections to it and its own to Redis open): what a process pays once is not counted, in
	// one instance or in three.
	warm := &load{endpoint: lb.URL}
	warm.run(t, t.Context(), concurrency+3*c.count, concurrency, http.DefaultTransport)
	cpu := func() (total time.Duration) {
		for _, in := range instances {
			total += cpuTime(t, in.cmd.Process.Pid)
		}
		return total
	}
	signalAll := func(sig syscall.Signal) {
		if *scaleProfile != "" {
			for _, in := range instances {
				in.cmd.Process.Signal(sig)
			}
		}
	}
	signalAll(syscall.SIGUSR1) // profile from here
	before := cpu()
	l := &load{endpoint: lb.URL}
	elapsed := l.run(t, t.Context(), n, concurrency, http.DefaultTransport)
	used := cpu() - before
	signalAll(syscall.SIGUSR2) // to here
	for _, err := range append(warm.errs, l.errs...) {
		t.Error(err)
	}
	if len(l.completed) != n {
		t.Errorf("%d conversations of %d complete", len(l.completed), n)
	}
	if *scaleProfile != "" {
		for i := range instances {
			path := filepath.Join(*scaleProfile, fmt.Sprintf("%s-%d.pprof", label, i))
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(path); err == nil {
					break
				} else if time.Now().After(deadline) {
					t.Errorf("no profile: %v", err)
					break
				}
			}
		}
	}
	for _, in := range instances {
		in.stop(t)
	}
	return measured{conversations: len(l.completed), elapsed: elapsed, cpu: used, rounds: l.rounds}
}

// cpuTime returns the CPU time (user and system) of a running process, from /proc/<pid>/stat, in
// clock ticks of 10 ms (USER_HZ, 100 on Linux). It skips the test where there is no /proc.
func cpuTime(t *testing.T, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no CPU time of the instances: %v", err)
	}
	// The fields after the command's name (in parentheses, which may hold spaces): state is
	// field 3, utime 14 and stime 15.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	var utime, stime int64
	fmt.Sscan(fields[11], &utime)
	fmt.Sscan(fields[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// TestScaleCost compares the work per conversation of three instances with the Redis guard
// behind round robin with that of one instance with the in-memory guard (MemoryGuard), the same
// load on each: the conversations per CPU-second of the instances (on one machine the instances
// share its cores, so their wall time says little) must be within 25%. One instance with the
// Redis guard runs the load too, to tell the guard's cost from that of more processes.
//
// The instances share the machine's cores as instances on one machine are deployed: each is
// given its share of them (GOMAXPROCS of the cores divided by the instances, at least 1), as a
// CPU quota would (Go sizes GOMAXPROCS by the quota). The full form also runs three instances that
// each believe they have all the cores, for the record: three times as many Ps as cores, whose
// idle Ps cost the runtime's wake-ups (threads woken to look for work, and put to sleep again) in
// each process.
//
// The configurations alternate, three times each, and the ratios are those of the totals, as the
// machine's other work varies. The short form only checks that they run, once; -scale.full
// measures (200 conversations, 32 at a time) and asserts.
func TestScaleCost(t *testing.T) {
	n, concurrency, reps := 16, 8, 1
	if *scaleFull {
		n, concurrency, reps = 200, 32, 3
	}
	if *scaleProfile != "" {
		if !profiling {
			t.Fatal("-scale.profile needs the binary built with it (TestMain does)")
		}
		if err := os.MkdirAll(*scaleProfile, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	keys := keyFile(t)
	redis := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "everysec")
	cores := runtime.GOMAXPROCS(0)
	configs := []costConfig{
		{"one instance, MemoryGuard:                  ", 1, cores, []string{"-key-file", keys}},
		{"one instance, Redis guard:                  ", 1, cores, []string{"-key-file", keys, "-redis", redis.URL()}},
		{"three instances, Redis guard, balanced:     ", 3, max(1, cores/3), []string{"-key-file", keys, "-redis", redis.URL()}},
	}
	if *scaleFull {
		configs = append(configs, costConfig{"three instances, each with all the cores:   ", 3, 0, []string{"-key-file", keys, "-redis", redis.URL()}})
	}
	t.Logf("%d cores; GOMAXPROCS of each instance: %d for one, %d for three", cores, cores, max(1, cores/3))
	totals := make([]measured, len(configs))
	for rep := range reps {
		for i, c := range configs {
			m := measure(t, c, n, concurrency, fmt.Sprintf("config%d-rep%d", i, rep))
			t.Logf("%s%v", c.name, m)
			totals[i].add(m)
		}
	}
	t.Logf("in all:")
	for i, c := range configs {
		t.Logf("%s%v", c.name, totals[i])
	}
	guard := totals[1].perCPUSecond() / totals[0].perCPUSecond()
	ratio := totals[2].perCPUSecond() / totals[0].perCPUSecond()
	t.Logf("conversations per CPU-second, relative to one instance with MemoryGuard: one with Redis %.2f, three with Redis %.2f", guard, ratio)
	if len(totals) > 3 {
		t.Logf("three with Redis, each with all the cores: %.2f", totals[3].perCPUSecond()/totals[0].perCPUSecond())
	}
	if *scaleFull && ratio < 0.75 {
		t.Errorf("three instances with the Redis guard do %.0f%% of the work per CPU-second of one with MemoryGuard, less than 75%%", 100*ratio)
	}
}

// TestKeyRotation rotates the key of a running instance (the key file rewritten, then SIGHUP) in
// the middle of a conversation: add the new key, promote it (the conversation's state under the
// old key is still accepted), retire the old one (its state is refused as such, the new key's
// goes on).
func TestKeyRotation(t *testing.T) {
	old, next := hexKey(), hexKey()
	r := startRotation(t, old)
	_, first, err := r.round(nil) // its state is the old key's
	if err != nil {
		t.Fatal(err)
	}
	r.reload(old, next) // add
	r.reload(next, old) // promote
	underOld, second, err := r.round(first)
	if err != nil {
		t.Fatalf("the old key's state after the promotion: %v", err)
	}
	r.reload(next, "retired "+old) // retire
	if _, err := r.cs.CallTool(t.Context(), underOld); !strings.Contains(fmt.Sprint(err), "retired") {
		t.Errorf("the retired key's state: %v", err)
	} else {
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != v2026.CodeInvalidParams || !strings.Contains(string(rpc.Data), `"retiredKey"`) {
			t.Errorf("the retired key's state: %v", err)
		}
	}
	_, third, err := r.round(second) // the new key's state goes on
	if err != nil || !third.NeedsInput() {
		t.Fatalf("the new key's state after the retirement: %v", err)
	}
	if _, last, err := r.round(third); err != nil || last.IsError || last.Content[0].(*sdk.TextContent).Text != wantAnswer(7) {
		t.Fatalf("the end: %v %+v", err, last)
	}
	// A key file that does not read leaves the ring as it was.
	r.write("not a key")
	r.in.cmd.Process.Signal(syscall.SIGHUP)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(r.in.logText(), "the key ring is unchanged"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a bad key file was not refused: %s", r.in.logText())
		}
	}
	if _, res, err := r.round(nil); err != nil || !res.NeedsInput() {
		t.Errorf("after a bad key file: %v", err)
	}
}

// hexKey is a new random key of 32 bytes, in hex as a key file holds it.
func hexKey() string {
	k := make([]byte, 32)
	rand.Read(k)
	return hex.EncodeToString(k)
}

// A rotation is the setting of TestKeyRotation: an instance, its key file, the reloads of it so
// far, and a go-sdk client connected to it whose rounds the test drives.
type rotation struct {
	t       *testing.T
	path    string
	in      *instance
	reloads int
	cs      *sdk.ClientSession
}

// startRotation writes a key file of the key old, starts an instance on it and connects a client.
func startRotation(t *testing.T, old string) *rotation {
	r := &rotation{t: t, path: filepath.Join(t.TempDir(), "keys")}
	r.write(old)
	r.in = startInstance(t, "-key-file", r.path)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "rotation", Version: "0"}, &sdk.ClientOptions{
		CreateMessageWithToolsHandler: func(_ context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
			return scriptedModel(req.Params) // declares sampling with tools; the rounds are driven below
		},
		MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
	}).Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: "http://" + r.in.addr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	r.cs = cs
	return r
}

// write writes the key file, a key (or "retired " and a key) a line.
func (r *rotation) write(lines ...string) {
	r.t.Helper()
	if err := os.WriteFile(r.path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		r.t.Fatal(err)
	}
}

// reload writes the key file and has the instance reload it (SIGHUP), waiting until it has.
func (r *rotation) reload(lines ...string) {
	r.t.Helper()
	r.write(lines...)
	r.in.cmd.Process.Signal(syscall.SIGHUP)
	r.reloads++
	for deadline := time.Now().Add(10 * time.Second); strings.Count(r.in.logText(), "key ring is reloaded") < r.reloads; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.t.Fatalf("no reload: %s", r.in.logText())
		}
	}
}

// round sends a round of conversation 7: its first with prev nil, else the one after prev,
// with the scripted model's answer to prev's one input request.
func (r *rotation) round(prev *sdk.CallToolResult) (*sdk.CallToolParams, *sdk.CallToolResult, error) {
	p := &sdk.CallToolParams{Name: "agent", Arguments: map[string]any{"prompt": "conversation 7"}}
	if prev != nil {
		if len(prev.InputRequests) != 1 {
			r.t.Fatalf("the round before asks %d inputs: %+v", len(prev.InputRequests), prev)
		}
		key := slices.Collect(maps.Keys(prev.InputRequests))[0]
		res, err := scriptedModel(prev.InputRequests[key].(*sdk.CreateMessageWithToolsParams))
		if err != nil {
			r.t.Fatal(err)
		}
		p.InputResponses, p.RequestState = sdk.InputResponseMap{key: res}, prev.RequestState
	}
	res, err := r.cs.CallTool(r.t.Context(), p)
	return p, res, err
}

// TestServeFlagErrors: a key file or a Redis URL that will not do stops the server at once, with
// an error that says why (and shows no key).
func TestServeFlagErrors(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("00112233\n"), 0o600)
	// A key that others can read lets them seal states that every instance accepts.
	readable := filepath.Join(dir, "readable")
	os.WriteFile(readable, []byte(strings.Repeat("00112233", 8)+"\n"), 0o644)
	os.Chmod(readable, 0o644)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"no key file":                {[]string{"-key-file", filepath.Join(dir, "missing")}, "no such file"},
		"a short key":                {[]string{"-key-file", short}, "fewer than 32"},
		"a key file others may read": {[]string{"-key-file", readable}, "may be read by others (mode 0644): chmod 600 " + readable},
		"not Redis URL":              {[]string{"-redis", "http://localhost"}, "-redis"},
	} {
		// A server that accepts what it should refuse serves until the deadline.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, binary, append([]string{"-http", "127.0.0.1:0"}, tc.args...)...).CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "00112233") {
			t.Errorf("%s: %v %s", name, err, out)
		}
	}
}

// TestVolatileRedisWarning: an instance warns when its Redis reports appendonly no (a restart of
// Redis would forget the states used, which could then be replayed), and not when Redis keeps
// them (appendonly yes).
func TestVolatileRedisWarning(t *testing.T) {
	keys := keyFile(t)
	for _, appendonly := range []string{"no", "yes"} {
		redis := redistest.Start(t, "--appendonly", appendonly)
		in := startInstance(t, "-redis", redis.URL(), "-key-file", keys)
		warned := strings.Contains(in.logText(), "warning: Redis reports appendonly no")
		if warned != (appendonly == "no") {
			t.Errorf("appendonly %s: warned %v:\n%s", appendonly, warned, in.logText())
		}
		in.stop(t)
	}
}
