package parser

// Type expressions with a syntax of their own: template literal types, mapped types, tuples, and
// number literal types.

import "github.com/mcpgen/mcpgen/model"

// template parses a template literal type (or, with expr, a template literal expression); the
// current token is the opening backquote. A template without substitutions is a string literal.
func (p *parser) template(expr bool) (Type, error) {
	start := p.tok
	var text string
	for subst := false; ; {
		chunk, more, err := p.lex.templateChunk(start.pos)
		if err != nil {
			return nil, err
		}
		text += chunk
		if !more {
			if err := p.next(); err != nil {
				return nil, err
			}
			if subst {
				what := "a template literal type"
				if expr {
					what = "a template literal with substitutions"
				}
				return &Unmapped{Pos: start.pos, What: what}, nil
			}
			return &Literal{start.pos, model.Value{Kind: model.String, Str: text}}, nil
		}
		subst = true
		if err := p.next(); err != nil {
			return nil, err
		}
		if expr {
			_, err = p.expression()
		} else {
			_, err = p.typ()
		}
		if err != nil {
			return nil, err
		}
		if !p.tok.is("}") {
			return nil, p.unexpected("`}`")
		}
	}
}

// isMappedType reports whether the current `{` starts a mapped type `{ [K in T]: U }`.
func (p *parser) isMappedType() bool {
	l := *p.lex
	t, err := l.next()
	if err == nil && (t.is("+") || t.is("-")) {
		t, err = l.next()
	}
	if err == nil && t.is("readonly") {
		t, err = l.next()
	}
	if err != nil || !t.is("[") {
		return false
	}
	if t, err = l.next(); err != nil || t.kind != tokIdent {
		return false
	}
	t, err = l.next()
	return err == nil && t.is("in")
}

// mappedType parses `{ readonly [K in T as N]?: U }`.
func (p *parser) mappedType() (Type, error) {
	start := p.tok
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if err := p.next(); err != nil { // {
		return nil, err
	}
	if _, err := p.plusMinus(); err != nil {
		return nil, err
	}
	if _, err := p.skip("readonly"); err != nil {
		return nil, err
	}
	if err := p.expect("["); err != nil {
		return nil, err
	}
	if _, err := p.ident("a type parameter"); err != nil {
		return nil, err
	}
	if err := p.expect("in"); err != nil {
		return nil, err
	}
	if _, err := p.typ(); err != nil {
		return nil, err
	}
	if ok, err := p.skip("as"); err != nil {
		return nil, err
	} else if ok {
		if _, err := p.typ(); err != nil {
			return nil, err
		}
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	if sign, err := p.plusMinus(); err != nil {
		return nil, err
	} else if sign {
		if err := p.expect("?"); err != nil {
			return nil, err
		}
	} else if _, err := p.skip("?"); err != nil {
		return nil, err
	}
	if ok, err := p.skip(":"); err != nil {
		return nil, err
	} else if ok {
		if _, err := p.typ(); err != nil {
			return nil, err
		}
	}
	if p.tok.is(";") || p.tok.is(",") {
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if err := p.expect("}"); err != nil {
		return nil, err
	}
	return &Unmapped{Pos: start.pos, What: "a mapped type"}, nil
}

// plusMinus skips an optional `+` or `-` of a mapped type's modifier.
func (p *parser) plusMinus() (bool, error) {
	if p.tok.is("+") || p.tok.is("-") {
		return true, p.next()
	}
	return false, nil
}

// tuple parses `[A, b?: B, ...C[]]`; the current token is `[`.
func (p *parser) tuple() (Type, error) {
	start := p.tok
	if err := p.next(); err != nil {
		return nil, err
	}
	for !p.tok.is("]") {
		if _, err := p.skip("..."); err != nil {
			return nil, err
		}
		// A named member `name?:` or `name:`.
		if p.tok.kind == tokIdent {
			if t := p.peek(); t.is(":") || t.is("?") {
				s := p.save()
				if err := p.next(); err != nil {
					return nil, err
				}
				if _, err := p.skip("?"); err != nil {
					return nil, err
				}
				if !p.tok.is(":") {
					p.restore(s)
				} else if err := p.next(); err != nil {
					return nil, err
				}
			}
		}
		if _, err := p.typ(); err != nil {
			return nil, err
		}
		if _, err := p.skip("?"); err != nil {
			return nil, err
		}
		if !p.tok.is("]") {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return &Unmapped{Pos: start.pos, What: "a tuple type"}, p.next()
}

// numberLit makes a number literal of tok, prefixed by sign: a *Literal, or an *Unmapped for a
// BigInt or legacy octal literal.
func numberLit(tok token, sign string) Type {
	v, bigint, octal := numberValue(tok.text)
	switch {
	case bigint:
		return &Unmapped{Pos: tok.pos, What: "a bigint literal"}
	case octal:
		return &Unmapped{Pos: tok.pos, What: "a legacy octal literal"}
	}
	if sign != "" {
		v = model.NumberValue(sign + v.Num)
	}
	return &Literal{tok.pos, v}
}
