package emit

import (
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/emit/internal/ir"
)

// The sampling rules (templates/parts/sampling*.go) read the members they need through readers
// planned here, for the configured shapes, and rendered beside the Validate methods
// (render/sampling.go): which Go expression reads "SamplingMessage.content as a list of blocks"
// or "CreateMessageRequestParams.tools present", whatever the configuration made of those
// members (a one-or-many struct or a slice, elements by value or by pointer, a union or a stand-in
// for it, an optional member as a pointer, a value with omitempty or omitzero, a substitute). A
// member is present as its encoder would write it. Content substituted by a type the output does
// not define (`any`) is read from its JSON encoding (templates/parts/sampling_json.go).

// The declarations each group of readers needs: those of the part that calls them
// (//mcpgen:requires of sampling.go, sampling_result.go and sampling_capabilities.go).
var (
	samplingRequestNeeds = []string{"CreateMessageRequestParams", "SamplingMessage", "ToolUseContent", "ToolResultContent"}
	samplingResultNeeds  = []string{"CreateMessageResult", "SamplingMessage", "ToolUseContent", "ToolResultContent"}
	samplingCapsNeeds    = []string{"CreateMessageRequestParams", "ToolUseContent", "ClientCapabilities"}
)

// samplingPlan are the readers of the sampling rules (ir.Sampling).
type samplingPlan struct {
	request  *samplingRequest
	messages []*samplingMessage
	caps     *samplingCaps
	// json is set when a reader reads content from its JSON encoding: the output has the part
	// that does (//mcpgen:ondemand).
	json bool
}

// samplingRequest, samplingMessage, samplingVariant and samplingCaps are the readers as planned,
// with the declarations and fields they read: ir.SamplingRequest, ir.SamplingMessage, ... once
// lowered.
type samplingRequest struct {
	td       *typeDecl
	messages *field
}

type samplingMessage struct {
	td                  *typeDecl
	role, content       *field
	blocks              int
	elem                *goType
	toolUse, toolResult *samplingVariant
	unknown             string
}

type samplingVariant struct {
	v  *variant
	id *field
}

type samplingCaps struct {
	td                               *typeDecl
	tools, toolChoice, include       *field
	client                           *typeDecl
	sampling, samplingTools, context *field
}

// planSampling plans the readers of the sampling parts that the output has, or returns nil
// when it has none (no validators, or a version without sampling with tools). A member the
// rules need and cannot read (left out, or substituted by a type that is not a string where they
// compare strings) is an error at the configuration entry that made it so.
func (g *generator) planSampling() (*samplingPlan, error) {
	if g.opts.Config.NoValidate {
		return nil, nil
	}
	sp := &samplingPlan{}
	if g.generatesAll(samplingRequestNeeds) {
		req, err := g.planSamplingRequest()
		if err != nil {
			return nil, err
		}
		sp.request = req
		if err := sp.addMessage(g, g.byDecl["SamplingMessage"]); err != nil {
			return nil, err
		}
	}
	if g.generatesAll(samplingResultNeeds) {
		if err := sp.addMessage(g, g.byDecl["CreateMessageResult"]); err != nil {
			return nil, err
		}
	}
	if g.generatesAll(samplingCapsNeeds) {
		caps, err := g.planSamplingCaps()
		if err != nil {
			return nil, err
		}
		sp.caps = caps
	}
	if sp.request == nil && len(sp.messages) == 0 && sp.caps == nil {
		return nil, nil
	}
	return sp, nil
}

// planSamplingRequest plans the reader of a request's messages: a slice of SamplingMessage,
// by value or by pointer.
func (g *generator) planSamplingRequest() (*samplingRequest, error) {
	td := g.byDecl["CreateMessageRequestParams"]
	f, err := g.samplingField(td, "messages")
	if err != nil {
		return nil, err
	}
	elem := f.Type.Elem
	if elem != nil && elem.Kind == pointerKind {
		elem = elem.Elem
	}
	if f.Type.Kind != sliceKind || elem.Kind != structKind || elem.Name != g.byDecl["SamplingMessage"].Name {
		return nil, g.samplingUnreadable(td, f, "a slice of "+g.byDecl["SamplingMessage"].Name)
	}
	return &samplingRequest{td: td, messages: f}, nil
}

// addMessage plans the readers of the role and content of the message type td.
func (sp *samplingPlan) addMessage(g *generator, td *typeDecl) error {
	role, err := g.samplingString(td, "role")
	if err != nil {
		return err
	}
	content, err := g.samplingField(td, "content")
	if err != nil {
		return err
	}
	m := &samplingMessage{td: td, role: role, content: content, blocks: ir.BlocksJSON}
	t := content.Type
	if t.Kind == pointerKind {
		t = t.Elem
	}
	switch o := g.byName[t.Name]; {
	case t.Kind == structKind && o != nil && o.Form == oneOrManyForm:
		m.blocks, m.elem = ir.BlocksOneOrMany, o.Type
	case t.Kind == sliceKind:
		m.blocks, m.elem = ir.BlocksSlice, t.Elem
	}
	if m.elem != nil && m.elem.Kind == unionKind {
		if m.toolUse, err = g.samplingVariant(m.elem.Union, "ToolUseContent", "id"); err != nil {
			return err
		}
		if m.toolResult, err = g.samplingVariant(m.elem.Union, "ToolResultContent", "toolUseId"); err != nil {
			return err
		}
		if m.toolUse == nil || m.toolResult == nil {
			m.unknown = m.elem.Union.Unknown // a tool use or result the union has no variant for is Unknown
		}
	}
	sp.json = sp.json || m.blocks == ir.BlocksJSON || m.elem.Kind != unionKind || m.unknown != ""
	sp.messages = append(sp.messages, m)
	return nil
}

// samplingVariant is the variant of the union u whose type is the declaration decl's, with the
// field of the id it holds; nil when u has no such variant (its blocks of that type decode as
// Unknown, whose raw JSON the rules read).
func (g *generator) samplingVariant(u *typeDecl, decl, id string) (*samplingVariant, error) {
	td := g.byDecl[decl]
	i := slices.IndexFunc(u.Variants, func(v *variant) bool { return v.Type.Kind == structKind && v.Type.Name == td.Name })
	if i < 0 {
		return nil, nil
	}
	f, err := g.samplingString(td, id)
	if err != nil {
		return nil, err
	}
	return &samplingVariant{v: u.Variants[i], id: f}, nil
}

// planSamplingCaps plans the readers of CheckCapabilities: the request's tools, toolChoice and
// includeContext, and the client's sampling capability with its tools and context.
func (g *generator) planSamplingCaps() (*samplingCaps, error) {
	c := &samplingCaps{td: g.byDecl["CreateMessageRequestParams"], client: g.byDecl["ClientCapabilities"]}
	var err error
	if c.tools, err = g.samplingField(c.td, "tools"); err != nil {
		return nil, err
	}
	if c.toolChoice, err = g.samplingField(c.td, "toolChoice"); err != nil {
		return nil, err
	}
	if c.include, err = g.samplingString(c.td, "includeContext"); err != nil {
		return nil, err
	}
	if c.sampling, err = g.samplingField(c.client, "sampling"); err != nil {
		return nil, err
	}
	t := c.sampling.Type
	if t.Kind == pointerKind {
		t = t.Elem
	}
	sampling := g.byName[t.Name]
	if t.Kind != structKind || sampling == nil || sampling.Form != structForm {
		return nil, g.samplingUnreadable(c.client, c.sampling, "a struct")
	}
	if c.samplingTools, err = g.samplingField(sampling, "tools"); err != nil {
		return nil, err
	}
	if c.context, err = g.samplingField(sampling, "context"); err != nil {
		return nil, err
	}
	return c, nil
}

// samplingField is the field of the member of td, or an error at the entry that leaves it out.
func (g *generator) samplingField(td *typeDecl, member string) (*field, error) {
	for _, f := range td.Fields {
		if f.member.Name == member && !f.Implicit {
			return f, nil
		}
	}
	for _, f := range td.omitted {
		if f.member.Name == member {
			return nil, f.shaped.Errorf("the configuration leaves out %s.%s, which the sampling rules read; keep the member, or leave the rules out (validate: false)", td.Name, f.Name)
		}
	}
	return nil, fmt.Errorf("emit: the sampling rules read %s.%s, which %s has no field for", td.Name, member, td.Name)
}

// samplingString is the field of the member of td, which the rules compare as a string: a
// string, an enum or a substitute of kind string, held as a value or a pointer.
func (g *generator) samplingString(td *typeDecl, member string) (*field, error) {
	f, err := g.samplingField(td, member)
	if err != nil {
		return nil, err
	}
	if !stringKind(f.Type) {
		return nil, g.samplingUnreadable(td, f, "a string")
	}
	return f, nil
}

// stringKind reports whether values of t convert to string.
func stringKind(t *goType) bool {
	switch t.Kind {
	case builtinKind:
		return t.Name == "string"
	case enumKind:
		return true
	case externalKind:
		return !t.Pointer && !t.Composite && (t.Path == "" && t.Name == "string" || t.Underlying == "string")
	}
	return false
}

// samplingUnreadable is the error for the field f of td, which the sampling rules read as want
// and the configuration made otherwise.
func (g *generator) samplingUnreadable(td *typeDecl, f *field, want string) error {
	return f.shaped.Errorf("the configuration makes %s.%s %s, which the sampling rules cannot read (they need %s); keep the member's type, or leave the rules out (validate: false)",
		td.Name, f.Name, g.typeString(f.Type, f.Pointer), want)
}

// sampling is the ir of the sampling rules' readers.
func (l *lowering) sampling(sp *samplingPlan) *ir.Sampling {
	if sp == nil {
		return nil
	}
	x := &ir.Sampling{}
	if r := sp.request; r != nil {
		x.Request = &ir.SamplingRequest{Decl: r.td.Name, Messages: l.field(r.messages)}
	}
	for _, m := range sp.messages {
		x.Messages = append(x.Messages, &ir.SamplingMessage{Decl: m.td.Name, Role: l.field(m.role),
			Content: l.field(m.content), Blocks: m.blocks, Elem: l.typ(m.elem),
			ToolUse: l.samplingVariant(m.toolUse), ToolResult: l.samplingVariant(m.toolResult), Unknown: m.unknown})
	}
	if c := sp.caps; c != nil {
		x.Capabilities = &ir.SamplingCapabilities{Decl: c.td.Name, Tools: l.field(c.tools), ToolChoice: l.field(c.toolChoice),
			Include: l.field(c.include), Client: c.client.Name, Sampling: l.field(c.sampling),
			SamplingTools: l.field(c.samplingTools), Context: l.field(c.context)}
	}
	return x
}

func (l *lowering) samplingVariant(v *samplingVariant) *ir.SamplingVariant {
	if v == nil {
		return nil
	}
	return &ir.SamplingVariant{Variant: l.variant(v.v), ID: l.field(v.id)}
}
