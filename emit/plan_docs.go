package emit

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
	"github.com/mcpgen/mcpgen/model"
)

// Planning the doc comments: the text of every declaration's, field's and constant's doc, from
// the schema's JSDoc with its links resolved to Go doc links (docText), led by the declaration's
// name (plan_docs_lead.go). Rendering writes the texts as Go comments (emit/internal/render).

// siteURL makes the spec's root-relative links ("/specification/draft/...") absolute.
const siteURL = "https://modelcontextprotocol.io"

var (
	// jsdocLink matches {@link Target} and {@link Target | label}.
	jsdocLink = regexp.MustCompile(`\{@link\s+([^}|]*?)\s*(?:\|\s*([^}]*?)\s*)?\}`)
	// markdownLink matches [label](url).
	markdownLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	// listItem matches a line that starts a Markdown list item.
	listItem = regexp.MustCompile(`^([-*+]|\d+[.)]) `)
)

// extraDoc documents the Extra field of every struct.
const extraDoc = "Extra holds the members the schema does not define, as received, encoded after the others."

// kindPhrases name the JSON kinds in messages and docs.
var kindPhrases = map[string]string{"string": "a string", "number": "a number", "boolean": "a boolean",
	"null": "null", "object": "an object", "array": "an array"}

// docsPass is the last pass of planning before its facts: it writes the doc text of every
// declaration, field, constant and function the output has, from the schema's docs and the
// decisions of the passes before it.
type docsPass struct {
	*plan
}

// planDocs writes the doc text of every declaration, field, enum value and constant of the
// output, and the docs of the typed result decodes and of the protocol layer that list what
// the schema has.
func (p *docsPass) planDocs() {
	for _, td := range p.types {
		td.Doc = p.declDoc(td)
		for _, f := range td.Fields {
			f.Doc = p.fieldDoc(f)
		}
		for i, v := range td.Values {
			td.ValueDocs = append(td.ValueDocs, td.ValueNames[i]+" is the ["+td.Name+"] value "+quote(v)+".")
		}
		if td.Form == structForm {
			td.ExtraDoc = extraDoc
			if len(td.Absent) > 0 {
				td.ExtraDoc += " It must not hold " + quoteList(td.Absent) + ", which the schema gives the type never: " +
					"decoding and Validate reject it, and encoding fails on it."
			}
		}
		if td.Form == interfaceForm && td.KindUnion {
			var phrases []string
			for _, k := range td.Kinds {
				phrases = append(phrases, kindPhrases[k.JSONKind.String()])
			}
			td.Expected = "expected " + orList(phrases)
		}
	}
	p.constDocs = map[*model.Const]string{}
	for c, name := range p.constNames {
		p.constDocs[c] = p.constDoc(name, c)
	}
	for _, union := range p.resultDecodes {
		union.ResultsDoc = resultsDoc(union)
	}
	if p.proto != nil {
		p.proto.TypedDoc, p.proto.ErrorResponseDoc = errorDocs(p.proto)
		p.messageDocs(p.proto)
		p.proto.RequestDocs, p.proto.NotificationDocs = p.accessorDocs()
	}
}

// accessorDocs are the docs of the accessors that the interfaces of the request and
// notification unions declare. A request inside an InputRequiredResult has no id, in the
// versions that declare one.
func (p *docsPass) accessorDocs() (requests, notifications ir.AccessorDocs) {
	id := "GetID returns the id of the request."
	if p.s.Decl(model.InputRequiredResultDecl) != nil {
		id = "GetID returns the id of the request (nil inside an " + model.InputRequiredResultDecl + ")."
	}
	requests = ir.AccessorDocs{Method: "GetMethod returns the method of the request.", ID: id,
		Params: "GetParams returns the params of the request, or nil when it has none."}
	notifications = ir.AccessorDocs{Method: "GetMethod returns the method of the notification.",
		Params: "GetParams returns the params of the notification, or nil when it has none."}
	return requests, notifications
}

// declDoc is the doc text of a type declaration, by its form.
func (p *docsPass) declDoc(td *ir.Decl) string {
	switch td.Form {
	case aliasForm:
		if td.Type.Kind == rawKind {
			return p.typeDoc(td, "It holds any JSON value, exactly as received.")
		}
	case enumForm:
		if len(td.Values) == 0 {
			break // Config.Defined: a string of its own
		}
		if td.Open {
			return p.typeDoc(td, "Other values are allowed.")
		}
		return p.typeDoc(td, "The set is closed: other values are invalid, though decoding keeps them as received.")
	case interfaceForm:
		return p.typeDoc(td, decisionDoc(td))
	case oneOrManyForm:
		form := "one " + typeLink(td.Type) + " or an array of them. IsList records the form: " +
			"a decoded array sets it, and encoding writes an array when it is set (even of one element) " +
			"and the single value otherwise (List must then hold exactly one element, else encoding fails)."
		if p.src(td).decl != nil {
			return p.typeDoc(td, td.Name+" is "+form)
		}
		return td.Name + " is " + p.src(td).about + ": " + form
	case unknownForm:
		return td.Name + " is a [" + td.Union.Name + "] whose " + quote(td.Union.Tag) +
			" this version of the schema does not define. Raw holds it exactly as received, and encoding writes it back unchanged."
	}
	return p.typeDoc(td)
}

// fieldDoc is the doc text of a struct's field: the member's doc, what its constant or default
// is.
func (p *docsPass) fieldDoc(f *ir.Field) string {
	var extra []string
	if f.Literal != nil {
		extra = append(extra, "Always "+f.Literal.Text+".")
	}
	if d := p.fsrc(f).member.Default; d != nil {
		extra = append(extra, "Empty means "+d.String()+": encoding writes it, and an absent member decodes empty.")
	}
	return p.docText(p.fsrc(f).member.Doc, "field", extra...)
}

// resultsDoc is the doc of the typed result decode of a result union: the types each method's
// result can be.
func resultsDoc(union *ir.Decl) string {
	var docs []string
	for _, rc := range union.Results {
		var links []string
		for _, c := range rc.Candidates {
			links = append(links, variantLink(union.Objects.Variants[c]))
		}
		docs = append(docs, quote(rc.Value)+" gives "+orList(links))
	}
	return union.Funcs.UnmarshalFor + " decodes the result of a request with the given method as one of the method's " +
		"result types: " + strings.Join(docs, ", ") + ". Knowing the method tells apart results that " +
		"their members alone cannot (a result with only optional members fits several types); among " +
		"several types, it picks as [" + union.Funcs.Unmarshal + "] does. For other methods it is [" +
		union.Funcs.Unmarshal + "]."
}

// errorDocs are the docs of Typed and NewErrorResponse, which list the error objects.
func errorDocs(proto *ir.Protocol) (typed, response string) {
	var links []string
	for _, o := range proto.Typed {
		links = append(links, "*["+o.Decl.Name+"] ("+o.Code.Literal.Num+")")
	}
	typed = "Typed returns the error as the type the schema defines for its code"
	if len(links) > 0 {
		typed += ": " + orList(links)
	}
	typed += ". For another code, or data that does not fit the type, it returns e itself."
	var names []string
	for _, o := range proto.Errors {
		names = append(names, "*["+o.Decl.Name+"]")
	}
	data := " and every problem as the data"
	if proto.ErrorData == "" {
		data = "" // the error object has no data member
	}
	response = "NewErrorResponse returns the error response to the request with the given id for err. " +
		"With a nil id, the id is the one a *[MessageError] carries, or null (JSON-RPC's answer to a message whose " +
		"id could not be read). A *[ValidationError] answers with its code (invalid params or invalid request), " +
		"its first problem as the message" + data + "; a *[DecodeError] with -32700 (parse " +
		"error: not JSON), -32600 (invalid request: a bad envelope, in a *[MessageError]) or -32602 (invalid " +
		"params); an error object of this package (" + orList(names) + "), found with errors.As, answers as it is; any other error is an internal error (" + strconv.Itoa(ir.InternalError) + ") with " +
		"err.Error() as the message."
	return typed, response
}

// messageDocs are the docs of Message and of the decoders of each side's messages.
func (p *docsPass) messageDocs(proto *ir.Protocol) {
	ifValidate := func(text string) string {
		if p.opts.Config.NoValidate {
			return ""
		}
		return text
	}
	c, s := proto.Sides[0], proto.Sides[1]
	proto.MessageDoc = "Message is a JSON-RPC message of this version, decoded with its params or result typed " +
		"(see [" + c.Decode + "] and [" + s.Decode + "]): a request ([" + c.Requests.Name + "], [" + s.Requests.Name +
		"]), a notification ([" + c.Notifications.Name + "], [" + s.Notifications.Name + "]), a *[" +
		proto.ResultResponse.Name + "] holding the typed result, or a *[" + proto.ErrorResponse.Name +
		"]. A message built in Go is sent with json.Marshal" + ifValidate(" (or [Marshal], which validates it first)") +
		", members in the spec's order."
	for i, side := range proto.Sides {
		reader := strings.ToLower(proto.Sides[1-i].Name)
		side.DecodeDoc = side.Decode + " decodes a JSON-RPC message that a " + strings.ToLower(side.Name) + " sends (what a " +
			reader + " reads) in one pass: a request as its [" + side.Requests.Name + "] type, a notification as its [" +
			side.Notifications.Name + "] type (a method this version does not define as the Unknown variant, which " +
			"keeps the JSON), a result response as a *[" + proto.ResultResponse.Name + "] whose Result has the type of " +
			"the answered method's result (a [" + side.Results.Name + "] variant, decoded as " + side.UnmarshalFor +
			" does), an error response as a *[" + proto.ErrorResponse.Name + "]. pending gives the method of the " +
			"request a response answers, from its id ([Pending.Take] does; nil or an unknown id decodes the result as " +
			side.Results.Funcs.Unmarshal + " does); it is called for an error response too, so that Pending.Take " +
			"forgets every answered request. Decoding is strict (see the package doc)" +
			ifValidate("; validating the message is the caller's choice (Validate)") + ". An error is a *[MessageError] " +
			"with the message's id, if it could be read: [NewErrorResponse] answers it."
		if proto.Batch {
			side.DecodeDoc += " A batch (an array) is a [MessageBatch] of such messages."
		}
		side.NoCopyDoc = side.NoCopy + " is " + side.Decode + " without the copy of data that it makes, for a message " +
			"the caller hands over (see [UnmarshalNoCopy]): the message keeps data, which must not change after the call."
	}
}

// docText turns a schema doc into Go doc comment text: the text with links converted, then the
// extra paragraphs, the @see tags, @internal and @deprecated. noun says what is documented
// ("type", "field", "constant").
func (p *docsPass) docText(d model.Doc, noun string, extra ...string) string {
	var paras []string
	if t := strings.TrimSpace(d.Text); t != "" {
		paras = append(paras, p.markup(t))
	}
	paras = append(paras, extra...)
	for _, see := range d.See {
		paras = append(paras, "See also: "+p.markup(strings.TrimSpace(see)))
	}
	if d.Internal {
		paras = append(paras, "This "+noun+" is internal to the protocol specification.")
	}
	if d.Deprecated {
		text := strings.TrimSpace(d.DeprecatedText)
		text = strings.TrimPrefix(text, "Deprecated ")
		if text == "" {
			text = "see the schema."
		}
		paras = append(paras, "Deprecated: "+p.markup(text))
	}
	return strings.Join(paras, "\n\n")
}

// markup converts the links of a JSDoc text to Go doc syntax and indents Markdown list items,
// which Go doc comments recognize only when indented.
func (p *docsPass) markup(text string) string {
	text = jsdocLink.ReplaceAllStringFunc(text, func(m string) string {
		sub := jsdocLink.FindStringSubmatch(m)
		return p.link(sub[1], sub[2])
	})
	text = markdownLink.ReplaceAllStringFunc(text, func(m string) string {
		sub := markdownLink.FindStringSubmatch(m)
		return sub[1] + " (" + absURL(sub[2]) + ")"
	})
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if listItem.MatchString(l) {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

func absURL(u string) string {
	if strings.HasPrefix(u, "/") {
		return siteURL + u
	}
	return u
}

// link renders {@link target | label}: a Go doc link for a declaration or member, the URL for a
// web link, the target's text when it names nothing known.
func (p *docsPass) link(target, label string) string {
	var ref string
	if strings.Contains(target, "://") {
		ref = target
	} else if l, ok := p.docLink(target); ok {
		ref = l
	} else if label == "" {
		return target
	} else {
		return label
	}
	if label == "" || label == target {
		return ref
	}
	return label + " (" + ref + ")"
}

// docLink resolves a schema name, "Decl" or "Decl.member.member", to a Go doc link:
// "[ClientCapabilitiesSampling.Context]".
func (p *docsPass) docLink(target string) (string, bool) {
	parts := strings.Split(target, ".")
	td, ok := p.byDecl[parts[0]]
	if !ok {
		return "", false
	}
	link := td.Name
	for _, part := range parts[1:] {
		if td == nil || td.Form != structForm {
			return "", false
		}
		var f *ir.Field
		for _, x := range td.Fields {
			if x.JSONName == part {
				f = x
			}
		}
		if f == nil {
			return "", false
		}
		link = td.Name + "." + f.Name
		td = p.structNamed(f.Type)
	}
	return "[" + link + "]", true
}

// structNamed returns the struct declaration of a field type, or nil.
func (p *docsPass) structNamed(t *ir.Type) *ir.Decl {
	for t.Kind == nullableKind {
		t = t.Elem
	}
	if t.Kind != structKind {
		return nil
	}
	if td := p.byName[t.Name]; td != nil && td.Form == structForm {
		return td
	}
	return nil
}

// decisionDoc is the paragraph of a union's doc that says how decoding picks a variant.
func decisionDoc(td *ir.Decl) string {
	if !td.KindUnion {
		return objectsDoc(td, "Decoding")
	}
	var parts []string
	for _, k := range td.Kinds {
		var links []string
		for _, v := range k.Variants {
			links = append(links, variantLink(v))
		}
		switch {
		case k.JSONKind == ir.ObjectJSON && td.Objects != nil:
			parts = append(parts, "an object is one of "+orList(links)+" (see below)")
		case len(links) > 1:
			parts = append(parts, kindPhrases[k.JSONKind.String()]+" is the first of "+orList(links)+" that decodes")
		default:
			parts = append(parts, kindPhrases[k.JSONKind.String()]+" is "+links[0])
		}
	}
	doc := "Decoding looks at the JSON kind of the value: " + strings.Join(parts, ", ") + "."
	if td.Objects != nil {
		doc += "\n\n" + objectsDoc(td, "For an object, decoding")
	}
	return doc
}

// objectsDoc says how decoding an object picks a variant; it starts with subject.
func objectsDoc(td *ir.Decl, subject string) string {
	oc := td.Objects
	// The order of the tries, and why a result falls back to Result, are explained once, in the
	// package doc (templates.Doc, Unions).
	const order = "see Unions in the package doc"
	if oc.Discriminator == "" {
		var parts []string
		for _, v := range oc.Variants {
			p := variantLink(v)
			if len(v.Required) > 0 {
				p += " (requires " + quoteList(v.Required) + ")"
			}
			parts = append(parts, p)
		}
		picks := subject + " picks the variant whose required members are all present"
		if oc.Table {
			picks += " (" + order + ")"
		}
		doc := picks + ": " +
			strings.Join(parts, ", ") + "."
		if td.Base != nil {
			doc += " A result that none of them decodes is a " + variantLink(td.Base) + " if it decodes as one, " +
				"its members kept in Extra (" + order + ")."
		}
		if td.ResultTag {
			doc = subject + " reads the " + quote(resultTypeMember) + " member first: " + quote(resultInputRequired) + " is " +
				variantLink(oc.Variants[oc.InputRequired]) + ", any value but " + quote(resultComplete) + " is [*" + td.Unknown +
				"], which keeps the JSON. A complete result (" + quote(resultComplete) + " or no " + quote(resultTypeMember) +
				") is one of the other variants: " + strings.Replace(doc, subject+" picks", "the decoder picks", 1)
		}
		return doc
	}
	cases, absent := oc.Tags, oc.Absent
	several := len(absent) > 1
	var parts []string
	for _, tc := range cases {
		var values []string
		for _, v := range tc.Values {
			values = append(values, strconv.Quote(v))
		}
		parts = append(parts, orList(values)+" is "+candidatesLink(oc, tc.Variants))
		several = several || len(tc.Variants) > 1
	}
	if absent != nil {
		parts = append(parts, "a missing member is "+candidatesLink(oc, absent))
	}
	doc := subject + " reads the " + quote(oc.Discriminator) + " member: " + strings.Join(parts, ", ") +
		"; any other value is [*" + td.Unknown + "], which keeps the JSON."
	if several {
		doc += " Where several variants are possible, it picks the first whose required members are all present (" + order + ")."
	}
	return doc
}

func candidatesLink(oc *ir.ObjectChoice, candidates []int) string {
	var links []string
	for _, c := range candidates {
		links = append(links, variantLink(oc.Variants[c]))
	}
	if len(links) == 1 {
		return links[0]
	}
	return "one of " + orList(links)
}

func variantLink(v *ir.Variant) string {
	if v.Pointer {
		return "[*" + v.Type.Written() + "]"
	}
	return "[" + v.Type.Written() + "]"
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func quoteList(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, quote(n))
	}
	return strings.Join(q, ", ")
}

// typeLink writes a type for a doc comment: a doc link for a named type.
func typeLink(t *ir.Type) string {
	switch t.Kind {
	case builtinKind:
		if t.Alias != "" {
			return "[" + t.Alias + "]"
		}
		return t.Name
	case rawKind:
		if t.Alias != "" {
			return "[" + t.Alias + "]"
		}
		return "JSON value"
	case sliceKind:
		return "array of " + typeLink(t.Elem)
	case mapKind:
		return "object of " + typeLink(t.Elem)
	case nullableKind:
		return typeLink(t.Elem) + " or null"
	}
	return "[" + t.Written() + "]"
}

// quote writes s as a Go doc comment shows a JSON string.
func quote(s string) string {
	return `"` + s + `"`
}
