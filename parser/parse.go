package parser

import (
	"github.com/mcpgen/mcpgen/model"
)

// Parse parses a schema.ts file into its AST. filename is used in positions and errors.
func Parse(filename string, src []byte) (*File, error) {
	p := &parser{lex: newLexer(filename, src)}
	if err := p.next(); err != nil {
		return nil, err
	}
	f := &File{}
	for p.tok.kind != tokEOF {
		d, err := p.decl()
		if err != nil {
			return nil, err
		}
		f.Decls = append(f.Decls, d)
	}
	return f, nil
}

// keywords are the primitive type names of the subset.
var keywords = map[string]bool{
	"string": true, "number": true, "boolean": true, "null": true,
	"unknown": true, "any": true, "object": true,
}

type parser struct {
	lex *lexer
	tok token // the current token
}

func (p *parser) next() (err error) {
	p.tok, err = p.lex.next()
	return err
}

// unexpected reports the current token as not being what was expected.
func (p *parser) unexpected(expected string) error {
	return p.tok.pos.Errorf("found %s, expected %s", p.tok, expected)
}

// expect consumes the punctuation or keyword s.
func (p *parser) expect(s string) error {
	if !p.tok.is(s) {
		return p.unexpected("`" + s + "`")
	}
	return p.next()
}

// ident consumes an identifier and returns it.
func (p *parser) ident(expected string) (token, error) {
	t := p.tok
	if t.kind != tokIdent {
		return t, p.unexpected(expected)
	}
	return t, p.next()
}

// decl parses a top-level declaration.
func (p *parser) decl() (Decl, error) {
	doc, err := parseJSDoc(p.tok.doc)
	if err != nil {
		return nil, err
	}
	if p.tok.is("export") { // exported or not, a declaration is part of the schema
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	kw, end := p.tok.text, p.tok.pos
	if p.tok.kind != tokIdent || kw != "interface" && kw != "type" && kw != "const" {
		return nil, p.unexpected("`interface`, `type` or `const`")
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.nl && kw != "const" {
		// TypeScript reads `type` or `interface` then a line break as an identifier.
		end.Col += len(kw)
		return nil, end.Errorf("found a line break after `%s`, expected the name on the same line", kw)
	}
	name, err := p.ident("a name")
	if err != nil {
		return nil, err
	}
	switch kw {
	case "interface":
		d := &Interface{Pos: name.pos, Name: name.text, Doc: doc}
		if d.Extends, err = p.extends(); err != nil {
			return nil, err
		}
		if !p.tok.is("{") {
			return nil, p.unexpected("`extends` or `{`")
		}
		d.Body, err = p.body()
		return d, err
	case "type":
		d := &Alias{Pos: name.pos, Name: name.text, Doc: doc}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		if d.Type, err = p.typ(); err != nil {
			return nil, err
		}
		return d, p.expect(";")
	default:
		d := &Const{Pos: name.pos, Name: name.text, Doc: doc}
		if err := p.expect("="); err != nil {
			return nil, err
		}
		t, err := p.primary()
		if err != nil {
			return nil, err
		}
		lit, ok := t.(*Literal)
		if !ok {
			return nil, t.Position().Errorf("found a type, expected a string, number or boolean literal")
		}
		d.Value = lit
		return d, p.expect(";")
	}
}

// extends parses an optional `extends A, B<...>` clause.
func (p *parser) extends() ([]Type, error) {
	if !p.tok.is("extends") {
		return nil, nil
	}
	var list []Type
	for {
		if err := p.next(); err != nil { // extends or ,
			return nil, err
		}
		if p.tok.kind != tokIdent {
			return nil, p.unexpected("a type name")
		}
		t, err := p.primary()
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
	if err := p.next(); err != nil {
		return b, err
	}
	for !p.tok.is("}") {
		if p.tok.is("[") {
			if b.Index != nil {
				return b, p.tok.pos.Errorf("found a second index signature, expected one at most")
			}
			ix, err := p.index()
			if err != nil {
				return b, err
			}
			b.Index = ix
		} else {
			m, err := p.member()
			if err != nil {
				return b, err
			}
			b.Members = append(b.Members, m)
		}
		switch {
		case p.tok.is(";") || p.tok.is(","):
			if err := p.next(); err != nil {
				return b, err
			}
		case !p.tok.is("}"):
			return b, p.unexpected("`;` or `}`")
		}
	}
	return b, p.next()
}

// member parses `name?: Type`.
func (p *parser) member() (*Member, error) {
	doc, err := parseJSDoc(p.tok.doc)
	if err != nil {
		return nil, err
	}
	m := &Member{Pos: p.tok.pos, Name: p.tok.text, Doc: doc}
	switch p.tok.kind {
	case tokIdent:
	case tokString:
		m.Name = p.tok.str
	default:
		return nil, p.unexpected("a member name or `}`")
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.is("?") {
		m.Optional = true
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	m.Type, err = p.typ()
	return m, err
}

// index parses `[key: string]: Type`.
func (p *parser) index() (*IndexSignature, error) {
	ix := &IndexSignature{Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return nil, err
	}
	if _, err := p.ident("a key name"); err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	if err := p.expect("string"); err != nil {
		return nil, err
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	var err error
	ix.Value, err = p.typ()
	return ix, err
}

// typ parses a union: `|`? Intersection (`|` Intersection)*.
func (p *parser) typ() (Type, error) {
	return p.list("|", p.intersection, func(pos model.Pos, ts []Type) Type { return &Union{pos, ts} })
}

// intersection parses `&`? Postfix (`&` Postfix)*.
func (p *parser) intersection() (Type, error) {
	return p.list("&", p.postfix, func(pos model.Pos, ts []Type) Type { return &Intersection{pos, ts} })
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
		t, err := operand()
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

// postfix parses Primary (`[` `]`)*, with no line break before a `[`.
func (p *parser) postfix() (Type, error) {
	pos := p.tok.pos
	t, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.tok.is("[") && !p.tok.nl {
		if err := p.next(); err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		t = &ArrayOf{Pos: pos, Elem: t}
	}
	return t, nil
}

// primary parses a keyword, literal, reference, typeof, parenthesized type or object literal.
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
		lit.Pos = tok.pos
		return lit, p.next()
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
		b, err := p.body()
		return &ObjectLit{Pos: tok.pos, Body: b}, err
	case tok.kind != tokIdent:
		return nil, p.unexpected("a type")
	case keywords[tok.text]:
		return &Keyword{tok.pos, tok.text}, p.next()
	case tok.text == "true" || tok.text == "false":
		return &Literal{tok.pos, model.Value{Kind: model.Boolean, Bool: tok.text == "true"}}, p.next()
	case tok.text == "typeof":
		if err := p.next(); err != nil {
			return nil, err
		}
		name, err := p.ident("a constant name")
		return &Typeof{tok.pos, name.text}, err
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	ref := &TypeRef{Pos: tok.pos, Name: tok.text}
	if !p.tok.is("<") || p.tok.nl { // type arguments start on the line of the name
		return ref, nil
	}
	for {
		if err := p.next(); err != nil { // < or ,
			return nil, err
		}
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		ref.Args = append(ref.Args, t)
		if !p.tok.is(",") {
			break
		}
	}
	return ref, p.expect(">")
}

// numberLit makes a number literal of tok, prefixed by sign.
func numberLit(tok token, sign string) *Literal {
	return &Literal{tok.pos, model.NumberValue(sign + tok.text)}
}
