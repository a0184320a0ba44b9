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
	addr        string
	public      bool
	maxSessions int
	token       string
}

// listenFlags registers the flags of -listen.
func listenFlags(fs *flag.FlagSet) *listenConfig {
	c := &listenConfig{}
	fs.StringVar(&c.addr, "listen", "", "serve MCP clients over Streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8931) instead of on stdin and stdout; each client session gets a session of its own with the server (for a command, a process of its own)")
	fs.BoolVar(&c.public, "listen-public", false, "allow -listen on an address other than loopback; clients must then send the bearer token of "+clientTokenVar)
	fs.IntVar(&c.maxSessions, "max-sessions", proxy.DefaultMaxSessions, "client sessions at once with -listen; the limits (-token-budget, -max-concurrent) are shared by all of them")
	return c
}

// check reads the token and refuses a non-loopback address without -listen-public and a token.
func (c *listenConfig) check(getenv func(string) string) error {
	c.token = getenv(clientTokenVar)
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return fmt.Errorf("-listen %q: want HOST:PORT, e.g. 127.0.0.1:8931", c.addr)
	}
	if loopback(host) {
		return nil
	}
	if !c.public {
		return fmt.Errorf("-listen %q is not a loopback address: add -listen-public, and set %s to the bearer token clients must send", c.addr, clientTokenVar)
	}
	if len(c.token) < 16 {
		return fmt.Errorf("-listen-public needs %s, the bearer token clients must send (16 characters or more)", clientTokenVar)
	}
	return nil
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
	var protect sync.Once
	dial := func(ctx context.Context) (proxy.Conn, func(), error) {
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
	h := &proxy.HTTPServer{Proxy: p, Dial: dial, MaxSessions: lc.maxSessions, Token: lc.token, Public: lc.public, Grace: killAfter, Logger: log}
	l, err := net.Listen("tcp", lc.addr)
	if err != nil {
		log.Error("listening", "error", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	server := strings.Join(command, " ")
	if remote != nil {
		server = proxy.RedactURL(command[0])
	}
	log.Info("serving MCP clients", "url", "http://"+l.Addr().String()+"/mcp", "server", server, "provider", provider, "model", model,
		"maxSessions", lc.maxSessions, "token", lc.token != "")
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

// remoteOptions are the options of the connection to a remote server: the operator's headers,
// the message bound, the log.
func remoteOptions(header http.Header, p *proxy.Proxy, log *slog.Logger) *proxy.HTTPOptions {
	return &proxy.HTTPOptions{Header: header, MaxMessageBytes: p.MaxMessageBytes, Logger: log}
}
