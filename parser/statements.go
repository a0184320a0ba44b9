package parser

// Statements: the declarations of a file or a block, with their modifiers (export, declare), and
// the declarations that map to Go: interfaces, type aliases and constants.

// statements parses statements up to the end of the file, or up to the `}` that closes a block.
func (p *parser) statements(decls *[]Decl, block bool) error {
	for {
		switch {
		case p.tok.kind == tokEOF && block:
			return p.unexpected("`}`")
		case p.tok.kind == tokEOF, block && p.tok.is("}"):
			return nil
		case p.tok.is(";"): // an empty statement
			if err := p.next(); err != nil {
				return err
			}
			continue
		}
		ds, err := p.statement()
		if err != nil {
			return err
		}
		*decls = append(*decls, ds...)
	}
}

// statement parses one declaration, with its modifiers.
func (p *parser) statement() ([]Decl, error) {
	doc, err := parseJSDoc(p.tok.doc)
	if err != nil {
		return nil, err
	}
	if p.tok.is("export") {
		if err := p.next(); err != nil {
			return nil, err
		}
		if d, done, err := p.export(); done || err != nil {
			return d, err
		}
	}
	ambient := p.ambient
	defer func() { p.ambient = ambient }()
	if p.tok.is("declare") && p.sameLine() {
		p.ambient = true
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	return p.declaration(doc)
}

// other returns an Other declaration that started at tok.
func other(tok token, name, what string) []Decl {
	return []Decl{&Other{Pos: tok.pos, Name: name, What: what}}
}

// declaration parses a declaration after its `export` and `declare` modifiers.
func (p *parser) declaration(doc JSDoc) ([]Decl, error) {
	start := p.tok
	kw := p.tok.text
	if p.tok.kind != tokIdent {
		return nil, p.unexpected("a declaration")
	}
	switch kw {
	case "interface", "type":
		return p.typeDecl(doc, start)
	case "const":
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok.is("enum") {
			return p.enumDecl(start)
		}
		return p.variables(doc, start, "const")
	case "let", "var", "using":
		if err := p.next(); err != nil {
			return nil, err
		}
		return p.variables(doc, start, kw)
	case "enum":
		return p.enumDecl(start)
	case "function":
		return p.functionDecl(start)
	case "async":
		if err := p.next(); err != nil {
			return nil, err
		}
		if !p.tok.is("function") {
			return nil, p.unexpected("`function`")
		}
		return p.functionDecl(start)
	case "class":
		return p.classDecl(start)
	case "abstract":
		if !p.sameLine() {
			break
		}
		if err := p.next(); err != nil {
			return nil, err
		}
		if !p.tok.is("class") {
			return nil, p.unexpected("`class`")
		}
		return p.classDecl(start)
	case "namespace", "module":
		if t := p.peek(); t.nl || t.kind != tokIdent && (kw != "module" || t.kind != tokString) {
			break
		}
		return p.namespaceDecl(start)
	case "global":
		if !p.peek().is("{") {
			break
		}
		if err := p.next(); err != nil {
			return nil, err
		}
		if err := p.block(); err != nil {
			return nil, err
		}
		return other(start, "global", "a global augmentation"), nil
	case "import":
		return p.importDecl(start)
	}
	return nil, p.unexpected("a declaration")
}

// typeDecl parses an interface or a type alias from its keyword, start; the name must follow on
// the keyword's line.
func (p *parser) typeDecl(doc JSDoc, start token) ([]Decl, error) {
	if err := p.next(); err != nil {
		return nil, err
	}
	if p.tok.nl {
		// TypeScript reads `type` or `interface` then a line break as an identifier.
		end := start.pos
		end.Col += len(start.text)
		return nil, end.Errorf("found a line break after `%s`, expected the name on the same line", start.text)
	}
	if start.text == "interface" {
		d, err := p.interfaceDecl(doc)
		return []Decl{d}, err
	}
	d, err := p.aliasDecl(doc)
	return []Decl{d}, err
}

// interfaceDecl parses an interface after `interface`.
func (p *parser) interfaceDecl(doc JSDoc) (*Interface, error) {
	name, err := p.ident("a name")
	if err != nil {
		return nil, err
	}
	d := &Interface{Pos: name.pos, Name: name.text, Doc: doc}
	if d.Generic, err = p.typeParams(); err != nil {
		return nil, err
	}
	if d.Extends, err = p.heritage("extends"); err != nil {
		return nil, err
	}
	if !p.tok.is("{") {
		return nil, p.unexpected("`extends` or `{`")
	}
	d.Body, err = p.body()
	return d, err
}

// aliasDecl parses a type alias after `type`.
func (p *parser) aliasDecl(doc JSDoc) (*Alias, error) {
	name, err := p.ident("a name")
	if err != nil {
		return nil, err
	}
	d := &Alias{Pos: name.pos, Name: name.text, Doc: doc}
	if d.Generic, err = p.typeParams(); err != nil {
		return nil, err
	}
	if err := p.expect("="); err != nil {
		return nil, err
	}
	if d.Type, err = p.typ(); err != nil {
		return nil, err
	}
	return d, p.semicolon()
}
