package emit

import (
	"fmt"
	"go/token"
	"strconv"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// declareNames gives every declaration the names that rendering writes after it (ir.Funcs,
// the constants of an enum), by the rules of plan_names.go, and reserves them in the order it
// writes them: the constants of enums, the functions of unions and their variant tables, the
// constructors of one-or-many types, the typed result decodes, the names of the protocol layer,
// and the constants of the schema and of the methods. A collision is an error naming both, at the
// configuration's entry when a name it gave is taken (reserve); so is a union whose variants
// define more member names than its decoder can tell apart. Every collision is reported, a
// name taken being left to what took it. Rendering then only writes.
func (g *generator) declareNames() error {
	for _, td := range g.types {
		g.errs.Add(g.declareFuncs(td))
	}
	for _, name := range resultUnions {
		union := g.byDecl[name]
		if union == nil || len(union.Results) == 0 {
			continue
		}
		union.Funcs = resultFuncNames(union.Funcs, union.Name)
		g.resultDecodes = append(g.resultDecodes, union)
		for _, n := range []string{union.Funcs.UnmarshalFor, union.Funcs.DecodeFor} {
			g.errs.Add(g.reserve(n, "typed result decode of "+name, g.src(union).pos))
		}
	}
	if g.proto != nil {
		for _, name := range layerNames(g.proto) {
			g.errs.Add(g.reserve(name, "protocol layer", model.Pos{}))
		}
	}
	g.constNames = map[*model.Const]string{}
	for _, c := range g.s.Consts {
		if g.opts.Config.NoConstants {
			break
		}
		name, err := g.constName(c)
		g.errs.Add(err)
		g.constNames[c] = name
	}
	for _, td := range g.types {
		if method, ok := g.methodOf(td); ok {
			td.Method, td.Funcs.Method = method, methodConstName(td.Name)
			g.errs.Add(g.reserve(td.Funcs.Method, "method constant of "+g.src(td).decl.Name, g.src(td).pos))
		}
	}
	return g.errs.Err()
}

// declareFuncs names and reserves the constants of an enum, the functions and variant table of
// a union, and the constructors of a one-or-many type.
func (g *generator) declareFuncs(td *ir.Decl) error {
	var names []string
	var what string
	switch td.Form {
	case enumForm:
		td.ValueNames = make([]string, len(td.Values))
		for i, v := range td.Values {
			name := g.names.enumConstName(td.Name, v)
			td.ValueNames[i] = name
			g.errs.Add(g.reserve(name, "constant for "+td.Name+" value "+v, g.src(td).pos))
		}
	case interfaceForm:
		validate := !g.opts.Config.NoValidate && g.unionChecks(td)
		table := td.Objects != nil && td.Objects.Table
		td.Funcs = unionFuncNames(td.Name, validate, table)
		names, what = []string{td.Funcs.Unmarshal, td.Funcs.Decode, td.Funcs.Encode}, "function of union "+td.Name
		if validate {
			names = append(names, td.Funcs.Validate)
		}
		if table {
			if err := g.reserve(td.Funcs.Variants, "variant table of union "+td.Name, g.src(td).pos); err != nil {
				return err
			}
			if err := g.checkTableSize(td); err != nil {
				return err
			}
		}
	case oneOrManyForm:
		td.Funcs = oneOrManyFuncNames(td.Name)
		names, what = []string{td.Funcs.NewOne, td.Funcs.NewList}, "constructor of "+td.Name
	}
	for _, name := range names {
		g.errs.Add(g.reserve(name, what, g.src(td).pos))
	}
	return nil
}

// reserve declares a name that rendering derives from another (declareNames). When a name the
// configuration gave (Config.Names) already has it, the error is at the configuration's entry,
// which is what to change.
func (g *generator) reserve(name, what string, pos model.Pos) error {
	if prev, taken := g.scope[name]; taken && g.renamedAt(prev.pos) {
		if pos.Line > 0 {
			what += " (" + pos.String() + ")"
		}
		return prev.pos.Errorf("%s: Go name %s is the name of the %s, which the output derives: choose another",
			prev.what, name, what)
	}
	return g.scope.declare(name, what, pos)
}

// renamedAt reports whether pos is the position of an entry of Config.Names.
func (g *generator) renamedAt(pos model.Pos) bool {
	if pos.Line == 0 {
		return false
	}
	for _, e := range g.opts.Config.Names {
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
func (g *generator) declare(name, what string, pos model.Pos) error {
	prev, taken := g.scope[name]
	switch {
	case !taken || !token.IsIdentifier(name):
		return g.scope.declare(name, what, pos)
	case g.renamedAt(pos):
		return pos.Errorf("%s: Go name %s is already used by %s (%s): choose another under rename", what, name, prev.what, prev.pos)
	case g.renamedAt(prev.pos):
		return prev.pos.Errorf("%s: Go name %s is already used by %s (%s): choose another under rename", prev.what, name, what, pos)
	}
	return g.scope.declare(name, what, pos)
}
