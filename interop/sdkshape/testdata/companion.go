// Hand-written companion of mcpgen's output in go-sdk's mcp package: the declarations that
// go-sdk's code needs next to the generated protocol types and that the schema does not have.
// run.sh copies it into the package as zz_sdkshape_companion.go.

package mcp

// The results that are always complete are completeResultResponses (protocol.go): go-sdk's
// server sets their resultType. go-sdk gives them these methods by embedding its
// completeResultWithType; the generated structs have the member itself, ResultType.

func (r *CompleteResult) setResultType(rt resultType)              { r.ResultType = rt }
func (r *DiscoverResult) setResultType(rt resultType)              { r.ResultType = rt }
func (r *ListPromptsResult) setResultType(rt resultType)           { r.ResultType = rt }
func (r *ListResourceTemplatesResult) setResultType(rt resultType) { r.ResultType = rt }
func (r *ListResourcesResult) setResultType(rt resultType)         { r.ResultType = rt }
func (r *ListToolsResult) setResultType(rt resultType)             { r.ResultType = rt }
func (r *SubscriptionsListenResult) setResultType(rt resultType)   { r.ResultType = rt }

func (*CompleteResult) isCompleteResult()              {}
func (*DiscoverResult) isCompleteResult()              {}
func (*ListPromptsResult) isCompleteResult()           {}
func (*ListResourceTemplatesResult) isCompleteResult() {}
func (*ListResourcesResult) isCompleteResult()         {}
func (*ListToolsResult) isCompleteResult()             {}
func (*SubscriptionsListenResult) isCompleteResult()   {}
