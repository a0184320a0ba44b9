package parser

// Variable statements (const, let, var): the constants of a schema, and binding patterns.

// variables parses the declarators of a `const`, `let`, `var` or `using` statement. A `const`
// whose value is a literal (or whose type is a literal type) is a Const; anything else has no Go
// mapping.
func (p *parser) variables(doc JSDoc, start token, kw string) ([]Decl, error) {
	var ds []Decl
	for {
		name, err := p.bindingName()
		if err != nil {
			return nil, err
		}
		if _, err := p.skip("!"); err != nil {
			return nil, err
		}
		var typ Type
		if ok, err := p.skip(":"); err != nil {
			return nil, err
		} else if ok {
			if typ, err = p.typ(); err != nil {
				return nil, err
			}
		}
		var value Type
		if ok, err := p.skip("="); err != nil {
			return nil, err
		} else if ok {
			if value, err = p.expression(); err != nil {
				return nil, err
			}
		} else if kw == "const" && !p.ambient {
			return nil, p.unexpected("`=` (a const has a value unless it is declared with `declare`)")
		}
		switch {
		case kw != "const":
			ds = append(ds, other(start, name.text, "a "+kw+" declaration")...)
		case name.kind != tokIdent:
			ds = append(ds, other(name, "", "a destructuring declaration")...)
		default:
			c := &Const{Pos: name.pos, Name: name.text, Doc: doc}
			lit, ok := value.(*Literal)
			if value == nil {
				lit, ok = typ.(*Literal)
			}
			switch {
			case ok:
				c.Value = lit
			case value != nil:
				c.Unmapped = value.(*Unmapped) // expression returns a literal or an Unmapped
			case typ != nil:
				c.Unmapped = &Unmapped{Pos: typ.Position(), What: "a type that is not a literal type"}
			default:
				c.Unmapped = &Unmapped{Pos: name.pos, What: "a constant without a value"}
			}
			ds = append(ds, c)
		}
		if ok, err := p.skip(","); err != nil || !ok {
			if err == nil {
				err = p.semicolon()
			}
			return ds, err
		}
	}
}

// bindingName parses the name of a variable or parameter: an identifier or a destructuring
// pattern. It returns the first token of the name.
func (p *parser) bindingName() (token, error) {
	t := p.tok
	switch {
	case t.kind == tokIdent:
		return t, p.next()
	case t.is("{") || t.is("["):
		return t, p.pattern()
	}
	return t, p.unexpected("a name")
}

// pattern parses a destructuring pattern `{ a, b: c = 1, ...d }` or `[a, , ...b]`.
func (p *parser) pattern() error {
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
	object := p.tok.is("{")
	closing := map[bool]string{true: "}", false: "]"}[object]
	if err := p.next(); err != nil {
		return err
	}
	for !p.tok.is(closing) {
		if !object && p.tok.is(",") { // a hole
			if err := p.next(); err != nil {
				return err
			}
			continue
		}
		rest, err := p.skip("...")
		if err != nil {
			return err
		}
		if object && !rest {
			if _, err := p.propertyName(); err != nil {
				return err
			}
			if ok, err := p.skip(":"); err != nil {
				return err
			} else if ok {
				if _, err := p.bindingName(); err != nil {
					return err
				}
			}
		} else if _, err := p.bindingName(); err != nil {
			return err
		}
		if ok, err := p.skip("="); err != nil {
			return err
		} else if ok {
			if _, err := p.expression(); err != nil {
				return err
			}
		}
		if !p.tok.is(closing) {
			if err := p.expect(","); err != nil {
				return err
			}
		}
	}
	return p.next()
}

// propertyName parses a member name: an identifier, a string, a number or a computed name
// `[expression]`. It returns the name's token; a computed name gives its `[`.
func (p *parser) propertyName() (token, error) {
	t := p.tok
	switch {
	case t.kind == tokIdent || t.kind == tokString || t.kind == tokNumber:
		return t, p.next()
	case t.is("["):
		if err := p.next(); err != nil {
			return t, err
		}
		if _, err := p.expression(); err != nil {
			return t, err
		}
		return t, p.expect("]")
	}
	return t, p.unexpected("a member name")
}
