// Package sampling runs sampling with tools (SEP-1577) on the generated MCP types: the tool loop
// a server runs on the client's model, and guaranteed helpers built on it.
//
// The package works on the types of protocol version 2025-11-25 (gen/mcp20251125), the first
// version with sampling with tools, in which the server sends sampling/createMessage to the
// client during a request. The sampling types of 2026-07-28 and the draft have the same JSON; in
// those versions the server asks with an InputRequiredResult instead, and package
// [github.com/mcpgen/mcpgen/sampling/mrtr] runs the same loop across those round trips.
//
// # The loop
//
// A [Sampler] asks a model for one message: the client's model behind an MCP session (package
// [github.com/mcpgen/mcpgen/sampling/gosdk] makes one of a session of the official Go SDK), a
// provider's API, or a scripted model in a test. [Loop.Run] sends the conversation with the
// loop's [Tool]s, and while the model answers with tool uses, runs them and sends their results
// back:
//
//	loop := &sampling.Loop{Tools: []*sampling.Tool{weather, add}, MaxIterations: 8}
//	res, err := loop.Run(ctx, sampler, &mcp.CreateMessageRequestParams{
//		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewSamplingMessageContent(&mcp.TextContent{Text: prompt})}},
//		MaxTokens: 1000,
//	})
//	// res.Stop says why it stopped, res.Messages is the whole conversation, res.Text() the answer.
//
// The rules it keeps:
//
//   - Capabilities. Before anything is sent, every request is checked against the client's
//     capabilities (CreateMessageRequestParams.CheckCapabilities): tools need sampling.tools.
//     The loop learns them from [Loop.Capabilities] or, when that is nil, from a Sampler that
//     implements [ClientCapabilitiesProvider] (the go-sdk adapter does: the capabilities the
//     client declared in initialize). When neither gives them the loop refuses to run
//     ([ErrUnknownCapabilities]) rather than guess. A client without sampling.tools stops the
//     loop before its first request with a [*CapabilityError] (StopMissingCapability).
//   - Requests. Every request passes Validate (the schema's rules and those of sampling with
//     tools: results answer the tool uses just before them, ids are unique, ...) before it is
//     sent; the loop sets params.Tools from its tools.
//   - Results. Every answer passes Validate, has the role "assistant", repeats no tool use id of
//     the conversation, and does not claim stopReason "toolUse" without a tool use; otherwise
//     the loop stops with a [*ResultError] (StopInvalidResult) and runs none of its tool uses. A
//     repeated id is refused, not renamed: a tool result could not say which tool use it answers,
//     and the spec makes ids unique.
//   - Tool uses. The tool uses of an answer run concurrently, at most [Loop.MaxParallel] at a time,
//     and are answered by one user message holding a tool result for each, in their order. A tool
//     use is run when the answer holds it, whatever its stopReason says (the field is optional).
//     Before a handler runs, the input is validated against the tool's input schema by a JSON
//     Schema validator (github.com/santhosh-tekuri/jsonschema/v6; draft 2020-12 unless the schema
//     says otherwise; no external references). An unknown tool name, an invalid input, a handler's
//     error or panic, or an invalid handler result is a tool result with isError: true and a
//     message for the model ("unknown tool "get_wether": the tools are add, get_weather",
//     "invalid input for tool "add": /numbers/1: got string, want number"): the model corrects
//     itself, the loop goes on.
//   - Tool results. When a tool has an output schema (NewTypedTool derives one from a result
//     type whose values are JSON objects), the structuredContent of each result that is not an
//     error is validated against it before the model sees it: a result without
//     structuredContent, or with one the schema rejects, reaches the model as a tool result with
//     isError: true that gives the JSON pointer and the validator's message of each problem,
//     instead of the invalid value.
//   - Limits. [Loop.MaxIterations] bounds the sampling requests; when the model still asks for
//     tools in the last answer, the loop stops (StopMaxIterations) without running them
//     ([Result.PendingToolUses]). [Loop.ForceFinalAnswer] sends the last request with toolChoice
//     {mode: "none"}, as the spec suggests.
//   - Cancellation. The context reaches the Sampler and every handler; when it ends, the loop
//     stops (StopCanceled) after the running handlers return, and returns the context's error.
//
// Run always returns the conversation so far and the [StopReason]. [Loop.Start] and
// [Conversation] drive the same loop one request at a time, for flows that cannot wait for the
// answer.
//
// # Progress
//
// A context made by [WithProgress] carries a sink for the loop's [Progress] events: each
// sampling request it asks for, each tool use it handles (ran, or failed), and the end of the
// loop. [Loop.Run], [Loop.StartContext] and [Conversation.Accept] report them, one call at a
// time, numbered 1, 2, 3, ... over the whole conversation: the numbers are derived from the
// conversation itself, so a conversation continued from a [Snapshot] in a later request goes on
// where it stopped and never repeats a number. The package knows no transport: the adapter that
// serves the client's request, when that request carries a progressToken, sends each event as
// notifications/progress with that token (progress: the event's number, message: its Message),
// and only while it handles that request — in the multi round-trip flow of 2026-07-28, each
// round's request with its own token, never after that round's response:
//
//	// In a go-sdk tool handler (gomcp is github.com/modelcontextprotocol/go-sdk/mcp):
//	if token := req.Params.GetProgressToken(); token != nil {
//		ctx = sampling.WithProgress(ctx, func(ctx context.Context, p sampling.Progress) {
//			req.Session.NotifyProgress(ctx, &gomcp.ProgressNotificationParams{ProgressToken: token, Progress: p.Progress, Message: p.Message})
//		})
//	}
//	res, err := loop.Run(ctx, sampler, params)
//
// # Guaranteed helpers
//
// [SampleTools] insists on at least one valid tool call (toolChoice "required", retrying with a
// correction the model reads); [SampleStructured] returns a typed Go value from structured output
// (a single forced tool whose input schema is derived from the Go type by
// github.com/google/jsonschema-go, validated by a JSON Schema validator, decoded into the type,
// retried with the validator's findings as feedback). Asking SampleStructured for tools as well
// is an error ([ErrSchemaAndTools]). When the retries run out, the error is a [*RetryError]
// holding the attempts, the last answer and the conversation. Both report each attempt to the
// progress sink of their context.
package sampling
