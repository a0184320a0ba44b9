package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// initialisms are the words written in capitals in Go names. Only these: a wider list would rename
// types that users already know from the schema.
var initialisms = map[string]string{
	"id":      "ID",
	"uri":     "URI",
	"url":     "URL",
	"json":    "JSON",
	"rpc":     "RPC",
	"http":    "HTTP",
	"jsonrpc": "JSONRPC",
	"ttl":     "TTL",
}

// words splits s at non-alphanumeric characters and at camel-case humps: "toolUseId" gives
// "tool", "Use", "Id"; "JSONRPCRequest" gives "JSONRPC", "Request". Digits stay with the word
// before them.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if start >= 0 {
				out = append(out, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		lowerToUpper := unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev))
		endOfCaps := unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if lowerToUpper || endOfCaps {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

// namer makes Go names with the initialisms and the extra ones of a configuration
// (Config.Initialisms): every name the output derives from the schema goes through it.
type namer struct {
	// extra maps the lower-case form of each extra initialism to how it is written.
	extra map[string]string
}

// initialism returns how a word is written when it is an initialism.
func (n namer) initialism(word string) (string, bool) {
	lower := strings.ToLower(word)
	if up, ok := n.extra[lower]; ok {
		return up, true
	}
	up, ok := initialisms[lower]
	return up, ok
}

// goName is goName with the namer's initialisms.
func (n namer) goName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up, ok := n.initialism(w); ok {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	return b.String()
}

// goName joins the words of s, each capitalized or written as an initialism:
// "RequestId" → "RequestID", "date-time" → "DateTime".
func goName(s string) string {
	return namer{}.goName(s)
}

// fieldName is the Go name of a member: the part after the last '/' of its JSON name, without
// leading '_' and '$' ("io.modelcontextprotocol/protocolVersion" → "ProtocolVersion",
// "_meta" → "Meta").
func fieldName(jsonName string) string {
	return namer{}.fieldName(jsonName)
}

func (n namer) fieldName(jsonName string) string {
	if i := strings.LastIndexByte(jsonName, '/'); i >= 0 {
		jsonName = jsonName[i+1:]
	}
	return n.goName(strings.TrimLeft(jsonName, "_$"))
}

// constName is the Go name of an `export const SCREAMING_NAME`: "JSONRPC_VERSION" →
// "JSONRPCVersion".
func constName(name string) string {
	return namer{}.constName(name)
}

func (n namer) constName(name string) string {
	return n.goName(strings.ToLower(name))
}

// enumConstName is the Go name of the constant for value of the enum type typeName:
// "RoleUser", "StringSchemaFormatDateTime".
func enumConstName(typeName, value string) string {
	return namer{}.enumConstName(typeName, value)
}

func (n namer) enumConstName(typeName, value string) string {
	suffix := n.goName(value)
	if suffix == "" {
		suffix = "Empty"
	}
	return typeName + suffix
}

// methodConstName is the Go name of the method constant of a request or notification
// declaration: "CallToolRequest" → "MethodCallTool".
func methodConstName(declGoName string) string {
	name := strings.TrimSuffix(declGoName, "Request")
	if name == declGoName {
		name = strings.TrimSuffix(declGoName, "Notification")
	}
	return "Method" + name
}

// memberTypeName is the Go name of the inline type of member field of the type parent: parent
// plus field (ClientCapabilitiesSampling), or, where that would repeat words (parent has the
// words of field already, at its end or inside), parent plus Object for an object and plus Value
// for another type: the error object of HeaderMismatchError is HeaderMismatchErrorObject, not
// HeaderMismatchErrorError, the union of EmbeddedResource.resource is EmbeddedResourceValue, and
// that of CallToolResultResponse.result is CallToolResultResponseValue, not
// CallToolResultResponseResult.
func memberTypeName(parent, field string, t *model.Type) string {
	if !hasWords(parent, field) {
		return parent + field
	}
	if t.Kind == model.Object {
		return parent + "Object"
	}
	return parent + "Value"
}

// hasWords reports whether name ends with part, or has the words of part (words) in a row.
func hasWords(name, part string) bool {
	if strings.HasSuffix(name, part) {
		return true
	}
	nw, pw := words(name), words(part)
	for i := 0; i+len(pw) <= len(nw) && len(pw) > 0; i++ {
		if slices.Equal(nw[i:i+len(pw)], pw) {
			return true
		}
	}
	return false
}

// goNameOf is the Go name of a declaration of the protocol layer: its configured name when it is
// generated, its default name otherwise.
func (p *plan) goNameOf(decl string) string {
	if td := p.byDecl[decl]; td != nil {
		return td.Name
	}
	return goName(decl)
}

// constName names a schema constant: an error code (isErrorCode) is Code plus its CamelCase
// name (PARSE_ERROR → CodeParseError), as go-sdk names its codes; another constant is CamelCase,
// with "Code" (numbers) or "Value" (others) appended when that is a type name.
func (nm *naming) constName(c *model.Const) (string, error) {
	if e, ok := nm.opts.Config.Names[c.Name]; ok {
		return e.Name, nm.declare(e.Name, "constant "+c.Name, e.Pos)
	}
	name := nm.names.constName(c.Name)
	if isErrorCode(c.Value) {
		name = "Code" + name
	} else if _, taken := nm.scope[name]; taken {
		if c.Value.Kind == model.Integer || c.Value.Kind == model.Number {
			name += "Code"
		} else {
			name += "Value"
		}
	}
	return name, nm.reserve(name, "constant "+c.Name, c.Pos)
}

// isErrorCode reports whether a constant is a JSON-RPC error code: an integer in the range
// JSON-RPC reserves for the codes of the protocol and its implementations, -32768 to -32000.
func isErrorCode(v model.Value) bool {
	if v.Kind != model.Integer {
		return false
	}
	n, err := strconv.ParseInt(v.Num, 10, 64)
	return err == nil && -32768 <= n && n <= -32000
}

// methodOf returns the method of a declared struct whose "method" member is a string literal.
func (p *plan) methodOf(td *ir.Decl) (string, bool) {
	if p.src(td).decl == nil || td.Form != structForm {
		return "", false
	}
	for _, f := range td.Fields {
		if f.JSONName == "method" && f.Literal != nil && f.Literal.IsString {
			return f.Literal.Str, true
		}
	}
	return "", false
}

// schemaVersionName is the name of the constant SchemaVersion, or its rename.
func (p *plan) schemaVersionName() string {
	if e, ok := p.opts.Config.Names["SchemaVersion"]; ok {
		return e.Name
	}
	return "SchemaVersion"
}

// unionFuncNames are the functions of the interface union name; validate and table say whether
// it has validateX and variantsOfX.
func unionFuncNames(name string, validate, table bool) ir.Funcs {
	f := ir.Funcs{Marker: "is" + name, Unmarshal: "Unmarshal" + name, Decode: "decode" + name, Encode: "encode" + name}
	if validate {
		f.Validate = "validate" + name
	}
	if table {
		f.Variants = "variantsOf" + name
	}
	return f
}

// oneOrManyFuncNames are the constructors of the one-or-many type name.
func oneOrManyFuncNames(name string) ir.Funcs {
	return ir.Funcs{NewOne: "New" + name, NewList: "New" + name + "List"}
}

// resultFuncNames adds the typed result decodes of the result union name to its functions.
func resultFuncNames(f ir.Funcs, name string) ir.Funcs {
	f.UnmarshalFor, f.DecodeFor = "Unmarshal"+name+"For", "decode"+name+"For"
	return f
}

// kindWords are the words that name the wrapper type of a kind union's variant of each JSON
// kind (RequestIDString, RequestIDNumber, XNull).
var kindWords = map[string]string{
	"string": "String", "number": "Number", "boolean": "Boolean",
	"null": "Null", "object": "Object", "array": "Array",
}

// wrapperName is the name of the wrapper type of the variant of JSON kind kind of the union
// name, and ok false for a kind JSON does not have; alternatives of the same kind are numbered
// after it (XArray1, XArray2).
func wrapperName(union, kind string) (string, bool) {
	word, ok := kindWords[kind]
	return union + word, ok
}

// alternativeName is the name of the i-th (from 0) of several wrappers of the same JSON kind of
// a kind union (XArray1, XArray2).
func alternativeName(wrapper string, i int) string {
	return wrapper + strconv.Itoa(i+1)
}

// rootTypeName is the name of the type of a member that Config.Types selects without its
// declaration ("Declaration.member"): the declaration's Go name and the field's.
func rootTypeName(decl, field string) string {
	return decl + field
}

// nullVariantName is the name of the wrapper that stands for null in the members of the kind
// union name that admit it (RequestIDNull).
func nullVariantName(union string) string {
	return union + kindWords["null"]
}

// unknownName is the name of the Unknown variant of the object union name (UnknownContentBlock).
func unknownName(union string) string {
	return "Unknown" + union
}

// variantSuffix names an inline object variant of a union (after the union's name): by its
// discriminator value when it has one, else by its position.
func (n namer) variantSuffix(v *model.Variant, i int) string {
	if len(v.Values) == 1 && v.Values[0].Kind == model.String {
		if name := n.goName(v.Values[0].Str); name != "" {
			return name
		}
	}
	return fmt.Sprintf("Variant%d", i+1)
}

// The names of the types named after another: the element of a slice or one-or-many type X
// (XItem), the value of a map X (XValue), the values of a struct's Extra (XExtra), an alias's
// inline target (XValue).
func itemName(name string) string  { return name + "Item" }
func valueName(name string) string { return name + "Value" }
func extraName(name string) string { return name + "Extra" }

// extraField is the name of the field holding a struct's unknown members.
const extraField = "Extra"

// protocolNames are the names of the protocol layer (protocol.go) that do not depend on the
// schema's: its own package-level names, and the names of the parts' types that it uses
// (templates/parts/wire_protocol.go's MessageError, protocol_helpers.go's MethodInfo), which no
// configuration renames.
var protocolNames = ir.ProtocolNames{Message: "Message", Methods: "Methods", NewErrorResponse: "NewErrorResponse",
	ErrorObject: "errorObject", MessageError: "MessageError", MessageErrorID: "ID",
	MethodInfo: ir.MethodInfo{Name: "MethodInfo", Method: "Method", Message: "Message", Params: "Params",
		FromClient: "FromClient", FromServer: "FromServer", Notification: "Notification", Results: "Results",
		TaskAugmented: "TaskAugmented", InputRequired: "InputRequired"},
	GetMethod: "GetMethod", GetID: "GetID", GetParams: "GetParams", IsMessage: "isMessage", Typed: "Typed",
	Params: "Params", RawParams: "RawParams"}

// protocolFuncs are the package-level names of the protocol layer (protocol.go) that do not
// depend on the schema's names (MethodInfo and MessageBatch are parts', reserved with the parts).
var protocolFuncs = []string{protocolNames.Message, protocolNames.Methods, protocolNames.NewErrorResponse, protocolNames.ErrorObject}

// sideDecoders are the functions that decode any message a side sends: DecodeClientMessage,
// its NoCopy form and the internal decodeClientMessage.
func sideDecoders(side string) (decode, noCopy, internal string) {
	return "Decode" + side + "Message", "Decode" + side + "MessageNoCopy", "decode" + side + "Message"
}
