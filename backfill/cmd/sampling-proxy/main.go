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
	o, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	if *o.oauth.loginOnly {
		return o.oauth.login(o.command, getenv, stderr)
	}
	s, err := o.check(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "sampling-proxy: %v\n", err)
		return 2
	}
	handler := newRedactingHandler(stderr, o.logLevel(), s.secrets)
	log := slog.New(handler).With("src", "sampling-proxy")
	serverLog := slog.New(handler).With("src", "server")
	warnExposure(log, len(o.headerArgs), o.command[0], s.remote)
	p := &proxy.Proxy{
		Sampler:         o.sampler(s, log),
		Logger:          log,
		MaxMessageBytes: o.maxMessage,
		MaxRounds:       o.maxRounds,
		Limits:          o.safety.limits(o.maxTokens, o.tokenBudget, o.maxConcurrent),
	}

	// Signals are caught before the server starts (and before the log says it did), so that a
	// signal at any moment after stops the proxy and its server in order.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Writing to a client that has gone away must be an error, not a SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	return o.serve(ctx, p, s, stdin, stdout, stderr, log, serverLog)
}

// options are the command's flags, parsed, and the server's command (or URL) after them.
type options struct {
	provider       string
	model          string
	modelMap       string
	maxAttempts    int
	backoff        time.Duration
	maxRetryAfter  time.Duration
	attemptTimeout time.Duration
	maxTokens      int64
	tokenBudget    int64
	maxConcurrent  int
	maxMessage     int
	maxRounds      int
	killAfter      time.Duration
	headerArgs     headerFlags
	oauth          *oauthFlags
	verbose        bool
	safety         *safetyFlags
	listen         *listenConfig
	command        []string
}

// parseFlags parses args; the flag package has told stderr what is wrong when it fails.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("sampling-proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.provider, "provider", "", "the model provider: anthropic or openai")
	fs.StringVar(&o.model, "model", "", "the provider's model to sample with when no model hint matches -model-map, e.g. claude-sonnet-4-5 or gpt-4.1")
	fs.StringVar(&o.modelMap, "model-map", "", "model hints to provider models, first match wins: 'sonnet=claude-sonnet-4-5,haiku=claude-haiku-4-5' (a hint matches a name or model it is a substring of, as the spec says: a server can pick any route with a short hint; see -route-budget)")
	fs.IntVar(&o.maxAttempts, "max-attempts", 4, "provider calls per sampling request, retries included")
	fs.DurationVar(&o.backoff, "retry-backoff", 500*time.Millisecond, "first wait before a retry when the provider names none; doubles with each retry")
	fs.DurationVar(&o.maxRetryAfter, "max-retry-after", time.Minute, "longest Retry-After to wait for; a provider asking for more fails the request")
	fs.DurationVar(&o.attemptTimeout, "attempt-timeout", 10*time.Minute, "time limit of one provider call")
	fs.Int64Var(&o.maxTokens, "max-tokens", 16384, "cap on every request's maxTokens (0: none)")
	fs.Int64Var(&o.tokenBudget, "token-budget", defaultTokenBudget, "tokens (input and output, from the provider's usage) the proxy may spend in its run; 0: no budget")
	fs.IntVar(&o.maxConcurrent, "max-concurrent", 4, "provider calls at once; requests beyond are refused with an error (0: no bound)")
	fs.IntVar(&o.maxMessage, "max-message-bytes", proxy.DefaultMaxMessageBytes, "largest message read in either direction; a larger request is answered with an error, anything else dropped")
	fs.IntVar(&o.maxRounds, "max-rounds", proxy.DefaultMaxRounds, "input_required rounds answered per request")
	fs.DurationVar(&o.killAfter, "kill-after", 5*time.Second, "how long the server has to exit once its input is closed, before SIGTERM (and as long again before SIGKILL)")
	fs.Var(&o.headerArgs, "header", "an HTTP header for a remote server, \"Name: value\" (repeatable; never logged, but readable by every user in the process list: prefer "+headersVar+" or -header-file for secrets)")
	o.oauth = addOAuthFlags(fs)
	fs.BoolVar(&o.verbose, "v", false, "log debug records too")
	o.safety = addSafetyFlags(fs)
	o.listen = listenFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	o.command = fs.Args()
	return o, nil
}

// setup is what the run takes from its checked flags and environment.
type setup struct {
	routes  []proxy.Route
	remote  bool        // the server is a URL, not a command
	header  http.Header // for a remote server
	key     string      // the provider's
	baseURL string      // the provider's, when set
	secrets []string    // what the log redacts
}

// check validates the flags with the environment, in the order of their messages, and reads the
// provider's key and address, the headers and the clients' token.
func (o *options) check(getenv func(string) string) (*setup, error) {
	switch o.provider {
	case "anthropic", "openai":
	case "":
		return nil, errors.New("-provider is required: anthropic or openai")
	default:
		return nil, fmt.Errorf("unknown provider %q: anthropic or openai", o.provider)
	}
	if o.model == "" {
		return nil, errors.New("-model is required (the provider's model name)")
	}
	if len(o.command) == 0 {
		return nil, errors.New("no server command: give it after --, e.g. sampling-proxy -provider anthropic -model M -- ./server")
	}
	routes, err := proxy.ParseModelMap(o.modelMap)
	if err != nil {
		return nil, fmt.Errorf("-model-map: %v", err)
	}
	if err := proxy.ParseRouteBudgets(*o.safety.routeBudgets, routes); err != nil {
		return nil, fmt.Errorf("-route-budget: %v", err)
	}
	s := &setup{routes: routes, remote: len(o.command) == 1 && (strings.HasPrefix(o.command[0], "http://") || strings.HasPrefix(o.command[0], "https://"))}
	fileHeaders, err := o.safety.headerLines()
	if err != nil {
		return nil, err
	}
	if s.header, err = parseHeaders(append(append(strings.Split(getenv(headersVar), "\n"), fileHeaders...), o.headerArgs...)); err != nil {
		return nil, err
	}
	if len(s.header) > 0 && !s.remote {
		return nil, fmt.Errorf("-header and %s are for a remote server (an http:// or https:// URL)", headersVar)
	}
	oauthSecrets, err := o.oauth.check(o.command, s.remote, getenv)
	if err != nil {
		return nil, err
	}
	keyVar, urlVar := "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
	if o.provider == "openai" {
		keyVar, urlVar = "OPENAI_API_KEY", "OPENAI_BASE_URL"
	}
	s.key, s.baseURL = getenv(keyVar), getenv(urlVar)
	if s.key == "" {
		return nil, fmt.Errorf("%s is not set: the proxy answers the server's sampling requests with the %s API, which needs a key", keyVar, o.provider)
	}
	if o.listen.addr != "" {
		if err := o.listen.check(getenv); err != nil {
			return nil, err
		}
	}
	s.secrets = o.secrets(s, oauthSecrets)
	return s, nil
}

// secrets are what the log must redact: the provider's key, OAuth's secrets, the headers'
// values, the clients' token, the password of the provider's address and the query of a remote
// server's URL.
func (o *options) secrets(s *setup, oauthSecrets []string) []string {
	secrets := append([]string{s.key}, oauthSecrets...)
	for _, vs := range s.header {
		secrets = append(secrets, vs...)
	}
	if o.listen.addr != "" {
		secrets = append(secrets, o.listen.token)
	}
	if u, err := url.Parse(s.baseURL); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
	}
	if s.remote {
		secrets = append(secrets, querySecrets(o.command[0])...)
	}
	return secrets
}

// logLevel is the level of the proxy's log: debug with -v.
func (o *options) logLevel() slog.Level {
	if o.verbose {
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// sampler answers sampling requests with the provider's -model, or with the model of the
// -model-map route that a request's hints pick.
func (o *options) sampler(s *setup, log *slog.Logger) sampling.Sampler {
	opts := &backfill.Options{
		Logger: log,
		Retry: backfill.RetryPolicy{
			MaxAttempts:    o.maxAttempts,
			InitialBackoff: o.backoff,
			MaxBackoff:     30 * time.Second,
			MaxRetryAfter:  o.maxRetryAfter,
			AttemptTimeout: o.attemptTimeout,
		},
	}
	var sampler sampling.Sampler = o.providerSampler(s, o.model, opts)
	if len(s.routes) > 0 {
		for i := range s.routes {
			s.routes[i].Sampler = o.providerSampler(s, s.routes[i].Model, opts)
		}
		sampler = &proxy.Router{Routes: s.routes, Default: sampler, Logger: log}
	}
	return sampler
}

// providerSampler samples with the provider's model, through its API at its address.
func (o *options) providerSampler(s *setup, model string, opts *backfill.Options) sampling.Sampler {
	if o.provider == "anthropic" {
		ao := []anthropicoption.RequestOption{anthropicoption.WithAPIKey(s.key)}
		if s.baseURL != "" {
			ao = append(ao, anthropicoption.WithBaseURL(s.baseURL))
		}
		return backfill.NewAnthropicSampler(anthropic.NewClient(ao...), model, opts)
	}
	oo := []openaioption.RequestOption{openaioption.WithAPIKey(s.key)}
	if s.baseURL != "" {
		oo = append(oo, openaioption.WithBaseURL(s.baseURL))
	}
	return backfill.NewOpenAISampler(openai.NewClient(oo...), model, opts)
}

// serve runs p in its mode: for clients over HTTP with -listen, else for the client on stdin and
// stdout, in front of a remote server (authorized with OAuth when it asks) or a local command.
func (o *options) serve(ctx context.Context, p *proxy.Proxy, s *setup, stdin io.Reader, stdout, stderr io.Writer, log, serverLog *slog.Logger) int {
	var client *http.Client // with OAuth, for a remote server; one for every session
	if s.remote {
		var err error
		if client, err = o.oauth.client(o.command[0], stderr, log); err != nil {
			log.Error("OAuth with the remote server", "error", err)
			return 1
		}
	}
	if o.listen.addr != "" {
		var opts *proxy.HTTPOptions
		if s.remote {
			opts = remoteOptions(s.header, p, log)
			opts.Client = client
		}
		return runListen(ctx, p, o.listen, o.command, opts, o.killAfter, log, serverLog, o.provider, o.model)
	}
	if s.remote {
		return runRemote(ctx, p, o.command[0], s.header, client, o.killAfter, stdin, stdout, log, o.provider, o.model)
	}
	return runLocal(ctx, p, o.command, o.killAfter, stdin, stdout, log, serverLog, o.provider, o.model)
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
