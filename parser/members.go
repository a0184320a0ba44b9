package parser

// Interface headers and bodies: type parameters, extends clauses, members and index signatures.

import "github.com/mcpgen/mcpgen/model"

// typeParams parses optional type parameters `<T extends C = D, ...>`. They have no Go mapping.
func (p *parser) typeParams() (*Unmapped, error) {
	if !p.tok.is("<") {
		return nil, nil
	}
	u := &Unmapped{Pos: p.tok.pos, What: "type parameters"}
	if err := p.next(); err != nil {
		return nil, err
	}
	for {
		for (p.tok.is("in") || p.tok.is("out") || p.tok.is("const")) && p.peek().kind == tokIdent && !p.peek().is("extends") {
			if err := p.next(); err != nil {
				return nil, err
			}
		}
		if _, err := p.ident("a type parameter"); err != nil {
			return nil, err
		}
		for _, kw := range []string{"extends", "="} {
			if ok, err := p.skip(kw); err != nil {
				return nil, err
			} else if ok {
				if _, err := p.typ(); err != nil {
					return nil, err
				}
			}
		}
		if ok, err := p.skip(","); err != nil {
			return nil, err
		} else if !ok || p.tok.is(">") {
			return u, p.expect(">")
		}
	}
}

// heritage parses an optional `extends A, B<C>` (or `implements`) clause.
func (p *parser) heritage(kw string) ([]Type, error) {
	if !p.tok.is(kw) {
		return nil, nil
	}
	var list []Type
	for {
		if err := p.next(); err != nil { // the keyword or ,
			return nil, err
		}
		if p.tok.kind != tokIdent {
			return nil, p.unexpected("a type name")
		}
		t, err := p.typeReference()
		if err != nil {
			return nil, err
		}
		list = append(list, t)
		if !p.tok.is(",") {
			return list, nil
		}
	}
}

// body parses `{ members }`; the current token is `{`.
func (p *parser) body() (Body, error) {
	var b Body
	if err := p.enter(); err != nil {
		return b, err
	}
	defer p.leave()
	if err := p.next(); err != nil {
		return b, err
	}
	for !p.tok.is("}") {
		if err := p.member(&b); err != nil {
			return b, err
		}
		switch {
		case p.tok.is(";") || p.tok.is(","):
			if err := p.next(); err != nil {
				return b, err
			}
		case !p.tok.is("}") && !p.tok.nl:
			return b, p.unexpected("`;` or `}`")
		}
	}
	return b, p.next()
}

// member parses one member of an interface or object type into b: a property, an index
// signature, or a member without Go mapping (a method, a call or construct signature, an
// accessor).
func (p *parser) member(b *Body) error {
	doc, err := parseJSDoc(p.tok.doc)
	if err != nil {
		return err
	}
	start := p.tok
	unmapped := func(what string) {
		b.Unmapped = append(b.Unmapped, &Unmapped{Pos: start.pos, What: what})
	}
	switch {
	case p.tok.is("(") || p.tok.is("<"):
		unmapped("a call signature")
		return p.signature(":")
	case p.tok.is("new") && (p.peek().is("(") || p.peek().is("<")):
		unmapped("a construct signature")
		if err := p.next(); err != nil {
			return err
		}
		return p.signature(":")
	}
	if p.tok.is("readonly") && startsName(p.peek()) {
		if err := p.next(); err != nil {
			return err
		}
	}
	if p.tok.is("[") && p.isIndexSignature() {
		ix, err := p.indexSignature()
		if err != nil {
			return err
		}
		if k, ok := ix.key.(*Keyword); !ok || k.Name != "string" {
			unmapped("an index signature whose key is not string")
			return nil
		}
		if b.Index != nil {
			return start.pos.Errorf("found a second index signature, expected one at most")
		}
		b.Index = &IndexSignature{Pos: ix.pos, Value: ix.value}
		return nil
	}
	if (p.tok.is("get") || p.tok.is("set")) && startsName(p.peek()) {
		unmapped("an accessor")
		if err := p.next(); err != nil {
			return err
		}
		if _, err := p.propertyName(); err != nil {
			return err
		}
		return p.signature(":")
	}
	if !startsName(token{kind: p.tok.kind, text: p.tok.text}) || p.tok.is("*") || p.tok.is("{") || p.tok.kind == tokPrivate {
		return p.unexpected("a member name or `}`")
	}
	return p.property(b, doc, unmapped)
}

// property parses a property or a method signature from its name into b; unmapped records in b
// what of it has no Go mapping.
func (p *parser) property(b *Body, doc JSDoc, unmapped func(what string)) error {
	name, err := p.propertyName()
	if err != nil {
		return err
	}
	m := &Member{Pos: name.pos, Name: name.text, Doc: doc}
	switch name.kind {
	case tokString:
		m.Name = name.str
	case tokNumber:
		v, bigint, octal := numberValue(name.text)
		if bigint || octal {
			unmapped("a member name that is not a decimal number")
		}
		m.Name = v.Num
	case tokPunct: // [computed]
		unmapped("a computed member name")
	}
	if m.Optional, err = p.skip("?"); err != nil {
		return err
	}
	if p.tok.is("(") || p.tok.is("<") {
		b.Unmapped = append(b.Unmapped, &Unmapped{Pos: name.pos, What: "a method signature"})
		return p.signature(":")
	}
	if ok, err := p.skip(":"); err != nil {
		return err
	} else if !ok {
		// A member without a type is `any`.
		m.Type = &Keyword{Pos: name.pos, Name: "any"}
	} else if m.Type, err = p.typ(); err != nil {
		return err
	}
	if name.kind != tokPunct {
		b.Members = append(b.Members, m)
	}
	return nil
}

// isIndexSignature reports whether the current `[` starts an index signature `[k: T]` rather than
// a computed member name `[expr]`.
func (p *parser) isIndexSignature() bool {
	l := *p.lex
	t, err := l.next()
	if err != nil || t.kind != tokIdent {
		return false
	}
	t, err = l.next()
	return err == nil && t.is(":")
}

// indexSig is a parsed index signature.
type indexSig struct {
	pos        model.Pos
	key, value Type
}

// indexSignature parses `[key: K]: V`; the current token is `[`.
func (p *parser) indexSignature() (*indexSig, error) {
	ix := &indexSig{pos: p.tok.pos}
	if err := p.next(); err != nil {
		return nil, err
	}
	if _, err := p.ident("a key name"); err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	var err error
	if ix.key, err = p.typ(); err != nil {
		return nil, err
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	ix.value, err = p.typ()
	return ix, err
}
