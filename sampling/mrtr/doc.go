// Package mrtr runs the tool loop of package sampling over multi round-trip requests (MRTR), the
// flow of protocol version 2026-07-28 (gen/mcp20260728) and the draft: a server that needs the
// client's model answers the client's request (tools/call, prompts/get, resources/read) with an
// InputRequiredResult holding a sampling/createMessage request, and the client retries the
// original request with the model's answer in inputResponses, echoing the requestState. The
// server keeps nothing between the two: the loop's state travels in requestState, so any
// instance of a stateless server continues it.
//
// A tools/call handler:
//
//	runner := &mrtr.Runner{Loop: loop, Key: key} // key: 32+ secret random bytes, shared by the instances
//
//	func callAgent(ctx context.Context, p *mcp.CallToolRequestParams, user string) (mcp.AnyResult, error) {
//		req, err := mrtr.CallTool(p, user)
//		if err != nil {
//			return nil, err
//		}
//		out, err := runner.Step(ctx, req, func() (*v1125.CreateMessageRequestParams, error) {
//			return firstParams(p.Arguments) // the prompt and template; called on the first request only
//		})
//		if err != nil {
//			return nil, err // mcp.NewErrorResponse(id, err) answers with its JSON-RPC error
//		}
//		if out.InputRequired != nil {
//			return out.InputRequired, nil // the client samples and retries
//		}
//		return finalResult(out.Result), nil // the loop is over: Result.Stop says why
//	}
//
// Each step verifies the state, takes the model's answer from inputResponses, runs its tool uses
// (as [sampling.Conversation.Accept] does: concurrently, validated, failures reported to the
// model) and either asks for the next sample or ends. Capabilities are those the retried
// request declares in its _meta: a request without sampling.tools gets
// MissingRequiredClientCapability (-32021) with requiredCapabilities {"sampling": {"tools": {}}}.
//
// # Versions
//
// [Runner.Step] takes and gives the types of 2026-07-28; package mrtrdraft (sampling/mrtr/mrtrdraft)
// is the same API on the draft's types (gen/mcpdraft). Both are thin boundaries around one
// implementation, [Runner.StepNeutral], which works on the loop's own types (those of 2025-11-25,
// whose sampling JSON the later versions share; they are converted through it). Every error
// carries its JSON-RPC error for either version: errors.As finds an *Error (and, for -32021, a
// *MissingRequiredClientCapabilityErrorObject) of gen/mcp20260728 or of gen/mcpdraft in it, so
// either package's NewErrorResponse answers with it.
//
// # The guaranteed helpers
//
// [Runner.SampleTools] and [SampleStructured] run [sampling.SampleTools] (force a valid tool
// call) and [sampling.SampleStructured] (a typed value through a forced tool) across round
// trips, with the helpers' own retries, corrections and errors. They work by replay: the state
// records the model's answers so far and a digest of each request sent, and each round re-runs
// the helper from the start with a Sampler that answers from the record and stops at the first
// request it does not answer, which becomes the InputRequiredResult. The helpers have no effect
// besides sampling, so this is safe; the params function must give the same params on every
// round (a replayed request that does not match its digest fails with -32603). The state's
// bounds, expiry, binding (to the helper as well as the request) and guard apply as for Step; a
// state is used (with a guard: once) when the helper takes its answer.
//
// # The state
//
// The state is [States]' (the Runner's Key or Keys, TTL, MaxStateBytes, Guard and Now configure
// one); a party that must carry its own data through the client between round trips (a proxy
// that samples on a server's behalf) uses States directly, with the same guarantees. A requestState is
// "v2.<body>.<mac>": body is the base64url of the DEFLATE-compressed JSON of an envelope (a
// random state id, the expiry, keyed hashes of the principal and of the request it belongs to
// (HMAC-SHA256 under a subkey of Key, so that whoever sees a state cannot test guesses of a
// user's e-mail or of low-entropy arguments), and the
// caller's body: for the Runner, the conversation (the next request's messages and template,
// without the tools, which the server has), the requests answered and the key of the pending
// sampling request); mac is HMAC-SHA256(Key, "mcpgen/mrtr/v2." + body), checked in constant time
// before anything else is read. States of version 1 are refused as malformed. The client can
// read the state (it holds nothing the client does not see in the sampling requests) but cannot
// change it. A state is accepted only:
//
//   - with a valid MAC under one of the server's keys (Key, or the keys of a [KeyRing]): an edited
//     state, or one issued under another key, is refused (tampered); one issued under a key the
//     ring has retired is refused as such (retiredKey);
//   - before its expiry, Runner.TTL (default 10 minutes) after it was issued (expired), checked
//     when it is opened and again right before it is used (tools run); every step issues a new
//     state with a new expiry. The expiry is read on the clock of the instance that presents the
//     state: the instances of a server need synchronised clocks (NTP), well within the guard's
//     grace period (see ReplayGuard);
//   - from the principal it was issued to (Request.Principal, e.g. the OAuth subject), and on a
//     request with the same method and binding (for tools/call, the tool's name and arguments,
//     compared as [Canonical] JSON, at every depth): another request's state is refused
//     (otherPrincipal, otherRequest);
//   - if it is at most Runner.MaxStateBytes (default 256 KiB), checked before it is read, and if
//     its JSON is at most MaxStateBytes and at most 8 times the state's length, checked while it
//     is inflated (tooLarge). The server keeps to both when it issues a state (a very repetitive
//     conversation is compressed with Huffman coding only); a conversation that outgrows them
//     ends with an internal error (-32603, tooLarge) rather than a state the server would refuse.
//
// # What a client can make the server do
//
// A request with a requestState costs the server, before any tool runs: the HMAC of the state
// (linear in its size, at most MaxStateBytes), inflating at most min(MaxStateBytes, 8 × its size)
// bytes, decoding and validating that JSON and the request's inputResponses, and encoding the
// answer. The largest answer that needs no tool run is a retry without the answer (asked again):
// the conversation the state carries (at most 8 bytes of JSON per byte of state) plus the state
// itself plus the tools' definitions (the server's, the same for every request), so at most
// about 9 bytes out per byte of requestState in, plus the tools; a client gets a large answer
// only by sending a large state. With a ReplayGuard, a state already used is not asked again
// (replayed): the guard is asked read-only (ReplayGuard.Used) before answering. Tools run only on
// a retry with a valid answer, and, with a guard, once per state.
//
// Each refusal is JSON-RPC error -32602 (invalid params) with a message saying what was wrong and
// data {"reason": "tampered" | "expired" | "otherRequest" | "otherPrincipal" | "replayed" |
// "tooLarge" | "malformed" | "retiredKey"}; the client starts the call over without
// requestState. One refusal is the server's, and transient: while the ReplayGuard cannot answer
// (its store is down or slow), every state is refused (the guard fails closed: nothing runs on a
// state it did not record) with -32603 (internal error) and data {"reason": "guardUnavailable"};
// the state was not used, and the client retries the same request later. An
// inputResponse that is not a valid sampling result, or that breaks the loop's rules (a repeated
// tool use id, a tool result from the model, ...), is -32602 as well, with the JSON pointer of
// the problem from the params ("/inputResponses/sampling-2/content/1/id: ..."). A retry without
// the response the state waits for is asked again, with the same InputRequiredResult and state
// (MRTR's error handling: the server asks again rather than fail).
//
// # Replayed retries
//
// A client (or an attacker who obtained a retry) can present the same retry twice: the same
// requestState with the same inputResponses, within the TTL. The MAC, the expiry and the binding
// bound that window and forbid cross-user and cross-request reuse, but, as the spec warns, they
// do not make a state single-use. What a replay does:
//
//   - The tool results of every step are recorded in the next state (they are part of the
//     conversation it carries), so a retry of a later state never runs them again: only a
//     replay of one state re-runs the tool uses of the answer it carries.
//   - Without a [ReplayGuard], the replay is accepted, and the tool uses of that answer run a
//     second time. They do not run unnoticed: each handler gets the same
//     [sampling.Call].IdempotencyKey in both runs (derived from the conversation's id, in the
//     state, and the tool use's id, tool name and canonical input, so that a replay that answers
//     with another tool or input under the same id gets another key), so a tool with side
//     effects records the key where the effect happens (or passes it downstream as an
//     idempotency key) and skips the effect, or returns the recorded result, when it sees the
//     key again. Read-only tools need nothing.
//   - With a ReplayGuard (Runner.Guard), each state is accepted once: the guard records the
//     state's id before any tool runs (once the answer has passed the loop's checks, right after
//     the expiry is checked again), and a second presentation, with the answer or without it, is
//     refused (-32602, reason "replayed") without running anything. An answer the loop refuses
//     (-32602) does not use the state: the client may correct it and retry with the same state.
//     This is the server-side enforcement the spec requires of a server whose effects must
//     happen at most once. [MemoryGuard] serves one process; a server of several instances needs
//     a guard they share (the interface is two methods: Use records, Used asks). A guard keeps an
//     id until its expiry plus a grace period longer than the instances' clocks may differ
//     (MemoryGuard: a minute by default). The cost: a client whose retry got no answer (a lost
//     response) cannot retry it, and starts the call over.
//
// A server whose tools must have at-most-once effects across replays therefore sets a shared
// Guard, or makes those tools idempotent with the key; the loop cannot do it alone, since a
// stateless server keeps no record of what ran. Module
// github.com/mcpgen/mcpgen/sampling/mrtr/redisguard is a guard on Redis that the instances share.
//
// # Rotating the key
//
// Every instance holds the same keys: with Key, one; with Keys, a [KeyRing] (from a file,
// [LoadKeyRing], which refuses a file that others may read, or the environment, [KeyRingFromEnv]:
// one hex key per line, the first issues), so that the key changes without refusing the states in
// flight. The procedure, each step rolled
// out to every instance (a rolling restart, or a reload) before the next begins:
//
//  1. Add: put the new key second in the ring. The old key still issues; every instance can now
//     open the states of the new one. (Promoting at once would let an instance issue states that
//     the instances not yet given the new key refuse as tampered.)
//  2. Promote: put the new key first and the old one second. New states are the new key's; the
//     old key's states in flight are still opened until they expire.
//  3. Retire: once the promotion has reached every instance and TTL plus the guard's grace has
//     passed, no state of the old key can be accepted (they have expired): drop it, or keep it a
//     while as "retired <hex>", so that a client presenting one is told "retiredKey" rather than
//     "tampered".
//
// A key that leaked is retired at once, without the wait: the states in flight under it are
// refused (retiredKey) and their calls start over; the states an attacker could forge with it
// are refused as well.
package mrtr
