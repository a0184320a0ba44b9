// Package traffic checks the generated packages on JSON-RPC traffic recorded by other MCP
// implementations: the conformance archives of the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) and of github.com/mark3labs/mcp-go, copied with their
// licenses into testdata/gosdk and testdata/mcpgo, every JSON-RPC message of the
// specification's documentation pages, extracted by internal/extractdocs into testdata/specdocs,
// and the results among the spec's examples (schema/<version>/examples of the versions that have
// them: a *ResultResponse as it is, a *Result as the result of a response).
//
// The SDKs' archives are copied, not read from the module cache: the corpus is then fixed bytes
// that an upgrade of a dependency cannot change unseen, the test needs no network or module
// download, and mcp-go, whose code this module does not use, stays out of its go.mod.
//
// TestTraffic decodes each message with every package of gen/. A message is an exchange's: in an
// archive, a response answers the request of the other side with its id (the SDK harnesses pair a
// client's response with the server's requests in order); on a documentation page, the nearest
// request with its id. The version's schema.json (github.com/santhosh-tekuri/jsonschema/v6)
// decides whether the version accepts the message: its JSON-RPC envelope, and the definition of
// its method's message or of one of its method's results. Each accepted message must decode with
// DecodeClientMessage or DecodeServerMessage (the side that sends it; the method of a response
// from a Pending-like lookup of its request) to its method's type, the Unknown variant for a method
// the version does not define, or a result response holding one of the method's result types;
// validate (the Unknown variants aside); and encode back to the same JSON value.
//
// Every result is decoded a second time as if its request were unknown (no pending entry for its
// id; UnmarshalJSONRPCMessage): its members alone then choose its type. A result the version's
// schema.json accepts must still decode, to a result type whose definition accepts it (the base
// Result when the members' guess does not fit: an elicitation result in a version without
// elicitation looks like a CallToolResult), validate and encode back; these verdicts are named
// "<message>#unpaired". What fails either way is listed with its reason in
// testdata/exceptions.txt, which the test holds to the facts.
//
//	go test -run TestTraffic -v .            # the counts per source and per version
//	go test -run TestTraffic . -update       # rewrite testdata/exceptions.txt (keeps reasons)
//	go test -run TestTraffic -v . -explain   # what each schema.json rejects, and what the package does with it
package traffic
