//go:build !unix

package oauth

import "os"

// openPrivate opens the token file. File modes and owners are Unix's: elsewhere the file's
// directory under the user's profile is what keeps it private.
func openPrivate(path string) (*os.File, error) { return os.Open(path) }

// checkPrivateDir checks nothing where file modes are not Unix's.
func checkPrivateDir(string) error { return nil }
