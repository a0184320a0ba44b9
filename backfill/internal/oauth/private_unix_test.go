//go:build unix

package oauth_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/backfill/internal/oauth"
)

// nobody is the uid of the other local user that the tests run as root plant files as.
const nobody = 65534

// storedToken authorizes once with a, storing the token in a private directory, and returns the
// file.
func storedToken(t *testing.T, a *authServer) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "private", "token.json")
	if err := call(connect(t, a, newTransport(t, a, file, io.Discard)), "read"); err != nil {
		t.Fatal(err)
	}
	return file
}

func seen(a *authServer) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.seen)
}

// plant copies the token file src to dst (mode 0600), in a directory of mode dirMode.
func plant(t *testing.T, src, dst string, dirMode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(dst), dirMode); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// refused checks that a transport on file is refused with an error holding want, and that the
// server received no token meanwhile.
func refused(t *testing.T, a *authServer, file, want string) {
	t.Helper()
	before := seen(a)
	tr, err := oauth.New(oauth.Config{ServerURL: a.srv.URL + "/mcp", NonInteractive: true, TokenFile: file})
	if err == nil {
		err = call(connect(t, a, tr), "read")
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: err = %v, want %q", file, err, want)
	}
	if n := seen(a) - before; n != 0 {
		t.Errorf("%s: the server received %d bearer tokens", file, n)
	}
}

// TestTokenFileNotPrivate: a token file that is a link or open to others, or in a directory that
// others may write to, is refused before any token is sent, with the fix in the message; a
// directory that others may only list (a home directory of mode 0755) is not.
func TestTokenFileNotPrivate(t *testing.T) {
	a := newAuthServer(t)
	good := storedToken(t, a)
	dir := t.TempDir()

	link := filepath.Join(dir, "link", "token.json")
	os.MkdirAll(filepath.Dir(link), 0o700)
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	refused(t, a, link, "is a symbolic link, which the proxy does not follow")

	open := filepath.Join(dir, "open", "token.json")
	plant(t, good, open, 0o700)
	os.Chmod(open, 0o640)
	refused(t, a, open, "may be read by others (mode 0640): chmod 600 "+open)

	group := filepath.Join(dir, "group", "token.json")
	plant(t, good, group, 0o770)
	refused(t, a, group, "may be written by others (mode 0770): keep the token file in a directory of your own, or chmod go-w "+filepath.Dir(group))

	shared := filepath.Join(dir, "shared", "token.json")
	plant(t, good, shared, 0o777|os.ModeSticky)
	refused(t, a, shared, "may be written by others (mode 0777): keep the token file in a directory of your own")

	// A shared directory is refused before there is a token to store in it.
	refused(t, a, filepath.Join(filepath.Dir(shared), "new.json"), "may be written by others")

	listed := filepath.Join(dir, "listed", "token.json")
	plant(t, good, listed, 0o755)
	if err := call(connect(t, a, newTransport(t, a, listed, io.Discard)), "read"); err != nil {
		t.Errorf("a token file of mode 0600 in a directory of mode 0755: %v", err)
	}
}

// TestTokenFilePlanted: run as root, a token file (mode 0600) that another user planted, or a
// private file in a directory of another user's, is refused: the planter's token does not reach
// the server, and no refresh goes to the token endpoint the file names.
func TestTokenFilePlanted(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux, to give files to another user")
	}
	a := newAuthServer(t)
	good := storedToken(t, a)
	dir := t.TempDir()

	planted := filepath.Join(dir, "tmp", "token.json")
	plant(t, good, planted, 0o700)
	if err := os.Chown(planted, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	_, tokens, _ := a.counts()
	refused(t, a, planted, "belongs to uid 65534, not to this user (uid 0)")

	theirs := filepath.Join(dir, "theirs", "token.json")
	plant(t, good, theirs, 0o700)
	if err := os.Chown(filepath.Dir(theirs), nobody, nobody); err != nil {
		t.Fatal(err)
	}
	refused(t, a, theirs, "directory of the token file "+filepath.Dir(theirs)+" belongs to uid 65534")
	if _, now, _ := a.counts(); now != tokens {
		t.Errorf("%d token requests after the planted files, want none", now-tokens)
	}
}
