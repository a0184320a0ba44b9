// Command sampling-proxy puts an MCP server behind a proxy that answers the server's sampling
// requests with a model provider's API, for MCP clients that do not implement sampling:
//
//	sampling-proxy -provider anthropic|openai -model NAME [flags] -- SERVER_COMMAND [ARGS...]
//	sampling-proxy -provider anthropic|openai -model NAME [flags] -- https://host/mcp
//
// The proxy serves an MCP client on its own stdin and stdout. It starts a local server as its
// child over stdio, or speaks Streamable HTTP to a remote one (headers for its auth from
// SAMPLING_PROXY_HEADERS or -header-file; -header too, which other users can read in the process
// list), or OAuth (see oauth.go). Spending is bounded by default: a token budget of 1,000,000 tokens for the run, and caps
// on maxTokens, on concurrent calls and on the samples of a round and of a client request. It
// forwards every message between them, answering the server's
// sampling requests itself, through the provider, in both flows: the server's
// sampling/createMessage requests (2025-11-25), and the sampling input requests of its
// input_required results (2026-07-28); see package github.com/mcpgen/mcpgen/backfill/proxy.
//
// The provider's key comes from ANTHROPIC_API_KEY or OPENAI_API_KEY, and its address from
// ANTHROPIC_BASE_URL or OPENAI_BASE_URL when set. A local server is started without the
// providers' variables (every ANTHROPIC_* and OPENAI_* one) and without SAMPLING_PROXY_HEADERS,
// in its own process group, and (on Linux) dies with the proxy, which it cannot inspect (the proxy
// is not dumpable, so its environment is not readable in /proc). Its stderr is logged by the proxy
// line by line, as records of their own (src=server), so that it cannot pass for the proxy's.
// The proxy's log (stderr) redacts the key, header values and passwords of URLs.
//
// The proxy exits when the server exits, with the server's exit status. When the client closes
// its input, or on SIGINT or SIGTERM, it closes the server's input at once, and stops the server
// if it has not exited after -kill-after (SIGTERM to its process group, then SIGKILL).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

const usage = `usage: sampling-proxy -provider anthropic|openai -model NAME [flags] -- SERVER_COMMAND [ARGS...]
       sampling-proxy -provider anthropic|openai -model NAME [flags] -- https://host/mcp
       sampling-proxy -oauth-login [-oauth-* flags] -- https://host/mcp

Serves an MCP client on stdin and stdout in front of the MCP server SERVER_COMMAND (started on
stdio) or a remote server (Streamable HTTP), answering the server's sampling requests with the
provider's API. The key is read from ANTHROPIC_API_KEY or OPENAI_API_KEY, the address from
ANTHROPIC_BASE_URL or OPENAI_BASE_URL; headers for a remote server from SAMPLING_PROXY_HEADERS
or -header-file (one "Name: value" a line), or -header (visible to every user in the process list).

Spending is bounded by default: -token-budget 1000000 tokens in the run (0: none), -max-tokens
16384 a request, -max-concurrent 4 calls at once, -max-round-samples 4 a round and
-max-request-samples 20 for one client request.

With -listen 127.0.0.1:PORT it serves MCP clients over Streamable HTTP at
http://127.0.0.1:PORT/mcp instead, each client session with a session (or a process) of its own
with the server; the limits are the proxy's, shared by all sessions. Clients must send
"Authorization: Bearer TOKEN": the token of SAMPLING_PROXY_CLIENT_TOKEN, or of -client-token-file
(made at the first start, mode 0600, under the user's config directory; the log names it).

A remote server that asks for OAuth is authorized (the URL printed for a person; -oauth-login
does it alone, in a terminal), and its token kept in a file of mode 0600 under the user's config
directory.

flags:
`

// headersVar holds headers for a remote server, one "Name: value" a line.
const headersVar = "SAMPLING_PROXY_HEADERS"

// headerFlags collects -header values.
type headerFlags []string

func (h *headerFlags) String() string     { return fmt.Sprintf("%d headers", len(*h)) }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

// parseHeaders reads "Name: value" lines. Its errors do not show the lines, which may be secret.
func parseHeaders(lines []string) (http.Header, error) {
	h := http.Header{}
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		name, value, ok := strings.Cut(l, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			return nil, fmt.Errorf("header %d (%s first, then -header): want \"Name: value\"", n, headersVar)
		}
		h.Add(name, value)
	}
	return h, nil
}

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout io.Writer, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("sampling-proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	provider := fs.String("provider", "", "the model provider: anthropic or openai")
	model := fs.String("model", "", "the provider's model to sample with when no model hint matches -model-map, e.g. claude-sonnet-4-5 or gpt-4.1")
	modelMap := fs.String("model-map", "", "model hints to provider models, first match wins: 'sonnet=claude-sonnet-4-5,haiku=claude-haiku-4-5' (a hint matches a name or model it is a substring of, as the spec says: a server can pick any route with a short hint; see -route-budget)")
	maxAttempts := fs.Int("max-attempts", 4, "provider calls per sampling request, retries included")
	backoff := fs.Duration("retry-backoff", 500*time.Millisecond, "first wait before a retry when the provider names none; doubles with each retry")
	maxRetryAfter := fs.Duration("max-retry-after", time.Minute, "longest Retry-After to wait for; a provider asking for more fails the request")
	attemptTimeout := fs.Duration("attempt-timeout", 10*time.Minute, "time limit of one provider call")
	maxTokens := fs.Int64("max-tokens", 16384, "cap on every request's maxTokens (0: none)")
	tokenBudget := fs.Int64("token-budget", defaultTokenBudget, "tokens (input and output, from the provider's usage) the proxy may spend in its run; 0: no budget")
	maxConcurrent := fs.Int("max-concurrent", 4, "provider calls at once; requests beyond are refused with an error (0: no bound)")
	maxMessage := fs.Int("max-message-bytes", proxy.DefaultMaxMessageBytes, "largest message read in either direction; a larger request is answered with an error, anything else dropped")
	maxRounds := fs.Int("max-rounds", proxy.DefaultMaxRounds, "input_required rounds answered per request")
	killAfter := fs.Duration("kill-after", 5*time.Second, "how long the server has to exit once its input is closed, before SIGTERM (and as long again before SIGKILL)")
	var headerArgs headerFlags
	fs.Var(&headerArgs, "header", "an HTTP header for a remote server, \"Name: value\" (repeatable; never logged, but readable by every user in the process list: prefer "+headersVar+" or -header-file for secrets)")
	oauthArgs := addOAuthFlags(fs)
	verbose := fs.Bool("v", false, "log debug records too")
	safety := addSafetyFlags(fs)
	lc := listenFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	command := fs.Args()
	if *oauthArgs.loginOnly {
		return oauthArgs.login(command, getenv, stderr)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sampling-proxy: "+format+"\n", a...)
		return 2
	}
	switch *provider {
	case "anthropic", "openai":
	case "":
		return fail("-provider is required: anthropic or openai")
	default:
		return fail("unknown provider %q: anthropic or openai", *provider)
	}
	if *model == "" {
		return fail("-model is required (the provider's model name)")
	}
	if len(command) == 0 {
		return fail("no server command: give it after --, e.g. sampling-proxy -provider anthropic -model M -- ./server")
	}
	routes, err := proxy.ParseModelMap(*modelMap)
	if err != nil {
		return fail("-model-map: %v", err)
	}
	if err := proxy.ParseRouteBudgets(*safety.routeBudgets, routes); err != nil {
		return fail("-route-budget: %v", err)
	}
	remote := len(command) == 1 && (strings.HasPrefix(command[0], "http://") || strings.HasPrefix(command[0], "https://"))
	fileHeaders, err := safety.headerLines()
	if err != nil {
		return fail("%v", err)
	}
	header, err := parseHeaders(append(append(strings.Split(getenv(headersVar), "\n"), fileHeaders...), headerArgs...))
	if err != nil {
		return fail("%v", err)
	}
	if len(header) > 0 && !remote {
		return fail("-header and %s are for a remote server (an http:// or https:// URL)", headersVar)
	}
	oauthSecrets, err := oauthArgs.check(command, remote, getenv)
	if err != nil {
		return fail("%v", err)
	}

	keyVar, urlVar := "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
	if *provider == "openai" {
		keyVar, urlVar = "OPENAI_API_KEY", "OPENAI_BASE_URL"
	}
	key, baseURL := getenv(keyVar), getenv(urlVar)
	if key == "" {
		return fail("%s is not set: the proxy answers the server's sampling requests with the %s API, which needs a key", keyVar, *provider)
	}
	secrets := append([]string{key}, oauthSecrets...)
	for _, vs := range header {
		secrets = append(secrets, vs...)
	}
	if lc.addr != "" {
		if err := lc.check(getenv); err != nil {
			return fail("%v", err)
		}
		secrets = append(secrets, lc.token)
	}
	if u, err := url.Parse(baseURL); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
	}
	if remote {
		secrets = append(secrets, querySecrets(command[0])...)
	}

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	handler := newRedactingHandler(stderr, level, secrets)
	log := slog.New(handler).With("src", "sampling-proxy")
	serverLog := slog.New(handler).With("src", "server")
	warnExposure(log, len(headerArgs), command[0], remote)

	opts := &backfill.Options{
		Logger: log,
		Retry: backfill.RetryPolicy{
			MaxAttempts:    *maxAttempts,
			InitialBackoff: *backoff,
			MaxBackoff:     30 * time.Second,
			MaxRetryAfter:  *maxRetryAfter,
			AttemptTimeout: *attemptTimeout,
		},
	}
	newSampler := func(model string) sampling.Sampler {
		if *provider == "anthropic" {
			o := []anthropicoption.RequestOption{anthropicoption.WithAPIKey(key)}
			if baseURL != "" {
				o = append(o, anthropicoption.WithBaseURL(baseURL))
			}
			return backfill.NewAnthropicSampler(anthropic.NewClient(o...), model, opts)
		}
		o := []openaioption.RequestOption{openaioption.WithAPIKey(key)}
		if baseURL != "" {
			o = append(o, openaioption.WithBaseURL(baseURL))
		}
		return backfill.NewOpenAISampler(openai.NewClient(o...), model, opts)
	}
	var sampler sampling.Sampler = newSampler(*model)
	if len(routes) > 0 {
		for i := range routes {
			routes[i].Sampler = newSampler(routes[i].Model)
		}
		sampler = &proxy.Router{Routes: routes, Default: sampler, Logger: log}
	}
	p := &proxy.Proxy{
		Sampler:         sampler,
		Logger:          log,
		MaxMessageBytes: *maxMessage,
		MaxRounds:       *maxRounds,
		Limits:          safety.limits(*maxTokens, *tokenBudget, *maxConcurrent),
	}

	// Signals are caught before the server starts (and before the log says it did), so that a
	// signal at any moment after stops the proxy and its server in order.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Writing to a client that has gone away must be an error, not a SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)

	var client *http.Client // with OAuth, for a remote server; one for every session
	if remote {
		if client, err = oauthArgs.client(command[0], stderr, log); err != nil {
			log.Error("OAuth with the remote server", "error", err)
			return 1
		}
	}
	if lc.addr != "" {
		var opts *proxy.HTTPOptions
		if remote {
			opts = remoteOptions(header, p, log)
			opts.Client = client
		}
		return runListen(ctx, p, lc, command, opts, *killAfter, log, serverLog, *provider, *model)
	}
	if remote {
		return runRemote(ctx, p, command[0], header, client, *killAfter, stdin, stdout, log, *provider, *model)
	}
	return runLocal(ctx, p, command, *killAfter, stdin, stdout, log, serverLog, *provider, *model)
}

// serverEnv is the proxy's environment without what the server must not see: the providers'
// keys and addresses, and the remote server's headers.
func serverEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "ANTHROPIC_") || strings.HasPrefix(upper, "OPENAI_") || upper == headersVar || upper == clientTokenVar || upper == clientSecretVar {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func runLocal(ctx context.Context, p *proxy.Proxy, command []string, killAfter time.Duration, stdin io.Reader, stdout io.Writer, log, serverLog *slog.Logger, provider, model string) int {
	if err := protectProcess(); err != nil {
		log.Warn("could not keep the server from reading the proxy's environment", "error", err)
	}
	c, err := startChild(command, p.MaxMessageBytes, killAfter, log, serverLog)
	if err != nil {
		log.Error("starting the server", "error", err)
		return 1
	}
	log.Info("started the server", "command", command, "pid", c.cmd.Process.Pid, "provider", provider, "model", model)
	p.OnClientClosed = c.startStop
	go func() {
		// A signal stops the server at once (its input closed, then -kill-after), whatever the
		// proxy is doing.
		select {
		case <-ctx.Done():
			log.Info("stopping on a signal")
			c.startStop()
		case <-c.exited:
		}
	}()

	served := make(chan error, 1)
	go func() { served <- p.ServeConn(ctx, stdin, stdout, c.conn) }()

	select {
	case err = <-served:
	case <-c.exited:
		// The server is gone; its last output may still be in the pipe (unless a process it
		// started holds the pipe open, hence the limit).
		select {
		case err = <-served:
		case <-time.After(2 * time.Second):
			c.outR.Close()
			err = <-served
		}
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Warn("proxy stopped", "error", err)
	}
	c.stop()
	code := c.cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		log.Info("stopped by a signal")
	}
	log.Info("server exited", "status", c.cmd.ProcessState.String())
	if code < 0 {
		return 1
	}
	return code
}

// logLines logs each line of the server's stderr as a record of its own, at most 4 KiB of each.
func logLines(r io.Reader, log *slog.Logger) {
	buf := make([]byte, 0, 4096)
	one := make([]byte, 32<<10)
	truncated := false
	emit := func() {
		if truncated {
			log.Info("server stderr", "line", string(buf), "truncated", true)
		} else {
			log.Info("server stderr", "line", string(buf))
		}
		buf, truncated = buf[:0], false
	}
	for {
		n, err := r.Read(one)
		for _, b := range one[:n] {
			switch {
			case b == '\n':
				emit()
			case len(buf) < cap(buf):
				buf = append(buf, b)
			default:
				truncated = true
			}
		}
		if err != nil {
			if len(buf) > 0 || truncated {
				emit()
			}
			return
		}
	}
}

func runRemote(ctx context.Context, p *proxy.Proxy, endpoint string, header http.Header, client *http.Client, killAfter time.Duration, stdin io.Reader, stdout io.Writer, log *slog.Logger, provider, model string) int {
	shown := proxy.RedactURL(endpoint)
	var names []string
	for k := range header {
		names = append(names, k)
	}
	opts := remoteOptions(header, p, log)
	opts.Client = client
	conn, err := proxy.NewHTTPConn(ctx, endpoint, opts)
	if err != nil {
		log.Error("connecting to the remote server", "url", shown, "error", err)
		return 1
	}
	log.Info("serving a remote server", "url", shown, "headers", names, "provider", provider, "model", model)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p.OnClientClosed = func() {
		// The answers to requests in progress may still come; after -kill-after the session ends.
		go func() {
			select {
			case <-time.After(killAfter):
				log.Warn("the remote server's answers did not all come; ending the session", "after", killAfter)
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	err = p.ServeConn(ctx, stdin, stdout, conn)
	conn.Abort()
	switch {
	case err == nil:
		log.Info("the session with the remote server ended")
		return 0
	case errors.Is(err, context.Canceled):
		log.Info("stopped")
		return 0
	default:
		log.Warn("proxy stopped", "error", err)
		return 1
	}
}
