package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// What a server can make the proxy authorize: at most maxAuthorizations a minute, each request
// at most once (it is sent at most twice), with one client registration per authorization
// server, for scopes that the authorization server lists in its scopes_supported (where it lists
// them) and the protected resource lists in its own, but for at most maxUnlisted scopes in a run
// that the resource does not list (the spec has a challenge name the scopes a request needs,
// and step-up may need one the resource's metadata leaves out). A server that answers every
// request with 403 insufficient_scope and a new scope would otherwise get an authorization, a
// registration and a token request for each, asking for every scope named so far.
const (
	maxAuthorizations   = 4
	authorizationWindow = time.Minute
	maxUnlisted         = 4
)

// discovered is what an authorization is about to use: the authorization server's metadata,
// and the scopes that the protected resource advertises (nil: it lists none).
type discovered struct {
	asm            *oauthex.AuthServerMeta
	resourceScopes []string
}

// allowScope reports whether an authorization with the server of d may ask for scope: one that
// the authorization server lists (or it lists none) and the resource lists, or one of the
// maxUnlisted scopes of the run that the resource does not, of which unlisted are those asked
// for so far; it returns unlisted with scope added where scope is a new one of those.
// offline_access (a refresh token) is the authorization server's scope, which a resource has no
// reason to list.
func allowScope(d *discovered, unlisted []string, scope string) ([]string, bool) {
	switch {
	case d.asm.ScopesSupported != nil && !slices.Contains(d.asm.ScopesSupported, scope):
		return unlisted, false
	case scope == "offline_access" && d.asm.ScopesSupported != nil:
		return unlisted, true
	case slices.Contains(d.resourceScopes, scope), slices.Contains(unlisted, scope):
		return unlisted, true
	case len(unlisted) < maxUnlisted:
		return append(unlisted, scope), true
	}
	return unlisted, false
}

// discover reads the metadata that go-sdk's handler reads for the request req and its response
// resp, in its order: the protected resource metadata at the challenge's resource_metadata URL,
// else at the well-known URLs of the endpoint's path and of its root, else none (the
// 2025-03-26 fallback: the server's root is the authorization server); then that authorization
// server's metadata, else the 2025-03-26 fallback endpoints.
func (t *Transport) discover(ctx context.Context, req *http.Request, resp *http.Response) (*discovered, error) {
	endpoint := req.URL.String()
	root := *req.URL
	root.Path, root.RawPath, root.RawQuery, root.Fragment = "", "", "", ""
	type candidate struct{ url, resource string }
	var candidates []candidate
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if u := c.Params["resource_metadata"]; u != "" {
			candidates = append(candidates, candidate{u, endpoint})
			break
		}
	}
	candidates = append(candidates,
		candidate{root.String() + "/.well-known/oauth-protected-resource/" + strings.TrimLeft(req.URL.Path, "/"), endpoint},
		candidate{root.String() + "/.well-known/oauth-protected-resource", root.String()})
	d := &discovered{}
	issuer := root.String()
	for _, c := range candidates {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, c.url, c.resource, t.cfg.Client)
		if err != nil || prm == nil {
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("oauth: the protected resource metadata of %s names no authorization server", t.origin.Redacted())
		}
		issuer, d.resourceScopes = prm.AuthorizationServers[0], prm.ScopesSupported
		break
	}
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, t.cfg.Client)
	if err != nil {
		return nil, fmt.Errorf("oauth: the authorization server's metadata: %w", t.scrub(err))
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: issuer, RegistrationEndpoint: issuer + "/register"}
	}
	d.asm = asm
	return d, nil
}

// admitLocked decides whether the failed request req, answered with resp, may start an
// authorization, and returns what the authorization will use. Beyond maxAuthorizations a minute,
// any authorization is refused, before any metadata is fetched for it; a step-up for a scope that
// is not allowed is refused for the run, and charges none of its scopes to maxUnlisted.
func (t *Transport) admitLocked(ctx context.Context, req *http.Request, resp *http.Response) (*discovered, error) {
	now := t.now()
	t.recent = slices.DeleteFunc(t.recent, func(at time.Time) bool { return now.Sub(at) >= authorizationWindow })
	if len(t.recent) >= maxAuthorizations {
		next := t.recent[0].Add(authorizationWindow)
		t.log.Warn("too many OAuth authorizations; not authorizing again yet", "authorizations", len(t.recent), "until", next.Format(time.RFC3339))
		return nil, fmt.Errorf("oauth: %s asked for %d authorizations within %s; the next one can start at %s", t.origin.Redacted(), len(t.recent), authorizationWindow, next.Format(time.RFC3339))
	}
	d, err := t.discover(ctx, req, resp)
	if err != nil {
		return nil, err
	}
	unlisted := slices.Clip(t.unlisted)
	if stepUp, scope := insufficientScope(resp); stepUp {
		for s := range strings.FieldsSeq(scope) {
			var ok bool
			if unlisted, ok = allowScope(d, unlisted, s); !ok {
				e := &ScopeError{Scope: scope, Unadvertised: s}
				t.refused[scope] = e
				t.log.Warn("the remote server wants a scope that is not advertised, or one too many that its metadata does not list; not authorizing for it", "scope", s)
				return nil, e
			}
		}
	}
	t.unlisted = unlisted
	t.recent = append(t.recent, now)
	return d, nil
}

// clientLocked returns the client to authorize as with the authorization server of d, when the
// proxy registers it itself: registered once per authorization server and reused, rather than
// once per authorization. It returns nil where go-sdk's handler picks the client without a
// registration (a client ID metadata document, a client of the flags), where it cannot register,
// and where it authenticates a client of its own registration otherwise than the one registered
// here would be: go-sdk authenticates such a client with client_secret_post where the
// authorization server lists it, else client_secret_basic, so a server that lists neither (a
// public client's "none" only) gets go-sdk's registration at each authorization.
func (t *Transport) clientLocked(ctx context.Context, d *discovered, meta *oauthex.ClientRegistrationMetadata) (*oauthex.ClientCredentials, error) {
	if t.cfg.ClientID != "" || t.cfg.ClientMetadataURL != "" && d.asm.ClientIDMetadataDocumentSupported || d.asm.RegistrationEndpoint == "" {
		return nil, nil
	}
	if c := t.registered[d.asm.Issuer]; c != nil {
		return c, nil
	}
	m := *meta
	for _, method := range []string{"client_secret_post", "client_secret_basic"} {
		if slices.Contains(d.asm.TokenEndpointAuthMethodsSupported, method) {
			m.TokenEndpointAuthMethod = method
			break
		}
	}
	if m.TokenEndpointAuthMethod == "" {
		return nil, nil
	}
	reg, err := oauthex.RegisterClient(ctx, d.asm.RegistrationEndpoint, &m, t.cfg.Client)
	if err != nil {
		return nil, fmt.Errorf("oauth: registering with the authorization server: %w", t.scrub(err))
	}
	t.secret.add(reg.ClientSecret)
	if reg.ClientSecret == "" || reg.TokenEndpointAuthMethod != "" && reg.TokenEndpointAuthMethod != m.TokenEndpointAuthMethod {
		// Registered otherwise than asked: go-sdk would authenticate it wrongly.
		return nil, nil
	}
	c := &oauthex.ClientCredentials{ClientID: reg.ClientID, Issuer: d.asm.Issuer, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: reg.ClientSecret}}
	t.registered[d.asm.Issuer] = c
	t.log.Info("registered with the authorization server", "issuer", redactURL(d.asm.Issuer))
	return c, nil
}

// redactURL is a URL for the log, without user information or query.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "?"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}
