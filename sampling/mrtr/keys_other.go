//go:build !unix

package mrtr

import "io/fs"

// private checks nothing where file modes and owners are not Unix's.
func private(string, fs.FileInfo) error { return nil }
