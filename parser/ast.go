package parser

import "github.com/mcpgen/mcpgen/model"

// File is a parsed schema.ts.
type File struct {
	Decls []Decl
}

// Decl is a top-level declaration: *Interface, *Alias, *Const or *Other.
type Decl interface {
	DeclName() string
	Position() model.Pos
}

// Interface is `interface Name extends A, B { ... }`.
type Interface struct {
	Pos     model.Pos // of the name
	Name    string
	Doc     JSDoc
	Generic *Unmapped // the type parameters, or nil
	Extends []Type    // each a *TypeRef
	Body
}

// Alias is `type Name = Type;`.
type Alias struct {
	Pos     model.Pos // of the name
	Name    string
	Doc     JSDoc
	Generic *Unmapped // the type parameters, or nil
	Type    Type
}

// Const is `const NAME = literal;` or `declare const NAME: literal type;`. Value is nil when the
// value is something else, described by Unmapped.
type Const struct {
	Pos      model.Pos // of the name
	Name     string
	Doc      JSDoc
	Value    *Literal
	Unmapped *Unmapped
}

// Other is a declaration or statement of TypeScript that has no Go mapping: a function, a class,
// an enum, a namespace, an import, a re-export, a `let`... Name is its name, or "".
type Other struct {
	Pos  model.Pos // of its first token after `export` and `declare`
	Name string
	What string // "a function declaration"
}

func (d *Interface) DeclName() string    { return d.Name }
func (d *Alias) DeclName() string        { return d.Name }
func (d *Const) DeclName() string        { return d.Name }
func (d *Other) DeclName() string        { return d.Name }
func (d *Interface) Position() model.Pos { return d.Pos }
func (d *Alias) Position() model.Pos     { return d.Pos }
func (d *Const) Position() model.Pos     { return d.Pos }
func (d *Other) Position() model.Pos     { return d.Pos }

// Body is the content of an interface or an object type literal.
type Body struct {
	Members []*Member
	// Index is the index signature `[key: string]: T`, or nil.
	Index *IndexSignature
	// Unmapped are the members with no Go mapping: call, construct and other index signatures,
	// accessors.
	Unmapped []*Unmapped
}

// Member is `name?: Type` in a Body; Name is unquoted.
type Member struct {
	Pos      model.Pos // of the name
	Name     string
	Optional bool
	Doc      JSDoc
	Type     Type
}

// IndexSignature is `[key: string]: Value`.
type IndexSignature struct {
	Pos   model.Pos // of `[`
	Value Type
}

// Type is a type expression: *Keyword, *Literal, *TypeRef, *Typeof, *ArrayOf, *Union,
// *Intersection, *ObjectLit or *Unmapped. Parentheses leave no node.
type Type interface {
	Position() model.Pos
}

// Keyword is a predefined type: string, number, boolean, null, unknown, any, object, never,
// undefined, void, symbol, bigint or this.
type Keyword struct {
	Pos  model.Pos
	Name string
}

// Unmapped is a construct that TypeScript allows and that has no Go mapping: a conditional type,
// a mapped type, a function type, type parameters... The parser reads it whole and keeps only
// what it is, for the resolver's error.
type Unmapped struct {
	Pos  model.Pos // of its first token
	What string    // "a conditional type"
}

// Literal is a string, number or boolean literal; a negative number's Num starts with '-'.
type Literal struct {
	Pos   model.Pos
	Value model.Value
}

// TypeRef is a reference to a named type, with type arguments for the built-in generics
// (Array<T>, Record<K, V>, Omit<T, K>...). Name is qualified (`A.B`) when the source is.
type TypeRef struct {
	Pos  model.Pos
	Name string
	Args []Type
}

// Typeof is `typeof NAME`; Name is qualified (`a.b`) when the source is.
type Typeof struct {
	Pos  model.Pos
	Name string
}

// ArrayOf is `Elem[]`.
type ArrayOf struct {
	Pos  model.Pos
	Elem Type
}

// Union is `A | B | ...`.
type Union struct {
	Pos   model.Pos
	Types []Type
}

// Intersection is `A & B & ...`.
type Intersection struct {
	Pos   model.Pos
	Types []Type
}

// ObjectLit is an object type literal `{ ... }`.
type ObjectLit struct {
	Pos model.Pos
	Body
}

func (t *Keyword) Position() model.Pos      { return t.Pos }
func (t *Literal) Position() model.Pos      { return t.Pos }
func (t *TypeRef) Position() model.Pos      { return t.Pos }
func (t *Typeof) Position() model.Pos       { return t.Pos }
func (t *ArrayOf) Position() model.Pos      { return t.Pos }
func (t *Union) Position() model.Pos        { return t.Pos }
func (t *Intersection) Position() model.Pos { return t.Pos }
func (t *ObjectLit) Position() model.Pos    { return t.Pos }
func (t *Unmapped) Position() model.Pos     { return t.Pos }
