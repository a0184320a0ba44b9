package parser

// Declarations with no Go mapping, parsed to check their syntax and to name them in errors:
// enums, functions, classes, namespaces, and the signatures of functions and methods.

// enumDecl parses `enum E { A, B = 1 }`; the current token is `enum`. Enums have no Go mapping.
func (p *parser) enumDecl(start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	name, err := p.ident("an enum name")
	if err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for !p.tok.is("}") {
		if _, err := p.propertyName(); err != nil {
			return nil, err
		}
		if ok, err := p.skip("="); err != nil {
			return nil, err
		} else if ok {
			if _, err := p.expression(); err != nil {
				return nil, err
			}
		}
		if !p.tok.is("}") {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return other(start, name.text, "an enum"), p.next()
}

// functionDecl parses a function signature; the current token is `function`. A function body is
// an error: mcpgen reads declarations. Functions have no Go mapping.
func (p *parser) functionDecl(start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	if _, err := p.skip("*"); err != nil {
		return nil, err
	}
	name := p.tok
	if _, err := p.ident("a function name"); err != nil {
		return nil, err
	}
	if err := p.signature(":"); err != nil {
		return nil, err
	}
	if p.tok.is("{") {
		return nil, p.unexpected("`;` (mcpgen reads declarations, not function bodies)")
	}
	return other(start, name.text, "a function declaration"), p.semicolon()
}

// classDecl parses a class declaration; the current token is `class`. Classes have no Go
// mapping.
func (p *parser) classDecl(start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	name := ""
	if p.tok.kind == tokIdent && !p.tok.is("extends") && !p.tok.is("implements") {
		name = p.tok.text
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	if _, err := p.typeParams(); err != nil {
		return nil, err
	}
	if _, err := p.heritage("extends"); err != nil {
		return nil, err
	}
	if _, err := p.heritage("implements"); err != nil {
		return nil, err
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for !p.tok.is("}") {
		if ok, err := p.skip(";"); err != nil {
			return nil, err
		} else if !ok {
			if err := p.classMember(); err != nil {
				return nil, err
			}
		}
	}
	return other(start, name, "a class declaration"), p.next()
}

// classModifiers are the modifiers of class members.
var classModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true,
	"abstract": true, "override": true, "declare": true, "accessor": true, "async": true,
}

// classMember parses a property, method, accessor, constructor or index signature of a class,
// without bodies.
func (p *parser) classMember() error {
	for classModifiers[p.tok.text] && p.tok.kind == tokIdent && startsName(p.peek()) {
		if err := p.next(); err != nil {
			return err
		}
	}
	if p.tok.is("[") && p.isIndexSignature() {
		_, err := p.indexSignature()
		if err == nil {
			err = p.semicolon()
		}
		return err
	}
	if (p.tok.is("get") || p.tok.is("set")) && startsName(p.peek()) {
		if err := p.next(); err != nil {
			return err
		}
	}
	if _, err := p.skip("*"); err != nil {
		return err
	}
	if p.tok.kind == tokPrivate {
		if err := p.next(); err != nil {
			return err
		}
	} else if _, err := p.propertyName(); err != nil {
		return err
	}
	if p.tok.is("?") || p.tok.is("!") {
		if err := p.next(); err != nil {
			return err
		}
	}
	if p.tok.is("(") || p.tok.is("<") {
		if err := p.signature(":"); err != nil {
			return err
		}
		if p.tok.is("{") {
			return p.unexpected("`;` (mcpgen reads declarations, not method bodies)")
		}
		return p.semicolon()
	}
	if ok, err := p.skip(":"); err != nil {
		return err
	} else if ok {
		if _, err := p.typ(); err != nil {
			return err
		}
	}
	if ok, err := p.skip("="); err != nil {
		return err
	} else if ok {
		if _, err := p.expression(); err != nil {
			return err
		}
	}
	return p.semicolon()
}

// startsName reports whether t can start a member name, which makes a preceding modifier
// (`readonly`, `get`, `static`...) a modifier rather than the name itself.
func startsName(t token) bool {
	return !t.nl && (t.kind == tokIdent || t.kind == tokString || t.kind == tokNumber || t.kind == tokPrivate ||
		t.is("[") || t.is("*") || t.is("{"))
}

// namespaceDecl parses `namespace A.B { ... }`, `module "m" { ... }` or `declare module "m";`.
// Namespaces have no Go mapping.
func (p *parser) namespaceDecl(start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	name := p.tok.text
	if p.tok.kind == tokString {
		name = p.tok.str
		if err := p.next(); err != nil {
			return nil, err
		}
		if !p.tok.is("{") {
			return other(start, name, "a module declaration"), p.semicolon()
		}
	} else if _, err := p.qualifiedName(); err != nil {
		return nil, err
	}
	if !p.tok.is("{") {
		return nil, p.unexpected("`{`")
	}
	if err := p.block(); err != nil {
		return nil, err
	}
	return other(start, name, "a "+start.text+" declaration"), nil
}

// block parses `{ statements }`.
func (p *parser) block() error {
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
	if err := p.expect("{"); err != nil {
		return err
	}
	var ignored []Decl
	if err := p.statements(&ignored, true); err != nil {
		return err
	}
	return p.next()
}

// signature parses `<T>(params) sep ReturnType` of a function, method or function type; sep is
// ":" (the return type is optional) or "=>".
func (p *parser) signature(sep string) error {
	if _, err := p.typeParams(); err != nil {
		return err
	}
	if err := p.params(); err != nil {
		return err
	}
	if ok, err := p.skip(sep); err != nil || !ok {
		if err == nil && sep == "=>" {
			err = p.unexpected("`=>`")
		}
		return err
	}
	return p.returnType()
}

// params parses `(a: T, b?: U, ...rest: V[])`.
func (p *parser) params() error {
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
	if err := p.expect("("); err != nil {
		return err
	}
	for !p.tok.is(")") {
		for p.tok.is("@") { // decorators
			if err := p.next(); err != nil {
				return err
			}
			if _, err := p.expression(); err != nil {
				return err
			}
		}
		for classModifiers[p.tok.text] && p.tok.kind == tokIdent && startsName(p.peek()) {
			if err := p.next(); err != nil {
				return err
			}
		}
		if _, err := p.skip("..."); err != nil {
			return err
		}
		if _, err := p.bindingName(); err != nil {
			return err
		}
		if _, err := p.skip("?"); err != nil {
			return err
		}
		if ok, err := p.skip(":"); err != nil {
			return err
		} else if ok {
			if _, err := p.typ(); err != nil {
				return err
			}
		}
		if ok, err := p.skip("="); err != nil {
			return err
		} else if ok {
			if _, err := p.expression(); err != nil {
				return err
			}
		}
		if !p.tok.is(")") {
			if err := p.expect(","); err != nil {
				return err
			}
		}
	}
	return p.next()
}

// returnType parses a return type, which may be a type predicate: `x is T`, `asserts x is T`,
// `asserts x`, `this is T`.
func (p *parser) returnType() error {
	if p.tok.is("asserts") {
		if t := p.peek(); !t.nl && (t.kind == tokIdent) {
			if err := p.next(); err != nil {
				return err
			}
			if err := p.next(); err != nil {
				return err
			}
			if ok, err := p.skip("is"); err != nil || !ok {
				return err
			}
			_, err := p.typ()
			return err
		}
	}
	if p.tok.kind == tokIdent {
		if t := p.peek(); t.is("is") && !t.nl {
			if err := p.next(); err != nil {
				return err
			}
			if err := p.next(); err != nil {
				return err
			}
		}
	}
	_, err := p.typ()
	return err
}
