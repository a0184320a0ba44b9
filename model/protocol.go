package model

import (
	"fmt"
	"slices"
)

// Protocol brings a schema's JSON-RPC layer into the same shape in every spec version, so that
// code generated from one version reads like code generated from another. The schema states
// some of this only in prose, or differently from version to version:
//
//   - The message unions ClientRequest, ServerRequest, ClientNotification, ServerNotification,
//     ClientResult and ServerResult are unions in every version. One declared as an alias of a
//     single type becomes a union of one variant; where the schema has no ServerRequest (the
//     versions with multi round-trip requests, where a server asks the client through
//     InputRequiredResult), it is the union of the InputRequest variants, and the InputResponse
//     variants join ClientResult. Where requests can be task-augmented, CreateTaskResult joins
//     the result union of the side that answers them.
//   - The requests and notifications of the message unions are JSON-RPC messages: where they do
//     not extend JSONRPCRequest or JSONRPCNotification (before 2025-11-25), they get its jsonrpc
//     and id members. In every JSON-RPC message, jsonrpc and id come first, as the spec writes
//     them.
//   - The result of a JSON-RPC result response is AnyResult, the union of every result type, so
//     that a response holds a typed result.
//   - The id of an error response may be null (JSON-RPC 2.0's answer to a message whose id could
//     not be read).
//   - The resultType of a result defaults to "complete" ("input_required" for
//     InputRequiredResult): a receiver treats it as such when absent.
//   - An inline `object` or `{}` is free-form JSON (a map of any values), and every `_meta`
//     member without members of its own is the declaration MetaObject, so that `_meta` has one
//     representation: a struct with the keys the schema defines and the others in Extra.
//
// Protocol changes nothing in a schema without these declarations. It runs before Classify.
func Protocol(s *Schema) error {
	p := protocol{s: s, synthesized: map[string]bool{}}
	p.freeFormObjects()
	if err := p.meta(); err != nil {
		return err
	}
	if err := p.messageUnions(); err != nil {
		return err
	}
	if err := p.envelopes(); err != nil {
		return err
	}
	return p.results()
}

type protocol struct {
	s *Schema
	// synthesized holds the message unions Protocol declared itself.
	synthesized map[string]bool
}

// The names of the message unions.
var messageUnions = []string{Client.Request, Server.Request, Client.Notification, Server.Notification, Client.Result, Server.Result}

// freeFormObjects turns every inline object without members or index signature (TypeScript's
// `object` and `{}`) into a map of any values. A declaration without members stays an object:
// it is a named type of the schema.
func (p *protocol) freeFormObjects() {
	var walk func(t *Type, top bool)
	walk = func(t *Type, top bool) {
		if t == nil {
			return
		}
		switch t.Kind {
		case Object:
			if !top && len(t.Object.Members) == 0 && t.Object.Rest == nil {
				*t = Type{Kind: Map, Elem: &Type{Kind: Any, Pos: t.Pos}, Pos: t.Pos}
				return
			}
			for _, m := range t.Object.Members {
				walk(m.Type, false)
			}
			walk(t.Object.Rest, false)
		case Array, Map:
			walk(t.Elem, false)
		case Union:
			for _, v := range t.Union.Variants {
				walk(v, false)
			}
		}
	}
	for _, d := range p.s.Decls {
		walk(d.Type, true)
	}
}

// metaDoc documents a MetaObject the schema does not declare.
const metaDoc = "The contents of a `_meta` member: metadata that clients and servers attach to their " +
	"messages. Keys the schema does not define are kept in Extra."

// meta makes every `_meta` member that is a free-form object a reference to MetaObject,
// declaring MetaObject (as an object with an index signature) if the schema has none, and turning
// a MetaObject declared as a map into such an object.
func (p *protocol) meta() error {
	var metas []*Member
	for _, d := range p.s.Decls {
		if d.Type.Kind != Object {
			continue
		}
		for _, m := range d.Type.Object.Members {
			if m.Name == "_meta" && m.Type.Kind == Map && m.Type.Elem.Kind == Any {
				metas = append(metas, m)
			}
		}
	}
	decl := p.s.Decl(MetaObjectDecl)
	if decl == nil && len(metas) == 0 {
		return nil
	}
	switch {
	case decl == nil:
		decl = &Decl{Name: MetaObjectDecl, Doc: Doc{Text: metaDoc}}
		decl.Type = &Type{Kind: Object, Object: &ObjectType{Rest: &Type{Kind: Any}}}
		p.s.Decls = append(p.s.Decls, decl)
	case decl.Type.Kind == Map && decl.Type.Elem.Kind == Any:
		decl.Type = &Type{Kind: Object, Object: &ObjectType{Rest: decl.Type.Elem}, Pos: decl.Type.Pos}
	case decl.Type.Kind != Object:
		return decl.Pos.Errorf("declaration MetaObject: expected an object or a map of any values, found %s", decl.Type.Kind)
	}
	for _, m := range metas {
		m.Type = &Type{Kind: Ref, Ref: MetaObjectDecl, Pos: m.Type.Pos}
	}
	return nil
}

// messageUnions makes the six message unions unions in every version.
func (p *protocol) messageUnions() error {
	if p.s.Decl(Client.Request) == nil {
		return nil // not an MCP schema (or one without its JSON-RPC layer)
	}
	for _, name := range messageUnions {
		d := p.s.Decl(name)
		if d == nil {
			continue
		}
		if d.Type.Kind == Object {
			// schema.json writes a union of one type as a copy of that type's definition.
			if same := p.copyOf(d); same != nil {
				d.Type = &Type{Kind: Ref, Ref: same.Name, Pos: d.Type.Pos}
			}
		}
		if d.Type.Kind == Ref {
			d.Type = &Type{Kind: Union, Union: &UnionType{Variants: []*Type{d.Type}}, Pos: d.Type.Pos}
		}
		if d.Type.Kind != Union {
			return d.Pos.Errorf("declaration %s: expected a union of message types, found %s", name, d.Type.Kind)
		}
		if name != Client.Result && name != Server.Result {
			d.Type.Union.Tag = "method"
		}
	}
	if p.s.Decl(Server.Request) == nil {
		if in := p.s.Decl(InputRequestDecl); in != nil && in.Type.Kind == Union {
			p.synthesized[Server.Request] = true
			p.s.Decls = append(p.s.Decls, &Decl{
				Name: Server.Request,
				Type: &Type{Kind: Union, Union: &UnionType{Variants: slices.Clone(in.Type.Union.Variants), Tag: "method"}, Pos: in.Type.Pos},
				Doc: Doc{Text: "The requests a server sends a client. In this version a server sends them inside " +
					"an {@link InputRequiredResult} (multi round-trip requests), as the variants of {@link InputRequest}.", Internal: true},
				Pos: in.Pos,
			})
		}
	}
	if out := p.s.Decl(InputResponseDecl); out != nil && out.Type.Kind == Union {
		if err := p.addVariants(Client.Result, out.Type.Union.Variants...); err != nil {
			return err
		}
	}
	return nil
}

// copyOf returns the other object declaration that d is a copy of (the same documentation and
// member names), or nil.
func (p *protocol) copyOf(d *Decl) *Decl {
	names := func(o *ObjectType) []string {
		var out []string
		for _, m := range o.Members {
			out = append(out, m.Name)
		}
		return out
	}
	for _, other := range p.s.Decls {
		if other != d && other.Type.Kind == Object && other.Doc.Text == d.Doc.Text &&
			slices.Equal(names(other.Type.Object), names(d.Type.Object)) {
			return other
		}
	}
	return nil
}

// addVariants adds references to the union declaration name that it does not list yet.
func (p *protocol) addVariants(name string, variants ...*Type) error {
	d := p.s.Decl(name)
	if d == nil {
		return nil
	}
	if d.Type.Kind != Union {
		return d.Pos.Errorf("declaration %s: expected a union, found %s", name, d.Type.Kind)
	}
	for _, v := range variants {
		if v.Kind == Ref && !slices.ContainsFunc(d.Type.Union.Variants, func(w *Type) bool { return w.Kind == Ref && w.Ref == v.Ref }) {
			d.Type.Union.Variants = append(d.Type.Union.Variants, &Type{Kind: Ref, Ref: v.Ref, Pos: v.Pos})
		}
	}
	return nil
}

// variantDecls returns the object declarations that the union declaration name lists (directly
// or through nested unions).
func (p *protocol) variantDecls(name string) []*Decl {
	var out []*Decl
	var walk func(t *Type, depth int)
	walk = func(t *Type, depth int) {
		if depth > len(p.s.Decls) {
			return
		}
		switch t.Kind {
		case Union:
			for _, v := range t.Union.Variants {
				walk(v, depth+1)
			}
		case Ref:
			d := p.s.Decl(t.Ref)
			if d == nil {
				return
			}
			if d.Type.Kind == Object {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
				return
			}
			walk(d.Type, depth+1)
		}
	}
	if d := p.s.Decl(name); d != nil {
		walk(d.Type, 0)
	}
	return out
}

// envelopes gives the requests and notifications of the message unions the members of a
// JSON-RPC message where they lack them, and puts jsonrpc and id first in every JSON-RPC message.
// The requests of a ServerRequest the schema does not declare travel inside results and stay as
// they are.
func (p *protocol) envelopes() error {
	kinds := []struct {
		envelope string
		unions   []string
	}{
		{JSONRPCRequestDecl, RequestUnions()},
		{JSONRPCNotificationDecl, NotificationUnions()},
	}
	for _, k := range kinds {
		env := p.s.Decl(k.envelope)
		if env == nil || env.Type.Kind != Object {
			continue
		}
		for _, union := range k.unions {
			if p.synthesized[union] {
				continue
			}
			for _, d := range p.variantDecls(union) {
				for _, name := range []string{"jsonrpc", "id"} {
					m := env.Type.Object.Member(name)
					if m == nil || d.Type.Object.Member(name) != nil {
						continue
					}
					copied := *m
					d.Type.Object.Members = append(d.Type.Object.Members, &copied)
				}
			}
		}
	}
	for _, d := range p.s.Decls {
		if d.Type.Kind == Object && d.Type.Object.Member("jsonrpc") != nil {
			slices.SortStableFunc(d.Type.Object.Members, func(a, b *Member) int { return envelopeRank(a.Name) - envelopeRank(b.Name) })
		}
	}
	return nil
}

// envelopeRank orders the members of a JSON-RPC message: jsonrpc, id, then the others.
func envelopeRank(name string) int {
	switch name {
	case "jsonrpc":
		return 0
	case "id":
		return 1
	}
	return 2
}

// results makes the result of a result response AnyResult, adds CreateTaskResult to the result
// unions of the sides that answer task-augmented requests, and lets the id of an error response
// be null.
func (p *protocol) results() error {
	if p.s.Decl(Client.Result) == nil || p.s.Decl(Server.Result) == nil {
		return nil
	}
	if task := p.s.Decl(CreateTaskResultDecl); task != nil {
		ref := &Type{Kind: Ref, Ref: task.Name, Pos: task.Pos}
		for _, side := range Sides() {
			if slices.ContainsFunc(p.variantDecls(side.Other().Request), p.s.TaskAugmented) {
				if err := p.addVariants(side.Result, ref); err != nil {
					return err
				}
			}
		}
	}

	var results []*Type
	seen := map[string]bool{}
	for _, union := range []string{Server.Result, Client.Result} {
		for _, d := range p.variantDecls(union) {
			if !seen[d.Name] {
				seen[d.Name] = true
				results = append(results, &Type{Kind: Ref, Ref: d.Name, Pos: d.Pos})
			}
		}
	}
	if p.s.Decl(AnyResultDecl) != nil {
		return fmt.Errorf("the schema declares %s, the name of the union of every result", AnyResultDecl)
	}
	anyResult := &Decl{
		Name: AnyResultDecl,
		Type: &Type{Kind: Union, Union: &UnionType{Variants: results}},
		Doc: Doc{Text: "Any result of this version: the result of a result response. Decoded knowing the " +
			"method of the request it answers, it has the type of that method's result; decoded alone, " +
			"the type whose members fit best, as for {@link ServerResult}."},
	}
	for _, d := range p.s.Decls {
		if d.Type.Kind != Object {
			continue
		}
		obj := d.Type.Object
		jsonrpc, result, errMember := obj.Member("jsonrpc"), obj.Member("result"), obj.Member("error")
		if jsonrpc == nil {
			continue
		}
		if result != nil && result.Type.Kind == Ref && result.Type.Ref == ResultDecl {
			result.Type = &Type{Kind: Ref, Ref: anyResult.Name, Pos: result.Type.Pos}
		}
		if errMember != nil {
			if id := obj.Member("id"); id != nil {
				id.Nullable = true
			}
		}
	}
	p.s.Decls = append(p.s.Decls, anyResult)
	p.resultTypes()
	return nil
}

// resultTypes gives the resultType member of every result its default: "input_required" for
// InputRequiredResult, "complete" for the others, so that a result without it (from a peer of
// an earlier version) decodes, as the spec asks ("the client MUST treat the absent field as
// complete"), and a result built in Go says what it is without being told.
func (p *protocol) resultTypes() {
	for _, d := range p.s.Decls {
		if d.Type.Kind != Object {
			continue
		}
		for i, m := range d.Type.Object.Members {
			if m.Name != "resultType" || m.Optional || m.Type.Kind != Ref || m.Type.Ref != "ResultType" {
				continue
			}
			value := "complete"
			if d.Name == InputRequiredResultDecl {
				value = "input_required"
			}
			copied := *m // members may be shared with the declarations they are inherited from
			copied.Default = &Value{Kind: String, Str: value}
			d.Type.Object.Members[i] = &copied
		}
	}
}

// TaskAugmented reports whether the request d can be task-augmented (2025-11-25): its params
// have the member "task" of type TaskMetadata.
func (s *Schema) TaskAugmented(d *Decl) bool {
	if d.Type.Kind != Object {
		return false
	}
	params := d.Type.Object.Member("params")
	if params == nil {
		return false
	}
	t, err := s.Deref(params.Type)
	if err != nil {
		return false
	}
	objects := []*Type{t}
	if t.Kind == Union { // ElicitRequestParams: every variant extends TaskAugmentedRequestParams
		objects = nil
		for _, v := range t.Union.Variants {
			if r, err := s.Deref(v); err == nil {
				objects = append(objects, r)
			}
		}
	}
	for _, o := range objects {
		if o.Kind == Object {
			if m := o.Object.Member("task"); m != nil && m.Type.Kind == Ref && m.Type.Ref == "TaskMetadata" {
				return true
			}
		}
	}
	return false
}
