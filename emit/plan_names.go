package emit

import (
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"

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

// scope is the set of package-level Go identifiers of the output, each with what declared it, so
// that a collision is an error naming both.
type scope map[string]string

// free returns name if no declaration has it yet, else the first of name2, name3, ... that none
// has: the name of an inline type whose derived name is taken (by a declaration, which are all
// declared first, or by an inline type planned before it).
func (s scope) free(name string) string {
	if _, taken := s[name]; !taken {
		return name
	}
	for n := 2; ; n++ {
		if c := name + strconv.Itoa(n); s[c] == "" {
			return c
		}
	}
}

// declare adds name, declared by what (a description with a position), or fails on a collision.
func (s scope) declare(name, what string, pos model.Pos) error {
	if !token.IsIdentifier(name) {
		return pos.Errorf("%s: %q is not a Go identifier", what, name)
	}
	if prev, ok := s[name]; ok {
		return pos.Errorf("%s: Go name %s is already used by %s", what, name, prev)
	}
	s[name] = what + " (" + pos.String() + ")"
	return nil
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
		return td.name
	}
	return goName(decl)
}
