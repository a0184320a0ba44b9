package emit

import "github.com/dave/jennifer/jen"

// renderer writes a plan out with jennifer: its methods (render*.go) read the plan and fill its
// files, and decide nothing that can fail.
type renderer struct {
	*plan
	typesGo, jsonGo, unionsGo, constsGo, validateGo, protocolGo *jen.File
	// enumConsts are the constant blocks of the enum types, for the end of consts.go.
	enumConsts []jen.Code
}

// newRenderer returns a renderer of p with its files empty.
func newRenderer(p *plan) *renderer {
	return &renderer{plan: p, typesGo: p.newFile(), jsonGo: p.newFile(), unionsGo: p.newFile(),
		constsGo: p.newFile(), validateGo: p.newFile(), protocolGo: p.newFile()}
}

// render writes every planned declaration into its file. It only reads the plan: the names it
// writes were declared, and checked, by planDecls and declareNames.
func (r *renderer) render() {
	for _, td := range r.types {
		switch td.form {
		case structForm:
			r.structType(td)
			r.structCodec(td)
		case aliasForm:
			r.aliasType(td)
		case enumForm:
			r.enumType(td)
		case collectionForm:
			r.collectionType(td)
		case interfaceForm:
			r.interfaceType(td)
		case oneOrManyForm:
			r.oneOrManyType(td)
		case wrapperForm:
			r.wrapperType(td)
		case unknownForm:
			r.unknownType(td)
		}
		if !r.opts.Config.NoValidate {
			r.validateMethods(td)
		}
	}
	r.results()
	r.protocol()
	r.constants()
}
