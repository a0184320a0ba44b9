package emit

import (
	"fmt"
	"go/token"
	"strconv"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// naming is the pass of planning that holds the output's package scope: every Go name declared
// or derived is reserved there (declare, reserve), so that a configured name that collides with
// one is refused at its entry.
type naming struct {
	*plan
	scope scope
	// defaults holds the names the output's types have without the configuration's names
	// (declSource.defName); defaultsClash is set when two of them are the same.
	defaults      scope
	defaultsClash bool
}

// declareNames gives every declaration the names that rendering writes after it (ir.Funcs,
// the constants of an enum), by the rules of plan_names.go, and reserves them in the order it
// writes them: the constants of enums, the functions of unions and their variant tables, the
// constructors of one-or-many types, the typed result decodes, the names of the protocol layer,
// and the constants of the schema and of the methods. A collision is an error naming both, at the
// configuration's entry when a name it gave is taken (reserve); so is a union whose variants
// define more member names than its decoder can tell apart. Every collision is reported, a
// name taken being left to what took it. Rendering then only writes.
func (nm *naming) declareNames() error {
	for _, td := range nm.types {
		nm.errs.Add(nm.declareFuncs(td))
	}
	for _, name := range resultUnions {
		union := nm.byDecl[name]
		if union == nil || len(union.Results) == 0 {
			continue
		}
		union.Funcs = resultFuncNames(union.Funcs, union.Name)
		nm.resultDecodes = append(nm.resultDecodes, union)
		for _, n := range []string{union.Funcs.UnmarshalFor, union.Funcs.DecodeFor} {
			nm.errs.Add(nm.reserve(n, "typed result decode of "+name, nm.src(union).pos))
		}
	}
	if nm.proto != nil {
		for _, name := range layerNames(nm.proto) {
			nm.errs.Add(nm.reserve(name, "protocol layer", model.Pos{}))
		}
	}
	nm.constNames = map[*model.Const]string{}
	for _, c := range nm.s.Consts {
		if nm.opts.Config.NoConstants {
			break
		}
		name, err := nm.constName(c)
		nm.errs.Add(err)
		nm.constNames[c] = name
	}
	for _, td := range nm.types {
		if method, ok := nm.methodOf(td); ok {
			td.Method, td.Funcs.Method = method, methodConstName(td.Name)
			nm.errs.Add(nm.reserve(td.Funcs.Method, "method constant of "+nm.src(td).decl.Name, nm.src(td).pos))
		}
	}
	return nm.errs.Err()
}

// declareFuncs names and reserves the constants of an enum, the functions and variant table of
// a union, and the constructors of a one-or-many type.
func (nm *naming) declareFuncs(td *ir.Decl) error {
	var names []string
	var what string
	switch td.Form {
	case enumForm:
		td.ValueNames = make([]string, len(td.Values))
		for i, v := range td.Values {
			name := nm.names.enumConstName(td.Name, v)
			td.ValueNames[i] = name
			nm.errs.Add(nm.reserve(name, "constant for "+td.Name+" value "+v, nm.src(td).pos))
		}
	case interfaceForm:
		validate := !nm.opts.Config.NoValidate && nm.unionChecks(td)
		table := td.Objects != nil && td.Objects.Table
		td.Funcs = unionFuncNames(td.Name, validate, table)
		names, what = []string{td.Funcs.Unmarshal, td.Funcs.Decode, td.Funcs.Encode}, "function of union "+td.Name
		if validate {
			names = append(names, td.Funcs.Validate)
		}
		if table {
			if err := nm.reserve(td.Funcs.Variants, "variant table of union "+td.Name, nm.src(td).pos); err != nil {
				return err
			}
			if err := nm.checkTableSize(td); err != nil {
				return err
			}
		}
	case oneOrManyForm:
		td.Funcs = oneOrManyFuncNames(td.Name)
		names, what = []string{td.Funcs.NewOne, td.Funcs.NewList}, "constructor of "+td.Name
	}
	for _, name := range names {
		nm.errs.Add(nm.reserve(name, what, nm.src(td).pos))
	}
	return nil
}

// reserve declares a name that rendering derives from another (declareNames). When a name the
// configuration gave (Config.Names) already has it, the error is at the configuration's entry,
// which is what to change.
func (nm *naming) reserve(name, what string, pos model.Pos) error {
	if prev, taken := nm.scope[name]; taken && nm.renamedAt(prev.pos) {
		if pos.Line > 0 {
			what += " (" + pos.String() + ")"
		}
		return prev.pos.Errorf("%s: Go name %s is the name of the %s, which the output derives: choose another",
			prev.what, name, what)
	}
	return nm.scope.declare(name, what, pos)
}

// renamedAt reports whether pos is the position of an entry of Config.Names.
func (nm *naming) renamedAt(pos model.Pos) bool {
	if pos.Line == 0 {
		return false
	}
	for _, e := range nm.opts.Config.Names {
		if e.Pos == pos {
			return true
		}
	}
	return false
}

// checkTableSize checks that the variants of an object union with a variant table define at
// most the member names the runtime's variantTable can hold.
func (p *plan) checkTableSize(td *ir.Decl) error {
	names := map[string]bool{}
	for _, v := range td.Objects.Variants {
		for _, n := range v.Known {
			names[n] = true
		}
	}
	if len(names) > maxUnionMembers {
		return fmt.Errorf("%s: union %s: its variants define %d member names, more than the %d the decoder can tell apart",
			p.src(td).pos, td.Name, len(names), maxUnionMembers)
	}
	return nil
}

// scope is the set of package-level Go identifiers of the output, each with what declared it, so
// that a collision is an error naming both.
type scope map[string]scopeEntry

// scopeEntry is what declared a name of the scope ("declaration Tool"), and where.
type scopeEntry struct {
	what string
	pos  model.Pos
}

// free returns name if no declaration has it yet, else the first of name2, name3, ... that none
// has: the name of an inline type whose derived name is taken (by a declaration, which are all
// declared first, or by an inline type planned before it).
func (s scope) free(name string) string {
	if _, taken := s[name]; !taken {
		return name
	}
	for n := 2; ; n++ {
		if _, taken := s[name+strconv.Itoa(n)]; !taken {
			return name + strconv.Itoa(n)
		}
	}
}

// declare adds name, declared by what (a description with a position), or fails on a collision.
func (s scope) declare(name, what string, pos model.Pos) error {
	if !token.IsIdentifier(name) {
		return pos.Errorf("%s: %q is not a Go identifier", what, name)
	}
	if prev, ok := s[name]; ok {
		return pos.Errorf("%s: Go name %s is already used by %s (%s)", what, name, prev.what, prev.pos)
	}
	s[name] = scopeEntry{what, pos}
	return nil
}

// declare adds name to the scope, as scope.declare does. A collision with a name the
// configuration gave (Config.Names) is an error at the configuration's entry, which is what to
// change, whether the configuration's name or the schema's was declared first.
func (nm *naming) declare(name, what string, pos model.Pos) error {
	prev, taken := nm.scope[name]
	switch {
	case !taken || !token.IsIdentifier(name):
		return nm.scope.declare(name, what, pos)
	case nm.renamedAt(pos):
		return pos.Errorf("%s: Go name %s is already used by %s (%s): choose another under rename", what, name, prev.what, prev.pos)
	case nm.renamedAt(prev.pos):
		return prev.pos.Errorf("%s: Go name %s is already used by %s (%s): choose another under rename", prev.what, name, what, pos)
	}
	return nm.scope.declare(name, what, pos)
}
