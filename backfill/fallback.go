package backfill

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// A Fallback is a [sampling.Sampler] for servers moving off MCP sampling (which protocol version
// 2026-07-28 deprecates, asking servers to integrate with model providers' APIs instead): it asks
// the client's model when the client can take the request, and a provider's model otherwise.
//
// A request goes to Client when the client's capabilities allow it: the client declares
// sampling, and sampling.tools when the request holds tools or a toolChoice, and
// sampling.context when it asks for context (the check of
// [mcp.CreateMessageRequestParams.CheckCapabilities]). Any other request goes to Provider, when
// Provider's capabilities allow it. A request that neither allows is refused with the
// *mcp.ValidationError of the check against the client's capabilities, and neither is asked.
//
// A failure of the model that was asked is returned as it is: a request the client's model
// refused (the user may have declined it) is not sent to the provider instead.
//
// At protocol version 2026-07-28 a server cannot send a sampling request while it serves one:
// the client's model is asked with multi round-trip requests instead. sampling/gosdk's Sampler
// knows it, and reports no sampling on such a session, so a Fallback on it asks the provider
// there, whatever the client declared. A go-sdk tool handler that should keep asking the
// client's model at 2026-07-28 uses sampling/gosdk's Handler with the provider as its Fallback
// instead: the client's model through InputRequests when the call's capabilities allow it, the
// provider within the call otherwise.
//
// A Fallback implements [sampling.ClientCapabilitiesProvider], so the tool loop and the helpers
// of package sampling run on it and check each request against what it can answer: sampling with
// tools whenever the provider is there, whatever the client declared. Its fields must not change
// while it is in use; it is safe for concurrent use when Client and Provider are.
type Fallback struct {
	// Client asks the client's model, for example a sampler on the MCP session
	// (sampling/gosdk.NewSampler). Nil means that every request goes to Provider.
	Client sampling.Sampler
	// Capabilities returns the capabilities of the client that a request may use; nil means
	// none. It is called for each request, so it may follow what changes. When it is nil, the
	// capabilities are Client's when Client is a [sampling.ClientCapabilitiesProvider] (as
	// sampling/gosdk's Sampler is); otherwise the client is taken to declare none, and every
	// request goes to Provider.
	Capabilities func() *mcp.ClientCapabilities
	// Provider asks a model provider's API: a *[Sampler] from [NewAnthropicSampler] or
	// [NewOpenAISampler], or any sampler. When it is a [sampling.ClientCapabilitiesProvider],
	// its capabilities say what it takes; otherwise it is taken to take sampling with tools,
	// without includeContext. Nil means that requests the client cannot take are refused.
	Provider sampling.Sampler
}

var (
	_ sampling.Sampler                    = (*Fallback)(nil)
	_ sampling.ClientCapabilitiesProvider = (*Fallback)(nil)
)

// A Route names the model a [Fallback] asks.
type Route string

const (
	// RouteClient is the client's model.
	RouteClient Route = "client"
	// RouteProvider is the provider's model.
	RouteProvider Route = "provider"
)

// Route returns the model that [Fallback.CreateMessage] would ask for params, or the
// *mcp.ValidationError of a request that neither the client nor the provider can take.
func (f *Fallback) Route(params *mcp.CreateMessageRequestParams) (Route, error) {
	if params == nil {
		return "", errors.New("backfill: nil sampling params")
	}
	client := f.clientCapabilities()
	var clientErr error
	if f.Client != nil {
		if clientErr = params.CheckCapabilities(client); clientErr == nil {
			return RouteClient, nil
		}
	}
	if f.Provider != nil {
		perr := params.CheckCapabilities(f.providerCapabilities())
		if perr == nil {
			return RouteProvider, nil
		}
		if clientErr == nil {
			clientErr = perr
		}
	}
	if clientErr == nil {
		return "", errors.New("backfill: a Fallback needs a Client or a Provider")
	}
	return "", clientErr
}

// CreateMessage asks the model that [Fallback.Route] names.
func (f *Fallback) CreateMessage(ctx context.Context, params *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	route, err := f.Route(params)
	if err != nil {
		return nil, err
	}
	if route == RouteClient {
		return f.Client.CreateMessage(ctx, params)
	}
	return f.Provider.CreateMessage(ctx, params)
}

// ClientCapabilities reports what the Fallback can answer: the client's capabilities, with a
// sampling capability that also holds what Provider takes (sampling with tools, for a provider
// [Sampler]). Without a Provider, they are the client's.
func (f *Fallback) ClientCapabilities() *mcp.ClientCapabilities {
	client := f.clientCapabilities()
	if f.Provider == nil {
		return client
	}
	var out mcp.ClientCapabilities
	if client != nil {
		out = *client
	}
	provider := f.providerCapabilities()
	if provider == nil || provider.Sampling == nil {
		return client
	}
	s := &mcp.ClientCapabilitiesSampling{}
	if out.Sampling != nil {
		*s = *out.Sampling
	}
	s.Tools = union(s.Tools, provider.Sampling.Tools)
	s.Context = union(s.Context, provider.Sampling.Context)
	out.Sampling = s
	return &out
}

func (f *Fallback) clientCapabilities() *mcp.ClientCapabilities {
	if f.Capabilities != nil {
		return f.Capabilities()
	}
	if p, ok := f.Client.(sampling.ClientCapabilitiesProvider); ok {
		return p.ClientCapabilities()
	}
	return nil
}

func (f *Fallback) providerCapabilities() *mcp.ClientCapabilities {
	if p, ok := f.Provider.(sampling.ClientCapabilitiesProvider); ok {
		return p.ClientCapabilities()
	}
	return &mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{Tools: map[string]json.RawMessage{}}}
}

// union returns a capability object declared when either a or b is (a non-nil map), with the
// members of both, a's first.
func union(a, b map[string]json.RawMessage) map[string]json.RawMessage {
	if a == nil && b == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(a)+len(b))
	maps.Copy(out, b)
	maps.Copy(out, a)
	return out
}
