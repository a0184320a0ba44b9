package oauth_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/oauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// authServer is a small OAuth 2.1 authorization server that approves without a person, and an
// MCP server (go-sdk's, over Streamable HTTP) that wants its tokens: "read" for everything, the
// scope named by a tool's name for tools/call ("write", "admin"). "admin" is never granted.
type authServer struct {
	t   *testing.T
	srv *httptest.Server

	mu            sync.Mutex
	expiresIn     int               // seconds; 0: an hour; negative: no expires_in (and no expiry)
	tokens        map[string]grant  // access token -> grant
	refresh       map[string]grant  // refresh token -> grant
	authorizeReqs []url.Values      // the authorization requests' queries
	tokenReqs     []url.Values      // the token requests' forms
	registrations int               // dynamic client registrations
	metadataReqs  int               // requests for the resource's or the authorization server's metadata
	codes         map[string]string // code -> scope
	failRefresh   string            // when set, refresh requests fail with this error_description
	seen          []string          // the bearer tokens the MCP server received
	brokenToken   bool              // the token endpoint fails, echoing the code and the client's credentials
	authorizePage string            // "deny": redirect with access_denied; "login": answer with a login page
	// The scopes_supported of the protected resource metadata and of the authorization server's
	// (nil: not listed).
	resourceScopes, serverScopes []string
}

type grant struct {
	scopes  []string
	expires time.Time
}

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{t: t, tokens: map[string]grant{}, refresh: map[string]grant{}, codes: map[string]string{}, resourceScopes: []string{"read", "write", "admin"}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", a.resourceMetadata)
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", a.serverMetadata)
	mux.HandleFunc("POST /register", a.register)
	mux.HandleFunc("GET /authorize", a.authorize)
	mux.HandleFunc("POST /token", a.token)

	server := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	for _, name := range []string{"read", "write", "admin"} {
		mcp.AddTool(server, &mcp.Tool{Name: name, Description: "needs the scope " + name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil, nil
		})
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux.HandleFunc("/mcp", a.protect(mcpHandler))
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

// resourceMetadata answers the protected resource's metadata (RFC 9728), counting the request.
func (a *authServer) resourceMetadata(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.metadataReqs++
	writeJSON(w, map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}, "scopes_supported": a.resourceScopes})
}

// serverMetadata answers the authorization server's metadata (RFC 8414), counting the request.
func (a *authServer) serverMetadata(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.metadataReqs++
	writeJSON(w, map[string]any{
		"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize", "token_endpoint": a.srv.URL + "/token",
		"registration_endpoint": a.srv.URL + "/register", "response_types_supported": []string{"code"},
		"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic"}, "scopes_supported": a.serverScopes,
	})
}

// register registers a client dynamically (RFC 7591), counting the registration.
func (a *authServer) register(w http.ResponseWriter, r *http.Request) {
	var meta struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	json.NewDecoder(r.Body).Decode(&meta)
	a.mu.Lock()
	a.registrations++
	a.mu.Unlock()
	writeJSONStatus(w, http.StatusCreated, map[string]any{"client_id": "client-1", "client_secret": "client-secret-" + rand.Text(), "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "client_secret_basic"})
}

// authorize records the request and redirects back with a code for its scope, or shows a login page or denies, as authorizePage says.
func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	code := "code-" + rand.Text()
	a.mu.Lock()
	a.authorizeReqs = append(a.authorizeReqs, q)
	a.codes[code] = q.Get("scope")
	a.mu.Unlock()
	a.mu.Lock()
	page := a.authorizePage
	a.mu.Unlock()
	if page == "login" {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<form>user, password</form>")
		return
	}
	to, _ := url.Parse(q.Get("redirect_uri"))
	back := to.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	if page == "deny" {
		back.Del("code")
		back.Set("error", "access_denied")
		back.Set("error_description", "the user said no")
	}
	to.RawQuery = back.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// token exchanges a code or a refresh token (rotated) for a grant, admin never granted; brokenToken and failRefresh make it fail.
func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tokenReqs = append(a.tokenReqs, r.PostForm)
	if a.brokenToken {
		user, pass, _ := r.BasicAuth()
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "cannot take code %s from %s:%s", r.PostForm.Get("code"), user, pass)
		return
	}
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		scope, ok := a.codes[r.PostForm.Get("code")]
		if !ok {
			writeJSONStatus(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(a.codes, r.PostForm.Get("code"))
		scopes = slices.DeleteFunc(strings.Fields(scope), func(s string) bool { return s == "admin" })
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		g, ok := a.refresh[rt]
		if a.failRefresh != "" || !ok {
			// Some servers echo what they were sent: the error must not reach a log.
			writeJSONStatus(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": a.failRefresh + " " + rt})
			return
		}
		delete(a.refresh, rt) // rotated
		scopes = g.scopes
	}
	exp := a.expiresIn
	if exp == 0 {
		exp = 3600
	}
	access, refresh := "access-"+rand.Text(), "refresh-"+rand.Text()
	g := grant{scopes: scopes, expires: time.Now().Add(time.Duration(exp) * time.Second)}
	answer := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": exp, "refresh_token": refresh, "scope": strings.Join(scopes, " ")}
	if exp < 0 {
		g.expires = time.Now().Add(time.Hour)
		delete(answer, "expires_in")
	}
	a.tokens[access] = g
	a.refresh[refresh] = g
	writeJSON(w, answer)
}

// protect serves next to a bearer of a token that is valid and has the scopes the request
// needs ("read", and a called tool's name), else a challenge naming the scope missing.
func (a *authServer) protect(next http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		need := []string{"read"}
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == "tools/call" {
			need = append(need, msg.Params.Name)
		}
		prm := a.srv.URL + "/.well-known/oauth-protected-resource/mcp"
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		g, ok := a.tokens[token]
		if token != "" {
			a.seen = append(a.seen, token)
		}
		a.mu.Unlock()
		if !ok || time.Now().After(g.expires) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q, scope="read"`, prm))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		for _, s := range need {
			if !slices.Contains(g.scopes, s) {
				// The challenge names the scope that is missing, not the ones granted already.
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, s, prm))
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) { writeJSONStatus(w, http.StatusOK, v) }

func writeJSONStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (a *authServer) counts() (authorizations, tokens, registrations int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.authorizeReqs), len(a.tokenReqs), a.registrations
}

// secrets returns every credential the authorization server issued or was sent.
func (a *authServer) secrets() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for tok := range a.tokens {
		out = append(out, tok)
	}
	for tok := range a.refresh {
		out = append(out, tok)
	}
	for _, f := range a.tokenReqs {
		for _, k := range []string{"code", "refresh_token", "client_secret", "code_verifier"} {
			if v := f.Get(k); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// syncBuffer is a log destination read while written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTransport returns a non-interactive transport to a's MCP server, logging to log.
func newTransport(t *testing.T, a *authServer, tokenFile string, log io.Writer) *oauth.Transport {
	t.Helper()
	tr, err := oauth.New(oauth.Config{
		ServerURL:      a.srv.URL + "/mcp",
		NonInteractive: true,
		TokenFile:      tokenFile,
		Timeout:        20 * time.Second,
		Logger:         slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// connect opens a go-sdk client session over tr.
func connect(t *testing.T, a *authServer, tr http.RoundTripper) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: a.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: tr}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(cs *mcp.ClientSession, tool string) error {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("tool error: %v", res.Content)
	}
	return nil
}

func TestAuthorizeStoreAndReuse(t *testing.T) {
	a := newAuthServer(t)
	dir := filepath.Join(t.TempDir(), "config")
	file := filepath.Join(dir, "token.json")
	var log syncBuffer
	cs := connect(t, a, newTransport(t, a, file, &log))
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	auths, _, regs := a.counts()
	if auths != 1 || regs != 1 {
		t.Fatalf("authorizations %d, registrations %d; want 1 and 1", auths, regs)
	}
	q := a.authorizeReqs[0]
	for k, want := range map[string]string{"resource": a.srv.URL + "/mcp", "scope": "read", "code_challenge_method": "S256", "client_id": "client-1", "response_type": "code"} {
		if got := q.Get(k); got != want {
			t.Errorf("authorization request %s = %q, want %q", k, got, want)
		}
	}
	if got := a.tokenReqs[0].Get("resource"); got != a.srv.URL+"/mcp" {
		t.Errorf("token request resource = %q", got)
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("token file mode %#o, want 0600", info.Mode().Perm())
		}
		dinfo, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if dinfo.Mode().Perm() != 0o700 {
			t.Errorf("token directory mode %#o, want 0700", dinfo.Mode().Perm())
		}
	}

	// The next run reads the token: no authorization, no registration.
	cs2 := connect(t, a, newTransport(t, a, file, &log))
	if err := call(cs2, "read"); err != nil {
		t.Fatal(err)
	}
	if auths, _, regs := a.counts(); auths != 1 || regs != 1 {
		t.Errorf("with the stored token: authorizations %d, registrations %d; want still 1 and 1", auths, regs)
	}
	assertNoSecrets(t, a, log.String())
}

func TestRefresh(t *testing.T) {
	a := newAuthServer(t)
	a.expiresIn = 5 // within oauth2's 10s expiry margin: every use refreshes
	file := filepath.Join(t.TempDir(), "token.json")
	var log syncBuffer
	cs := connect(t, a, newTransport(t, a, file, &log))
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	auths, _, _ := a.counts()
	if auths != 1 {
		t.Fatalf("authorizations %d, want 1", auths)
	}
	var refreshes []url.Values
	a.mu.Lock()
	for _, f := range a.tokenReqs {
		if f.Get("grant_type") == "refresh_token" {
			refreshes = append(refreshes, f)
		}
	}
	a.mu.Unlock()
	if len(refreshes) == 0 {
		t.Fatal("no refresh request")
	}
	for _, f := range refreshes {
		if f.Get("resource") != a.srv.URL+"/mcp" {
			t.Errorf("refresh request without the resource parameter: resource=%q", f.Get("resource"))
		}
	}
	// The refreshed (rotated) token is the one stored, and a new run refreshes with it.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Token struct {
			RefreshToken string `json:"refresh_token"`
		} `json:"token"`
	}
	json.Unmarshal(data, &rec)
	a.mu.Lock()
	_, live := a.refresh[rec.Token.RefreshToken]
	a.mu.Unlock()
	if !live {
		t.Error("the token file does not hold the latest refresh token")
	}
	cs2 := connect(t, a, newTransport(t, a, file, &log))
	if err := call(cs2, "read"); err != nil {
		t.Fatal(err)
	}
	if auths, _, _ := a.counts(); auths != 1 {
		t.Errorf("a new run authorized again (%d) instead of refreshing", auths)
	}

	// A refresh the server refuses: a new authorization, and the error (which echoes the
	// refresh token) appears in no log record.
	a.mu.Lock()
	a.failRefresh = "revoked"
	a.expiresIn = 3600 // the new authorization's token needs no refresh
	a.mu.Unlock()
	cs3 := connect(t, a, newTransport(t, a, file, &log))
	if err := call(cs3, "read"); err != nil {
		t.Fatal(err)
	}
	if auths, _, _ := a.counts(); auths != 2 {
		t.Errorf("authorizations %d after a refused refresh, want 2", auths)
	}
	if !strings.Contains(log.String(), "invalid_grant") {
		t.Errorf("the refused refresh is not logged:\n%s", log.String())
	}
	assertNoSecrets(t, a, log.String())
}

// TestRefreshWhenRefused: a token without expiry that the server stops accepting is refreshed,
// not authorized again.
func TestRefreshWhenRefused(t *testing.T) {
	a := newAuthServer(t)
	a.expiresIn = -1
	var log syncBuffer
	cs := connect(t, a, newTransport(t, a, filepath.Join(t.TempDir(), "token.json"), &log))
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	clear(a.tokens) // revoked
	a.mu.Unlock()
	if err := call(cs, "read"); err != nil {
		t.Fatalf("after the token was revoked: %v", err)
	}
	auths, tokens, _ := a.counts()
	if auths != 1 || tokens != 2 {
		t.Errorf("authorizations %d, token requests %d; want 1 and 2 (the code, one refresh)", auths, tokens)
	}
	if a.tokenReqs[1].Get("grant_type") != "refresh_token" || a.tokenReqs[1].Get("resource") != a.srv.URL+"/mcp" {
		t.Errorf("the second token request: %v", a.tokenReqs[1])
	}
	// Revoked again, and the refresh token too: a new authorization.
	a.mu.Lock()
	clear(a.tokens)
	clear(a.refresh)
	a.mu.Unlock()
	if err := call(cs, "read"); err != nil {
		t.Fatalf("after the token and refresh token were revoked: %v", err)
	}
	if auths, _, _ := a.counts(); auths != 2 {
		t.Errorf("authorizations %d, want 2", auths)
	}
	assertNoSecrets(t, a, log.String())
}

// TestTwoRuns: two runs of the proxy share the token file; when one refreshes the token (the
// authorization server rotating the refresh token), the other takes the new token from the file
// rather than asking for a new authorization.
func TestTwoRuns(t *testing.T) {
	a := newAuthServer(t)
	file := filepath.Join(t.TempDir(), "token.json")
	var log syncBuffer
	one := connect(t, a, newTransport(t, a, file, &log))
	if err := call(one, "read"); err != nil {
		t.Fatal(err)
	}
	two := connect(t, a, newTransport(t, a, file, &log))
	a.mu.Lock()
	clear(a.tokens) // revoked: the first run refreshes, the second's refresh token is spent
	a.mu.Unlock()
	if err := call(one, "read"); err != nil {
		t.Fatal(err)
	}
	if err := call(two, "read"); err != nil {
		t.Fatal(err)
	}
	if auths, tokens, _ := a.counts(); auths != 1 || tokens != 2 {
		t.Errorf("authorizations %d, token requests %d; want 1 and 2 (the code, one refresh)", auths, tokens)
	}
	if !strings.Contains(log.String(), "another run of the proxy stored") {
		t.Errorf("the second run did not take the file's token:\n%s", log.String())
	}
	assertNoSecrets(t, a, log.String())
}

func TestStepUp(t *testing.T) {
	a := newAuthServer(t)
	var log syncBuffer
	cs := connect(t, a, newTransport(t, a, "", &log))
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	if err := call(cs, "write"); err != nil {
		t.Fatalf("a step-up call: %v", err)
	}
	auths, _, _ := a.counts()
	if auths != 2 {
		t.Fatalf("authorizations %d, want 2 (the first, the step-up)", auths)
	}
	if got := strings.Fields(a.authorizeReqs[1].Get("scope")); !slices.Contains(got, "read") || !slices.Contains(got, "write") {
		t.Errorf("the step-up asked for %q, want read and write", got)
	}
	// A scope the authorization server never grants: one more authorization, then the 403 goes
	// to the caller, and later calls do not ask again.
	for range 3 {
		err := call(cs, "admin")
		if err == nil || !strings.Contains(err.Error(), `the server wants the scope "admin"`) {
			t.Fatalf("admin call: err = %v, want the scope refused", err)
		}
	}
	if auths, _, regs := a.counts(); auths != 3 || regs != 1 {
		t.Errorf("authorizations %d, registrations %d after three calls needing a scope never granted, want 3 and 1", auths, regs)
	}
	if err := call(cs, "write"); err != nil {
		t.Errorf("write after the refused step-up: %v", err)
	}
	assertNoSecrets(t, a, log.String())
}

// TestStepUpAfterRestart: a step-up in a run that read its token from the file asks for the
// scopes of that token too.
func TestStepUpAfterRestart(t *testing.T) {
	a := newAuthServer(t)
	file := filepath.Join(t.TempDir(), "token.json")
	if err := call(connect(t, a, newTransport(t, a, file, io.Discard)), "read"); err != nil {
		t.Fatal(err)
	}
	// The challenge names "write" only; "read" was granted in the first run.
	cs := connect(t, a, newTransport(t, a, file, io.Discard))
	if err := call(cs, "write"); err != nil {
		t.Fatal(err)
	}
	if auths, _, _ := a.counts(); auths != 2 {
		t.Fatalf("authorizations %d, want 2", auths)
	}
	if got := strings.Fields(a.authorizeReqs[1].Get("scope")); !slices.Contains(got, "read") || !slices.Contains(got, "write") {
		t.Errorf("the step-up after a restart asked for %q, want read and write", got)
	}
}

func TestConcurrentRequestsShareOneAuthorization(t *testing.T) {
	a := newAuthServer(t)
	var log syncBuffer
	cs := connect(t, a, newTransport(t, a, "", &log))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- call(cs, "read") })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if auths, _, _ := a.counts(); auths != 1 {
		t.Errorf("authorizations %d, want 1", auths)
	}
	// And concurrent requests that need a step-up share one.
	errs = make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- call(cs, "write") })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if auths, _, _ := a.counts(); auths != 2 {
		t.Errorf("authorizations %d after concurrent step-ups, want 2", auths)
	}
}

func TestInteractive(t *testing.T) {
	a := newAuthServer(t)
	pr, pw := io.Pipe()
	tr, err := oauth.New(oauth.Config{ServerURL: a.srv.URL + "/mcp", Prompt: pw, Timeout: 20 * time.Second, RedirectURL: "http://localhost:0/cb"})
	if err != nil {
		t.Fatal(err)
	}
	// The person: opens the printed URL (here, by following it).
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "http") {
				resp, err := http.Get(line)
				if err == nil {
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if !strings.Contains(string(body), "authorized") {
						t.Errorf("the redirect listener answered %s: %s", resp.Status, body)
					}
				}
			}
		}
	}()
	cs := connect(t, a, tr)
	pw.Close()
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	if got := a.authorizeReqs[0].Get("redirect_uri"); !strings.HasPrefix(got, "http://localhost:") || !strings.HasSuffix(got, "/cb") {
		t.Errorf("redirect_uri %q", got)
	}
}

func TestInteractiveTimeout(t *testing.T) {
	a := newAuthServer(t)
	var prompt syncBuffer
	tr, err := oauth.New(oauth.Config{ServerURL: a.srv.URL + "/mcp", Prompt: &prompt, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	_, err = tr.RoundTrip(req)
	if err == nil || !strings.Contains(err.Error(), "no authorization came back") {
		t.Fatalf("err = %v, want a timeout waiting for the redirect", err)
	}
	if !strings.Contains(prompt.String(), a.srv.URL+"/authorize?") {
		t.Errorf("the prompt does not show the authorization URL:\n%s", prompt.String())
	}
}

// TestAuthorizationRefused: the authorization server's refusal, and a login page where no person
// is, end the request with an error that says so.
func TestAuthorizationRefused(t *testing.T) {
	for page, want := range map[string]string{
		"deny":  "the authorization server refused: access_denied: the user said no",
		"login": "this authorization server wants a person",
	} {
		a := newAuthServer(t)
		a.authorizePage = page
		tr := newTransport(t, a, "", io.Discard)
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		_, err := tr.RoundTrip(req)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", page, err, want)
		}
	}
}

func TestTokenOnlyToTheServersOrigin(t *testing.T) {
	a := newAuthServer(t)
	file := filepath.Join(t.TempDir(), "t.json")
	cs := connect(t, a, newTransport(t, a, file, io.Discard))
	if err := call(cs, "read"); err != nil {
		t.Fatal(err)
	}
	var got string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer other.Close()
	// The same transport, read from the same file, sending to another origin.
	tr := newTransport(t, a, file, io.Discard)
	for _, target := range []string{a.srv.URL + "/mcp", other.URL} {
		got = ""
		req, _ := http.NewRequest(http.MethodGet, target, nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if target == other.URL && got != "" {
			t.Errorf("another origin got Authorization %q", got)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.seen) == 0 || a.seen[len(a.seen)-1] == "" {
		t.Error("the server's own origin did not get the stored token")
	}
}

// TestOtherAuthentication: a 401 without a Bearer challenge is the caller's, not OAuth's.
func TestOtherAuthentication(t *testing.T) {
	for _, challenge := range []string{"", `Basic realm="x"`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		}))
		var prompt syncBuffer
		tr, err := oauth.New(oauth.Config{ServerURL: srv.URL + "/mcp", Prompt: &prompt, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader("{}"))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatalf("challenge %q: %v", challenge, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || prompt.String() != "" {
			t.Errorf("challenge %q: status %d, prompt %q; want the 401 and no authorization", challenge, resp.StatusCode, prompt.String())
		}
		srv.Close()
	}
}

func TestTokenFileReadableByOthers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes")
	}
	file := filepath.Join(t.TempDir(), "token.json")
	if err := os.WriteFile(file, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(file, 0o644)
	_, err := oauth.New(oauth.Config{ServerURL: "https://example.com/mcp", TokenFile: file})
	if err == nil || !strings.Contains(err.Error(), "may be read by others") {
		t.Fatalf("err = %v, want a refusal of a file others may read", err)
	}
}

func TestDefaultTokenFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CONFIG_HOME is the config directory on Linux")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	a, err := oauth.DefaultTokenFile("https://a.example/mcp")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := oauth.DefaultTokenFile("https://b.example/mcp")
	if filepath.Dir(a) != filepath.Join(dir, "mcpgen", "sampling-proxy", "oauth") || !strings.HasSuffix(a, ".json") || a == b {
		t.Errorf("token files %s and %s", a, b)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  oauth.Config
		want string
	}{
		{oauth.Config{ServerURL: "ftp://x"}, "not an http or https URL"},
		{oauth.Config{ServerURL: "https://x/mcp", ClientSecret: "s3cr3t"}, "needs its client ID"},
		{oauth.Config{ServerURL: "https://x/mcp", ClientMetadataURL: "http://x/client.json"}, "not an https URL with a path"},
		{oauth.Config{ServerURL: "https://x/mcp", ClientMetadataURL: "https://x/"}, "not an https URL with a path"},
		{oauth.Config{ServerURL: "https://x/mcp", RedirectURL: "http://example.com/cb"}, "not a loopback http URL"},
	} {
		_, err := oauth.New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.cfg, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
}

func TestAuthorizationErrorHasNoSecrets(t *testing.T) {
	// The token endpoint refuses the code and echoes it: the error the caller gets has neither
	// the code nor the client secret.
	a := newAuthServer(t)
	var log syncBuffer
	tr := newTransport(t, a, "", &log)
	a.brokenToken = true
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	_, err := tr.RoundTrip(req)
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), "token") {
		t.Errorf("err = %v, want one about the token request", err)
	}
	assertNoSecrets(t, a, err.Error()+"\n"+log.String())
}

// issued matches the credentials the test servers make (rand.Text is 26 base32 characters).
var issued = regexp.MustCompile(`(client-secret|code|access|refresh)-[A-Z2-7]{26}`)

// assertNoSecrets fails when text holds any credential of a.
func assertNoSecrets(t *testing.T, a *authServer, text string) {
	t.Helper()
	for _, s := range a.secrets() {
		if strings.Contains(text, s) {
			t.Errorf("a credential (%.10s...) appears in:\n%s", s, text)
		}
	}
	// Whatever a.secrets missed (the client secret is sent in a header).
	if m := issued.FindString(text); m != "" {
		t.Errorf("a credential (%.20s...) appears in:\n%s", m, text)
	}
}
