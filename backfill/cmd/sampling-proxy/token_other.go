//go:build !unix

package main

import (
	"errors"
	"io/fs"
	"os"
)

// ownFile checks nothing where file modes and owners are not Unix's (a file's mode there says
// nothing of who may read it): the token file's directory under the user's profile keeps it.
func ownFile(string, fs.FileInfo) error { return nil }

// openNoFollow opens the client token file unless it is a link (or not a regular file) when
// looked at: without O_NOFOLLOW, a link made between the look and the open is followed.
func openNoFollow(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	return os.Open(path)
}
