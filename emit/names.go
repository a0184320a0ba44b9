package emit

import (
	"go/token"
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

// goName joins the words of s, each capitalized or written as an initialism:
// "RequestId" → "RequestID", "date-time" → "DateTime".
func goName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up, ok := initialisms[strings.ToLower(w)]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	return b.String()
}

// fieldName is the Go name of a member: the part after the last '/' of its JSON name, without
// leading '_' and '$' ("io.modelcontextprotocol/protocolVersion" → "ProtocolVersion",
// "_meta" → "Meta").
func fieldName(jsonName string) string {
	if i := strings.LastIndexByte(jsonName, '/'); i >= 0 {
		jsonName = jsonName[i+1:]
	}
	return goName(strings.TrimLeft(jsonName, "_$"))
}

// constName is the Go name of an `export const SCREAMING_NAME`: "JSONRPC_VERSION" →
// "JSONRPCVersion".
func constName(name string) string {
	return goName(strings.ToLower(name))
}

// enumConstName is the Go name of the constant for value of the enum type typeName:
// "RoleUser", "StringSchemaFormatDateTime".
func enumConstName(typeName, value string) string {
	suffix := goName(value)
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
