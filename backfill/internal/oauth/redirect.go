package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// listenRedirect listens on the redirect URL's loopback address.
func listenRedirect(u *url.URL) (net.Listener, error) {
	port := u.Port()
	if port == "" {
		port = "0"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return nil, fmt.Errorf("oauth: listening for the authorization's redirect on %s: %w", u.Host, err)
	}
	return ln, nil
}

// callback is what the authorization server's redirect brought.
type callback struct {
	res *auth.AuthorizationResult
	err error
}

// fetch is go-sdk's AuthorizationCodeFetcher: it listens on the redirect URL, has the
// authorization URL opened (by a person, or followed by the proxy itself), and returns the code
// and state of the redirect that comes back, or the error it carries.
func (t *Transport) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	authURL, err := url.Parse(args.URL)
	if err != nil {
		return nil, fmt.Errorf("the authorization URL does not parse: %w", err)
	}
	q := authURL.Query()
	t.resource = q.Get("resource")
	state := q.Get("state")

	ln, err := listenRedirect(t.redirect)
	if err != nil {
		return nil, err
	}
	got := make(chan callback, 1)
	deliver := func(c callback) {
		select {
		case got <- c:
		default:
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc(t.redirect.Path, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			// Not the answer to this authorization (a stale tab, or someone else's request).
			http.Error(w, "This is not the authorization the proxy is waiting for.", http.StatusBadRequest)
			return
		}
		if e := q.Get("error"); e != "" {
			msg := "the authorization server refused: " + e
			if d := q.Get("error_description"); d != "" {
				msg += ": " + d
			}
			http.Error(w, "Authorization failed: "+msg, http.StatusForbidden)
			deliver(callback{err: errors.New(msg)})
			return
		}
		code := q.Get("code")
		if code == "" {
			http.Error(w, "The redirect has no code.", http.StatusBadRequest)
			return
		}
		t.secret.add(code)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "sampling-proxy is authorized. You can close this window.\n")
		deliver(callback{res: &auth.AuthorizationResult{Code: code, State: q.Get("state"), Iss: q.Get("iss")}})
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer func() {
		// Shutdown, not Close: the page of the redirect is answered in full.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}()

	if t.cfg.NonInteractive {
		t.log.Info("following the authorization URL (non-interactive)", "authorization_endpoint", authURL.Scheme+"://"+authURL.Host+authURL.Path)
		go func() {
			if err := t.follow(ctx, args.URL); err != nil {
				deliver(callback{err: err})
			}
		}()
	} else {
		fmt.Fprintf(t.cfg.Prompt, "\nsampling-proxy: %s asks for authorization. Open this URL in a browser (waiting %s):\n\n  %s\n\n", t.origin.Redacted(), t.cfg.Timeout, args.URL)
	}
	select {
	case c := <-got:
		return c.res, c.err
	case <-ctx.Done():
		return nil, fmt.Errorf("no authorization came back on %s: %w", t.redirect, ctx.Err())
	}
}

// follow gets the authorization URL and its redirects, up to the redirect listener.
func (t *Transport) follow(ctx context.Context, authURL string) error {
	client := &http.Client{
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("more than 10 redirects")
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its URL holds the code
		}
		return fmt.Errorf("following the authorization URL: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.Request.URL.Host != t.redirect.Host || resp.Request.URL.Path != t.redirect.Path {
		return fmt.Errorf("following the authorization URL: it ended at %s (HTTP %s), not at the redirect URL: this authorization server wants a person (authorize interactively)", resp.Request.URL.Scheme+"://"+resp.Request.URL.Host+resp.Request.URL.Path, resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("following the authorization URL: the redirect listener answered HTTP %s", resp.Status)
	}
	return nil
}
