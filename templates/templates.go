// Package templates holds fixed source text that the emitter copies into
// generated packages.
package templates

import _ "embed"

// Wire is the source of the JSON runtime, wire/wire.go. The emitter copies
// it into each generated package, replacing its package clause.
//
//go:embed wire/wire.go
var Wire string

// Doc is the text/template of each generated package's doc.go; its data has the fields Package
// and Version.
//
//go:embed doc.go.tmpl
var Doc string
