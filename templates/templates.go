// Package templates holds the fixed source text that the emitter copies into generated packages.
package templates

import (
	"embed"
	"path"
	"strings"
)

//go:embed wire/wire.go wire/wire_encode.go wire/wire_unions.go wire/wire_freeform.go wire/wire_validate.go wire/wire_external.go wire/wire_native.go
var wire embed.FS

// Runtime returns the source files of the JSON runtime (package wire, tested in place), by file
// name. The emitter copies each into every generated package, replacing its package clause.
func Runtime() map[string]string {
	return readAll(wire, "wire")
}

// readAll returns the files of an embedded directory by name.
func readAll(fsys embed.FS, dir string) map[string]string {
	files := map[string]string{}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	for _, e := range entries {
		data, err := fsys.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			panic(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

//go:embed parts/*.go
var parts embed.FS

// Parts returns the hand-written source files that use generated types, by file name: the rules
// of sampling with tools, the helpers of the protocol layer. Each starts with a
// "//go:build ignore" line (it names generated types, so it compiles only in a generated package)
// and "//mcpgen:requires" lines naming the schema declarations it needs, a "//mcpgen:protocol"
// line for a helper of the protocol layer (MethodInfo, LookupMethod), or both (MessageBatch); the
// emitter copies it into the packages whose schema has them, and that have the protocol layer.
// They are tested in gen/.
func Parts() map[string]string {
	return readAll(parts, "parts")
}

// Doc is the text/template of each generated package's doc.go; its data has the fields Package
// and Version.
//
//go:embed doc.go.tmpl
var Doc string

// DocWith returns the template of doc.go (Doc) with text, a text/template of a package doc's
// text (no comment markers; it should start with "Package <name> "), in place of the default
// doc's text: the section on unions, to which the unions' docs refer, and the license notice of
// the spec's text, which the doc comments of the package are, stay after it.
func DocWith(text string) string {
	i := strings.Index(Doc, "{{- if .Unions}}")
	if i < 0 {
		panic("templates: doc.go.tmpl has no section on unions") // the template is part of the binary
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line = strings.TrimRight(line, " \t"); line == "" {
			b.WriteString("//\n")
		} else {
			b.WriteString("// " + line + "\n")
		}
	}
	return b.String() + Doc[i:]
}
