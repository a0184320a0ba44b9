//go:build ignore

//mcpgen:requires CreateMessageRequestParams ToolUseContent ClientCapabilities

package parts

// CheckCapabilities checks a sampling request against the capabilities of the client it is sent
// to, which are not part of the message: tools and toolChoice need the client's sampling.tools
// capability (the client answers with an error otherwise), and includeContext other than "none"
// needs sampling.context. A server calls it before sending; a client, on receipt. The error is a
// *[ValidationError] with code -32602 (invalid params).
func (p *CreateMessageRequestParams) CheckCapabilities(client *ClientCapabilities) error {
	var c validator
	var sampling *ClientCapabilitiesSampling
	if client != nil {
		sampling = client.Sampling
	}
	if sampling == nil {
		c.report("the client does not declare the sampling capability")
		return c.err()
	}
	if sampling.Tools == nil {
		if p.Tools != nil {
			c.in("tools")
			c.report("the client does not declare the sampling.tools capability")
			c.out()
		}
		if p.ToolChoice != nil {
			c.in("toolChoice")
			c.report("the client does not declare the sampling.tools capability")
			c.out()
		}
	}
	if sampling.Context == nil && p.IncludeContext != nil && *p.IncludeContext != CreateMessageRequestParamsIncludeContextNone {
		c.in("includeContext")
		c.report("%s needs the client's sampling.context capability", quoteValue(string(*p.IncludeContext)))
		c.out()
	}
	return c.err()
}
