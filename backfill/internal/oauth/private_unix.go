//go:build unix

package oauth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openPrivate opens the token file for reading without following a symbolic link, once it and
// its directory are known to be this user's and closed to everyone else: a token file that
// another user planted would send that user's token to the server, and its refreshes to that
// user's token endpoint. A missing file is fs.ErrNotExist (its directory, when there is one, is
// checked all the same).
func openPrivate(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err == nil {
		if err := private("directory of the token file", dir, info); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("oauth: the token file's directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("oauth: the token file %s is a symbolic link, which the proxy does not follow (another user may have made it): remove it, or name the file it points to, if that one is yours", path)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("oauth: the token file: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		err = fmt.Errorf("oauth: the token file: %w", err)
	} else {
		err = private("token file", path, info)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkPrivateDir checks the token file's directory before a token is written into it.
func checkPrivateDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	return private("directory of the token file", dir, info)
}

// private reports a file or directory that is not this user's, or that others may use: a file
// that others may read or write, or a directory that others may write to (and so put a file of
// theirs in, or replace this user's). A directory that others may only list, such as a home
// directory of mode 0755, shows the token file's name, not the token.
func private(what, path string, info fs.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("oauth: the %s %s belongs to uid %d, not to this user (uid %d): another user may have put it there; remove it, or keep the token file in a directory of your own", what, path, st.Uid, os.Geteuid())
	}
	perm := info.Mode().Perm()
	switch {
	case info.IsDir() && perm&0o022 != 0:
		return fmt.Errorf("oauth: the %s %s may be written by others (mode %#o): keep the token file in a directory of your own, or chmod go-w %s if it is yours alone", what, path, perm, path)
	case !info.IsDir() && perm&0o077 != 0:
		return fmt.Errorf("oauth: the %s %s may be read by others (mode %#o): chmod 600 %s if no one else could have read it, else remove it", what, path, perm, path)
	}
	return nil
}
