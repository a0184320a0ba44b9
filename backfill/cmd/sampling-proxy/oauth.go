package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/oauth"
)

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
	}
}

// check validates the flags, taking the client secret from the environment when the flag is not
// given, and returns the secrets the log must redact.
func (o *oauthFlags) check(remote bool, getenv func(string) string) ([]string, error) {
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
	t, err := oauth.New(oauth.Config{
		ServerURL:         endpoint,
		ClientID:          *o.clientID,
		ClientSecret:      *o.clientSecret,
		ClientMetadataURL: *o.metadataURL,
		RedirectURL:       *o.redirectURL,
		NonInteractive:    *o.nonInteractive,
		Prompt:            prompt,
		TokenFile:         file,
		Timeout:           *o.timeout,
		Logger:            log,
	})
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t}, nil
}
