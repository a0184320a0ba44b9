package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Dump writes the plan as text, one line per decision, in a deterministic order: what each
// declaration is, its fields, variants and derived names, how its unions decode, the protocol
// layer, the constants and the files. Doc texts are left out (the generated files show them).
// It is the golden form of a plan (emit's TestPlanDump).
func Dump(p *Package) string {
	var b strings.Builder
	w := func(indent int, format string, args ...any) {
		b.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	w(0, "package %s (schema %s; %s = %q)", p.Name, p.Version, p.SchemaVersion, p.Version)
	w(0, "options: noValidate=%t dropUnknown=%t lenient=%t", p.NoValidate, p.DropUnknown, p.Lenient)
	w(0, "files: %s", strings.Join(p.Files, " "))
	w(0, "copied: %s", strings.Join(slices.Sorted(func(yield func(string) bool) {
		for name := range p.Copied {
			if !yield(name) {
				return
			}
		}
	}), " "))
	for _, d := range p.Decls {
		dumpDecl(w, d)
	}
	for _, d := range p.ResultDecodes {
		w(0, "typed result decode %s", d.Name)
	}
	for _, c := range p.Consts {
		w(0, "const %s = %s", c.Name, c.Value.Text)
	}
	for _, c := range p.MethodConsts {
		w(0, "method const %s = %q (%s)", c.Name, c.Value, c.Decl)
	}
	if p.Protocol != nil {
		dumpProtocol(w, p.Protocol)
	}
	return b.String()
}

// forms names the forms in a dump.
var forms = []string{"struct", "alias", "enum", "collection", "interface", "one-or-many", "wrapper", "unknown"}

func dumpDecl(w func(int, string, ...any), d *Decl) {
	line := forms[d.Form] + " " + d.Name
	if d.Type != nil {
		line += " " + TypeString(d.Type)
	}
	if d.Union != nil {
		line += " (of " + d.Union.Name + ")"
	}
	w(0, "%s", line)
	if f := funcsString(d.Funcs); f != "" {
		w(1, "names: %s", f)
	}
	for i, v := range d.Values {
		w(1, "value %q: %s", v, d.ValueNames[i])
	}
	if d.Form == EnumForm {
		w(1, "open: %t", d.Open)
	}
	for _, f := range d.Fields {
		w(1, "%s", fieldString(f))
	}
	if d.Rest != nil && d.Form == StructForm {
		w(1, "extra %s; absent %v; added %v; tagCodec=%t envelope=%t rules=%t checks=%t resultResponse=%t",
			TypeString(d.Rest), d.Absent, d.Added, d.TagCodec, d.Envelope, d.Rules, d.Checks, d.ResultResponse)
	}
	if d.Form == InterfaceForm {
		dumpUnion(w, d)
	}
	if d.Form == UnknownForm {
		w(1, "reported against %s; unknown method: %t", d.UnknownValues, d.UnknownMethod)
	}
}

func dumpUnion(w func(int, string, ...any), d *Decl) {
	w(1, "kind union: %t; tag %q (resultType first: %t); unknown %q; null %q", d.KindUnion, d.Tag, d.ResultTag, d.Unknown, d.NullVariant)
	for _, v := range d.Variants {
		w(1, "variant %s", variantString(v))
	}
	for _, k := range d.Kinds {
		var vs []string
		for _, v := range k.Variants {
			vs = append(vs, TypeString(v.Type))
		}
		w(1, "kind %s: %s", k.JSONKind, strings.Join(vs, ", "))
	}
	if oc := d.Objects; oc != nil {
		w(1, "objects: discriminator %q, table %t, absent %v, input required %d", oc.Discriminator, oc.Table, oc.Absent, oc.InputRequired)
		for _, tc := range oc.Tags {
			w(2, "tag %q: %v", tc.Values, tc.Variants)
		}
	}
	if d.Base != nil {
		w(1, "base %s", TypeString(d.Base.Type))
	}
	for _, rc := range d.Results {
		w(1, "result of %q (%s): %v", rc.Value, rc.Method, rc.Candidates)
	}
}

func dumpProtocol(w func(int, string, ...any), p *Protocol) {
	w(0, "protocol: request id %s, any result %s, result response %s, error response %s (error %s, pointer %t, data %q), batch %t",
		p.RequestID.Name, p.AnyResult.Name, p.ResultResponse.Name, p.ErrorResponse.Name, p.ErrorType, p.ErrorPointer,
		p.ErrorData, p.Batch)
	for _, s := range p.Sides {
		w(1, "side %s: %s %s %s; %s %s %s", s.Name, s.Requests.Name, s.Notifications.Name, s.Results.Name, s.Decode, s.NoCopy, s.Internal)
	}
	for _, u := range p.Unions {
		w(1, "message union %s: role %d", u.Name, p.Roles[u])
	}
	w(1, "messages: %s", strings.Join(p.Messages, " "))
	var idMethods []string
	for _, a := range p.IDMethods {
		idMethods = append(idMethods, a.Decl.Name)
	}
	w(1, "GetID with Message: %s", strings.Join(idMethods, " "))
	for _, a := range p.Accessors {
		if a.Unknown != "" {
			w(1, "accessors of %s (as received)", a.Unknown)
			continue
		}
		id, params := "-", "-"
		if a.ID != nil {
			id = a.ID.Name
		}
		if a.Params != nil {
			params = a.Params.Name
		}
		w(1, "accessors of %s: method %q, id %s (nil id written: %t), params %s", a.Decl.Name, a.Method, id, a.NoID, params)
	}
	for _, e := range p.Methods {
		params := ""
		if e.Params != nil {
			params = writtenName(e.Params, e.ParamsPointer)
		}
		var results []string
		for _, r := range e.Results {
			results = append(results, writtenName(r, true))
		}
		w(1, "method %q: client %t server %t notification %t message %s params %q results %v task %t input %t",
			e.Method, e.FromClient, e.FromServer, e.Notification, "*"+e.Message.Name, params, results, e.TaskAugmented, e.InputOnly)
	}
	for _, e := range p.Errors {
		w(1, "error object %s (code %s, own %t)", e.Decl.Name, valueText(e.Code.Literal), e.Own)
	}
	for _, e := range p.Typed {
		w(1, "typed error %s", e.Decl.Name)
	}
}

// writtenName is the name of the named type t as written (its alias, if it has one), a pointer
// to it if pointer is set.
func writtenName(t *Type, pointer bool) string {
	if pointer {
		return "*" + t.Written()
	}
	return t.Written()
}

func funcsString(f Funcs) string {
	var parts []string
	for _, n := range []string{f.Marker, f.Unmarshal, f.Decode, f.Encode, f.Validate, f.Variants, f.NewOne, f.NewList, f.UnmarshalFor, f.DecodeFor, f.Method} {
		if n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, " ")
}

func fieldString(f *Field) string {
	s := "field " + f.Name + " " + TypeString(f.Type) + " json " + f.JSONName + f.TagOption
	for _, flag := range []struct {
		set  bool
		name string
	}{{f.Pointer, "pointer"}, {f.Optional, "optional"}, {f.OmitEmpty, "omitempty"}, {f.Always, "always"}, {f.Result, "decoded-by-caller"},
		{f.Nullable, "nullable"}, {f.NilNull, "nil-as-null"}, {f.Implicit, "implicit"}, {f.Embed, "embedded"}} {
		if flag.set {
			s += " " + flag.name
		}
	}
	if f.Literal != nil {
		s += " literal " + f.Literal.Text
	}
	if f.Default != nil {
		s += " default " + f.Default.Text
	}
	if f.Base != "" {
		s += " in base " + f.Base
	}
	return s
}

func variantString(v *Variant) string {
	s := TypeString(v.Type) + " (" + v.JSONKind.String() + ")"
	if v.Pointer {
		s = "*" + s
	}
	if len(v.Required) > 0 {
		s += fmt.Sprintf(" requires %v", v.Required)
	}
	if len(v.Values) > 0 {
		s += fmt.Sprintf(" values %q", v.Values)
	}
	return s
}

func valueText(v *Value) string {
	if v == nil {
		return "-"
	}
	return v.Text
}

// kinds names the kinds in a dump.
var kinds = []string{"builtin", "raw", "struct", "enum", "named", "union", "slice", "map", "nullable", "external", "pointer"}

// TypeString writes a type for a dump: its kind and name, what it holds, and what planning
// decided about it (checks, elements' checks).
func TypeString(t *Type) string {
	if t == nil {
		return "-"
	}
	s := kinds[t.Kind]
	if t.Alias != "" {
		s += " " + t.Alias + " ="
	}
	if t.Name != "" {
		s += " " + t.Name
	}
	if t.Path != "" {
		s += " from " + t.Path
	}
	if t.Elem != nil {
		s += " of (" + TypeString(t.Elem) + ")"
	}
	if t.Single {
		s += " single"
	}
	if t.Checks {
		s += " checked"
	}
	return s
}
