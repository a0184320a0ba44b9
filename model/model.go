// Package model is the language-neutral description of an MCP schema that sits between the front
// ends (parser/ for schema.ts, jsonschema/ for schema.json) and the Go emitter (emit/).
//
// A front end produces a [Schema] whose declarations are fully resolved: `extends`, `Omit<>`, `&`,
// `typeof CONST` and aliases of object types are flattened into plain [Object] types, so every
// object lists all of its members. References to other declarations stay as [Ref] types, which
// keeps recursive types finite and lets the emitter name them. [Classify] then decides, for every
// union, how a decoder tells its variants apart.
package model

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a schema file. Line and Col are 1-based; Col counts bytes.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.File == "" && p.Line == 0 {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Errorf returns an error prefixed with the position, in the file:line:col form editors follow.
// The message is cut at MaxMessage bytes, so that no input makes an error line long.
func (p Pos) Errorf(format string, args ...any) error {
	return &Error{Pos: p, Msg: cut(fmt.Sprintf(format, args...), MaxMessage)}
}

// Limits of the generator, the same for both front ends.
const (
	// MaxDepth is how deeply types may nest (parentheses, arrays, object literals, type
	// arguments, unions of unions...) and how long a chain of declarations that build on each
	// other (`extends`, `&`, `Omit<>`) may be. Real schemas nest less than 10 deep; the limit keeps
	// absurd inputs from exhausting the stack or the memory.
	MaxDepth = 100
	// MaxMessage is the length in bytes beyond which an error message is cut.
	MaxMessage = 400
	// maxQuoted is the length in bytes beyond which Shorten cuts a name or a token.
	maxQuoted = 64
)

// CleanText returns documentation text without the characters that a Go source file cannot
// hold or that only disturb it: control characters other than tab and line feed, and U+FEFF
// (byte order mark) each become U+FFFD, as does each byte of invalid UTF-8, which a Go source
// file cannot hold either. Both front ends pass doc text through it.
func CleanText(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if badDocRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badDocRune(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

func badDocRune(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r == '\uFEFF'
}

// Shorten returns s for quoting in a message: s itself when it is short, otherwise its start and
// its length, so that a megabyte-long identifier is not repeated whole.
func Shorten(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return fmt.Sprintf("%s (%d bytes)", cut(s, maxQuoted-16), len(s))
}

// cut returns s cut at n bytes at most, on a UTF-8 boundary, with "…" when something was cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// Schema is one version of the MCP schema.
type Schema struct {
	// Version names the spec version ("2025-11-25", "draft").
	Version string
	// Decls are the type declarations (interfaces and type aliases) in source order.
	Decls []*Decl
	// Consts are the `export const` declarations in source order.
	Consts []*Const

	index   map[string]*Decl // by name, for Decl
	indexed int              // the length of Decls when index was built
}

// Decl returns the declaration with the given name, or nil. The first call after Decls changes
// in length indexes them, so that looking up is constant-time.
func (s *Schema) Decl(name string) *Decl {
	if s.indexed != len(s.Decls) {
		s.index = make(map[string]*Decl, len(s.Decls))
		for _, d := range slices.Backward(s.Decls) {
			s.index[d.Name] = d
		}
		s.indexed = len(s.Decls)
	}
	return s.index[name]
}

// Deref follows Refs through declarations (aliases) to the first type that is not a Ref. It
// fails on a reference to an undeclared name and on a cycle of aliases.
func (s *Schema) Deref(t *Type) (*Type, error) {
	for seen := 0; t.Kind == Ref; seen++ {
		d := s.Decl(t.Ref)
		if d == nil {
			return nil, fmt.Errorf("reference to undeclared %s", Shorten(t.Ref))
		}
		if seen > len(s.Decls) {
			return nil, fmt.Errorf("alias cycle through %s", Shorten(t.Ref))
		}
		if seen > MaxDepth {
			return nil, fmt.Errorf("found a chain of more than %d aliases through %s, expected at most %d", MaxDepth, Shorten(t.Ref), MaxDepth)
		}
		t = d.Type
	}
	return t, nil
}

// Decl is a named type: an interface or a type alias of schema.ts, a definition of schema.json.
type Decl struct {
	Name string
	// Type is the resolved type. For an interface it is an Object, or a Map when the interface
	// has an index signature and no named members.
	Type *Type
	Doc  Doc
	Pos  Pos
	// Extends are the declarations an interface extends by name (`extends A, B`, each a Ref at
	// its position in the clause), in order; a part built by a generic (`Omit<A, "x">`) is not
	// among them. The members are in Type already: Extends says only where they come from, which
	// a member's DeclaredIn cannot say for a member the interface declares again. The schema.json
	// reader leaves it nil (DeclaredIn names an allOf part's definition).
	Extends []*Type
}

// Const is an `export const NAME = literal`.
type Const struct {
	Name  string
	Value Value
	Doc   Doc
	Pos   Pos
}

// Doc is the documentation of a declaration or member, from JSDoc (or a JSON Schema description).
// Text keeps the source markup: Markdown, and `{@link Target}` / `{@link Target | label}` inline
// tags, which the emitter turns into the target language's links.
type Doc struct {
	Text string
	// Deprecated is set by @deprecated; DeprecatedText is the tag's text (may be empty).
	Deprecated     bool
	DeprecatedText string
	// Internal is set by @internal.
	Internal bool
	// Category is the @category tag.
	Category string
	// See holds the texts of @see tags.
	See []string
	// Examples are the @example tags: a title and the file named by {@includeCode}.
	Examples []Example
}

// Example is one @example tag.
type Example struct {
	Title string
	// File is the path given to {@includeCode}, relative to the schema file.
	File string
}

// Kind says what a Type is.
type Kind int

const (
	// Any is free-form JSON (TypeScript `unknown`/`any`): any JSON value, kept exactly.
	Any Kind = iota
	String
	// Integer is a TypeScript `number` without `@TJS-type number` (JSON Schema "integer").
	Integer
	// Number is a floating-point number (`@TJS-type number`, JSON Schema "number").
	Number
	Boolean
	Null
	// Literal is a constant: a string, number or boolean literal, or `typeof CONST`.
	Literal
	// Ref names another declaration of the schema.
	Ref
	// Array has elements of type Elem.
	Array
	// Map is an object of arbitrary keys with values of type Elem (`{ [key: string]: T }`,
	// `Record<string, T>`) and no named members.
	Map
	// Object has named members and, optionally, an index signature (Object.Rest).
	Object
	// Union is one of several types.
	Union
)

var kindNames = [...]string{"any", "string", "integer", "number", "boolean", "null", "literal", "ref", "array", "map", "object", "union"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Type is a resolved type.
type Type struct {
	Kind Kind
	// Literal is the value of a Literal.
	Literal Value
	// Ref is the declaration name of a Ref.
	Ref string
	// Elem is the element type of an Array or the value type of a Map.
	Elem *Type
	// Object is the shape of an Object.
	Object *ObjectType
	// Union is the shape of a Union.
	Union *UnionType
	Pos   Pos
}

// Value is a constant value: exactly one of its fields is meaningful, chosen by Kind.
type Value struct {
	Kind Kind // String, Integer, Number or Boolean
	// Str is the string value of a String literal.
	Str string
	// Num is the source text of a number literal ("-32700", "0.5"), exact.
	Num  string
	Bool bool
}

// NumberValue is the literal of a number written as text: an Integer unless the text has a
// fraction or an exponent.
func NumberValue(text string) Value {
	if strings.ContainsAny(text, ".eE") {
		return Value{Kind: Number, Num: text}
	}
	return Value{Kind: Integer, Num: text}
}

// Float returns the value of a number literal as a float64.
func (l Value) Float() (float64, bool) {
	if l.Kind != Integer && l.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(l.Num, 64)
	return f, err == nil
}

// Int returns the value of an integer literal as an int.
func (l Value) Int() (int, bool) {
	if l.Kind != Integer {
		return 0, false
	}
	n, err := strconv.Atoi(l.Num)
	return n, err == nil
}

func (l Value) String() string {
	switch l.Kind {
	case String:
		return fmt.Sprintf("%q", l.Str)
	case Integer, Number:
		return l.Num
	case Boolean:
		return fmt.Sprint(l.Bool)
	}
	return "?"
}

// ObjectType is an object with named members.
type ObjectType struct {
	// Members in declaration order: inherited members first (in the order of the `extends` list,
	// recursively), then the object's own; a member redeclared by a derived type keeps the
	// position of its first declaration and takes the derived type.
	Members []*Member
	// Rest is the value type of an index signature (`[key: string]: T`), or nil when the object
	// declares none. Members not listed in Members are allowed either way (MCP objects are open);
	// Rest only says what type they have.
	Rest *Type
}

// ObjectOrMap returns the type of a resolved object: a Map of Rest when the object has an index
// signature and no named members (what an interface extending only a map, or an intersection of
// maps, comes to), an Object otherwise. Front ends build their objects' types with it, so that
// an Object always has members or no index signature.
func ObjectOrMap(o *ObjectType, pos Pos) *Type {
	if len(o.Members) == 0 && o.Rest != nil {
		return &Type{Kind: Map, Elem: o.Rest, Pos: pos}
	}
	return &Type{Kind: Object, Object: o, Pos: pos}
}

// Member returns the member with the given JSON name, or nil.
func (o *ObjectType) Member(name string) *Member {
	for _, m := range o.Members {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Member is a named member of an object.
type Member struct {
	// Name is the exact JSON member name.
	Name     string
	Type     *Type
	Optional bool
	// Nullable is set when null is a value of the member besides its type (the id of a JSON-RPC
	// error response, see Protocol).
	Nullable bool
	// Default is the value of a required member that a receiver assumes when it is absent
	// (resultType: "complete", see Protocol): decoding accepts the member absent, and encoding
	// writes Default where the value is the zero value. Senders always write the member.
	Default *Value
	// Absent is set for a member that must not be present: a required member of type never
	// (`structuredContent: never`). Its Type is Any and it is Optional, so that nothing requires
	// it; the generated type has no field for it, decoding and Validate reject it, encoding never
	// writes it.
	Absent bool
	Doc    Doc
	// Constraints are value rules from JSDoc tags (or JSON Schema keywords).
	Constraints Constraints
	Pos         Pos
	// DeclaredIn is the name of the declaration that declares the member: the interface, type
	// alias or definition whose text lists it, for an inherited member (extends, an
	// intersection, Omit, Pick, allOf) the one it is inherited from. It is "" for a member that
	// no declaration lists.
	DeclaredIn string
}

// Constraints are value rules on a member. A member whose type is an alias (a definition) with
// constraints has them too, under its own.
type Constraints struct {
	Minimum   *float64 // @minimum
	Maximum   *float64 // @maximum
	Format    string   // @format
	MinItems  *int     // @minItems
	MaxItems  *int     // @maxItems
	MinLength *int     // @minLength
	MaxLength *int     // @maxLength
	Pattern   string   // @pattern
}

// Overlay returns c with the constraints set in top replacing its own.
func (c Constraints) Overlay(top Constraints) Constraints {
	if top.Minimum != nil {
		c.Minimum = top.Minimum
	}
	if top.Maximum != nil {
		c.Maximum = top.Maximum
	}
	if top.Format != "" {
		c.Format = top.Format
	}
	if top.MinItems != nil {
		c.MinItems = top.MinItems
	}
	if top.MaxItems != nil {
		c.MaxItems = top.MaxItems
	}
	if top.MinLength != nil {
		c.MinLength = top.MinLength
	}
	if top.MaxLength != nil {
		c.MaxLength = top.MaxLength
	}
	if top.Pattern != "" {
		c.Pattern = top.Pattern
	}
	return c
}

// String lists the constraints that are set ("minimum=0 maximum=1"), or returns "".
func (c Constraints) String() string {
	var parts []string
	if c.Minimum != nil {
		parts = append(parts, fmt.Sprintf("minimum=%g", *c.Minimum))
	}
	if c.Maximum != nil {
		parts = append(parts, fmt.Sprintf("maximum=%g", *c.Maximum))
	}
	if c.Format != "" {
		parts = append(parts, "format="+c.Format)
	}
	if c.MinItems != nil {
		parts = append(parts, fmt.Sprintf("minItems=%d", *c.MinItems))
	}
	if c.MaxItems != nil {
		parts = append(parts, fmt.Sprintf("maxItems=%d", *c.MaxItems))
	}
	if c.MinLength != nil {
		parts = append(parts, fmt.Sprintf("minLength=%d", *c.MinLength))
	}
	if c.MaxLength != nil {
		parts = append(parts, fmt.Sprintf("maxLength=%d", *c.MaxLength))
	}
	if c.Pattern != "" {
		parts = append(parts, "pattern="+c.Pattern)
	}
	return strings.Join(parts, " ")
}

// IsZero reports whether no constraint is set.
func (c Constraints) IsZero() bool {
	return c == Constraints{}
}

// UnionType is `A | B | ...`. Variants are as written; Classify fills in the Decision: the strategy
// and its fields.
type UnionType struct {
	Variants []*Type
	// Tag names the member that tells the variants of a union of objects apart where the schema
	// says so in prose rather than in types (model.Protocol sets "method" on the message unions):
	// Classify makes it the discriminator when every variant declares it with literal values,
	// even for a single variant, so that another value is an unknown variant.
	Tag string
	// Decision is set by Classify.
	Decision *Decision
}

// Strategy is how a decoder tells the variants of a union apart.
type Strategy int

const (
	// EnumStrategy: every variant is a string literal, plus possibly `string` itself (Open).
	EnumStrategy Strategy = iota + 1
	// ObjectStrategy: every variant is an object (nested unions of objects are flattened). A
	// decoder reads the discriminator first, if there is one, then decides among the remaining
	// candidates by their required members (see Decision.Variants).
	ObjectStrategy
	// KindStrategy: the variants have distinct JSON kinds (`string | number`).
	KindStrategy
	// OneOrManyStrategy: `X | X[]`; a value remembers which form it had.
	OneOrManyStrategy
	// FreeFormStrategy: the variants cover every JSON kind (JSONValue): any JSON, kept exactly.
	FreeFormStrategy
	// NullableStrategy: `T | null`; Elem is T.
	NullableStrategy
)

var strategyNames = [...]string{"", "enum", "object", "kind", "one-or-many", "free-form", "nullable"}

func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// Decision is the result of classifying a union.
type Decision struct {
	Strategy Strategy

	// EnumStrategy: the literal values in declaration order, and whether any other string is
	// allowed too (`"a" | "b" | string`).
	Values []string
	Open   bool

	// ObjectStrategy: the leaf variants, nested unions flattened, in declaration order, and the
	// discriminator: the name of a member that every variant declares with literal values
	// (possibly several per variant, possibly optional in some), or "" when there is none.
	Variants      []*Variant
	Discriminator string

	// KindStrategy: one variant per JSON kind, in declaration order.
	Kinds []*KindVariant

	// OneOrManyStrategy: the type X of `X | X[]`. NullableStrategy: the type T of `T | null`.
	Elem *Type
}

// Variant is one object variant of an ObjectStrategy union.
//
// Decoding picks a variant like this: with a discriminator, the candidates are the variants that
// list the value found (or, when the member is absent, the variants where it is optional); a
// value no variant lists is an unknown variant, kept as raw JSON. Among several candidates (and,
// without a discriminator, among all variants), those whose required members are all present are
// tried in order of specificity: more required members first, then more of the variant's known
// members present in the input, then declaration order. The first that decodes wins. After a
// variant fails to decode, a later one is tried only if it defines every member present that
// the failed one defines (otherwise it would take the failed members as unknown ones and hide
// the error), and when none decodes the error is the first one's.
type Variant struct {
	// Type is the variant as written in the union: a Ref to an object declaration (or to an
	// alias of one), or an inline Object.
	Type *Type
	// Object is the variant's resolved object type.
	Object *ObjectType
	// Values are the discriminator values that select this variant (empty without a
	// discriminator).
	Values []Value
	// DiscriminatorOptional is set when the variant declares the discriminator optional, so an
	// object without it can be this variant.
	DiscriminatorOptional bool
	// Required lists the names of the required members; Known lists every member name. Both are
	// in member order.
	Required []string
	Known    []string
}

// KindVariant is what a KindStrategy union decodes for one JSON kind.
type KindVariant struct {
	// JSONKind is "string", "number", "boolean", "null", "object" or "array". An integer type
	// has JSON kind "number".
	JSONKind string
	// Type is the variant when it is the only one of its JSON kind.
	Type *Type
	// Objects is set instead of Type when several object variants share the kind: an
	// ObjectStrategy decision among them.
	Objects *Decision
	// Alternatives is set instead of Type when several array variants share the kind: they are
	// tried in this (declaration) order, and the first that decodes wins.
	Alternatives []*Type
}

// Lines turns byte offsets of one file into positions (1-based lines, columns in bytes), for the
// readers of JSON files that keep where each value starts.
type Lines struct {
	file   string
	starts []int // offsets of line starts
}

// NewLines indexes the lines of data, the content of file.
func NewLines(file string, data []byte) Lines {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return Lines{file: file, starts: starts}
}

// Pos is the position of the byte at off.
func (l Lines) Pos(off int) Pos {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return Pos{File: l.file, Line: i + 1, Col: off - l.starts[i] + 1}
}
