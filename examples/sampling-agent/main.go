//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: this server runs it

// Command sampling-agent is an MCP server, on the official Go SDK, with one tool, agent, that
// answers a prompt with the client's model: its handler runs the tool loop of
// github.com/mcpgen/mcpgen/sampling through sampling with tools, offering the model two local
// tools, get_weather (deterministic made-up weather) and add.
//
//	go build && ./sampling-agent     # in examples/sampling-agent; speaks MCP on stdin/stdout
//
// With -http ADDR it serves Streamable HTTP instead, statelessly (no session: any instance
// answers any round of a call), as one of many instances behind a load balancer: -key-file PATH
// is the key ring of the requestStates that they share (one hex key of 32 bytes or more per line,
// the first issues, the others still open states; SIGHUP reloads it), and -redis URL the Redis
// where they record the states used (each is accepted once across them). Without them the
// instance draws a random key and remembers the states in memory, which serves one instance. A
// stateless instance cannot send requests to the client, so a client of 2025-11-25 gets an error
// result saying so (or, with -fallback, the provider's answer). The README has the recipe.
//
// It serves every version go-sdk does, 2026-07-28 (the default) and older ones, with one handler
// (github.com/mcpgen/mcpgen/sampling/gosdk's Handler): at 2026-07-28 a call that needs the model
// is answered with the sampling request in inputRequests and the loop's state in requestState,
// and the client calls again with the model's answer; with a client of 2025-11-25 the server
// sends its sampling requests itself within the call.
//
// The agent tool takes {"prompt": string, "maxIterations"?: integer} (default 10, at most 50:
// the most sampling requests of one call; at 2026-07-28 at most 9 on the client's model whatever
// it says, since each request is a round trip and go-sdk's client makes at most 10 calls for one
// tool call). Its
// result is the model's final text. It is an error result (isError: true) saying why when the
// loop stops at its limit with the model still asking for tools, when the client lacks the sampling.tools capability (no sampling request is
// sent then), or when the client's model answers with something the loop refuses (a repeated
// tool use id, say). The client needs the sampling capability with tools: sampling: {tools: {}}.
// A requestState that is tampered with, expired, of another call or already used is refused with
// JSON-RPC error -32602 (data {"reason": ...}).
//
// With -fallback anthropic or -fallback openai (and the provider's key in ANTHROPIC_API_KEY or
// OPENAI_API_KEY; ANTHROPIC_BASE_URL and OPENAI_BASE_URL are honoured), a call whose client cannot
// sample with tools is answered with the provider's model instead (-model, default
// claude-sonnet-4-5 or gpt-4.1), the whole loop within the call: the migration path off sampling
// that SEP-2577 asks for. A client that can sample with tools is still asked.
//
// Logs go to stderr.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/mcpgen/mcpgen/backfill"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
	"github.com/mcpgen/mcpgen/sampling/gosdk"
	"github.com/mcpgen/mcpgen/sampling/mrtr"
	"github.com/mcpgen/mcpgen/sampling/mrtr/redisguard"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/redis/go-redis/v9"
)

const (
	defaultMaxIterations = 10
	maxMaxIterations     = 50
	// roundTripSamples is the most sampling requests of one call at 2026-07-28, where each is a
	// round trip of the client: go-sdk's client (v1.8.0) makes at most 10 calls for one tool
	// call, and fails the call by itself when the 10th is answered with inputRequests again, so
	// the 10th call must carry the last answer.
	roundTripSamples = 9
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("sampling-agent: ")
	provider := flag.String("fallback", "", "answer the calls of clients that cannot sample with tools with this provider's model: anthropic or openai (key in ANTHROPIC_API_KEY or OPENAI_API_KEY)")
	model := flag.String("model", "", "the fallback provider's model (default claude-sonnet-4-5 or gpt-4.1)")
	addr := flag.String("http", "", "serve Streamable HTTP (stateless) on this address, host:port, instead of stdio")
	redisURL := flag.String("redis", "", "record the used requestStates in this Redis, shared by the instances (redis://host:port/db); default: in memory")
	keyFile := flag.String("key-file", "", "the key ring of the requestStates, shared by the instances: one hex key (32+ bytes) per line, the first issues; SIGHUP reloads it; default: a random key")
	clockOffset := flag.Duration("clock-offset", 0, "add this to the clock (for tests of skewed clocks)")
	flag.Parse()
	fallback, err := fallbackSampler(*provider, *model)
	if err != nil {
		log.Fatal(err)
	}
	cfg := config{fallback: fallback, stateless: *addr != "", keyFile: *keyFile, redisURL: *redisURL, clockOffset: *clockOffset}
	a, err := newAgent(cfg)
	if err != nil {
		log.Fatal(err)
	}
	if *addr == "" {
		if err := a.server().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := a.serveHTTP(*addr); err != nil {
		log.Fatal(err)
	}
}

// Input is the agent tool's input.
type Input struct {
	Prompt        string `json:"prompt" jsonschema:"what to ask the model"`
	MaxIterations *int   `json:"maxIterations,omitempty" jsonschema:"the most sampling requests the tool loop makes (default 10, at most 50)"`
}

// fallbackSampler returns the sampler on the provider's API that -fallback names, nil for none.
func fallbackSampler(provider, model string) (sampling.Sampler, error) {
	switch provider {
	case "":
		return nil, nil
	case "anthropic":
		if os.Getenv("ANTHROPIC_API_KEY") == "" {
			return nil, errors.New("-fallback anthropic needs the key in ANTHROPIC_API_KEY")
		}
		if model == "" {
			model = "claude-sonnet-4-5"
		}
		return backfill.NewAnthropicSampler(anthropic.NewClient(), model, nil), nil
	case "openai":
		if os.Getenv("OPENAI_API_KEY") == "" {
			return nil, errors.New("-fallback openai needs the key in OPENAI_API_KEY")
		}
		if model == "" {
			model = "gpt-4.1"
		}
		return backfill.NewOpenAISampler(openai.NewClient(), model, nil), nil
	}
	return nil, fmt.Errorf("-fallback %q: want anthropic or openai", provider)
}

// config is what the command line says of the server.
type config struct {
	fallback    sampling.Sampler // nil: none
	stateless   bool             // Streamable HTTP: no session, each round may reach another instance
	keyFile     string           // "": a random key
	redisURL    string           // "": a MemoryGuard
	clockOffset time.Duration
}

// agentServer holds what every call of the agent tool shares: the local tools, the keys that
// authenticate the requestStates (a ring from -key-file, shared by the instances; or a key drawn
// at random, when this process is the only instance), the guard that makes each state
// single-use (on Redis, shared by the instances; or in memory), and the provider's sampler for
// clients that cannot sample with tools (nil: none).
type agentServer struct {
	tools     []*sampling.Tool
	keys      atomic.Pointer[mrtr.KeyRing]
	guard     mrtr.ReplayGuard
	fallback  sampling.Sampler
	stateless bool
	now       func() time.Time
	keyFile   string
}

func newAgent(cfg config) (*agentServer, error) {
	tools, err := localTools()
	if err != nil {
		return nil, err
	}
	a := &agentServer{tools: tools, fallback: cfg.fallback, stateless: cfg.stateless, keyFile: cfg.keyFile, now: time.Now}
	if offset := cfg.clockOffset; offset != 0 {
		a.now = func() time.Time { return time.Now().Add(offset) }
	}
	if err := a.loadKeys(); err != nil {
		return nil, err
	}
	if cfg.redisURL == "" {
		a.guard = &mrtr.MemoryGuard{Now: a.now}
	} else {
		opts, err := redis.ParseURL(cfg.redisURL)
		if err != nil {
			// url.Parse's error quotes the URL, whose user info may hold the Redis password.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return nil, fmt.Errorf("-redis: the URL does not parse (redis://[:PASSWORD@]HOST:PORT/DB): %w", err)
		}
		opts.ContextTimeoutEnabled = true
		client := redis.NewClient(opts)
		warnVolatile(client)
		a.guard = &redisguard.Guard{Client: client, Now: a.now}
	}
	if cfg.stateless && (cfg.keyFile == "" || cfg.redisURL == "") {
		log.Printf("serving one instance only: several need the same -key-file and -redis")
	}
	return a, nil
}

// warnVolatile warns when Redis reports appendonly no: a Redis that restarts empty forgets the
// states used, and each can then be replayed on any instance until it expires. It warns rather
// than refuses, since what it can ask does not show every way to keep the ids (a replica to fail
// over to, snapshots the operator deems frequent enough, a managed Redis that answers no CONFIG).
func warnVolatile(client *redis.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v, err := client.ConfigGet(ctx, "appendonly").Result()
	switch {
	case err != nil:
		log.Printf("could not ask Redis whether it keeps the used requestStates across a restart (CONFIG GET appendonly: %v)", err)
	case v["appendonly"] == "no":
		log.Printf("warning: Redis reports appendonly no: a restart of Redis forgets the requestStates used, and each can then be replayed until it expires (%s); run Redis with --appendonly yes, or with a replica to fail over to", mrtr.DefaultTTL)
	}
}

// loadKeys reads the key ring of -key-file, or draws a random key without one.
func (a *agentServer) loadKeys() error {
	if a.keyFile == "" {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		a.keys.Store(&mrtr.KeyRing{Keys: [][]byte{key}})
		return nil
	}
	ring, err := mrtr.LoadKeyRing(a.keyFile)
	if err != nil {
		return err
	}
	a.keys.Store(ring)
	return nil
}

func (a *agentServer) server() *sdk.Server {
	server := sdk.NewServer(&sdk.Implementation{Name: "sampling-agent", Version: "0.3.0"}, nil)
	sdk.AddTool(server, &sdk.Tool{
		Name:        "agent",
		Description: "Answers a prompt with the client's model, which can look up the weather (get_weather) and add numbers (add).",
	}, a.agent)
	return server
}

// serveHTTP serves Streamable HTTP, stateless, on addr until SIGINT or SIGTERM; SIGHUP reloads
// the key ring. It logs the address it listens on ("listening on 127.0.0.1:8080").
func (a *agentServer) serveHTTP(addr string) error {
	server := a.server()
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{Stateless: true})
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	log.Printf("listening on %s", l.Addr()) // once the signals are handled
	go func() {
		for sig := range signals {
			if sig == syscall.SIGHUP {
				if a.keyFile == "" {
					continue
				}
				if err := a.loadKeys(); err != nil {
					log.Printf("SIGHUP: the key ring is unchanged: %v", err)
				} else {
					log.Printf("SIGHUP: the key ring is reloaded from %s", a.keyFile)
				}
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			srv.Shutdown(ctx)
			cancel()
			return
		}
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// agent is the agent tool's handler: one step of the tool loop per call at 2026-07-28, the whole
// loop in one call on older sessions (gosdk.Handler).
func (a *agentServer) agent(ctx context.Context, req *sdk.CallToolRequest, in Input) (*sdk.CallToolResult, any, error) {
	limit := defaultMaxIterations
	if in.MaxIterations != nil {
		limit = *in.MaxIterations
	}
	if limit < 1 || limit > maxMaxIterations {
		return errorResult("maxIterations must be between 1 and %d, not %d", maxMaxIterations, limit), nil, nil
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return errorResult("the prompt is empty"), nil, nil
	}
	// At 2026-07-28 the loop stops at the client's limit, with this tool's error result, rather
	// than ask for a sample the client would not give (see roundTripSamples). The limit follows
	// from the arguments, to which each state is bound, the session's version and the call's
	// capabilities: every step of a call runs with the same one. A call that the fallback answers
	// (the client cannot sample with tools) runs within the call, without that limit.
	capped := gosdk.MultiRoundTrip(req.Session) && limit > roundTripSamples && !a.toFallback(req)
	if capped {
		limit = roundTripSamples
	}
	if a.stateless && !gosdk.MultiRoundTrip(req.Session) && !a.toFallback(req) {
		// A stateless server has no channel to send a request to the client on: a client of
		// 2025-11-25 or older gets the sampling requests of no instance.
		return errorResult("this server is stateless (Streamable HTTP): it cannot send sampling/createMessage to a client of protocol %s; call it with protocol 2026-07-28 or later (multi round-trip requests), or run the server with -fallback",
			req.Session.InitializeParams().ProtocolVersion), nil, nil
	}
	runner := &mrtr.Runner{Loop: &sampling.Loop{Tools: a.tools, MaxIterations: limit}, Keys: a.keys.Load(), Guard: a.guard, Now: a.now}
	// A stateless instance has no session to bind a state to, and this example authenticates no
	// one: its states are unbound, presented on any instance, and the shared guard (-redis)
	// lets each be used once. A deployment with authentication sets Handler.Principal instead.
	h := &gosdk.Handler{Runner: runner, Fallback: a.fallback, Unbound: a.stateless}
	res, out, err := h.Step(ctx, req, func() (*mcp.CreateMessageRequestParams, error) {
		return &mcp.CreateMessageRequestParams{
			Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: in.Prompt})}},
			SystemPrompt: ptr("Answer the user's question. You can call get_weather for the weather of a city and add to add numbers."),
			MaxTokens:    1024,
		}, nil
	})
	var cerr *sampling.CapabilityError
	var rerr *sampling.ResultError
	var ferr *gosdk.FallbackError
	switch {
	case errors.As(err, &ferr):
		log.Printf("agent: the fallback provider: %v", err)
		return errorResult("the tool loop failed on the provider's model: %v", ferr.Err), nil, nil
	case errors.As(err, &cerr):
		return errorResult("the client does not support sampling with tools (%v): it must declare the sampling.tools capability", cerr.Err), nil, nil
	case errors.As(err, &rerr):
		log.Printf("agent: the client's model answered with something the loop refuses: %v", err)
		return errorResult("the tool loop failed: the model's answer was refused: %v", rerr), nil, nil
	case err != nil:
		log.Printf("agent: %v", err)
		return nil, nil, gosdk.JSONRPCError(err)
	case res != nil:
		return res, nil, nil // the client samples and calls again
	}
	return final(out, limit, capped), nil, nil
}

// toFallback reports whether a call goes to the fallback provider: there is one, and the call's
// client does not declare sampling with tools (what the loop, which always offers tools, needs).
func (a *agentServer) toFallback(req *sdk.CallToolRequest) bool {
	if a.fallback == nil {
		return false
	}
	caps, err := gosdk.RequestCapabilities(req)
	return err == nil && (caps.Sampling == nil || caps.Sampling.Tools == nil)
}

// final is the agent tool's result when the loop is over; limit is the loop's, capped whether it
// is roundTripSamples rather than maxIterations.
func final(res *sampling.Result, limit int, capped bool) *sdk.CallToolResult {
	if res.Stop == sampling.StopMaxIterations {
		var names []string
		for _, u := range res.PendingToolUses() {
			names = append(names, u.Name)
		}
		why := "maxIterations"
		if capped {
			why = fmt.Sprintf("at protocol 2026-07-28 a call takes at most %d, as go-sdk's client makes at most %d calls for one tool call", roundTripSamples, roundTripSamples+1)
		}
		return errorResult("the tool loop stopped at its limit of %d sampling requests (%s) with the model still asking for tools (%s)",
			limit, why, strings.Join(names, ", "))
	}
	text := res.Text()
	if text == "" {
		reason := "none"
		if res.Last.StopReason != nil {
			reason = string(*res.Last.StopReason)
		}
		return errorResult("the model ended its turn without text (stopReason %s)", reason)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

func errorResult(format string, args ...any) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// WeatherInput is get_weather's input.
type WeatherInput struct {
	City string `json:"city" jsonschema:"the city's name"`
}

// AddInput is add's input.
type AddInput struct {
	Numbers []float64 `json:"numbers" jsonschema:"the numbers to add"`
}

// localTools are the tools the agent offers the model.
func localTools() ([]*sampling.Tool, error) {
	weather, err := sampling.NewTypedTool("get_weather", "Current weather of a city (made up, but the same every time).", nil,
		func(_ context.Context, in WeatherInput) (string, error) {
			return Weather(in.City)
		})
	if err != nil {
		return nil, err
	}
	add, err := sampling.NewTypedTool("add", "Adds numbers.", nil, func(_ context.Context, in AddInput) (float64, error) {
		if len(in.Numbers) == 0 {
			return 0, errors.New("no numbers to add")
		}
		sum := 0.0
		for _, n := range in.Numbers {
			sum += n
		}
		return sum, nil
	})
	if err != nil {
		return nil, err
	}
	return []*sampling.Tool{weather, add}, nil
}

// Weather returns made-up weather for a city: the spec's example values for Paris and London,
// and for any other city a temperature and sky chosen by a hash of its name.
func Weather(city string) (string, error) {
	city = strings.TrimSpace(city)
	switch city {
	case "":
		return "", errors.New("no city given")
	case "Paris":
		return "Weather in Paris: 18°C, partly cloudy", nil
	case "London":
		return "Weather in London: 15°C, rainy", nil
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(city)))
	n := h.Sum32()
	skies := []string{"sunny", "partly cloudy", "cloudy", "rainy", "windy", "foggy", "snowy"}
	return fmt.Sprintf("Weather in %s: %d°C, %s", city, int(n%35)-5, skies[(n/35)%uint32(len(skies))]), nil
}

func ptr[T any](v T) *T { return &v }
