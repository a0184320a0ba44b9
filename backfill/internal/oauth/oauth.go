// Package oauth authorizes the sampling proxy with a remote MCP server, as the MCP authorization
// spec (2025-11-25, basic/authorization) has it, for an [http.Client] whose requests go to that
// server.
//
// The flow is go-sdk's [auth.AuthorizationCodeHandler]: discovery from the WWW-Authenticate
// challenge of a 401 (protected resource metadata, at the challenge's resource_metadata URL,
// then at the well-known URLs of the endpoint's path and of its root; authorization server
// metadata at the OAuth and OpenID well-known URLs, with path insertion and appending; the
// 2025-03-26 fallbacks when neither is served), PKCE (S256, refused when the authorization
// server does not list it), the client (a client ID metadata document when the server supports
// them, else a pre-registered client, else dynamic client registration), the resource parameter,
// the scopes of the challenge (else the protected resource's scopes_supported), offline_access
// when the authorization server offers it, and the union of the scopes granted so far on
// step-up. This package adds what a long-running proxy needs around it:
//
//   - [Transport], an [http.RoundTripper] that sends the token to the server's origin only,
//     authorizes on a 401 with a Bearer challenge and on a 403 whose challenge says
//     insufficient_scope (step-up), resends the request once, and does not authorize again for a
//     scope that a step-up did not get; concurrent requests share one authorization; a token
//     refused before it expires is refreshed first; what a server can make it authorize is
//     bounded (authorizations a minute, the scopes asked for, one registration per authorization
//     server: see stepup.go);
//   - the authorization step: the authorization URL printed for a person, the code received on a
//     loopback redirect listener (RFC 8252), or, non-interactively, the URL followed by the proxy
//     itself, for authorization servers that approve without a person;
//   - the token, the client it was issued to and the token endpoint kept in a file of mode 0600
//     (in a directory of mode 0700), read only when it and its directory are the user's own (not
//     a link, not open to others: see openPrivate), written atomically, refreshed with the
//     refresh token and the resource parameter when it expires, read again by the next run, and
//     taken from the file when another run stored a newer one;
//   - errors and log records that never carry a token, a code, a refresh token or a client secret.
package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Config configures a [Transport].
type Config struct {
	// ServerURL is the MCP server's endpoint. The token goes to its origin only.
	ServerURL string
	// ClientID and ClientSecret are a client registered with the authorization server beforehand
	// (the secret is empty for a public client). Used when the server does not support client ID
	// metadata documents or ClientMetadataURL is empty.
	ClientID, ClientSecret string
	// ClientMetadataURL is the https URL of the proxy's client ID metadata document, used as the
	// client ID where the authorization server supports them.
	ClientMetadataURL string
	// RedirectURL is the loopback URL of the redirect listener (http://127.0.0.1:PORT/PATH or
	// http://localhost:PORT/PATH; port 0 or none picks a free port once, kept for the run).
	// Empty: http://127.0.0.1:0/callback.
	RedirectURL string
	// NonInteractive follows the authorization URL instead of asking a person to open it.
	NonInteractive bool
	// Prompt receives the authorization URL for a person (e.g. os.Stderr).
	Prompt io.Writer
	// TokenFile keeps the token between runs; empty keeps it in memory only. See [DefaultTokenFile].
	TokenFile string
	// Timeout bounds one authorization (the metadata's discovery, the client's registration,
	// and the person's or the redirects'); 0 is 5 minutes.
	Timeout time.Duration
	// Client sends the metadata, registration and token requests; nil is go-sdk's default, which
	// refuses private and link-local addresses (SSRF protection) but allows loopback.
	Client *http.Client
	// Base sends the requests to the MCP server; nil is http.DefaultTransport.
	Base http.RoundTripper
	// Logger receives what the authorization does, never a credential; nil discards it.
	Logger *slog.Logger
}

// Transport is an [http.RoundTripper] that authorizes requests to an MCP server with OAuth.
type Transport struct {
	cfg    Config
	origin *url.URL
	base   http.RoundTripper
	log    *slog.Logger
	secret *secrets
	store  *store // nil: no token file

	// mu serializes authorizations; it guards the fields below it.
	mu         sync.Mutex
	redirect   *url.URL                              // the redirect URL, its port fixed once bound
	refused    map[string]*ScopeError                // scope sets that a step-up will not ask for again
	registered map[string]*oauthex.ClientCredentials // the clients registered, by issuer
	recent     []time.Time                           // when the authorizations of the last minute started
	unlisted   []string                              // the scopes asked for that the resource does not list
	now        func() time.Time
	resource   string   // the resource parameter of the authorization in progress
	scopes     []string // the scopes requested by the authorization in progress
	granted    []string // the scopes of the current token (of the token file, at first)

	tsMu sync.RWMutex
	ts   oauth2.TokenSource // nil until a token is known
	gen  int                // incremented when ts changes
}

// New returns a Transport for cfg, with the token of cfg.TokenFile when it holds one for
// cfg.ServerURL.
func New(cfg Config) (*Transport, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	origin, _ := url.Parse(cfg.ServerURL)
	if cfg.RedirectURL == "" {
		cfg.RedirectURL = "http://127.0.0.1:0/callback"
	}
	redirect, _ := parseRedirect(cfg.RedirectURL)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	if cfg.Prompt == nil {
		cfg.Prompt = io.Discard
	}
	t := &Transport{
		cfg:        cfg,
		origin:     origin,
		base:       cfg.Base,
		log:        cfg.Logger,
		secret:     &secrets{},
		redirect:   redirect,
		refused:    map[string]*ScopeError{},
		registered: map[string]*oauthex.ClientCredentials{},
		now:        time.Now,
	}
	if t.base == nil {
		t.base = http.DefaultTransport
	}
	if t.log == nil {
		t.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	t.secret.add(cfg.ClientSecret)
	if cfg.TokenFile != "" {
		t.store = &store{path: cfg.TokenFile, server: cfg.ServerURL}
		rec, err := t.store.load()
		if err != nil {
			return nil, err
		}
		if rec != nil {
			t.secret.add(rec.ClientSecret, rec.Token.AccessToken, rec.Token.RefreshToken)
			t.setTokenSource(t.persisting(rec, rec.oauth2Config(), rec.Token, true))
			t.granted = rec.Scopes
			t.log.Info("using the stored OAuth token", "file", cfg.TokenFile, "scopes", rec.Scopes)
		}
	}
	return t, nil
}

// Validate reports what is wrong with c's URLs and client, as [New] does.
func (c *Config) Validate() error {
	origin, err := url.Parse(c.ServerURL)
	if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") || origin.Host == "" {
		return fmt.Errorf("oauth: the server URL is not an http or https URL")
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		return errors.New("oauth: a client secret needs its client ID")
	}
	if c.ClientMetadataURL != "" {
		u, err := url.Parse(c.ClientMetadataURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "" {
			return fmt.Errorf("oauth: the client ID metadata document URL %q is not an https URL with a path", c.ClientMetadataURL)
		}
	}
	if c.RedirectURL != "" {
		if _, err := parseRedirect(c.RedirectURL); err != nil {
			return err
		}
	}
	return nil
}

func parseRedirect(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		return nil, fmt.Errorf("oauth: the redirect URL %q is not a loopback http URL (http://127.0.0.1:PORT/PATH)", s)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

func (t *Transport) tokenSource() (oauth2.TokenSource, int) {
	t.tsMu.RLock()
	defer t.tsMu.RUnlock()
	return t.ts, t.gen
}

func (t *Transport) setTokenSource(ts oauth2.TokenSource) {
	t.tsMu.Lock()
	t.ts = ts
	t.gen++
	t.tsMu.Unlock()
}

// RoundTrip implements [http.RoundTripper].
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	sameOrigin := r.URL.Scheme == t.origin.Scheme && r.URL.Host == t.origin.Host
	if !sameOrigin {
		return t.base.RoundTrip(r)
	}
	req, gen := t.withToken(r)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	stepUp, scope := insufficientScope(resp)
	if !stepUp && (resp.StatusCode != http.StatusUnauthorized || !bearerChallenge(resp)) {
		// A 401 without a Bearer challenge is not OAuth's (RFC 6750 section 3): the server wants
		// some other credential, e.g. a header of the operator's.
		return resp, nil
	}
	if r.Body != nil && r.Body != http.NoBody && r.GetBody == nil {
		return resp, nil // it cannot be sent again
	}
	if e := t.refusal(scope); stepUp && e != nil {
		resp.Body.Close()
		return nil, e
	}
	if err := t.authorize(r.Context(), req, resp, gen); err != nil {
		return nil, err
	}
	again, _ := t.withToken(r)
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		again.Body = body
	}
	resp, err = t.base.RoundTrip(again)
	if err != nil {
		return nil, err
	}
	// What still fails is an error, not the response: go-sdk's client transport ends the whole
	// session on a 401 or 403, where only this request failed.
	if again, scope := insufficientScope(resp); again {
		// The authorization did not get the scope: asking again would loop (the spec's clients
		// should limit retries), so requests that need it fail from now on.
		resp.Body.Close()
		e := &ScopeError{Scope: scope}
		t.refuse(e)
		t.log.Warn("the remote server still wants more scope after authorization; not asking again", "scope", scope)
		return nil, e
	}
	if resp.StatusCode == http.StatusUnauthorized {
		resp.Body.Close()
		t.log.Warn("the remote server refused the OAuth token it was just authorized for")
		return nil, fmt.Errorf("oauth: %s refused the token it was just authorized for (HTTP 401)", t.origin.Redacted())
	}
	return resp, nil
}

// ScopeError is the error of a request that needs a scope which authorization did not obtain,
// or which the proxy does not ask for: its authorization server does not list it, or it is one
// too many of those the resource's metadata does not list (see stepup.go).
type ScopeError struct {
	Scope        string // the scope the server asked for
	Unadvertised string // the scope of Scope that is not asked for (see [Transport]); "": not granted
}

func (e *ScopeError) Error() string {
	if e.Unadvertised != "" {
		return fmt.Sprintf("oauth: the server wants the scope %q, which its authorization server does not advertise (scopes_supported), or which is one too many of those its metadata does not list: not authorizing for it", e.Unadvertised)
	}
	return fmt.Sprintf("oauth: the server wants the scope %q, which the authorization server did not grant", e.Scope)
}

// withToken returns a copy of r with the current token, and the token source's generation.
func (t *Transport) withToken(r *http.Request) (*http.Request, int) {
	req := r.Clone(r.Context())
	ts, gen := t.tokenSource()
	if ts == nil {
		return req, gen
	}
	tok, err := ts.Token()
	if err != nil && t.fromFile() {
		ts, gen = t.tokenSource()
		tok, err = ts.Token()
	}
	if err != nil {
		// An expired token that does not refresh: the server's 401 starts an authorization.
		t.log.Warn("the OAuth token could not be refreshed; authorizing again when the server asks", "error", t.scrub(err))
		return req, gen
	}
	t.secret.add(tok.AccessToken, tok.RefreshToken)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return req, gen
}

// fromFile takes the token file's token when another run of the proxy stored another one than
// the current token (it refreshed the token, which may have rotated the refresh token, or it
// authorized anew), and reports whether it did.
func (t *Transport) fromFile() bool {
	if t.store == nil {
		return false
	}
	rec, err := t.store.load()
	if err != nil || rec == nil {
		return false
	}
	ts, _ := t.tokenSource()
	if p, ok := ts.(*persistingSource); ok && p.current().AccessToken == rec.Token.AccessToken {
		return false
	}
	t.secret.add(rec.ClientSecret, rec.Token.AccessToken, rec.Token.RefreshToken)
	t.setTokenSource(t.persisting(rec, rec.oauth2Config(), rec.Token, true))
	t.log.Info("using the OAuth token another run of the proxy stored", "file", t.store.path)
	return true
}

// insufficientScope reports whether resp is a 403 whose Bearer challenge says insufficient_scope,
// and the scope it names.
func insufficientScope(resp *http.Response) (bool, string) {
	if resp.StatusCode != http.StatusForbidden {
		return false, ""
	}
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return false, ""
	}
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
			return true, scopeKey(c.Params["scope"])
		}
	}
	return false, ""
}

// bearerChallenge reports whether resp has a Bearer WWW-Authenticate challenge.
func bearerChallenge(resp *http.Response) bool {
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return false
	}
	for _, c := range cs {
		if c.Scheme == "bearer" {
			return true
		}
	}
	return false
}

func scopeKey(scope string) string {
	f := strings.Fields(scope)
	slices.Sort(f)
	return strings.Join(slices.Compact(f), " ")
}

// refusal is the error of a step-up for scope that is not asked for again, nil for none.
func (t *Transport) refusal(scope string) *ScopeError {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refused[scope]
}

func (t *Transport) refuse(e *ScopeError) {
	t.mu.Lock()
	t.refused[e.Scope] = e
	t.mu.Unlock()
}

// authorize runs the authorization for the failed request req and its response resp, unless
// another request did one since req was sent (gen), in which case req is just sent again.
func (t *Transport) authorize(ctx context.Context, req *http.Request, resp *http.Response, gen int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	ts, now := t.tokenSource()
	if now != gen {
		// Another request authorized (or refreshed) since this one was sent: it is sent again
		// with the new token first.
		resp.Body.Close()
		return nil
	}
	if resp.StatusCode == http.StatusUnauthorized && t.fromFile() {
		resp.Body.Close()
		return nil
	}
	// A token refused before it expired (or that has no expiry): its refresh token first, unless
	// the token refused is such a refreshed one.
	if p, ok := ts.(*persistingSource); ok && resp.StatusCode == http.StatusUnauthorized && !p.forced {
		np, err := p.refreshNow()
		if err == nil {
			resp.Body.Close()
			t.setTokenSource(np)
			t.log.Info("the remote server refused the OAuth token; refreshed it", "url", t.origin.Redacted())
			return nil
		}
		if err != errNoRefreshToken {
			t.log.Warn("the remote server refused the OAuth token, which did not refresh; authorizing again", "error", t.scrub(err))
		}
	}
	// The timeout bounds the discovery and the registration too: t.mu is held all along, and
	// every request of the transport waits for it.
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	var h *auth.AuthorizationCodeHandler
	d, err := t.admitLocked(ctx, req, resp)
	if err == nil {
		h, err = t.handlerLocked(ctx, d)
	}
	if err != nil {
		resp.Body.Close()
		return err
	}
	if resp.StatusCode == http.StatusForbidden {
		t.log.Info("the remote server wants more scope; authorizing again (step-up)", "url", t.origin.Redacted())
	} else {
		t.log.Info("the remote server wants OAuth authorization", "url", t.origin.Redacted())
	}
	t.resource, t.scopes = "", nil
	// Authorize closes resp's body.
	if err := h.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("oauth: authorizing with %s: %w", t.origin.Redacted(), t.scrub(err))
	}
	t.log.Info("authorized with the remote server", "url", t.origin.Redacted(), "resource", t.resource, "scopes", t.scopes)
	return nil
}

// handlerLocked returns go-sdk's handler for one authorization with the authorization server of
// d: as the client of the flags, else as the one the proxy registered there, else as go-sdk picks.
func (t *Transport) handlerLocked(ctx context.Context, d *discovered) (*auth.AuthorizationCodeHandler, error) {
	// The redirect listener's port is fixed at the first authorization: it is part of the
	// client's registration.
	if t.redirect.Port() == "" || t.redirect.Port() == "0" {
		ln, err := listenRedirect(t.redirect)
		if err != nil {
			return nil, err
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		ln.Close()
		t.redirect.Host = net.JoinHostPort(t.redirect.Hostname(), port)
	}
	redirect := t.redirect.String()
	meta := &oauthex.ClientRegistrationMetadata{
		RedirectURIs:    []string{redirect},
		ClientName:      "sampling-proxy (mcpgen)",
		GrantTypes:      []string{"authorization_code", "refresh_token"},
		ResponseTypes:   []string{"code"},
		ApplicationType: "native", // its redirect URI is a loopback one
	}
	registered, err := t.clientLocked(ctx, d, meta)
	if err != nil {
		return nil, err
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:                     redirect,
		AuthorizationCodeFetcher:        t.fetch,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: meta},
		PreregisteredClient:             registered,
		RequestRefreshToken:             true,
		Client:                          t.cfg.Client,
		NewTokenSource:                  t.newTokenSource,
		// The scopes of the challenge (else the resource's), and those of the current token,
		// granted earlier in this run or in an earlier one (step-up keeps them): those advertised.
		ScopeFilter: func(discovered []string) []string {
			var out []string
			for _, s := range slices.Concat(discovered, t.granted) {
				if slices.Contains(out, s) {
					continue
				}
				var ok bool
				if t.unlisted, ok = allowScope(d, t.unlisted, s); ok {
					out = append(out, s)
				}
			}
			return out
		},
	}
	if t.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: t.cfg.ClientMetadataURL}
	}
	if t.cfg.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: t.cfg.ClientID}
		if t.cfg.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: t.cfg.ClientSecret}
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	return h, nil
}

// newTokenSource is go-sdk's hook after a code was exchanged for a token: the token is stored,
// and refreshed with the resource parameter.
func (t *Transport) newTokenSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	t.secret.add(cfg.ClientSecret, tok.AccessToken, tok.RefreshToken)
	rec := &record{
		Server:       t.cfg.ServerURL,
		Resource:     t.resource,
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		TokenURL:     cfg.Endpoint.TokenURL,
		AuthStyle:    int(cfg.Endpoint.AuthStyle),
		Scopes:       cfg.Scopes,
		Token:        tok,
	}
	t.scopes, t.granted = cfg.Scopes, cfg.Scopes
	ts := t.persisting(rec, cfg, tok, false)
	t.setTokenSource(ts)
	return ts, nil
}

// scrub returns err with every credential the transport knows replaced, and without the bodies
// of token endpoint errors.
func (t *Transport) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		// The body of a token endpoint's error is not shown: only its status and error code.
		msg = strings.Replace(msg, re.Error(), retrieveErrorText(re), 1)
	}
	msg = t.secret.redact(msg)
	out := &scrubbed{msg: msg}
	for _, cause := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, cause) {
			out.cause = cause // callers may ask whether the authorization was cancelled
		}
	}
	return out
}

func retrieveErrorText(re *oauth2.RetrieveError) string {
	s := "the token endpoint refused the request"
	if re.Response != nil {
		s += " (HTTP " + re.Response.Status + ")"
	}
	if re.ErrorCode != "" {
		s += ": " + re.ErrorCode
		if re.ErrorDescription != "" {
			s += ": " + re.ErrorDescription
		}
	}
	return s
}

type scrubbed struct {
	msg   string
	cause error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.cause }

// secrets are the credentials the transport has seen, to be kept out of errors and logs.
type secrets struct {
	mu   sync.Mutex
	list []string
}

func (s *secrets) add(vs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range vs {
		if len(v) >= 4 && !slices.Contains(s.list, v) {
			s.list = append(s.list, v)
		}
	}
}

func (s *secrets) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.list {
		text = strings.ReplaceAll(text, v, "[REDACTED]")
	}
	return text
}
