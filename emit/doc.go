// Package emit writes the Go package of an MCP schema: [Generate] turns a classified
// [model.Schema] into gofmt-formatted files, using github.com/dave/jennifer.
//
// # Plan, then render
//
// [Generate] works in two steps, in two places. Planning, package emit (the files plan*.go),
// reads the schema's model and the configuration, decides everything the output has, and checks
// it; every error [Generate] returns is found there. Its result is an ir.Package
// (emit/internal/ir), a value that holds data only: every Go declaration with its name, its form
// and what that form needs, every name derived from it, how each union decodes (variants,
// discriminator values grouped into tag cases, variant tables), which values have checks, the
// protocol layer by role (message unions, accessors, the method table's entries, the error
// objects), the constants, the doc text of every declaration and member that comes from the
// schema or from a decision, and the files copied as they are, doc.go among them. Nothing in it
// refers to the model: the JSON names, literal values and constraints the output needs are
// copied in. Rendering, emit/internal/render, then writes that value with jennifer. It imports
// jennifer, the ir and the standard library only (a test fails on any other import), so it
// cannot read the model or the configuration; it decides nothing but how to write what the plan
// holds (the one-sentence docs of the functions it writes, "X returns a Y holding the single
// value v.", fill in planned names; the code of a field follows its planned Go type), and its
// only error is jennifer's, which would be a bug of the generator, since
// every name it writes was derived and reserved, and the package doc executed, in planning.
//
// Planning: makePlan (plan.go) runs the passes in order, each a type of its own that holds the
// plan (the ir values it reads and fills, and the side tables that keep what only planning
// needs beside them: the schema's declaration, member and variant of each value, and the
// configuration's positions: declSource, fieldSource) and only the state of its job:
//   - selection (plan_config.go): the configuration's meaning, the declarations it selects and
//     the Go types that replace others; at the end of the shapes pass, the check that every
//     entry changed something;
//   - naming (plan_scope.go, plan_names.go, plan_partnames.go): the package scope, in which
//     every name is reserved as it is given, and declareNames reserves every derived name
//     (UnmarshalX, validateX, XNull, UnknownX, the method constants, the protocol layer's
//     decoders) before anything is written, so that a configured name that collides with one
//     is refused at its entry;
//   - shapes, the generator (plan.go, plan_gotype.go, plan_bases.go, plan_cycles.go,
//     plan_unions.go): every Go declaration, its fields and their Go types, a union's variants
//     and the types derived from it, which values have validation checks (plan_checks.go);
//   - unions (planUnionDecodes; resultsPass, plan_results.go): how each object union decodes,
//     and the variants each request's result can be;
//   - protocol (protocolPass, plan_protocol.go, which finds its declarations by the roles of
//     model/roles.go);
//   - parts (partsPass, plan_runtime.go, plan_sampling.go): the fixed code copied as it is,
//     plain Go for whatever does not depend on the schema (the runtime of templates/wire, the
//     parts of templates/parts), and the readers that the sampling rules call, for the
//     configured shapes;
//   - docs (docsPass, plan_docs.go, plan_docs_lead.go): the doc texts;
//   - facts (plan_facts.go): what follows from the whole plan (a type's HasNil, Emptiness and
//     Checks, a declaration's Checks and Envelope), set on the ir, and the ir.Package.
//
// [Generate] copies the planned files and adds the rendered ones: types.go, json.go, unions.go,
// consts.go, validate.go and protocol.go. ir.Dump writes a plan as text;
// testdata/*.plan.golden hold the dumps of the test schemas.
//
// Rendering, by file of emit/internal/render: structs, aliases, collections and enums
// (types.go), codecs (codec.go, codec_values.go, codec_external.go), unions and their wrapper,
// unknown and one-or-many types (unions.go, unions_variants.go), typed result decodes
// (results.go), Validate (validate.go) and the sampling rules' readers (sampling.go), constants
// (consts.go), the protocol layer (protocol.go)
// and doc comments, formatted from the planned texts (comments.go).
//
// # Files
//
// types.go holds the type declarations, json.go the codecs of structs, maps, slices and enums,
// unions.go the unions (interfaces, their variants, wrappers and codecs, UnmarshalX functions),
// consts.go the constants, validate.go the Validate methods, protocol.go the protocol layer,
// doc.go the package doc, wire*.go the JSON runtime (templates/wire, package clause replaced), and
// the parts of templates/parts whose declarations the output has (the sampling rules of a request,
// a result and one message, sampling.go, sampling_result.go and sampling_messages.go; the
// capability check, sampling_capabilities.go; the protocol helpers, wire_protocol.go, and, with
// the protocol layer, protocol_helpers.go, and the batch of 2025-03-26, protocol_batch.go); a part
// left out because its first declaration is generated but another it requires is not is told to
// Options.Report.
// Every file starts with "// Code generated by mcpgen vX.Y.Z. DO NOT EDIT." ([Version]); doc.go
// alone records the schema's version and content hash, so that a schema change rewrites only the
// files whose code it changes, and never the runtime. The output is deterministic.
//
// # Names
//
// A declaration keeps its name, with the Go initialisms ID, URI, URL, JSON, RPC and HTTP applied
// per word (RequestId → RequestID). A member's field name is its JSON name after the last '/',
// without leading '_' and '$', split at non-alphanumerics and camel humps, capitalized, with the
// initialisms ("io.modelcontextprotocol/protocolVersion" → ProtocolVersion, _meta → Meta,
// toolUseId → ToolUseID, jsonrpc → JSONRPC). Two members with the same Go name are an error.
//
// An inline object, union or string-literal union in member M of declaration D is named D+M
// (ClientCapabilitiesSampling, IconTheme); an array element or map value takes the name of the
// member (ElicitResultContent), nested types recurse (UnsupportedProtocolVersionErrorObjectData).
// Where D has the words of M already, at its end or inside, D+M would repeat them: the type is
// then D+Object for an object (the error object of HeaderMismatchError is
// HeaderMismatchErrorObject) and D+Value otherwise (the union of EmbeddedResource.resource is
// EmbeddedResourceValue, that of CallToolResultResponse.result CallToolResultResponseValue).
// An inherited member keeps the name from the declaration that declares it, so the type is
// declared once (CacheableResultCacheScope). The element of a named map or slice type X is named
// XValue or XItem, the element of a one-or-many union X is XItem, an inline object variant of a
// union X is X plus its discriminator value (or VariantN). Enum constants are the type name
// plus the value (RoleUser, StringSchemaFormatDateTime). A schema const that is a JSON-RPC
// error code (an integer from -32768 to -32000) is Code plus its CamelCase name, as go-sdk names
// its codes (PARSE_ERROR → CodeParseError, HEADER_MISMATCH → CodeHeaderMismatch); another is
// CamelCase (JSONRPC_VERSION → JSONRPCVersion), with "Code" (numbers) or "Value" (strings)
// appended when that names a type (CURSOR → CursorValue). Every object declaration whose "method" is a
// string literal gets a method constant: Method plus its name without Request or Notification
// (MethodCallTool = "tools/call"). Declarations are named first, so they keep their names: an
// inline type whose derived name is already taken (by a declaration, as UserMessageContent for
// the inline union of UserMessage.content next to a declaration UserMessageContent, or by an
// inline type named before it, in schema order) takes the first free name of Name2, Name3, ...
// (UserMessageContent2); the same schema always gives the same names. A name given by the
// configuration is never changed: its collision is an error, at the configuration's entry when
// the name is one the output derives from another declaration's (UnmarshalX, validateX,
// UnknownX, XString, NewX, the method constants, DecodeClientMessageNoCopy and the other names of
// the protocol layer). Any other collision between generated names is an error naming both
// declarations.
//
// # Types
//
// string, integer (a TypeScript number without @TJS-type number), number, boolean and unknown
// map to string, int64, float64, bool and json.RawMessage (the exact JSON). TypeScript's Date,
// which travels as its ISO 8601 JSON form, is a string of the date-time format (RFC 3339),
// kept as written and checked by Validate where it is a member's type. A required member of
// type never must be absent: the struct has no field for it, decoding and Validate reject it
// at its pointer, and encoding an Extra that holds it is an error. Arrays and maps map
// to []T and map[string]T. An object maps to a struct with a field per member, in member order,
// and a last field Extra holding the members the schema does not define (map[string]T for an
// index signature of type T), which are encoded after the known members, sorted by name. Struct
// fields carry json tags with the JSON name (omitzero for optional members) for documentation
// and reflection-based tools; the generated codecs do not use them.
//
// A declaration that names another (`type EmptyResult = Result`) or a primitive
// (`type Cursor = string`) is a Go alias; a map or array declaration is a defined type
// (`type JSONObject map[string]JSONValue`) with its own codec. A literal member (`type: "text"`,
// `jsonrpc: typeof JSONRPC_VERSION`) is a field of the literal's base type, written as the
// constant while it holds its zero value, so TextContent{Text: "hi"} encodes
// {"type":"text","text":"hi"}; decoding stores what it read.
//
// Presence: an optional member of scalar, enum, literal, struct or one-or-many type is a
// pointer; an optional slice, map, json.RawMessage or union is nil when absent (a non-nil empty
// one is encoded). A required member is always encoded, even when zero: a nil slice as [], a nil
// map as {}, an empty json.RawMessage as null; a nil required union is an encoding error at the
// member's JSON pointer. Decoding rejects a missing required member ("/params: missing required
// member "maxTokens"") and null for a type that does not admit it; unknown members go to Extra.
// A required `T | null` member is T's pointer (or nil-able T), nil standing for null; an
// optional one is an error. A member that admits null besides a union of JSON kinds
// (model.Member.Nullable: the id of an error response) holds the union's Null variant
// (RequestIDNull) for null; decoding the union elsewhere rejects null.
//
// After model.Protocol, an inline `object` or `{}` is free-form (map[string]json.RawMessage), and
// every `_meta` is a struct: MetaObject, or a struct of its own where the schema names keys.
//
// # Unions
//
// By the strategy model.Classify decided:
//
//   - enum: `type X string` with a constant per value; the doc says whether the set is closed.
//     Decoding accepts any string.
//   - object: a sealed interface `type X interface{ isX(); Validate() error }` implemented by
//     pointers to its variant structs (an alias variant marks its target). With a
//     discriminator, UnknownX keeps an object with a value no variant lists, and encodes it back
//     byte for byte. Decoding follows model.Variant: discriminator, then required members, then
//     specificity; the interface's doc lists the variants, and the package doc's section Unions
//     (templates.Doc) explains the order once. A union of results that holds
//     InputRequiredResult reads "resultType" first: "input_required" is the InputRequiredResult,
//     "complete" or no resultType one of the other variants, any other value UnknownX.
//   - kind: a sealed interface; struct, map, slice and enum declarations implement it, other
//     variants get wrappers named by JSON kind (RequestIDString, RequestIDNumber, XBoolean,
//     XArray, XNull) with value receivers. Several object variants are decided as an object
//     union; several array variants are tried in order.
//   - one-or-many: `type X struct{ List []E; IsList bool }` with NewX and NewXList.
//   - free-form: json.RawMessage (`type JSONValue = json.RawMessage`).
//   - nullable: see Presence.
//
// Every named union X gets UnmarshalX. The result unions ClientResult, ServerResult and
// AnyResult also get UnmarshalXFor(method, data), which decodes the result of request FooRequest
// as FooResult (EmptyResult when the schema declares no FooResult; when the schema declares
// FooResultResponse with a union result, one of its variants; CreateTaskResult too when the
// request can be task-augmented). A method that several requests declare (SamplingInputRequest
// and CreateMessageRequest) has the results of the one that names a result of its own, or else
// of the one in ClientRequest or ServerRequest; requests with other results that this does not
// tell apart, and two variants of the message unions with one method (the method table has one
// message type per method), are an error naming both. Decoded without the method (UnmarshalX, a method the version
// does not define, a response whose request is unknown), a result is typed by its members, a
// guess: when no variant they point to decodes it, the union's variant Result does (or its
// alias EmptyResult), keeping the members in Extra, so that every
// result the schema accepts decodes (an elicitation result in a version without elicitation looks
// like a CallToolResult with the wrong content).
//
// # Validation
//
// Every named type has Validate() error (validate.go), which checks what decoding does not:
// constants and discriminators, closed enums, @minimum and @maximum, @format (byte, uri,
// uri-template, date-time), @maxItems, unknown variants, nil required unions, members of Extra
// that the type defines and members that must be absent. It recurses, collects every problem with its JSON pointer into a
// *ValidationError, and says which JSON-RPC code answers it (-32600 for a problem in a message's
// envelope, -32602 in params and results). Hand-written rules that the schema cannot state live
// in templates/parts (the rules of sampling with tools); a part's validateRules method on a type
// is called by the type's generated validate. The rules name no field: they call readers that
// planning plans for the configured shapes and rendering writes into validate.go (samplingContent,
// samplingRole, samplingCapabilities, ...), so that every shape keeps them; content of a type
// the output does not define is read from its JSON (sampling_json.go, copied only then). Unmarshal decodes and validates, Marshal validates
// and encodes.
//
// # Protocol layer
//
// model.Protocol first brings the JSON-RPC layer of every version into one shape (see its doc).
// protocol.go then holds: the Message interface of every JSON-RPC message type; GetMethod,
// GetID and GetParams on the variants of the message unions; DecodeClientMessage and
// DecodeServerMessage, which decode any message in one call, a result typed by the method of the
// pending request it answers; Methods and LookupMethod, a table of every method (who sends it,
// its message, params and result types, task augmentation, input_required); Error() on every
// error object (a struct with a code and a message), Typed on the error of an error response,
// and NewErrorResponse, which answers a Go error with the right JSON-RPC error. The helpers it
// calls (Params, RawParams, Pending, MessageError) are templates/parts/wire_protocol.go; the
// fixed code that it needs, plain Go, is the parts protocol_helpers.go (MethodInfo, the type of
// the table, and LookupMethod) and protocol_batch.go (MessageBatch, in a version with batches).
//
// # Codecs
//
// Every named type has MarshalJSON (value receiver) and UnmarshalJSON (pointer receiver), which
// call unexported encode(*encoder) and decode(*decoder) methods; nested values call those
// directly, with no reflection and no encoding/json in the hot path. The runtime is wire*.go, which
// also holds DecodeObject and EncodeObject, the helpers for free-form JSON objects.
//
// # Configuration
//
// [Options].Config ([Config], read from a file by package config) shapes the output. With
// Types, only the declarations it names, and those they reference transitively, are planned
// (a "Declaration.member" root plans the member's type without its declaration); everything
// else follows from the planned types: a part is copied when every declaration its
// "//mcpgen:requires" lines name is planned, protocol.go is written when the message unions,
// the result unions, AnyResult, RequestId and the generic responses are, doc links to a
// declaration that is not planned are plain text. Names gives declarations, members' inline
// types, constants and SchemaVersion their Go names (derived names follow); Fields, the fields';
// Initialisms extends the initialisms. The parts are written with the default names: planning
// gives every type the name it has without the configuration's names besides its own
// (declSource.defName), and the parts' package-level identifiers are renamed to match (a renamed
// field that a part uses is an error).
// A substitute is an externalKind type: no declaration, and codecs and validators that call the
// runtime's encodeExternal, decodeExternal and validateExternal (wire_external.go), which code
// the values encoding/json codes into an interface, and the types without codec methods of those
// kinds, natively as encoding/json would (wire_native.go), the rest through encoding/json, and
// check the value's Validate. NoValidate leaves out validate.go, the
// interfaces' Validate, the parts that use the validator, and the runtime's functions that need
// Validate (validationOnly); NoRuntime leaves out the runtime files but reserves their names;
// FilePrefix prefixes every file name and is recorded in doc.go (FilesLine); NoConstants leaves
// out the schema's constants. An SDK's own shapes are the plan's too: Optional (a field's
// omitEmpty or always, for a value without pointer; a required member made optional),
// Elements and Objects (pointerKind, *T encoded as null when nil), OneOrMany (a sliceKind
// marked single), Literals (an implicit field: no Go field, the constant written and checked),
// Embed (an embedded field, or an embedded base whose fields the codecs reach promoted), Order
// (the fields reordered), TagCodecs (encode and decode through encoding/json, no MarshalJSON),
// AddFields (hand-written fields, not coded), DropUnknown (no Extra), Lenient (null as the zero
// value, no missing-member errors); composite and numeric substitutes are externalKind types,
// whose emptiness (emptiness) planning decides from their kind (Substitute.Kind). Keys are member paths
// through inline objects (memberOf), and an entry on a base's member reaches the declarations
// inheriting it (memberKeys). A part that uses a field whose type or presence the configuration
// changes (field.shaped) is an error at the entry. Every entry carries
// its position in the configuration file, and every error it causes names it: an unknown
// declaration or member, a collision, a substitute of a union's variant, an entry that changes
// nothing.
//
// # Docs
//
// Doc comments come from the JSDoc: {@link X} becomes [X] (members resolve to fields,
// [ClientCapabilitiesSampling.Context]), {@link X | label} becomes "label ([X])", web links and
// Markdown links "label (url)" with the spec's root-relative URLs made absolute; @deprecated a
// "Deprecated:" paragraph, @internal and @see a paragraph each; @category and @example are
// dropped. The text is normalized as gofmt would (lists indented), so gofmt leaves it alone.
//
// Every type's and constant's doc starts with its name, as Go doc comments do: the schema's first
// sentence is rewritten when its form allows ("A request that expects a response." →
// "JSONRPCRequest is a request that expects a response."; "Sent from the client ..." → "X is sent
// from the client ..."; "Parameters for ..." → "X holds parameters for ..."). Otherwise, and when
// the schema says nothing, a sentence derived from the schema comes first, never a filler: the
// variants of a union, the values of an enum, the target of an alias, the element of a map or
// array, or where a struct is used (the unions it is a variant of, the fields of its type, the
// declarations that include its members). A type the schema does not document and nothing uses
// has no doc. The schema's line breaks within a paragraph are dropped, as Markdown drops them,
// and paragraphs and list items are filled to 92 columns after the "// ", so that no line, even
// in a struct, is longer than 100 columns; consecutive "term - definition" lines become a list.
// Every comment the renderer writes, the schema's and its own (on functions and methods too),
// goes through docComment, which does this.
package emit
