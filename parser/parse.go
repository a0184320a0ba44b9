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
