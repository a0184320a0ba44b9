package oauth_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill/internal/oauth"
)

// scopes returns "s1" ... "sN".
func scopes(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("s%d", i+1)
	}
	return out
}

// TestStepUpBounded: 30 calls, each answered 403 insufficient_scope with a scope of its own (the
// test server asks for the scope named by the tool), cause a few authorizations: none for a scope
// that the authorization server does not list, at most 4 a minute, and at most 4 in the run for
// scopes that the resource's metadata does not list; each with the one client registered at the
// first, each asking only for the scopes allowed. (They used to cause 31 authorizations, token
// requests and registrations, the last asking for 31 scopes.)
func TestStepUpBounded(t *testing.T) {
	listed := append([]string{"read"}, scopes(30)...)
	for _, tc := range []struct {
		name                         string
		resourceScopes, serverScopes []string
		minutesApart                 bool   // the calls are made a minute apart
		auths                        int    // authorizations, the first (for "read") included
		want                         string // the error of the calls not authorized for
	}{
		{"not listed by the authorization server", listed, []string{"read", "s1"}, true, 2, "does not advertise"},
		{"listed by neither, a minute apart", []string{"read"}, nil, true, 5, "one too many"},
		{"listed by both, at once", listed, listed, false, 4, "authorizations within 1m0s"},
		// offline_access, which the authorization server lists, is not one of the resource's.
		{"listed by the authorization server with offline_access, a minute apart", []string{"read"}, append(listed, "offline_access"), true, 5, "one too many"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAuthServer(t)
			a.resourceScopes, a.serverScopes = tc.resourceScopes, tc.serverScopes
			var log syncBuffer
			tr := newTransport(t, a, "", &log)
			var minutes atomic.Int64
			start := time.Now()
			oauth.SetNow(tr, func() time.Time { return start.Add(time.Duration(minutes.Load()) * time.Minute) })
			cs := connect(t, a, tr)
			refused := 0
			for _, s := range scopes(30) {
				if tc.minutesApart {
					minutes.Add(1)
				}
				if err := call(cs, s); err != nil && strings.Contains(err.Error(), tc.want) {
					refused++
				}
			}
			auths, tokens, regs := a.counts()
			t.Logf("30 calls wanting a new scope each: %d authorizations, %d token requests, %d registrations; %d calls refused", auths, tokens, regs, refused)
			if auths != tc.auths || tokens != tc.auths || regs != 1 {
				t.Errorf("authorizations %d, token requests %d, registrations %d; want %d, %[4]d and 1", auths, tokens, regs, tc.auths)
			}
			if refused != 30-(tc.auths-1) {
				t.Errorf("%d calls refused with %q, want %d", refused, tc.want, 30-(tc.auths-1))
			}
			last := strings.Fields(a.authorizeReqs[len(a.authorizeReqs)-1].Get("scope"))
			want := tc.auths
			if slices.Contains(tc.serverScopes, "offline_access") {
				want++
			}
			if len(last) != want {
				t.Errorf("the last authorization asked for %q, want %d scopes", last, want)
			}
			assertNoSecrets(t, a, log.String())
		})
	}
}

// reached reports whether a call's error, of a tool the test server does not have, is the MCP
// server's own: the call was authorized.
func reached(err error) bool {
	return err != nil && strings.Contains(err.Error(), "unknown tool")
}

// TestLimitBeforeDiscovery: once the authorizations of the minute are used, a step-up is refused
// without a request for the metadata of the resource or of the authorization server.
func TestLimitBeforeDiscovery(t *testing.T) {
	a := newAuthServer(t)
	a.resourceScopes = append([]string{"read"}, scopes(10)...)
	tr := newTransport(t, a, "", io.Discard)
	cs := connect(t, a, tr)
	for _, s := range scopes(3) {
		if err := call(cs, s); !reached(err) {
			t.Fatalf("call %s: %v", s, err)
		}
	}
	a.mu.Lock()
	before := a.metadataReqs
	a.mu.Unlock()
	for _, s := range scopes(10)[3:] {
		if err := call(cs, s); err == nil || !strings.Contains(err.Error(), "authorizations within 1m0s") {
			t.Fatalf("call %s: err = %v, want the authorizations of the minute used", s, err)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.metadataReqs != before {
		t.Errorf("%d metadata requests for 7 step-ups refused for the limit, want 0", a.metadataReqs-before)
	}
}

// TestRefusedStepUpCharged: a step-up refused for its fifth scope that the resource does not list
// leaves the run's allowance of such scopes as it was: a later step-up for one is authorized.
func TestRefusedStepUpCharged(t *testing.T) {
	a := newAuthServer(t)
	a.resourceScopes = []string{"read"}
	tr := newTransport(t, a, "", io.Discard)
	cs := connect(t, a, tr)
	if err := call(cs, "u1 u2 u3 u4 u5"); err == nil || !strings.Contains(err.Error(), "one too many") {
		t.Fatalf("five unlisted scopes at once: err = %v, want one too many", err)
	}
	if err := call(cs, "v1"); !reached(err) {
		t.Errorf("one unlisted scope after a refused step-up: %v", err)
	}
}

// TestDiscoveryTimeout: an authorization whose protected resource metadata never comes ends at
// the authorization's Timeout, not at the caller's deadline: every request of the transport
// waits for an authorization in progress.
func TestDiscoveryTimeout(t *testing.T) {
	hang := make(chan struct{})
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/prm"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	tr, err := oauth.New(oauth.Config{ServerURL: srv.URL + "/mcp", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	resp, err := tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	if err == nil || ctx.Err() != nil {
		t.Errorf("err = %v, caller's context %v; want the authorization's timeout before the caller's deadline", err, ctx.Err())
	}
}
