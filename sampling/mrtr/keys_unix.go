//go:build unix

package mrtr

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// private reports a key ring file that is another user's, or that its group or others may use.
func private(path string, info fs.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("mrtr: the key ring %s belongs to uid %d, not to this user (uid %d): another user may know its keys; make a key ring of your own", path, st.Uid, os.Geteuid())
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("mrtr: the key ring %s may be read by others (mode %#o): chmod 600 %s, and replace its keys if anyone else could have read them", path, perm, path)
	}
	return nil
}
