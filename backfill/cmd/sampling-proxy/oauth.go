package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/oauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OAuth with a remote server: the flags, and -oauth-login. The flow itself is in
// github.com/mcpgen/mcpgen/backfill/internal/oauth; the README has it step by step.

// clientSecretVar holds the secret of a pre-registered OAuth client (safer than the flag, whose
// value shows in the process list).
const clientSecretVar = "SAMPLING_PROXY_OAUTH_CLIENT_SECRET"

// oauthFlags are the flags of OAuth with a remote server.
type oauthFlags struct {
	enabled        *bool
	clientID       *string
	clientSecret   *string
	metadataURL    *string
	redirectURL    *string
	nonInteractive *bool
	tokenFile      *string
	timeout        *time.Duration
	loginOnly      *bool
}

func addOAuthFlags(fs *flag.FlagSet) *oauthFlags {
	return &oauthFlags{
		enabled:        fs.Bool("oauth", true, "authorize with a remote server that answers 401, as the MCP authorization spec has it (OAuth 2.1, PKCE)"),
		clientID:       fs.String("oauth-client-id", "", "a client ID registered with the remote server's authorization server (default: dynamic client registration)"),
		clientSecret:   fs.String("oauth-client-secret", "", "the secret of -oauth-client-id, for a confidential client (prefer "+clientSecretVar+")"),
		metadataURL:    fs.String("oauth-client-metadata-url", "", "the https URL of a client ID metadata document to use as the client ID where the authorization server supports them"),
		redirectURL:    fs.String("oauth-redirect-url", "http://127.0.0.1:0/callback", "the loopback URL the authorization server redirects to, where the proxy listens (port 0: a free port)"),
		nonInteractive: fs.Bool("oauth-non-interactive", false, "follow the authorization URL instead of printing it for a person (for authorization servers that approve without one, as in tests)"),
		tokenFile:      fs.String("oauth-token-file", "", "the file (mode 0600) that keeps the token between runs (default: one per server under the user's config directory, mcpgen/sampling-proxy/oauth/)"),
		timeout:        fs.Duration("oauth-timeout", 5*time.Minute, "how long an authorization may take"),
		loginOnly:      fs.Bool("oauth-login", false, "only authorize with the remote server (in a terminal, before a host runs the proxy), store the token, and exit; needs no provider"),
	}
}

// check validates the flags, taking the client secret from the environment when the flag is not
// given, and returns the secrets the log must redact.
func (o *oauthFlags) check(command []string, remote bool, getenv func(string) string) ([]string, error) {
	if *o.clientSecret == "" {
		*o.clientSecret = getenv(clientSecretVar)
	}
	if !remote {
		if *o.clientID != "" || *o.clientSecret != "" || *o.metadataURL != "" {
			return nil, fmt.Errorf("the -oauth flags are for a remote server (an http:// or https:// URL)")
		}
		return nil, nil
	}
	if *o.clientSecret != "" && *o.clientID == "" {
		return nil, fmt.Errorf("-oauth-client-secret (or %s) needs -oauth-client-id", clientSecretVar)
	}
	if *o.enabled {
		if err := o.config(command[0]).Validate(); err != nil {
			return nil, err
		}
	}
	if *o.clientSecret != "" {
		return []string{*o.clientSecret}, nil
	}
	return nil, nil
}

// client returns the HTTP client for the remote server at endpoint: with OAuth, unless -oauth=false.
func (o *oauthFlags) client(endpoint string, prompt io.Writer, log *slog.Logger) (*http.Client, error) {
	if !*o.enabled {
		return nil, nil
	}
	file := *o.tokenFile
	if file == "" {
		f, err := oauth.DefaultTokenFile(endpoint)
		if err != nil {
			log.Warn("no user config directory: OAuth tokens are kept for this run only", "error", err)
		}
		file = f
	}
	cfg := o.config(endpoint)
	cfg.Prompt, cfg.TokenFile, cfg.Logger = prompt, file, log
	t, err := oauth.New(*cfg)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t}, nil
}

// config is the OAuth configuration of the flags for the server at endpoint.
func (o *oauthFlags) config(endpoint string) *oauth.Config {
	return &oauth.Config{
		ServerURL:         endpoint,
		ClientID:          *o.clientID,
		ClientSecret:      *o.clientSecret,
		ClientMetadataURL: *o.metadataURL,
		RedirectURL:       *o.redirectURL,
		NonInteractive:    *o.nonInteractive,
		Timeout:           *o.timeout,
	}
}

// login is -oauth-login: it connects to the remote server as an MCP client, which authorizes when
// the server asks, stores the token, and ends the session. It returns the exit status.
func (o *oauthFlags) login(command []string, getenv func(string) string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sampling-proxy: "+format+"\n", a...)
		return 2
	}
	if len(command) != 1 || (!strings.HasPrefix(command[0], "http://") && !strings.HasPrefix(command[0], "https://")) {
		return fail("-oauth-login needs the remote server's URL: sampling-proxy -oauth-login -- https://host/mcp")
	}
	if !*o.enabled {
		return fail("-oauth-login and -oauth=false contradict each other")
	}
	secrets, err := o.check(command, true, getenv)
	if err != nil {
		return fail("%v", err)
	}
	log := slog.New(newRedactingHandler(stderr, slog.LevelInfo, secrets)).With("src", "sampling-proxy")
	client, err := o.client(command[0], stderr, log)
	if err != nil {
		log.Error("OAuth with the remote server", "error", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), *o.timeout+time.Minute)
	defer cancel()
	mc := mcp.NewClient(&mcp.Implementation{Name: "sampling-proxy", Version: "oauth-login"}, nil)
	cs, err := mc.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: command[0], HTTPClient: client, DisableStandaloneSSE: true}, nil)
	if err != nil {
		log.Error("connecting to the remote server", "error", err)
		return 1
	}
	cs.Close()
	log.Info("the remote server accepts the proxy; the token is stored for the next runs")
	return 0
}
