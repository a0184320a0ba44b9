package oauth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"golang.org/x/oauth2"
)

// DefaultTokenFile is the file that keeps the token for the MCP server at serverURL: one file per
// server, mcpgen/sampling-proxy/oauth/<hash of the URL>.json under the user's configuration
// directory ([os.UserConfigDir]: $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application
// Support on macOS, %AppData% on Windows).
func DefaultTokenFile(serverURL string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(serverURL))
	return filepath.Join(dir, "mcpgen", "sampling-proxy", "oauth", hex.EncodeToString(sum[:12])+".json"), nil
}

// record is what the token file holds: the token, and what refreshing it needs.
type record struct {
	Server       string        `json:"server"`   // the MCP server's URL
	Resource     string        `json:"resource"` // the resource parameter it was issued for
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style"` // oauth2.AuthStyle
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

func (r *record) oauth2Config() *oauth2.Config {
	return &oauth2.Config{
		ClientID:     r.ClientID,
		ClientSecret: r.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: r.TokenURL, AuthStyle: oauth2.AuthStyle(r.AuthStyle)},
		Scopes:       r.Scopes,
	}
}

// store reads and writes the token file.
type store struct {
	path   string
	server string
	mu     sync.Mutex
}

// load returns the record for the store's server, or nil when there is none. A file (or its
// directory) that is another user's or that others may read is an error: the token may be
// someone else's, or may have leaked, and is not used.
func (s *store) load() (*record, error) {
	f, err := openPrivate(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("oauth: the token file: %w", err)
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		// Not the error's text: it may quote the file.
		return nil, fmt.Errorf("oauth: the token file %s is not valid JSON: remove it", s.path)
	}
	if rec.Server != s.server || rec.Token == nil || rec.Token.AccessToken == "" || rec.TokenURL == "" {
		return nil, nil // another server's, or incomplete: authorize again
	}
	return &rec, nil
}

// save writes rec atomically, as a file of mode 0600 in a directory of mode 0700.
func (s *store) save(rec *record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := checkPrivateDir(dir); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.path)
}

// persistingSource refreshes the token when it expires (with the resource parameter), and stores
// every new token.
type persistingSource struct {
	t      *Transport
	cfg    *oauth2.Config
	ctx    context.Context // for refreshes
	src    oauth2.TokenSource
	forced bool // made by refreshNow: the server refused the token before it expired

	mu   sync.Mutex
	rec  record // rec.Token is the latest token
	last string // the access token last stored
}

// persisting returns the token source of tok, which is stored now unless it was read from the
// token file.
func (t *Transport) persisting(rec *record, cfg *oauth2.Config, tok *oauth2.Token, stored bool) oauth2.TokenSource {
	base := http.DefaultTransport
	client := &http.Client{}
	if t.cfg.Client != nil {
		client.Timeout = t.cfg.Client.Timeout
		if t.cfg.Client.Transport != nil {
			base = t.cfg.Client.Transport
		}
	}
	client.Transport = &refreshResource{base: base, tokenURL: cfg.Endpoint.TokenURL, resource: rec.Resource}
	// The token source outlives the request that made it: its refreshes use this context.
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	p := &persistingSource{t: t, cfg: cfg, ctx: ctx, src: cfg.TokenSource(ctx, tok), rec: *rec}
	if stored {
		p.last = tok.AccessToken
	}
	p.keep(tok)
	return p
}

// current returns the latest token.
func (p *persistingSource) current() *oauth2.Token {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rec.Token
}

// errNoRefreshToken: the token cannot be refreshed.
var errNoRefreshToken = errors.New("no refresh token")

// refreshNow returns a token source with a token refreshed now, whatever the expiry of the
// current one (the server refused it before its time, or it had no expiry).
func (p *persistingSource) refreshNow() (*persistingSource, error) {
	p.mu.Lock()
	rt, last := p.rec.Token.RefreshToken, p.last
	rec := p.rec
	p.mu.Unlock()
	if rt == "" {
		return nil, errNoRefreshToken
	}
	src := p.cfg.TokenSource(p.ctx, &oauth2.Token{RefreshToken: rt})
	tok, err := src.Token()
	if err != nil {
		return nil, err
	}
	np := &persistingSource{t: p.t, cfg: p.cfg, ctx: p.ctx, src: src, forced: true, rec: rec, last: last}
	np.keep(tok)
	return np, nil
}

// Token implements [oauth2.TokenSource].
func (p *persistingSource) Token() (*oauth2.Token, error) {
	tok, err := p.src.Token()
	if err != nil {
		return nil, err
	}
	p.keep(tok)
	return tok, nil
}

// keep notes tok as the latest token, and stores it when it is not the token last stored.
func (p *persistingSource) keep(tok *oauth2.Token) {
	p.t.secret.add(tok.AccessToken, tok.RefreshToken)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rec.Token = tok
	if p.t.store == nil || tok.AccessToken == p.last {
		return
	}
	if err := p.t.store.save(&p.rec); err != nil {
		p.t.log.Warn("could not store the OAuth token; it is kept for this run only", "file", p.t.store.path, "error", p.t.scrub(err))
		return
	}
	p.last = tok.AccessToken
	p.t.log.Info("stored the OAuth token", "file", p.t.store.path)
}

// refreshResource adds the resource parameter (RFC 8707) to the refresh requests that
// golang.org/x/oauth2 sends to the token endpoint, which it has no option for: the MCP
// authorization spec wants it in every token request.
type refreshResource struct {
	base     http.RoundTripper
	tokenURL string
	resource string
}

func (r *refreshResource) RoundTrip(req *http.Request) (*http.Response, error) {
	if r.resource == "" || req.Method != http.MethodPost || req.Body == nil || req.URL.String() != r.tokenURL {
		return r.base.RoundTrip(req)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(body))
	if err == nil && form.Get("grant_type") == "refresh_token" && !form.Has("resource") {
		form.Set("resource", r.resource)
		body = []byte(form.Encode())
	}
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return r.base.RoundTrip(req)
}
