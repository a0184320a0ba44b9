package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// minTokenLength is the shortest client token the proxy takes.
const minTokenLength = 16

// defaultTokenFile is where the client token is kept when neither SAMPLING_PROXY_CLIENT_TOKEN nor
// -client-token-file is given: under the user's config directory.
func defaultTokenFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory for the client token (give %s or -client-token-file): %v", clientTokenVar, err)
	}
	return filepath.Join(dir, "mcpgen", "sampling-proxy", "client-token"), nil
}

// readTokenFile reads the client token of path, or, when there is no such file, makes one (mode
// 0600, its directory 0700) with a new random token; it reports whether it made it. A link, and
// on Unix a file of another user's or that other users may read or write, is refused: its token
// is no longer the operator's alone.
func readTokenFile(path string) (token string, made bool, err error) {
	f, err := openNoFollow(path)
	if errors.Is(err, fs.ErrNotExist) {
		return makeTokenFile(path)
	}
	if err != nil {
		if info, lerr := os.Lstat(path); lerr == nil && !info.Mode().IsRegular() {
			return "", false, notRegular(path, info)
		}
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	defer f.Close()
	// The open file's own mode and owner, not the path's: the path may name another file by now.
	info, err := f.Stat()
	if err != nil {
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	if !info.Mode().IsRegular() {
		return "", false, notRegular(path, info)
	}
	if err := ownFile(path, info); err != nil {
		return "", false, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	token = strings.TrimSpace(string(data))
	if len(token) < minTokenLength {
		return "", false, fmt.Errorf("the client token file %s: want a token of %d characters or more", path, minTokenLength)
	}
	return token, false, nil
}

// makeTokenFile makes the client token file path (mode 0600, its directory 0700) with a new
// random token.
func makeTokenFile(path string) (string, bool, error) {
	token := rand.Text()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	_, err = f.WriteString(token + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", false, fmt.Errorf("the client token file: %v", err)
	}
	return token, true, nil
}

// notRegular is the error for a client token file that is a link, a directory or a device.
func notRegular(path string, info fs.FileInfo) error {
	return fmt.Errorf("the client token file %s is not a regular file (mode %v): the proxy does not follow a link, which another user may have made; remove it for a new one, or name the file it points to", path, info.Mode())
}
