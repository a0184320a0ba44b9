// Package render writes the Go files of a planned package (an ir.Package) with jennifer. It
// reads the plan and nothing else, decides nothing, and cannot fail: every name it writes was
// derived, reserved and checked by planning (package emit), every doc text written there. Its
// only error is jennifer's, which would be a bug of the generator.
package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// Render returns the files of the package that rendering writes, by name (ir.Package.Files),
// gofmt-formatted. An error is jennifer's, the first line of it, shortened to at most max
// bytes: the generator wrote code that does not parse.
func Render(pkg *ir.Package, max int) (map[string][]byte, error) {
	r := newRenderer(pkg)
	r.render()
	files := map[string]*jen.File{"types.go": r.typesGo, "json.go": r.jsonGo, "unions.go": r.unionsGo,
		"consts.go": r.constsGo, "validate.go": r.validateGo, "protocol.go": r.protocolGo}
	out := map[string][]byte{}
	for _, name := range pkg.Files {
		var buf bytes.Buffer
		if err := files[name].Render(&buf); err != nil {
			// jennifer's error holds the whole unformatted file after its first line: keep the
			// first line only, shortened.
			msg, _, _ := strings.Cut(err.Error(), "\n")
			if len(msg) > max {
				msg = strings.ToValidUTF8(msg[:max], "") + "…"
			}
			return nil, fmt.Errorf("emit: internal error: %s: %s", name, msg)
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}

// renderer writes a plan out with jennifer: its methods read the plan and fill its files.
type renderer struct {
	pkg                                                         *ir.Package
	typesGo, jsonGo, unionsGo, constsGo, validateGo, protocolGo *jen.File
	// enumConsts are the constant blocks of the enum types, for the end of consts.go.
	enumConsts []jen.Code
}

// newRenderer returns a renderer of pkg with its files empty.
func newRenderer(pkg *ir.Package) *renderer {
	r := &renderer{pkg: pkg}
	for _, f := range []**jen.File{&r.typesGo, &r.jsonGo, &r.unionsGo, &r.constsGo, &r.validateGo, &r.protocolGo} {
		*f = jen.NewFile(pkg.Name)
		(*f).HeaderComment(pkg.Header)
	}
	return r
}

// render writes every planned declaration into its file.
func (r *renderer) render() {
	for _, td := range r.pkg.Decls {
		switch td.Form {
		case ir.StructForm:
			r.structType(td)
			r.structCodec(td)
		case ir.AliasForm:
			r.aliasType(td)
		case ir.EnumForm:
			r.enumType(td)
		case ir.CollectionForm:
			r.collectionType(td)
		case ir.InterfaceForm:
			r.interfaceType(td)
		case ir.OneOrManyForm:
			r.oneOrManyType(td)
		case ir.WrapperForm:
			r.wrapperType(td)
		case ir.UnknownForm:
			r.unknownType(td)
		case ir.DefinedForm:
			r.definedType(td)
		}
		if !r.pkg.NoValidate {
			r.validateMethods(td)
		}
	}
	r.samplingReaders()
	r.results()
	r.protocol()
	r.constants()
}
