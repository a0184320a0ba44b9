package proxy

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	mcp "github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/sampling"
)

// A Route sends the requests whose model hints match Name to Model, through Sampler.
type Route struct {
	// Name is what hints are matched against, e.g. "sonnet".
	Name string
	// Model is the provider's model, e.g. "claude-sonnet-4-5"; hints are matched against it too.
	Model string
	// Sampler samples with Model.
	Sampler sampling.Sampler
	// TokenBudget, when positive, is a token budget of the route's own, counted as
	// [Limits.TokenBudget] is (which bounds every route together): a route to a costly model
	// can be given less. The budget is the Proxy's, when the Router is its Sampler.
	TokenBudget int64
}

// A Router is a [sampling.Sampler] that picks the provider model of each request from its
// modelPreferences.hints, by the operator's routes:
//
//   - the hints are tried in the order the server gave them, and for each hint the routes in
//     the operator's order; the first route that matches is taken;
//   - a hint matches a route when, ignoring case, it is a substring of the route's Model or of
//     its Name, as the spec reads hints ("sonnet" matches "claude-sonnet-4-5");
//   - without hints, or when none matches, Default samples.
//
// Hints come from the server, and a substring is easy to match: the hint "o" takes the first
// route whose name or model holds an "o" (claude-opus, say). The server chooses among the
// operator's routes, never beyond them: put the cheaper routes first, and bound the costly ones
// with a [Route.TokenBudget].
//
// The priorities (costPriority, speedPriority, intelligencePriority) are ignored: the operator
// chose the models and their order, and the proxy has no measure of a model's cost, speed or
// intelligence to weigh them with.
type Router struct {
	// Routes are tried in order for each hint.
	Routes []Route
	// Default samples the requests no route takes.
	Default sampling.Sampler
	// Logger receives the model chosen for each request; nil discards it.
	Logger *slog.Logger
}

// CreateMessage implements [sampling.Sampler].
func (r *Router) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	s, route, hint := r.Pick(p)
	if r.Logger != nil {
		if route != nil {
			r.Logger.Info("model chosen by hint", "hint", hint, "route", route.Name, "model", route.Model)
		} else {
			r.Logger.Debug("no hint matched a route; the default model samples")
		}
	}
	return s.CreateMessage(ctx, p)
}

// Pick returns the Sampler for p, with the route and the hint that chose it (nil and "" for
// Default).
func (r *Router) Pick(p *mcp.CreateMessageRequestParams) (sampling.Sampler, *Route, string) {
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			if h.Name == nil || *h.Name == "" {
				continue
			}
			hint := strings.ToLower(*h.Name)
			for i := range r.Routes {
				rt := &r.Routes[i]
				name, model := strings.ToLower(rt.Name), strings.ToLower(rt.Model)
				if strings.Contains(name, hint) || strings.Contains(model, hint) {
					return rt.Sampler, rt, *h.Name
				}
			}
		}
	}
	return r.Default, nil, ""
}

// ParseModelMap reads an operator's model map, "name=model,name=model" (e.g.
// "sonnet=claude-sonnet-4-5,haiku=claude-haiku-4-5"), into routes without Samplers, in order.
func ParseModelMap(s string) ([]Route, error) {
	var routes []Route
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		name, model, ok := strings.Cut(part, "=")
		name, model = strings.TrimSpace(name), strings.TrimSpace(model)
		if !ok || name == "" || model == "" {
			return nil, fmt.Errorf("model map entry %q: want name=model", strings.TrimSpace(part))
		}
		if seen[strings.ToLower(name)] {
			return nil, fmt.Errorf("model map: %q is given twice", name)
		}
		seen[strings.ToLower(name)] = true
		routes = append(routes, Route{Name: name, Model: model})
	}
	return routes, nil
}

// routeBudgets are the token budgets of the routes of s, when it is a Router, by name.
func routeBudgets(s sampling.Sampler) map[string]int64 {
	r, ok := s.(*Router)
	if !ok {
		return nil
	}
	out := map[string]int64{}
	for _, rt := range r.Routes {
		if rt.TokenBudget > 0 {
			out[rt.Name] = rt.TokenBudget
		}
	}
	return out
}

// ParseRouteBudgets reads an operator's token budgets of routes, "name=tokens,name=tokens" (e.g.
// "opus=20000,sonnet=200000"), and sets them on routes; a name that no route has is an error.
func ParseRouteBudgets(s string, routes []Route) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	for _, part := range strings.Split(s, ",") {
		name, n, ok := strings.Cut(part, "=")
		name, n = strings.TrimSpace(name), strings.TrimSpace(n)
		budget, err := strconv.ParseInt(n, 10, 64)
		if !ok || name == "" || err != nil || budget <= 0 {
			return fmt.Errorf("route budget %q: want name=tokens, tokens a positive integer", strings.TrimSpace(part))
		}
		found := false
		for i := range routes {
			if strings.EqualFold(routes[i].Name, name) {
				routes[i].TokenBudget = budget
				found = true
			}
		}
		if !found {
			return fmt.Errorf("route budget %q: no route of -model-map is named %q", strings.TrimSpace(part), name)
		}
	}
	return nil
}
