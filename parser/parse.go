package parser

import (
	"github.com/mcpgen/mcpgen/model"
)

// Parse parses a schema.ts file into its AST. filename is used in positions and errors.
//
// Parse reads the declarations of TypeScript as a declaration file (.d.ts) has them: interfaces,
// type aliases, constants, and also functions, classes, enums, namespaces, imports and exports.
// It checks their syntax and keeps, as *Unmapped and *Other nodes, what has no Go mapping, so that
// the resolver can name it. Statements that are not declarations (expressions, loops, function
// bodies...) are errors.
func Parse(filename string, src []byte) (*File, error) {
	if err := checkUTF8(filename, src); err != nil {
		return nil, err
	}
	p := &parser{lex: newLexer(filename, src)}
	if err := p.next(); err != nil {
		return nil, err
	}
	f := &File{}
	if err := p.statements(&f.Decls, false); err != nil {
		return nil, err
	}
	return f, nil
}

// keywords are the predefined type names.
var keywords = map[string]bool{
	"string": true, "number": true, "boolean": true, "null": true,
	"unknown": true, "any": true, "object": true, "never": true, "undefined": true,
	"void": true, "symbol": true, "bigint": true, "this": true,
}

type parser struct {
	lex   *lexer
	tok   token // the current token
	depth int   // of nested types, expressions and blocks
	// noConditional is set while parsing the `extends` type of a conditional type, where
	// another conditional type needs parentheses.
	noConditional bool
	// ambient is set in a `declare` statement, where a const needs no value.
	ambient bool
}

func (p *parser) next() (err error) {
	p.tok, err = p.lex.next()
	return err
}

// peek returns the token after the current one, or the end of file when it cannot be lexed.
func (p *parser) peek() token {
	l := *p.lex
	t, err := l.next()
	if err != nil {
		return token{}
	}
	return t
}

// state is what save and restore keep, to parse a construct speculatively.
type state struct {
	lex   lexer
	tok   token
	depth int
}

func (p *parser) save() state     { return state{*p.lex, p.tok, p.depth} }
func (p *parser) restore(s state) { *p.lex, p.tok, p.depth = s.lex, s.tok, s.depth }

// enter counts one more level of nesting; leave undoes it.
func (p *parser) enter() error {
	p.depth++
	if p.depth > model.MaxDepth {
		return p.tok.pos.Errorf("found types or blocks nested more than %d deep, expected at most %d", model.MaxDepth, model.MaxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

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

// skip consumes the token s if it is the current one, and reports whether it was.
func (p *parser) skip(s string) (bool, error) {
	if !p.tok.is(s) {
		return false, nil
	}
	return true, p.next()
}

// ident consumes an identifier and returns it.
func (p *parser) ident(expected string) (token, error) {
	t := p.tok
	if t.kind != tokIdent {
		return t, p.unexpected(expected)
	}
	return t, p.next()
}

// semicolon ends a statement or a member: a `;`, or nothing before a line break, a `}` or the end
// of the file (automatic semicolon insertion).
func (p *parser) semicolon() error {
	if p.tok.is(";") {
		return p.next()
	}
	if p.tok.kind == tokEOF || p.tok.is("}") || p.tok.nl {
		return nil
	}
	return p.unexpected("`;`")
}

// sameLine reports whether the token after the current one is on the same line; contextual
// keywords (`type`, `declare`, `namespace`...) are keywords only then.
func (p *parser) sameLine() bool {
	t := p.peek()
	return t.kind != tokEOF && !t.nl
}

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

// declaration parses a declaration after its `export` and `declare` modifiers.
func (p *parser) declaration(doc JSDoc) ([]Decl, error) {
	start := p.tok
	kw := p.tok.text
	if p.tok.kind != tokIdent {
		return nil, p.unexpected("a declaration")
	}
	switch kw {
	case "interface", "type":
		if err := p.next(); err != nil {
			return nil, err
		}
		if p.tok.nl {
			// TypeScript reads `type` or `interface` then a line break as an identifier.
			end := start.pos
			end.Col += len(kw)
			return nil, end.Errorf("found a line break after `%s`, expected the name on the same line", kw)
		}
		if kw == "interface" {
			d, err := p.interfaceDecl(doc)
			return []Decl{d}, err
		}
		d, err := p.aliasDecl(doc)
		return []Decl{d}, err
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
	case tok.is("{"):
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
	return nil, p.unexpected("an expression")
}
