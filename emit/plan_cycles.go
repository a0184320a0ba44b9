package emit

import "github.com/mcpgen/mcpgen/emit/internal/ir"

import "strings"

// checkValueCycles refuses a struct that holds itself by value, through its fields and embedded
// bases (a member substituted by the struct's own type, an optional member of a recursive type
// held as a value): Go has no such type. The schema's own types hold themselves through
// pointers, slices and maps, so the cycle has an entry of the configuration on it, where the
// error is.
func (p *plan) checkValueCycles() error {
	state := map[*ir.Decl]int{} // 1 while visiting, 2 when done
	var path []*ir.Field
	var visit func(td *ir.Decl) error
	visit = func(td *ir.Decl) error {
		state[td] = 1
		for _, f := range td.Fields {
			next := p.heldByValue(f)
			if next == nil || state[next] == 2 {
				continue
			}
			path = append(path, f)
			if state[next] == 1 {
				return p.cycleError(next, path)
			}
			if err := visit(next); err != nil {
				return err
			}
			path = path[:len(path)-1]
		}
		state[td] = 2
		return nil
	}
	for _, td := range p.types {
		if state[td] == 0 && td.Form == structForm {
			if err := visit(td); err != nil {
				return err
			}
		}
	}
	return nil
}

// heldByValue is the struct of the output that the field f holds by value (its type, or the
// embedded base holding it), nil for none.
func (p *plan) heldByValue(f *ir.Field) *ir.Decl {
	name := ""
	switch {
	case f.Base != "":
		name = f.Base
	case f.Pointer:
	case f.Type.Kind == structKind, f.Type.Kind == externalKind && f.Type.Path == "" && !f.Type.Pointer && !f.Type.Composite:
		name = f.Type.Name
	}
	td := p.byName[name]
	for td != nil && td.Form == definedForm && td.Type != nil {
		td = p.byName[td.Type.Name] // type EmptyResult Result holds a Result
	}
	if td == nil || td.Form != structForm {
		return nil
	}
	return td
}

// cycleError is the error of the fields path, which end where the struct td holds itself, at the
// configuration's entry that shaped one of them.
func (p *plan) cycleError(td *ir.Decl, path []*ir.Field) error {
	var names []string
	pos := p.src(td).pos
	for _, f := range path {
		names = append(names, f.JSONName)
		if shaped := p.fsrc(f).shaped; shaped.Line > 0 {
			pos = shaped
		}
	}
	return pos.Errorf("%s holds itself by value (through %s): a Go struct cannot; hold it by pointer (optional: pointer) or keep the member's type",
		td.Name, strings.Join(names, ", "))
}
