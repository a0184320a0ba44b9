//go:build ignore

//mcpgen:requires CreateMessageRequestParams ToolUseContent ClientCapabilities

package parts

// CheckCapabilities checks a sampling request against the capabilities of the client it is sent
// to, which are not part of the message: tools and toolChoice need the client's sampling.tools
// capability (the client answers with an error otherwise), and includeContext other than "none"
// needs sampling.context. A server calls it before sending; a client, on receipt. The error is a
// *[ValidationError] with code -32602 (invalid params). A member is present as it would be
// encoded: the readers it calls (validate.go) follow the configured shapes.
func (p *CreateMessageRequestParams) CheckCapabilities(client *ClientCapabilities) error {
	var c validator
	sampling, tools, context := client.samplingCapabilities()
	if !sampling {
		c.report("the client does not declare the sampling capability")
		return c.err()
	}
	if !tools {
		asksTools, asksChoice := p.samplingTools()
		if asksTools {
			c.in("tools")
			c.report("the client does not declare the sampling.tools capability")
			c.out()
		}
		if asksChoice {
			c.in("toolChoice")
			c.report("the client does not declare the sampling.tools capability")
			c.out()
		}
	}
	if include, ok := p.samplingIncludeContext(); !context && ok && include != "none" {
		c.in("includeContext")
		c.report("%s needs the client's sampling.context capability", quoteValue(include))
		c.out()
	}
	return c.err()
}
