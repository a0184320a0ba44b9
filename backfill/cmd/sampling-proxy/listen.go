package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// clientTokenVar holds the bearer token that clients of -listen must send.
const clientTokenVar = "SAMPLING_PROXY_CLIENT_TOKEN"

// listenConfig is the client side over Streamable HTTP, from its flags.
type listenConfig struct {
	addr              string
	public            bool
	maxSessions       int
	maxClientSessions int
	idleTimeout       time.Duration
	streamTimeout     time.Duration
	readTimeout       time.Duration
	tokenFile         string
	token             string
	tokenMade         bool // the token was made at this start, in tokenFile
}

// listenFlags registers the flags of -listen.
func listenFlags(fs *flag.FlagSet) *listenConfig {
	c := &listenConfig{}
	fs.StringVar(&c.addr, "listen", "", "serve MCP clients over Streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8931) instead of on stdin and stdout; each client session gets a session of its own with the server (for a command, a process of its own); clients must send a bearer token (see -client-token-file)")
	fs.BoolVar(&c.public, "listen-public", false, "allow -listen on an address other than loopback; needs the clients' token from "+clientTokenVar+" or -client-token-file")
	fs.StringVar(&c.tokenFile, "client-token-file", "", "the file of the bearer token that clients of -listen must send, when "+clientTokenVar+" is not set; made (mode 0600) with a new random token when it does not exist (default: mcpgen/sampling-proxy/client-token under the user's config directory)")
	fs.IntVar(&c.maxSessions, "max-sessions", proxy.DefaultMaxSessions, "client sessions at once with -listen, those whose server is still stopping included; the limits (-token-budget, -max-concurrent) are shared by all of them")
	fs.IntVar(&c.maxClientSessions, "max-client-sessions", 0, "client sessions at once from one client address with -listen (0: -max-sessions less a quarter)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", proxy.DefaultIdleTimeout, "with -listen, how long a client session may go without a request in progress or a GET stream before it is ended")
	fs.DurationVar(&c.streamTimeout, "stream-timeout", proxy.DefaultStreamTimeout, "with -listen, the longest a GET stream stays open (a client opens another)")
	fs.DurationVar(&c.readTimeout, "read-timeout", proxy.DefaultBodyTimeout, "with -listen, how long a client has to send a request's headers, and its body; an idle connection is closed after as long")
	return c
}

// check refuses a non-loopback address without -listen-public and a timeout that is not above
// 0, and reads the clients' token:
// from the environment, else from the token file (made when it does not exist). -listen-public
// needs the token given, whatever the address.
func (c *listenConfig) check(getenv func(string) string) error {
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return fmt.Errorf("-listen %q: want HOST:PORT, e.g. 127.0.0.1:8931", c.addr)
	}
	// 0 would be no timeout for the HTTP server's headers and idle connections, not a default.
	for _, t := range []struct {
		flag string
		d    time.Duration
	}{{"-idle-timeout", c.idleTimeout}, {"-stream-timeout", c.streamTimeout}, {"-read-timeout", c.readTimeout}} {
		if t.d <= 0 {
			return fmt.Errorf("%s %v: want a duration above 0", t.flag, t.d)
		}
	}
	if !loopback(host) && !c.public {
		return fmt.Errorf("-listen %q is not a loopback address: add -listen-public, and set %s to the bearer token clients must send", c.addr, clientTokenVar)
	}
	c.token = getenv(clientTokenVar)
	switch {
	case c.token == "" && c.public && c.tokenFile == "":
		return fmt.Errorf("-listen-public needs %s or -client-token-file, the bearer token clients must send (%d characters or more)", clientTokenVar, minTokenLength)
	case c.token != "" && len(c.token) < minTokenLength:
		return fmt.Errorf("%s: want a bearer token of %d characters or more", clientTokenVar, minTokenLength)
	case c.token != "":
		c.tokenFile = ""
		return nil
	case c.tokenFile == "":
		if c.tokenFile, err = defaultTokenFile(); err != nil {
			return err
		}
	}
	c.token, c.tokenMade, err = readTokenFile(c.tokenFile)
	return err
}

// server is the proxy's HTTP side in front of the upstreams of dial.
func (c *listenConfig) server(p *proxy.Proxy, dial func(context.Context) (proxy.Conn, func(), error), grace time.Duration, log *slog.Logger) *proxy.HTTPServer {
	return &proxy.HTTPServer{Proxy: p, Dial: dial, MaxSessions: c.maxSessions, MaxClientSessions: c.maxClientSessions, Token: c.token, Public: c.public,
		IdleTimeout: c.idleTimeout, StreamTimeout: c.streamTimeout, BodyTimeout: c.readTimeout, Grace: grace, Logger: log}
}

// logToken says where clients find the token (never the token itself).
func (c *listenConfig) logToken(log *slog.Logger) {
	switch {
	case c.tokenFile == "":
		log.Info("clients must send the bearer token of " + clientTokenVar)
	case c.tokenMade:
		log.Info("made a client token: clients must send it as a bearer token", "file", c.tokenFile)
	default:
		log.Info("clients must send the bearer token of the client token file", "file", c.tokenFile)
	}
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// runListen serves clients over Streamable HTTP until a signal: each session with an upstream of
// its own, a session with the remote server or a server process.
func runListen(ctx context.Context, p *proxy.Proxy, lc *listenConfig, command []string, remote *proxy.HTTPOptions, killAfter time.Duration, log, serverLog *slog.Logger, provider, model string) int {
	h := lc.server(p, dialer(p, command, remote, killAfter, log, serverLog), killAfter, log)
	l, err := net.Listen("tcp", lc.addr)
	if err != nil {
		log.Error("listening", "error", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	// A request's body has its own deadline (in h), so that the connection is read without one
	// while the answer streams.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: lc.readTimeout, IdleTimeout: lc.readTimeout}
	server := strings.Join(command, " ")
	if remote != nil {
		server = proxy.RedactURL(command[0])
	}
	lc.logToken(log)
	log.Info("serving MCP clients", "url", "http://"+l.Addr().String()+"/mcp", "server", server, "provider", provider, "model", model,
		"maxSessions", lc.maxSessions)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err = <-served:
		log.Error("serving", "error", err)
		h.Close()
		return 1
	case <-ctx.Done():
	}
	log.Info("stopping on a signal")
	shutdown, cancel := context.WithTimeout(context.Background(), killAfter)
	defer cancel()
	go h.Close() // ends the sessions, whose streams the shutdown waits for
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		log.Warn("stopping the listener", "error", err)
	}
	srv.Close()
	h.Close()
	return 0
}

// dialer opens the upstream of a client session: a session with the remote server, or a server
// process.
func dialer(p *proxy.Proxy, command []string, remote *proxy.HTTPOptions, killAfter time.Duration, log, serverLog *slog.Logger) func(context.Context) (proxy.Conn, func(), error) {
	var protect sync.Once
	return func(ctx context.Context) (proxy.Conn, func(), error) {
		if remote != nil {
			conn, err := proxy.NewHTTPConn(ctx, command[0], remote)
			if err != nil {
				return nil, nil, err
			}
			return conn, func() { conn.Abort() }, nil
		}
		protect.Do(func() {
			if err := protectProcess(); err != nil {
				log.Warn("could not keep the server from reading the proxy's environment", "error", err)
			}
		})
		c, err := startChild(command, p.MaxMessageBytes, killAfter, log, serverLog)
		if err != nil {
			return nil, nil, err
		}
		log.Info("started a server for a client session", "command", command, "pid", c.cmd.Process.Pid)
		return c.conn, c.stop, nil
	}
}

// remoteOptions are the options of the connection to a remote server: the operator's headers,
// the message bound, the log.
func remoteOptions(header http.Header, p *proxy.Proxy, log *slog.Logger) *proxy.HTTPOptions {
	return &proxy.HTTPOptions{Header: header, MaxMessageBytes: p.MaxMessageBytes, Logger: log}
}
