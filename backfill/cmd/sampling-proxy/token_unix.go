//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownFile refuses a client token file of another user's (who may have planted it, and knows its
// token) or that its group or others may read or write.
func ownFile(path string, info fs.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("the client token file %s belongs to uid %d, not to this user (uid %d): another user may know its token; remove it for a new one", path, st.Uid, os.Geteuid())
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("the client token file %s has mode %v: other users may read it; make it 0600 (chmod 600), or remove it for a new one", path, info.Mode())
	}
	return nil
}

// openNoFollow opens the client token file for reading without following a link, and without
// waiting for a writer where it is a named pipe (its mode is checked on the open file).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
