package parser

// Expressions, where a declaration file holds them (constant values, enum members, default
// values, computed names): a literal is kept, anything else is unmapped.

import "github.com/mcpgen/mcpgen/model"

// expression parses the expressions that declarations hold (constant values, enum members,
// default values): literals, names, member accesses, calls, array and object literals, unary
// operators, `as` and `satisfies`. It returns a *Literal for a literal (`as const` allowed), an
// *Unmapped otherwise.
func (p *parser) expression() (Type, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case (p.tok.is("as") || p.tok.is("satisfies")) && !p.tok.nl:
			as := p.tok.is("as")
			if err := p.next(); err != nil {
				return nil, err
			}
			if as && p.tok.is("const") {
				if err := p.next(); err != nil {
					return nil, err
				}
			} else if _, err := p.typ(); err != nil {
				return nil, err
			}
		case p.tok.is("!") && !p.tok.nl:
			if err := p.next(); err != nil {
				return nil, err
			}
		default:
			return t, nil
		}
	}
}

// unary parses a unary expression.
func (p *parser) unary() (Type, error) {
	start := p.tok
	if p.tok.is("-") || p.tok.is("+") || p.tok.is("!") || p.tok.is("~") || p.tok.is("typeof") || p.tok.is("void") {
		if err := p.next(); err != nil {
			return nil, err
		}
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		t, err := p.unary()
		if err != nil {
			return nil, err
		}
		if l, ok := t.(*Literal); ok && start.is("-") && (l.Value.Kind == model.Integer || l.Value.Kind == model.Number) &&
			l.Value.Num[0] != '-' {
			return &Literal{start.pos, model.NumberValue("-" + l.Value.Num)}, nil
		}
		return &Unmapped{Pos: start.pos, What: "a value that is not a literal"}, nil
	}
	t, err := p.primaryExpr()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.tok.is(".") || p.tok.is("?") && p.peek().is("."):
			if p.tok.is("?") {
				if err := p.next(); err != nil {
					return nil, err
				}
			}
			if err := p.next(); err != nil {
				return nil, err
			}
			if _, err := p.ident("a name"); err != nil {
				return nil, err
			}
		case p.tok.is("[") && !p.tok.nl:
			if err := p.next(); err != nil {
				return nil, err
			}
			if _, err := p.expression(); err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
		case p.tok.is("(") && !p.tok.nl:
			if err := p.arguments(); err != nil {
				return nil, err
			}
		default:
			return t, nil
		}
		t = &Unmapped{Pos: start.pos, What: "a value that is not a literal"}
	}
}

// arguments parses `(a, ...b)`.
func (p *parser) arguments() error {
	if err := p.next(); err != nil {
		return err
	}
	for !p.tok.is(")") {
		if _, err := p.skip("..."); err != nil {
			return err
		}
		if _, err := p.expression(); err != nil {
			return err
		}
		if !p.tok.is(")") {
			if err := p.expect(","); err != nil {
				return err
			}
		}
	}
	return p.next()
}

// primaryExpr parses a literal, a name, a template, a parenthesized expression, or an array or
// object literal.
func (p *parser) primaryExpr() (Type, error) {
	tok := p.tok
	unmapped := &Unmapped{Pos: tok.pos, What: "a value that is not a literal"}
	switch {
	case tok.kind == tokString:
		return &Literal{tok.pos, model.Value{Kind: model.String, Str: tok.str}}, p.next()
	case tok.kind == tokNumber:
		return numberLit(tok, ""), p.next()
	case tok.is("true") || tok.is("false"):
		return &Literal{tok.pos, model.Value{Kind: model.Boolean, Bool: tok.text == "true"}}, p.next()
	case tok.is("`"):
		return p.template(true)
	case tok.kind == tokIdent:
		return unmapped, p.next()
	case tok.is("("):
		if err := p.next(); err != nil {
			return nil, err
		}
		t, err := p.expression()
		if err != nil {
			return nil, err
		}
		return t, p.expect(")")
	case tok.is("["):
		return p.arrayLiteral(unmapped)
	case tok.is("{"):
		return p.objectLiteral(unmapped)
	}
	return nil, p.unexpected("an expression")
}

// arrayLiteral skips an array literal from its `[`, holes and spreads included, and returns
// unmapped, as no array value maps to the model.
func (p *parser) arrayLiteral(unmapped Type) (Type, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	for !p.tok.is("]") {
		if p.tok.is(",") { // a hole
			if err := p.next(); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := p.skip("..."); err != nil {
			return nil, err
		}
		if _, err := p.expression(); err != nil {
			return nil, err
		}
		if !p.tok.is("]") {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return unmapped, p.next()
}

// objectLiteral skips an object literal from its `{`: spreads, properties with a value and
// shorthand properties. It returns unmapped, as no object value maps to the model.
func (p *parser) objectLiteral(unmapped Type) (Type, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	for !p.tok.is("}") {
		if ok, err := p.skip("..."); err != nil {
			return nil, err
		} else if ok {
			if _, err := p.expression(); err != nil {
				return nil, err
			}
		} else {
			name, err := p.propertyName()
			if err != nil {
				return nil, err
			}
			if ok, err := p.skip(":"); err != nil {
				return nil, err
			} else if ok {
				if _, err := p.expression(); err != nil {
					return nil, err
				}
			} else if name.kind != tokIdent {
				return nil, p.unexpected("`:`")
			}
		}
		if !p.tok.is("}") {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return unmapped, p.next()
}
