package parser

import "github.com/mcpgen/mcpgen/model"

// File is a parsed schema.ts.
type File struct {
	Decls []Decl
}

// Decl is a top-level declaration: *Interface, *Alias or *Const.
type Decl interface {
	DeclName() string
	Position() model.Pos
}

// Interface is `interface Name extends A, B { ... }`.
type Interface struct {
	Pos     model.Pos // of the name
	Name    string
	Doc     JSDoc
	Extends []Type // each a *TypeRef
	Body
}

// Alias is `type Name = Type;`.
type Alias struct {
	Pos  model.Pos // of the name
	Name string
	Doc  JSDoc
	Type Type
}

// Const is `const NAME = literal;`.
type Const struct {
	Pos   model.Pos // of the name
	Name  string
	Doc   JSDoc
	Value *Literal
}

func (d *Interface) DeclName() string    { return d.Name }
func (d *Alias) DeclName() string        { return d.Name }
func (d *Const) DeclName() string        { return d.Name }
func (d *Interface) Position() model.Pos { return d.Pos }
func (d *Alias) Position() model.Pos     { return d.Pos }
func (d *Const) Position() model.Pos     { return d.Pos }

// Body is the content of an interface or an object type literal.
type Body struct {
	Members []*Member
	// Index is the index signature `[key: string]: T`, or nil.
	Index *IndexSignature
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
// *Intersection or *ObjectLit. Parentheses leave no node.
type Type interface {
	Position() model.Pos
}

// Keyword is a primitive type: string, number, boolean, null, unknown, any or object.
type Keyword struct {
	Pos  model.Pos
	Name string
}

// Literal is a string, number or boolean literal; a negative number's Num starts with '-'.
type Literal struct {
	Pos   model.Pos
	Value model.Value
}

// TypeRef is a reference to a named type, with type arguments for Array<T>, Record<K, V> and
// Omit<T, K>.
type TypeRef struct {
	Pos  model.Pos
	Name string
	Args []Type
}

// Typeof is `typeof NAME`.
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
