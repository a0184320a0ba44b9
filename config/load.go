package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/jsonschema"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

// Load reads the schema file name (schema.ts, or schema.json by its extension) as the
// configuration asks, and prepares it for emit.Generate (model.Protocol, model.Classify): the
// TypeScript of the declarations key is added to a schema.ts (an interface declared again gains
// its members, as TypeScript's declaration merging does: members another version has, the
// members of the input-required result on the results that carry them), then every reference to
// a declaration that another stands in for (standIn) refers to that one, an interface extending
// it extending that one (and inheriting its members), and the declaration stood in for is
// dropped. Errors in the added declarations name the configuration file's lines.
func (f *File) Load(name string, src []byte) (*model.Schema, error) {
	var s *model.Schema
	var err error
	switch {
	case strings.HasSuffix(name, ".json") && f.Declarations != nil:
		return nil, fmt.Errorf("%s: declarations: TypeScript can be added to a schema.ts only, and %s is JSON", f.Name, name)
	case strings.HasSuffix(name, ".json"):
		s, err = jsonschema.Load(name, src)
	default:
		standIns := map[string]parser.StandIn{}
		for from, e := range f.Config.StandIns {
			standIns[from] = parser.StandIn{Name: e.Name, Pos: e.Pos}
		}
		var more []parser.Source
		if f.Declarations != nil {
			more = append(more, parser.Source{Name: f.Name, Src: f.Declarations})
		}
		s, err = parser.LoadStandIns(name, src, standIns, more...)
	}
	if err != nil {
		return nil, err
	}
	if err := f.standIn(s); err != nil {
		return nil, err
	}
	if err := model.Protocol(s); err != nil {
		return nil, err
	}
	if err := model.Classify(s); err != nil {
		return nil, f.undecided(s, err)
	}
	return s, nil
}

// undecided returns err, the error of a union without a decision procedure, at the standIn entry
// whose declaration is one of the union's variants, where there is one: the stand-in made the
// variants alike, and the schema's union is not what to change.
func (f *File) undecided(s *model.Schema, err error) error {
	model.ClassifyEach(s) // every union decided that can be: the others keep no Decision
	from := ""
	eachType(s.Decls, func(t *model.Type) {
		if from != "" || t.Union == nil || t.Union.Decision != nil {
			return
		}
		for _, v := range t.Union.Variants {
			for _, k := range slices.Sorted(maps.Keys(f.Config.StandIns)) {
				// A reference a stand-in replaced has the entry's position (standIn).
				if e := f.Config.StandIns[k]; v.Kind == model.Ref && v.Ref == e.Name && v.Pos == e.Pos {
					from = k
					return
				}
			}
		}
	})
	if from == "" {
		return err
	}
	e := f.Config.StandIns[from]
	return e.Pos.Errorf("standIn: %s: %s as a variant leaves a union without a way to tell its variants apart (%v): stand in a type the union tells apart, or leave the entry out", from, e.Name, err)
}

// standIn makes every reference to a declaration stood in for (Config.StandIns) refer to the one that
// stands in for it, and drops the declaration.
func (f *File) standIn(s *model.Schema) error {
	if len(f.Config.StandIns) == 0 {
		return nil
	}
	var errs model.ErrorList
	for _, from := range slices.Sorted(maps.Keys(f.Config.StandIns)) {
		e := f.Config.StandIns[from]
		if s.Decl(from) == nil {
			errs.Add(e.Pos.Errorf("standIn: the schema declares no %s", model.Shorten(from)))
		} else if s.Decl(e.Name) == nil {
			errs.Add(e.Pos.Errorf("standIn: %s: the schema declares no %s (declare it under declarations)", from, model.Shorten(e.Name)))
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	var kept []*model.Decl
	for _, d := range s.Decls {
		if _, gone := f.Config.StandIns[d.Name]; !gone {
			kept = append(kept, d)
		}
	}
	s.Decls = kept
	eachType(s.Decls, func(t *model.Type) {
		if e, ok := f.Config.StandIns[t.Ref]; ok && t.Kind == model.Ref {
			// The reference is the entry's now, and says so (emit refuses a hand-written part
			// written for the type it replaces).
			t.Ref, t.Pos = e.Name, e.Pos
		}
	})
	for _, d := range s.Decls {
		if d.Type.Kind == model.Ref && d.Type.Ref == d.Name {
			return f.Config.StandIns[d.Name].Pos.Errorf("standIn: %s would stand in for itself", d.Name)
		}
	}
	return nil
}

// eachType calls fn on every type the declarations hold, once each, a type before the types it
// holds (an array's or a map's elements, an object's members and index signature, a union's
// variants).
func eachType(decls []*model.Decl, fn func(t *model.Type)) {
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		fn(t)
		walk(t.Elem)
		if t.Object != nil {
			for _, m := range t.Object.Members {
				walk(m.Type)
			}
			walk(t.Object.Rest)
		}
		if t.Union != nil {
			for _, v := range t.Union.Variants {
				walk(v)
			}
		}
	}
	for _, d := range decls {
		walk(d.Type)
	}
}
