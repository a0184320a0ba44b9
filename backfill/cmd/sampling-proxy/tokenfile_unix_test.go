//go:build unix

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestPlantedTokenFile: a token file that is not the proxy's user's own (a link, a file others
// may read, a file of another user, even of mode 0600) stops the proxy with status 1 and the fix,
// before the remote server gets the file's token or its token endpoint a refresh.
func TestPlantedTokenFile(t *testing.T) {
	var bearer, refreshes atomic.Int32
	planter := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { refreshes.Add(1) }))
	defer planter.Close()
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), "planted") {
			bearer.Add(1)
		}
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer remote.Close()
	endpoint := remote.URL + "/mcp"
	record := fmt.Sprintf(`{"server":%q,"resource":%[1]q,"client_id":"c","token_url":%q,"token":{"access_token":"planted-access","token_type":"Bearer","refresh_token":"planted-refresh","expiry":"2100-01-01T00:00:00Z"}}`, endpoint, planter.URL+"/token")
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) string {
		path := filepath.Join(dir, name, "token.json")
		os.MkdirAll(filepath.Dir(path), 0o700)
		if err := os.WriteFile(path, []byte(record), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, mode)
		return path
	}
	cases := map[string]string{
		write("readable", 0o644): "may be read by others (mode 0644): chmod 600",
	}
	link := filepath.Join(dir, "link", "token.json")
	os.MkdirAll(filepath.Dir(link), 0o700)
	os.Symlink(write("target", 0o600), link)
	cases[link] = "is a symbolic link, which the proxy does not follow"
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		planted := write("planted", 0o600)
		if err := os.Chown(planted, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases[planted] = "belongs to uid 65534, not to this user (uid 0)"
	}
	for file, want := range cases {
		cmd := exec.Command(os.Args[0], "-oauth-login", "-oauth-non-interactive", "-oauth-timeout", "5s", "-oauth-token-file", file, "--", endpoint)
		cmd.Env = environ()
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), want) {
			t.Errorf("%s: %v, want exit status 1 and %q:\n%s", file, err, want, out)
		}
	}
	if bearer.Load() != 0 || refreshes.Load() != 0 {
		t.Errorf("the remote server got the planted token %d times; the planted token endpoint got %d requests", bearer.Load(), refreshes.Load())
	}
}

// TestClientTokenFileNotOwn: a client token file that is a link, a named pipe, or (as root) another user's of
// mode 0600, is refused: whoever made it may know the token that admits clients.
func TestClientTokenFileNotOwn(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("0123456789abcdefghijklmnop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	// A named pipe is refused without waiting for a writer.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{link: "the proxy does not follow a link", fifo: "is not a regular file"}
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		if err := os.Chown(target, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases[target] = "belongs to uid 65534, not to this user (uid 0)"
	}
	for file, want := range cases {
		if token, _, err := readTokenFile(file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: token %q, error %v; want an error saying %q", file, token, err, want)
		}
	}
}

// TestClientTokenFileSwapped: a client token file of this user's that is replaced by a link to
// another file, over and over, while the proxy reads it, never gives the proxy the token of the
// file linked to: the file read is the one whose mode and owner were checked.
func TestClientTokenFileSwapped(t *testing.T) {
	dir := t.TempDir()
	own, linked := "own-0123456789abcdef", "linked-0123456789abcdef"
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte(linked), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "client-token")
	if err := os.WriteFile(path, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var swapper sync.WaitGroup
	swapper.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			next := filepath.Join(dir, fmt.Sprint("next", i))
			if i%2 == 0 {
				os.Symlink(target, next)
			} else {
				os.WriteFile(next, []byte(own), 0o600)
			}
			os.Rename(next, path)
		}
	})
	defer swapper.Wait()
	defer close(done)
	for range 20000 {
		if token, _, err := readTokenFile(path); token == linked {
			t.Fatalf("the token of the file linked to was read (error %v)", err)
		}
	}
}
