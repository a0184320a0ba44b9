package parser

// Type expressions: function types, unions and intersections, type operators, array and indexed
// access types, references with type arguments, typeof and import types.

import "github.com/mcpgen/mcpgen/model"

// typ parses a type: a function or constructor type, or a union, possibly the check type of a
// conditional type.
func (p *parser) typ() (Type, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	start := p.tok
	if p.isFunctionType() {
		what := "a function type"
		if ok, err := p.skip("abstract"); err != nil {
			return nil, err
		} else if ok || p.tok.is("new") {
			what = "a constructor type"
			if err := p.expect("new"); err != nil {
				return nil, err
			}
		}
		if err := p.signature("=>"); err != nil {
			return nil, err
		}
		return &Unmapped{Pos: start.pos, What: what}, nil
	}
	noConditional := p.noConditional
	p.noConditional = false
	defer func() { p.noConditional = noConditional }()
	t, err := p.union()
	if err != nil || noConditional || !p.tok.is("extends") || p.tok.nl {
		return t, err
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	p.noConditional = true
	_, err = p.typ()
	p.noConditional = false
	if err != nil {
		return nil, err
	}
	if err := p.expect("?"); err != nil {
		return nil, err
	}
	if _, err := p.typ(); err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	if _, err := p.typ(); err != nil {
		return nil, err
	}
	return &Unmapped{Pos: start.pos, What: "a conditional type"}, nil
}

// isFunctionType reports whether a function or constructor type starts at the current token:
// `<T>(...) =>`, `new (...) =>`, `abstract new`, or a `(` that starts parameters rather than a
// parenthesized type.
func (p *parser) isFunctionType() bool {
	switch {
	case p.tok.is("<"):
		return true
	case p.tok.is("new"):
		t := p.peek()
		return t.is("(") || t.is("<")
	case p.tok.is("abstract"):
		return p.peek().is("new")
	case !p.tok.is("("):
		return false
	}
	l := *p.lex
	t, err := l.next()
	if err != nil {
		return false
	}
	if t.is(")") || t.is("...") {
		return true
	}
	// Skip a parameter name or a destructuring pattern, then look at what follows.
	switch {
	case t.kind == tokIdent:
	case t.is("{") || t.is("["):
		for depth := 0; ; {
			if t.is("{") || t.is("[") || t.is("(") {
				depth++
			} else if t.is("}") || t.is("]") || t.is(")") {
				depth--
			}
			if depth == 0 || t.kind == tokEOF {
				break
			}
			if t, err = l.next(); err != nil {
				return false
			}
		}
	default:
		return false
	}
	if t, err = l.next(); err != nil {
		return false
	}
	if t.is(":") || t.is(",") || t.is("?") || t.is("=") {
		return true
	}
	if t.is(")") {
		t, err = l.next()
		return err == nil && t.is("=>")
	}
	return false
}

// union parses `|`? Intersection (`|` Intersection)*.
func (p *parser) union() (Type, error) {
	return p.list("|", p.intersection, func(pos model.Pos, ts []Type) Type { return &Union{pos, ts} })
}

// intersection parses `&`? Operator (`&` Operator)*.
func (p *parser) intersection() (Type, error) {
	return p.list("&", p.operator, func(pos model.Pos, ts []Type) Type { return &Intersection{pos, ts} })
}

// list parses operands separated by op, with an optional leading op. A single operand is
// returned as is.
func (p *parser) list(op string, operand func() (Type, error), build func(model.Pos, []Type) Type) (Type, error) {
	pos := p.tok.pos
	if p.tok.is(op) {
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	var ts []Type
	for {
		var t Type
		var err error
		if p.isFunctionType() {
			// `A | () => B` is allowed: the function type takes the rest.
			t, err = p.typ()
		} else {
			t, err = operand()
		}
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.tok.is(op) {
			break
		}
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if len(ts) == 1 {
		return ts[0], nil
	}
	return build(pos, ts), nil
}

// operator parses the type operators keyof, unique, readonly and infer, then a postfix type.
func (p *parser) operator() (Type, error) {
	start := p.tok
	switch {
	case p.tok.is("keyof") || p.tok.is("unique") && p.peek().is("symbol") || p.tok.is("readonly"):
		if t := p.peek(); !startsType(t) {
			break
		}
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		if err := p.next(); err != nil {
			return nil, err
		}
		t, err := p.operator()
		if err != nil || start.is("readonly") { // readonly T[] is T[]
			return t, err
		}
		return &Unmapped{Pos: start.pos, What: map[string]string{"keyof": "a keyof type", "unique": "a unique symbol type"}[start.text]}, nil
	case p.tok.is("infer") && p.peek().kind == tokIdent:
		if err := p.next(); err != nil {
			return nil, err
		}
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok.is("extends") && !p.tok.nl {
			// `infer U extends C` has a constraint, unless the extends starts a conditional type.
			s := p.save()
			if err := p.next(); err != nil {
				return nil, err
			}
			noConditional := p.noConditional
			p.noConditional = true
			_, err := p.typ()
			p.noConditional = noConditional
			if err != nil || !noConditional && p.tok.is("?") {
				p.restore(s)
			}
		}
		return &Unmapped{Pos: start.pos, What: "an infer type"}, nil
	}
	return p.postfix()
}

// startsType reports whether t can start a type, which makes a preceding keyof, readonly or
// unique an operator.
func startsType(t token) bool {
	return t.kind == tokIdent || t.kind == tokString || t.kind == tokNumber ||
		t.is("(") || t.is("[") || t.is("{") || t.is("-") || t.is("`")
}

// postfix parses Primary (`[` `]` | `[` Type `]`)*, with no line break before a `[`.
func (p *parser) postfix() (Type, error) {
	pos := p.tok.pos
	t, err := p.primary()
	if err != nil {
		return nil, err
	}
	for dims := 0; p.tok.is("[") && !p.tok.nl; dims++ {
		if p.depth+dims >= model.MaxDepth {
			return nil, p.tok.pos.Errorf("found array types nested more than %d deep, expected at most %d", model.MaxDepth, model.MaxDepth)
		}
		if err := p.next(); err != nil {
			return nil, err
		}
		if ok, err := p.skip("]"); err != nil {
			return nil, err
		} else if ok {
			t = &ArrayOf{Pos: pos, Elem: t}
			continue
		}
		if _, err := p.typ(); err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		t = &Unmapped{Pos: pos, What: "an indexed access type"}
	}
	return t, nil
}

// primary parses a keyword, literal, reference, typeof, parenthesized type, object type, mapped
// type, tuple, template literal type or import type.
func (p *parser) primary() (Type, error) {
	tok := p.tok
	switch {
	case tok.kind == tokString:
		return &Literal{tok.pos, model.Value{Kind: model.String, Str: tok.str}}, p.next()
	case tok.kind == tokNumber:
		return numberLit(tok, ""), p.next()
	case tok.is("-"):
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok.kind != tokNumber {
			return nil, p.unexpected("a number")
		}
		lit := numberLit(p.tok, "-")
		switch l := lit.(type) { // the position of the sign
		case *Literal:
			l.Pos = tok.pos
		case *Unmapped:
			l.Pos = tok.pos
		}
		return lit, p.next()
	case tok.is("`"):
		return p.template(false)
	case tok.is("("):
		if err := p.next(); err != nil {
			return nil, err
		}
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		return t, p.expect(")")
	case tok.is("{"):
		if p.isMappedType() {
			return p.mappedType()
		}
		b, err := p.body()
		return &ObjectLit{Pos: tok.pos, Body: b}, err
	case tok.is("["):
		return p.tuple()
	case tok.kind != tokIdent:
		return nil, p.unexpected("a type")
	case tok.text == "typeof":
		return p.typeQuery()
	case tok.text == "import" && p.peek().is("("):
		return p.importType()
	case keywords[tok.text]:
		return &Keyword{tok.pos, tok.text}, p.next()
	case tok.text == "true" || tok.text == "false":
		return &Literal{tok.pos, model.Value{Kind: model.Boolean, Bool: tok.text == "true"}}, p.next()
	}
	return p.typeReference()
}

// typeReference parses `A.B<T, U>`.
func (p *parser) typeReference() (Type, error) {
	tok := p.tok
	name, err := p.qualifiedName()
	if err != nil {
		return nil, err
	}
	ref := &TypeRef{Pos: tok.pos, Name: name}
	if !p.tok.is("<") || p.tok.nl { // type arguments start on the line of the name
		return ref, nil
	}
	ref.Args, err = p.typeArgs()
	return ref, err
}

// typeArgs parses `<T, U>`; the current token is `<`.
func (p *parser) typeArgs() ([]Type, error) {
	var args []Type
	for {
		if err := p.next(); err != nil { // < or ,
			return nil, err
		}
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		args = append(args, t)
		if !p.tok.is(",") {
			break
		}
	}
	return args, p.expect(">")
}

// typeQuery parses `typeof a.b` and `typeof import("m")`, with optional type arguments.
func (p *parser) typeQuery() (Type, error) {
	tok := p.tok
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.is("import") && p.peek().is("(") {
		if _, err := p.importType(); err != nil {
			return nil, err
		}
		return &Unmapped{Pos: tok.pos, What: "a typeof import type"}, nil
	}
	if p.tok.kind != tokIdent {
		return nil, p.unexpected("a constant name")
	}
	name, err := p.qualifiedName()
	if err != nil {
		return nil, err
	}
	if p.tok.is("<") && !p.tok.nl {
		if _, err := p.typeArgs(); err != nil {
			return nil, err
		}
		return &Unmapped{Pos: tok.pos, What: "a typeof with type arguments"}, nil
	}
	return &Typeof{tok.pos, name}, nil
}

// importType parses `import("m").A.B<T>`; the current token is `import`.
func (p *parser) importType() (Type, error) {
	tok := p.tok
	if err := p.next(); err != nil {
		return nil, err
	}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	if p.tok.kind != tokString {
		return nil, p.unexpected("a module name")
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.is(",") { // import attributes
		if err := p.next(); err != nil {
			return nil, err
		}
		if _, err := p.expression(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	for p.tok.is(".") {
		if err := p.next(); err != nil {
			return nil, err
		}
		if _, err := p.ident("a name"); err != nil {
			return nil, err
		}
	}
	if p.tok.is("<") && !p.tok.nl {
		if _, err := p.typeArgs(); err != nil {
			return nil, err
		}
	}
	return &Unmapped{Pos: tok.pos, What: "an import type"}, nil
}
