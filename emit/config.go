package emit

import (
	"github.com/mcpgen/mcpgen/model"
)

// Config shapes the output, as a configuration file says (package config): which declarations are
// generated, their Go names, the existing Go types that replace some of them, and what the output
// leaves out. The zero Config generates every declaration as the package doc describes. Every
// entry carries the position of the configuration line that made it, which errors name.
//
// Keys name the schema's declarations as the schema spells them ("RequestId", not "RequestID"),
// and members as "Declaration.member" with the member's JSON name ("Tool.inputSchema",
// "Tool._meta"); a member key names a member of the declaration's resolved object, inherited
// ones included.
type Config struct {
	// Types are the roots of the output: declarations ("Tool") and members
	// ("CallToolRequest.params"), whose types are generated with everything they reference, so
	// that the output compiles. A member root generates the member's type without its
	// declaration (go-sdk's Name: "-" with extracted Fields). nil generates every declaration.
	Types []Entry
	// Names gives Go names to declarations ("CallToolRequestParams": "CallToolParams"), to the
	// inline type of a member ("ClientCapabilities.sampling": "SamplingCapabilities"), to the
	// schema's constants ("LATEST_PROTOCOL_VERSION") and to the constant SchemaVersion. The
	// names derived from a declaration's name follow it: its inline types, enum constants,
	// union functions and Unknown variant.
	Names map[string]Entry
	// Fields gives Go names to the fields of members ("Tool._meta": "Metadata").
	Fields map[string]Entry
	// Substitutes replace declarations and members' types by existing Go types: a
	// substituted declaration is not generated, and every reference to it has the Go type.
	Substitutes map[string]Substitute
	// Initialisms are words written in capitals in every Go name besides ID, URI, URL, JSON,
	// RPC and HTTP ("MIME": mimeType → MIMEType). Each is one word as names are split (letters
	// and digits, one camel hump).
	Initialisms []Entry
	// NoValidate leaves out validation: no validate.go, no Validate methods (the union and
	// Message interfaces do not ask for one), none of the parts that validate (the sampling
	// rules), and none of the runtime functions that need Validate (Unmarshal, Marshal).
	NoValidate bool
	// NoRuntime leaves out the runtime files (wire*.go): the package must hold them from
	// another mcpgen output in the same directory (see FilePrefix), of the same mcpgen version.
	NoRuntime bool
	// FilePrefix starts the name of every file of the output ("ext_types.go"), so that two
	// outputs can share a directory and a Go package; doc.go records it, so that an output
	// without a prefix leaves the prefixed files alone.
	FilePrefix string

	// Order gives the order of the members of a struct (a declaration, or a path to an inline
	// object), by their JSON names: they come first, in that order, the others after them in the
	// schema's. The fields and the encoded members follow it, as encoding/json follows the field
	// order (an SDK whose tests compare bytes).
	Order map[string][]Entry
	// TagCodecs are declarations, or paths to inline objects (ServerCapabilities.prompts),
	// whose structs are coded by encoding/json from their tags: no MarshalJSON, UnmarshalJSON
	// or AppendJSON, so that a hand-written struct embedding one is coded by encoding/json
	// through its own fields (an SDK's wrappers that shadow a member), and a small struct is
	// not compacted again by json.Marshal. Nested values reach them through encoding/json too.
	TagCodecs []Entry
	// AddFields are hand-written fields added to the structs of declarations, by declaration
	// name: Go field declarations ("err error", or an embedded "resultState"), written after the
	// members with the tag json:"-". Neither the generated codecs nor encoding/json encode or
	// decode them: they hold a program's own state.
	AddFields map[string][]Entry
	// Methods are the methods that the hand-written files of the output's package declare, as
	// "Type.Method" (config.HandWritten finds them): a struct of TagCodecs that embeds a type
	// with codecs needs its own MarshalJSON and UnmarshalJSON among them.
	Methods map[string]bool
	// StandIns are the declarations that another stands in for (an SDK's one content union for
	// two), by the declaration stood in for: the schema given to Generate has them applied
	// already (config.File.Load), and the plan reads them only to refuse a hand-written part
	// written for a type that a stand-in changes.
	StandIns map[string]Entry

	// DropUnknown leaves Extra out of every struct: members the schema does not define are
	// skipped when decoding, as encoding/json does, so the structs are comparable with ==; a
	// value no longer carries them to the next peer.
	DropUnknown bool

	// Lenient decodes as encoding/json does rather than as the schema says: null decodes as
	// the zero value (of a struct, and of any member), and a missing required member is no
	// error. Validate still checks values.
	Lenient bool

	// NoConstants leaves out the schema's constants (LATEST_PROTOCOL_VERSION, the error
	// codes...): a second output sharing a package with the first (FilePrefix, NoRuntime) would
	// declare them again. SchemaVersion, the method and enum constants stay.
	NoConstants bool

	// Optional is how optional members are held: as pointers (Pointer, the default: an
	// optional zero can be sent) or as values encoded when not empty, as encoding/json's
	// omitempty does (OmitEmpty: an optional zero cannot be sent; a member of struct type
	// stays a pointer, since encoding/json's omitempty never omits a struct), or as values encoded
	// when not their zero value, as encoding/json's omitzero does (OmitZero: an optional zero
	// cannot be sent, an empty struct is not sent as {}, an empty non-nil slice is sent), or as
	// values always encoded, as encoding/json does without omitempty (Value: absence reads as the
	// zero value). A member of a type with nil, a slice, map or interface, is nil when absent
	// whatever the shape. A member entry on a required member makes it optional: decoding no longer
	// requires it, and encoding leaves it out as chosen.
	Optional Shape
	// Elements is how the elements of arrays of objects are held: values (Value, the default)
	// or pointers (Pointer: []*T, a nil element encoding as null).
	Elements Shape
	// Objects is how required members of object type are held: values (Value, the default)
	// or pointers (Pointer: *T, nil encoding as null).
	Objects Shape
	// OneOrMany is how a member of type `E | E[]` is held: a struct that records the form
	// (Struct, the default: {List, IsList}, encoded back in the form it was decoded from) or a
	// plain []E (Slice: one element is encoded as the single value, any other number as an
	// array, so a decoded array of one comes back as its element).
	OneOrMany Shape
	// NilAs is how a nil required slice or map member is encoded: as [] or {} (Empty, the
	// default: the schema allows no null), or as null (Null, as encoding/json writes it, an SDK's
	// bytes); decoding a Null member accepts null as nil.
	NilAs Shape
	// Literals is how required members of a constant value (a discriminator, type: "text") are
	// held: as a field holding the constant (Field, the default), or by no field at all
	// (Implicit: encoding writes the constant, decoding checks it), as an SDK whose content
	// types have no Type field.
	Literals Shape
	// Embed are the members whose field is embedded: written as its type's name alone, so that
	// the struct has the type's methods (an embedded Meta with GetMeta and SetMeta). An entry
	// naming a declaration ("CacheableResult") makes it an embedded base: its struct holds
	// the members it declares itself (not those it inherits), and every struct that inherits
	// them embeds it in their place; the codecs reach its fields as promoted fields, as
	// encoding/json does.
	Embed []Entry
	// Defined are aliases made defined types (type EmptyResult Result, not = Result; type
	// Cursor string, not = string): an alias of a declared object is a struct type of its own,
	// with the target's fields and a codec calling the target's, an alias of string a string
	// type of its own. A defined type has none of the methods the program adds to its target.
	Defined []Entry
	// Omit are the members left out (Config.Omit): no field holds them. Decoding takes one for a
	// member the schema does not define (kept in Extra, or skipped without it), encoding writes
	// it from Extra only, and a required one is not required: an SDK whose structs leave a
	// member to another (the JSON-RPC envelope's jsonrpc and id) or do without it (a _meta).
	Omit []Entry
}

// The values of a Shape.
const (
	Pointer   = "pointer"
	OmitEmpty = "omitempty"
	OmitZero  = "omitzero"
	Value     = "value"
	Field     = "field"
	Empty     = "empty"
	Null      = "null"
	Implicit  = "implicit"
	Struct    = "struct"
	Slice     = "slice"
)

// Shape is a choice of representation for the whole output (Default, whose Name is "" for the
// generator's default) and for single members (Members, by member key).
type Shape struct {
	Default Entry
	Members map[string]Entry
}

// Entry is a name given by a configuration, with the position of its entry.
type Entry struct {
	Name string
	Pos  model.Pos
}

// Substitute is an existing Go type that replaces a declaration or a member's type: the type
// named Name in the package Path, or a pointer to it. With an empty Path, Name is declared in the
// output's own package (a hand-written file, or another mcpgen output sharing it) or is
// predeclared (any).
//
// The generated code encodes and decodes the type with encoding/json (json.Marshal and
// json.Unmarshal, which call its MarshalJSON and UnmarshalJSON if it has them), and its Validate,
// if the value (or a pointer to it) has a method Validate() error, checks it: its error is a
// problem of the enclosing value, at the member's JSON pointer. An optional member of a
// non-pointer type is a pointer to it; a pointer type is nil when absent.
//
// A composite substitute (Composite set) is a Go type expression of predeclared types and
// types of the output's package ("map[string]any", "[]string"), held in Name. Kind is the kind
// of the type (of the named type, for a non-pointer one) when known: "map", "slice", "array",
// "struct", "interface", "pointer", "func" or "chan", "" when unknown. A type with nil (a map,
// slice, interface, pointer, func or chan) gains no pointer when optional, nil standing for
// absence, and omitempty tests it as encoding/json does (len for a map or slice). A named type
// defined by a predeclared one has that one's name as its Kind ("string" for type Cursor
// string), which omitempty tests as it.
type Substitute struct {
	Path, Name string
	Pointer    bool
	Composite  bool
	Kind       string
	Pos        model.Pos
}

// String writes the type as the configuration does: "*github.com/x/y.Schema".
func (s Substitute) String() string {
	star := ""
	if s.Pointer {
		star = "*"
	}
	if s.Path == "" {
		return star + s.Name
	}
	return star + s.Path + "." + s.Name
}
