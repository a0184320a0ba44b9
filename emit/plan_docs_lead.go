package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// This file makes the doc comment of every declaration start with the declared name, as Go doc
// comments do ("Tool is a definition for a tool the client can call."). The schema's first
// sentence is rewritten when its form allows (subjectFirst); otherwise, and for a declaration
// the schema does not document, a sentence derived from the schema comes first (derivedLead):
// what a union or enum holds, what an alias names, where a type is used.

// typeDoc is the doc text of a type declaration: for a schema declaration, its doc with the name
// as the subject of the first sentence; for an inline or derived type, a sentence saying what it
// is. Then the extra paragraphs.
func (p *docsPass) typeDoc(td *ir.Decl, extra ...string) string {
	if p.src(td).decl == nil {
		return strings.Join(append([]string{td.Name + " is " + p.src(td).about + "."}, extra...), "\n\n")
	}
	doc := p.src(td).doc
	lead := ""
	switch text := strings.TrimSpace(doc.Text); {
	case text != "":
		if s, ok := p.subjectFirst(td.Name, text); ok {
			doc.Text = s
		} else {
			lead = p.derivedLead(td)
		}
	case len(extra) > 0 && startsWithName(extra[0], td.Name):
	case len(extra) > 0 && strings.HasPrefix(extra[0], "It "):
		extra = append([]string{td.Name + strings.TrimPrefix(extra[0], "It")}, extra[1:]...)
	default:
		lead = p.derivedLead(td)
		if lead == "" && doc.Internal {
			lead = td.Name + " is internal to the protocol specification."
			doc.Internal = false
		}
	}
	text := p.docText(doc, "type", extra...)
	if lead != "" && text != "" {
		return lead + "\n\n" + text
	}
	return lead + text
}

// constDoc is the doc text of a schema constant named name in Go: its doc with the name as the
// subject of the first sentence, or led by a sentence naming the schema constant.
func (p *docsPass) constDoc(name string, c *model.Const) string {
	doc := c.Doc
	lead := name + " is the schema constant " + c.Name + "."
	if isErrorCode(c.Value) {
		lead = name + " is the JSON-RPC error code " + c.Name + " of the schema."
	}
	if text := strings.TrimSpace(doc.Text); text != "" {
		if s, ok := p.subjectFirst(name, text); ok {
			doc.Text = s
			lead = ""
		}
	}
	text := p.docText(doc, "constant")
	if lead != "" && text != "" {
		return lead + "\n\n" + text
	}
	return lead + text
}

// startsWithName reports whether text starts with name as a word, possibly after an article.
func startsWithName(text, name string) bool {
	words := strings.Fields(text)
	if len(words) > 1 && (words[0] == "A" || words[0] == "An" || words[0] == "The") {
		words = words[1:]
	}
	return len(words) > 0 && strings.TrimRight(words[0], ".,:;") == name
}

// Word lists of subjectFirst, all lower case.
var (
	// verbs are the third-person verbs that start a schema description ("Describes a message").
	verbs = set("allows", "asks", "carries", "collides", "configures", "contains", "controls",
		"creates", "defines", "describes", "enables", "extends", "gives", "holds", "identifies",
		"indicates", "informs", "keeps", "lists", "marks", "notifies", "provides", "refers",
		"represents", "requests", "returns", "sends", "signals", "specifies", "tells", "tracks")
	// participles start a passive description ("Sent from the client to ...").
	participles = set("sent", "used", "returned", "given", "made", "passed", "provided", "received",
		"issued", "emitted", "defined", "produced", "generated", "raised")
	// openers start a sentence that cannot take the name as its subject ("After receiving ...",
	// "Use X instead.").
	openers = set("after", "before", "when", "if", "once", "use", "see", "note", "for", "in", "to",
		"it", "this", "these", "here", "there", "unless", "while", "since", "as")
	// stops end the head of a noun phrase ("Capabilities a client may support").
	stops = set("a", "an", "the", "for", "of", "to", "from", "in", "on", "with", "without", "by",
		"at", "about", "when", "that", "which", "who", "whose", "where", "and", "or", "as", "is",
		"are", "can", "may", "must", "should", "will")
	// massNouns take no article ("TextContent is text provided to or from an LLM.").
	massNouns = set("audio", "content", "data", "information", "input", "metadata", "output", "text")
)

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// subjectFirst rewrites the first sentence of a schema description so that it starts with name,
// by its form:
//
//   - an article: "A request ..." → "X is a request ...";
//   - "This notification is sent ..." → "X is sent ...";
//   - a participle: "Sent from the client ..." → "X is sent from the client ...";
//   - a third-person verb: "Describes a message ..." → "X describes a message ...";
//   - another declaration's name: "JSONRPCNotification of a log message" → "X is a
//     JSONRPCNotification of a log message";
//   - a noun phrase: plural, "Parameters for ..." → "X holds parameters for ..."; a mass noun,
//     "Text provided ..." → "X is text provided ..."; singular, "Definition for ..." → "X is a
//     definition for ...".
//
// It reports false for a sentence that cannot take the name as its subject ("After receiving
// ...", "Use X instead.").
func (p *docsPass) subjectFirst(name, text string) (string, bool) {
	if startsWithName(text, name) {
		return text, true
	}
	words := strings.Fields(text)
	first := words[0]
	w := strings.ToLower(strings.TrimRight(first, ".,:;"))
	next := ""
	if len(words) > 1 {
		next = strings.ToLower(words[1])
	}
	switch {
	case w == "a" || w == "an" || w == "the":
		return name + " is " + lowerFirst(text), true
	case w == "this" && len(words) > 2 && isLowerWord(words[1]) && !stops[next]:
		rest := strings.TrimLeft(text[len(first):], " \t\n")
		return name + strings.TrimPrefix(rest, words[1]), true
	case participles[w] || (strings.HasSuffix(w, "ed") && (stops[next] || next == "when")):
		return name + " is " + lowerFirst(text), true
	case verbs[w]:
		return name + " " + lowerFirst(text), true
	case p.isTypeName(first) && (next == "" || stops[next]):
		return name + " is " + article(first) + " " + text, true
	case openers[w] || !startsLikeWord(first) || strings.HasSuffix(first, "."):
		// A sentence of one word ("Closed.") does not say what it qualifies.
		return "", false
	}
	head := w
	for i, word := range words {
		lw := strings.ToLower(strings.Trim(word, ".,:;()`\"'"))
		if i > 0 && (stops[lw] || strings.HasSuffix(lw, "ing") || strings.HasSuffix(lw, "ed")) {
			break
		}
		head = lw
		if strings.ContainsAny(word, ".,:;()") {
			break
		}
	}
	text = lowerFirst(text)
	switch {
	case plural(head):
		return name + " holds " + text, true
	case massNouns[head]:
		return name + " is " + text, true
	}
	return name + " is " + article(text) + " " + text, true
}

// isTypeName reports whether word (with trailing punctuation) names a declaration of the schema
// or a Go type of the output.
func (p *docsPass) isTypeName(word string) bool {
	word = strings.TrimRight(word, ".,:;")
	if _, ok := p.byDecl[word]; ok {
		return true
	}
	return p.byName[word] != nil
}

// lowerFirst lowers the first letter of text unless its first word is an acronym or a name
// with capitals inside (JSON-RPC, MCP, InitializeRequest).
func lowerFirst(text string) string {
	word, _, _ := strings.Cut(text, " ")
	r, size := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(r) || strings.IndexFunc(word[size:], unicode.IsUpper) >= 0 {
		return text
	}
	return string(unicode.ToLower(r)) + text[size:]
}

// article is "a" or "an" for the word that starts text.
func article(text string) string {
	if r, _ := utf8.DecodeRuneInString(text); strings.ContainsRune("aeiouAEIOU", r) {
		return "an"
	}
	return "a"
}

func isLowerWord(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLower(r) }) < 0
}

func startsLikeWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r)
}

func plural(noun string) bool {
	return strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") &&
		!strings.HasSuffix(noun, "us") && !strings.HasSuffix(noun, "is")
}

// maxRefs is the number of references a derived lead names before it counts the rest.
const maxRefs = 5

// derivedLead is a first sentence for a declaration whose schema doc is empty or cannot start with
// its name, derived from the schema: what a union or enum holds, what an alias names, what a map
// or array holds, where a struct is used. It is "" when there is nothing to say.
func (p *docsPass) derivedLead(td *ir.Decl) string {
	switch td.Form {
	case interfaceForm:
		var links []string
		for _, v := range td.Variants {
			links = append(links, variantLink(v))
		}
		return td.Name + " is one of " + orList(links) + "."
	case enumForm:
		if len(td.Values) == 0 {
			return td.Name + " is a string." // Config.Defined
		}
		var values []string
		for _, v := range td.Values {
			values = append(values, strconv.Quote(v))
		}
		return td.Name + " is one of the strings " + orList(values) + "."
	case definedForm:
		return td.Name + " is a type of its own with the fields of " + typeLink(td.Type) + ", coded as it is."
	case aliasForm:
		if td.Type.Kind == rawKind && td.Type.Alias == "" {
			return td.Name + " holds any JSON value, exactly as received."
		}
		return td.Name + " is another name for " + typeLink(td.Type) + "."
	case collectionForm:
		elem := td.Type
		if elem.Kind == namedKind || elem.Alias != "" {
			break
		}
		if elem.Kind == mapKind {
			return td.Name + " is a JSON object whose members are " + typeLink(elem.Elem) + " values."
		}
		return td.Name + " is a JSON array of " + typeLink(elem.Elem) + " values."
	case structForm:
		return p.usesLead(td)
	}
	return ""
}

// usesLead says where a struct is used: the unions it is a variant of, the fields of its type, and
// the declarations that include its members (it is their base).
func (p *docsPass) usesLead(td *ir.Decl) string {
	var variantOf, typeOf, baseOf []string
	for _, other := range p.types {
		switch other.Form {
		case interfaceForm:
			for _, v := range other.Variants {
				if refersTo(v.Type, td.Name) {
					variantOf = append(variantOf, "["+other.Name+"]")
					break
				}
			}
		case structForm:
			if other == td {
				continue
			}
			inherits := false
			for _, f := range other.Fields {
				if refersTo(f.Type, td.Name) {
					typeOf = append(typeOf, "["+other.Name+"."+f.Name+"]")
				}
				if p.src(td).decl != nil && p.src(other).decl != p.src(td).decl && p.declaring(p.fsrc(f).member) == p.src(td).decl {
					inherits = true
				}
			}
			if inherits {
				baseOf = append(baseOf, "["+other.Name+"]")
			}
		}
	}
	var parts []string
	if len(variantOf) > 0 {
		parts = append(parts, "a variant of "+andList(variantOf))
	}
	if len(typeOf) > 0 {
		parts = append(parts, "the type of "+andList(typeOf))
	}
	if len(baseOf) == 1 {
		parts = append(parts, "the base of "+baseOf[0]+", which includes its members")
	} else if len(baseOf) > 1 {
		parts = append(parts, "the base of "+andList(baseOf)+", which include its members")
	}
	if len(parts) == 0 {
		return ""
	}
	return td.Name + " is " + strings.Join(parts, "; ") + "."
}

// refersTo reports whether t is, or holds, the named type name.
func refersTo(t *ir.Type, name string) bool {
	for ; t != nil; t = t.Elem {
		if t.Name == name || t.Alias == name {
			return true
		}
	}
	return false
}

// andList joins links as "a, b and c", naming at most maxRefs of them.
func andList(items []string) string {
	items = slices.Compact(items)
	if len(items) > maxRefs {
		items = append(items[:maxRefs:maxRefs], fmt.Sprintf("%d more", len(items)-maxRefs))
	}
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
