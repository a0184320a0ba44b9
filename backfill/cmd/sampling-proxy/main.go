// Command sampling-proxy runs an MCP server on stdio behind a proxy that answers the server's
// sampling requests with a model provider's API, for MCP clients that do not implement sampling:
//
//	sampling-proxy -provider anthropic|openai -model NAME -- SERVER_COMMAND [ARGS...]
//
// The proxy starts the server as its child, serves an MCP client on its own stdin and stdout,
// and forwards every message between them unchanged, except that it advertises the sampling
// capability (with tools) to the server and answers the server's sampling/createMessage requests
// itself, through the provider; see package github.com/mcpgen/mcpgen/backfill/proxy.
//
// The provider's key comes from ANTHROPIC_API_KEY or OPENAI_API_KEY, and its address from
// ANTHROPIC_BASE_URL or OPENAI_BASE_URL when set. Failed provider calls are retried (rate limits,
// overload, timeouts; the provider's Retry-After is respected) and then answered with a JSON-RPC
// error. The proxy logs to stderr, where the server's stderr goes too. It exits when the server
// exits, with the server's exit status; when the client closes its input, the proxy closes the
// server's, and stops the server if it has not exited after -kill-after (SIGTERM, then SIGKILL).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/proxy"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

const usage = `usage: sampling-proxy -provider anthropic|openai -model NAME [flags] -- SERVER_COMMAND [ARGS...]

Runs the MCP server SERVER_COMMAND on stdio and serves an MCP client on stdin and stdout,
answering the server's sampling requests with the provider's API. The key is read from
ANTHROPIC_API_KEY or OPENAI_API_KEY, the address from ANTHROPIC_BASE_URL or OPENAI_BASE_URL.

flags:
`

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout io.Writer, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("sampling-proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	provider := fs.String("provider", "", "the model provider: anthropic or openai")
	model := fs.String("model", "", "the provider's model to sample with, e.g. claude-sonnet-4-5 or gpt-4.1")
	maxAttempts := fs.Int("max-attempts", 4, "provider calls per sampling request, retries included")
	backoff := fs.Duration("retry-backoff", 500*time.Millisecond, "first wait before a retry when the provider names none; doubles with each retry")
	maxRetryAfter := fs.Duration("max-retry-after", time.Minute, "longest Retry-After to wait for; a provider asking for more fails the request")
	attemptTimeout := fs.Duration("attempt-timeout", 10*time.Minute, "time limit of one provider call")
	killAfter := fs.Duration("kill-after", 5*time.Second, "how long the server has to exit once its input is closed, before SIGTERM (and as long again before SIGKILL)")
	verbose := fs.Bool("v", false, "log debug records too")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	command := fs.Args()
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

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("src", "sampling-proxy")
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
	var sampler *backfill.Sampler
	switch *provider {
	case "anthropic":
		key := getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return fail("ANTHROPIC_API_KEY is not set: the proxy answers the server's sampling requests with the Anthropic API, which needs a key")
		}
		o := []anthropicoption.RequestOption{anthropicoption.WithAPIKey(key)}
		if u := getenv("ANTHROPIC_BASE_URL"); u != "" {
			o = append(o, anthropicoption.WithBaseURL(u))
		}
		sampler = backfill.NewAnthropicSampler(anthropic.NewClient(o...), *model, opts)
	case "openai":
		key := getenv("OPENAI_API_KEY")
		if key == "" {
			return fail("OPENAI_API_KEY is not set: the proxy answers the server's sampling requests with the OpenAI API, which needs a key")
		}
		o := []openaioption.RequestOption{openaioption.WithAPIKey(key)}
		if u := getenv("OPENAI_BASE_URL"); u != "" {
			o = append(o, openaioption.WithBaseURL(u))
		}
		sampler = backfill.NewOpenAISampler(openai.NewClient(o...), *model, opts)
	}

	// Signals are caught before the server starts (and before the log says it did), so that a
	// signal at any moment after stops the proxy and its server in order.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Writing to a client that has gone away must be an error, not a SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)

	// The server's stdin and stdout are plain pipes (not exec's), so that waiting for the server
	// does not race with reading its last output.
	inR, inW, err := os.Pipe()
	if err != nil {
		return fail("%v", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return fail("%v", err)
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "sampling-proxy: starting the server: %v\n", err)
		return 1
	}
	inR.Close()
	outW.Close()
	log.Info("started the server", "command", command, "pid", cmd.Process.Pid, "provider", *provider, "model", *model)

	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	stopServer := func() {
		inW.Close()
		select {
		case <-exited:
			return
		case <-time.After(*killAfter):
		}
		log.Warn("the server has not exited; sending SIGTERM", "after", *killAfter)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			cmd.Process.Kill()
		}
		select {
		case <-exited:
			return
		case <-time.After(*killAfter):
		}
		log.Warn("the server has not exited; killing it")
		cmd.Process.Kill()
		<-exited
	}

	p := &proxy.Proxy{Sampler: sampler, Logger: log, OnClientClosed: func() { go stopServer() }}
	served := make(chan error, 1)
	go func() { served <- p.Serve(ctx, stdin, stdout, outR, inW) }()

	select {
	case err = <-served:
	case <-exited:
		// The server is gone; its last output may still be in the pipe (unless a process it
		// started holds the pipe open, hence the limit).
		select {
		case err = <-served:
		case <-time.After(2 * time.Second):
			outR.Close()
			err = <-served
		}
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Warn("proxy stopped", "error", err)
	}
	stopServer()
	code := cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		log.Info("stopped by a signal")
	}
	log.Info("server exited", "status", cmd.ProcessState.String())
	if code < 0 {
		return 1
	}
	return code
}
