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

// planSampling plans the readers of the sampling parts that the output has, or returns nil
// when it has none (no validators, or a version without sampling with tools). A member the
// rules need and cannot read (left out, or substituted by a type that is not a string where they
// compare strings) is an error at the configuration entry that made it so.
func (pt *partsPass) planSampling() (*ir.Sampling, error) {
	if pt.opts.Config.NoValidate {
		return nil, nil
	}
	sp := &ir.Sampling{}
	if pt.generatesAll(samplingRequestNeeds) {
		req, err := pt.planSamplingRequest()
		if err != nil {
			return nil, err
		}
		sp.Request = req
		if err := pt.addSamplingMessage(sp, pt.byDecl["SamplingMessage"]); err != nil {
			return nil, err
		}
	}
	if pt.generatesAll(samplingResultNeeds) {
		if err := pt.addSamplingMessage(sp, pt.byDecl["CreateMessageResult"]); err != nil {
			return nil, err
		}
	}
	if pt.generatesAll(samplingCapsNeeds) {
		caps, err := pt.planSamplingCaps()
		if err != nil {
			return nil, err
		}
		sp.Capabilities = caps
	}
	if sp.Request == nil && len(sp.Messages) == 0 && sp.Capabilities == nil {
		return nil, nil
	}
	return sp, nil
}

// planSamplingRequest plans the reader of a request's messages: a slice of SamplingMessage,
// by value or by pointer.
func (pt *partsPass) planSamplingRequest() (*ir.SamplingRequest, error) {
	td := pt.byDecl["CreateMessageRequestParams"]
	f, err := pt.samplingField(td, "messages")
	if err != nil {
		return nil, err
	}
	elem := f.Type.Elem
	if elem != nil && elem.Kind == pointerKind {
		elem = elem.Elem
	}
	if f.Type.Kind != sliceKind || elem.Kind != structKind || elem.Name != pt.byDecl["SamplingMessage"].Name {
		return nil, pt.samplingUnreadable(td, f, "a slice of "+pt.byDecl["SamplingMessage"].Name)
	}
	return &ir.SamplingRequest{Decl: td, Messages: f}, nil
}

// addSamplingMessage plans the readers of the role and content of the message type td.
func (pt *partsPass) addSamplingMessage(sp *ir.Sampling, td *ir.Decl) error {
	role, err := pt.samplingString(td, "role")
	if err != nil {
		return err
	}
	content, err := pt.samplingField(td, "content")
	if err != nil {
		return err
	}
	m := &ir.SamplingMessage{Decl: td, Role: role, Content: content, Blocks: ir.BlocksJSON}
	t := content.Type
	if t.Kind == pointerKind {
		t = t.Elem
	}
	switch o := pt.byName[t.Name]; {
	case t.Kind == structKind && o != nil && o.Form == oneOrManyForm:
		m.Blocks, m.Elem = ir.BlocksOneOrMany, o.Type
	case t.Kind == sliceKind:
		m.Blocks, m.Elem = ir.BlocksSlice, t.Elem
	}
	if m.Elem != nil && m.Elem.Kind == unionKind {
		if m.ToolUse, err = pt.samplingVariant(m.Elem.Union, "ToolUseContent", "id"); err != nil {
			return err
		}
		if m.ToolResult, err = pt.samplingVariant(m.Elem.Union, "ToolResultContent", "toolUseId"); err != nil {
			return err
		}
		if m.ToolUse == nil || m.ToolResult == nil {
			m.Unknown = m.Elem.Union.Unknown // a tool use or result the union has no variant for is Unknown
		}
	}
	pt.samplingJSON = pt.samplingJSON || m.Blocks == ir.BlocksJSON || m.Elem.Kind != unionKind || m.Unknown != ""
	sp.Messages = append(sp.Messages, m)
	return nil
}

// samplingVariant is the variant of the union u whose type is the declaration decl's, with the
// field of the id it holds; nil when u has no such variant (its blocks of that type decode as
// Unknown, whose raw JSON the rules read).
func (pt *partsPass) samplingVariant(u *ir.Decl, decl, id string) (*ir.SamplingVariant, error) {
	td := pt.byDecl[decl]
	i := slices.IndexFunc(u.Variants, func(v *ir.Variant) bool { return v.Type.Kind == structKind && v.Type.Name == td.Name })
	if i < 0 {
		return nil, nil
	}
	f, err := pt.samplingString(td, id)
	if err != nil {
		return nil, err
	}
	return &ir.SamplingVariant{Variant: u.Variants[i], ID: f}, nil
}

// planSamplingCaps plans the readers of CheckCapabilities: the request's tools, toolChoice and
// includeContext, and the client's sampling capability with its tools and context.
func (pt *partsPass) planSamplingCaps() (*ir.SamplingCapabilities, error) {
	c := &ir.SamplingCapabilities{Decl: pt.byDecl["CreateMessageRequestParams"], Client: pt.byDecl["ClientCapabilities"]}
	var err error
	if c.Tools, err = pt.samplingField(c.Decl, "tools"); err != nil {
		return nil, err
	}
	if c.ToolChoice, err = pt.samplingField(c.Decl, "toolChoice"); err != nil {
		return nil, err
	}
	if c.Include, err = pt.samplingString(c.Decl, "includeContext"); err != nil {
		return nil, err
	}
	if c.Sampling, err = pt.samplingField(c.Client, "sampling"); err != nil {
		return nil, err
	}
	t := c.Sampling.Type
	if t.Kind == pointerKind {
		t = t.Elem
	}
	sampling := pt.byName[t.Name]
	if t.Kind != structKind || sampling == nil || sampling.Form != structForm {
		return nil, pt.samplingUnreadable(c.Client, c.Sampling, "a struct")
	}
	if c.SamplingTools, err = pt.samplingField(sampling, "tools"); err != nil {
		return nil, err
	}
	if c.Context, err = pt.samplingField(sampling, "context"); err != nil {
		return nil, err
	}
	return c, nil
}

// samplingField is the field of the member of td, or an error at the entry that leaves it out.
func (pt *partsPass) samplingField(td *ir.Decl, member string) (*ir.Field, error) {
	for _, f := range td.Fields {
		if f.JSONName == member && !f.Implicit {
			return f, nil
		}
	}
	for _, f := range pt.src(td).omitted {
		if f.JSONName == member {
			return nil, pt.fsrc(f).shaped.Errorf("the configuration leaves out %s.%s, which the sampling rules read; keep the member, or leave the rules out (validate: false)", td.Name, f.Name)
		}
	}
	return nil, fmt.Errorf("emit: the sampling rules read %s.%s, which %s has no field for", td.Name, member, td.Name)
}

// samplingString is the field of the member of td, which the rules compare as a string: a
// string, an enum or a substitute of kind string, held as a value or a pointer.
func (pt *partsPass) samplingString(td *ir.Decl, member string) (*ir.Field, error) {
	f, err := pt.samplingField(td, member)
	if err != nil {
		return nil, err
	}
	if !stringKind(f.Type) {
		return nil, pt.samplingUnreadable(td, f, "a string")
	}
	return f, nil
}

// stringKind reports whether values of t convert to string.
func stringKind(t *ir.Type) bool {
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
func (pt *partsPass) samplingUnreadable(td *ir.Decl, f *ir.Field, want string) error {
	return pt.fsrc(f).shaped.Errorf("the configuration makes %s.%s %s, which the sampling rules cannot read (they need %s); keep the member's type, or leave the rules out (validate: false)",
		td.Name, f.Name, pt.typeString(f.Type, f.Pointer), want)
}
