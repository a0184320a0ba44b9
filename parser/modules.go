package parser

// Module syntax: export lists and re-exports, imports, and qualified names.

// export parses what follows `export` when it is not a declaration: export lists, `export *`,
// `export =`, `export as namespace`, `export default`. done is false when a declaration follows.
func (p *parser) export() (ds []Decl, done bool, err error) {
	start := p.tok
	switch {
	case p.tok.is("{") || p.tok.is("*") || p.tok.is("type") && (p.peek().is("{") || p.peek().is("*")):
		ds, err = p.exportList()
		return ds, true, err
	case p.tok.is("="):
		if err := p.next(); err != nil {
			return nil, true, err
		}
		if _, err := p.expression(); err != nil {
			return nil, true, err
		}
		return other(start, "", "an export assignment"), true, p.semicolon()
	case p.tok.is("as"):
		if err := p.next(); err != nil {
			return nil, true, err
		}
		if err := p.expect("namespace"); err != nil {
			return nil, true, err
		}
		name, err := p.ident("a namespace name")
		if err != nil {
			return nil, true, err
		}
		return other(start, name.text, "a UMD namespace export"), true, p.semicolon()
	case p.tok.is("default"):
		if err := p.next(); err != nil {
			return nil, true, err
		}
		if p.tok.is("interface") || p.tok.is("class") || p.tok.is("function") || p.tok.is("abstract") && p.sameLine() ||
			p.tok.is("async") && p.sameLine() {
			return nil, false, nil
		}
		if _, err := p.expression(); err != nil {
			return nil, true, err
		}
		return other(start, "", "a default export"), true, p.semicolon()
	}
	return nil, false, nil
}

// exportList parses `export {a, b as c}`, `export type {a}`, `export * from "m"` and `export *
// as ns from "m"`. A list of local names, none renamed, adds nothing; anything else has no Go
// mapping.
func (p *parser) exportList() ([]Decl, error) {
	start := p.tok
	if _, err := p.skip("type"); err != nil {
		return nil, err
	}
	renamed := false
	if ok, err := p.skip("*"); err != nil {
		return nil, err
	} else if ok {
		renamed = true
		if ok, err := p.skip("as"); err != nil {
			return nil, err
		} else if ok {
			if err := p.moduleExportName(); err != nil {
				return nil, err
			}
		}
		if !p.tok.is("from") {
			return nil, p.unexpected("`from`")
		}
	} else {
		var err error
		if renamed, err = p.namedList(); err != nil {
			return nil, err
		}
	}
	from, err := p.skip("from")
	if err != nil {
		return nil, err
	}
	if from {
		if err := p.moduleSpecifier(); err != nil {
			return nil, err
		}
		return other(start, "", "a re-export"), nil
	}
	if err := p.semicolon(); err != nil {
		return nil, err
	}
	if renamed {
		return other(start, "", "an export under another name"), nil
	}
	return nil, nil
}

// namedList parses `{ a, type b, c as d }` of an import or export and reports whether a name was
// renamed.
func (p *parser) namedList() (bool, error) {
	renamed := false
	if err := p.expect("{"); err != nil {
		return false, err
	}
	for !p.tok.is("}") {
		// `type` is a modifier unless it is the name itself (`{ type }`, `{ type as x }`).
		if p.tok.is("type") {
			if t := p.peek(); t.kind == tokIdent && !t.is("as") || t.kind == tokString {
				if err := p.next(); err != nil {
					return false, err
				}
			}
		}
		if err := p.moduleExportName(); err != nil {
			return false, err
		}
		if ok, err := p.skip("as"); err != nil {
			return false, err
		} else if ok {
			renamed = true
			if err := p.moduleExportName(); err != nil {
				return false, err
			}
		}
		if !p.tok.is("}") {
			if err := p.expect(","); err != nil {
				return false, err
			}
		}
	}
	return renamed, p.next()
}

// moduleExportName consumes an identifier or a string naming an import or export.
func (p *parser) moduleExportName() error {
	if p.tok.kind != tokIdent && p.tok.kind != tokString {
		return p.unexpected("a name")
	}
	return p.next()
}

// moduleSpecifier parses `"module"` with optional import attributes, and the end of the
// statement.
func (p *parser) moduleSpecifier() error {
	if p.tok.kind != tokString {
		return p.unexpected("a module name")
	}
	if err := p.next(); err != nil {
		return err
	}
	if p.tok.is("with") || p.tok.is("assert") && !p.tok.nl {
		if err := p.next(); err != nil {
			return err
		}
		if !p.tok.is("{") {
			return p.unexpected("`{`")
		}
		if _, err := p.expression(); err != nil {
			return err
		}
	}
	return p.semicolon()
}

// importDecl parses an import declaration; the current token is `import`. Imports have no Go
// mapping: mcpgen reads one file.
func (p *parser) importDecl(start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	decl := other(start, "", "an import")
	if p.tok.kind == tokString { // import "m";
		return decl, p.moduleSpecifier()
	}
	if p.tok.is("type") {
		if t := p.peek(); t.kind == tokIdent && !t.is("from") || t.is("{") || t.is("*") {
			if err := p.next(); err != nil {
				return nil, err
			}
		}
	}
	if p.tok.kind == tokIdent && !p.tok.is("from") || p.tok.is("from") && p.peek().is("from") {
		if err := p.next(); err != nil {
			return nil, err
		}
		if ok, err := p.skip("="); err != nil {
			return nil, err
		} else if ok { // import x = require("m"); import x = A.B;
			if p.tok.is("require") && p.peek().is("(") {
				if err := p.next(); err != nil {
					return nil, err
				}
				if err := p.next(); err != nil {
					return nil, err
				}
				if p.tok.kind != tokString {
					return nil, p.unexpected("a module name")
				}
				if err := p.next(); err != nil {
					return nil, err
				}
				if err := p.expect(")"); err != nil {
					return nil, err
				}
			} else if _, err := p.qualifiedName(); err != nil {
				return nil, err
			}
			return decl, p.semicolon()
		}
		if ok, err := p.skip(","); err != nil {
			return nil, err
		} else if !ok {
			return decl, p.from()
		}
	}
	if ok, err := p.skip("*"); err != nil {
		return nil, err
	} else if ok {
		if err := p.expect("as"); err != nil {
			return nil, err
		}
		if _, err := p.ident("a name"); err != nil {
			return nil, err
		}
	} else if _, err := p.namedList(); err != nil {
		return nil, err
	}
	return decl, p.from()
}

// from parses `from "m"` and the end of the statement.
func (p *parser) from() error {
	if err := p.expect("from"); err != nil {
		return err
	}
	return p.moduleSpecifier()
}

// qualifiedName parses `A.B.C` and returns it.
func (p *parser) qualifiedName() (string, error) {
	name, err := p.ident("a name")
	if err != nil {
		return "", err
	}
	s := name.text
	for p.tok.is(".") {
		if err := p.next(); err != nil {
			return "", err
		}
		part, err := p.ident("a name")
		if err != nil {
			return "", err
		}
		s += "." + part.text
	}
	return s, nil
}
