// Package templates holds the fixed source text that the emitter copies into generated packages.
package templates

import (
	"embed"
	"path"
)

//go:embed wire/wire.go wire/wire_unions.go wire/wire_freeform.go
var wire embed.FS

// Runtime returns the source files of the JSON runtime (package wire, tested in place), by file
// name. The emitter copies each into every generated package, replacing its package clause.
func Runtime() map[string]string {
	files := map[string]string{}
	entries, err := wire.ReadDir("wire")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	for _, e := range entries {
		data, err := wire.ReadFile(path.Join("wire", e.Name()))
		if err != nil {
			panic(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// Doc is the text/template of each generated package's doc.go; its data has the fields Package
// and Version.
//
//go:embed doc.go.tmpl
var Doc string
