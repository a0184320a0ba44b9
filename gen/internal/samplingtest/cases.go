package samplingtest

import (
	"encoding/json"
	"slices"
	"strings"
)

// A Case is a sampling request or result and the problems its Validate must report, or a request
// and the client capabilities that CheckCapabilities must judge.
type Case struct {
	// Rule names the rule the case is about: one of the Rule constants.
	Rule string
	// Name says what the case holds.
	Name string
	// Spec quotes the sentence of the spec the case comes from.
	Spec string
	// Params is the JSON of a CreateMessageRequestParams; Result, of a CreateMessageResult. A
	// case has one of them.
	Params, Result string
	// Client is the JSON of the ClientCapabilities that CheckCapabilities checks Params against;
	// NoClient passes a nil *ClientCapabilities instead. Neither: the case is for Validate.
	Client   string
	NoClient bool
	// Want lists the problems, in order; nil for a valid case.
	Want []Problem
}

// The rules of a sampling request's messages and tools, as the spec's client/sampling page states
// them.
const (
	RuleToolResultsAlone = "tool-results-alone" // a user message with tool results holds only tool results
	RuleRoles            = "roles"              // tool_use only from the assistant, tool_result only from the user
	RuleBalance          = "balance"            // tool uses answered by the very next message, completely
	RuleUniqueIDs        = "unique-ids"         // tool use ids are unique in the conversation
	RuleAnswersAsked     = "answers-asked"      // a tool result answers a tool use asked, once
	RuleCapabilities     = "capabilities"       // CheckCapabilities
	RuleNoTools          = "no-tools"           // conversations without tools: the rules stay silent
)

// The sentences the cases come from. The page is docs/draft/client/sampling.mdx of the spec; its
// sentences quoted here are the same in docs/2025-11-25 and docs/2026-07-28. "schema.ts" is the
// draft schema; the 2025-11-25 and 2026-07-28 ones say the same, in other words for
// includeContext in 2025-11-25 (quoted too).
const (
	specToolResultsAlone = `sampling.mdx, Message Content Constraints: "When a user message contains tool results ` +
		`(type: "tool_result"), it MUST contain ONLY tool results. Mixing tool results with other content types ` +
		`(text, image, audio) in the same message is not allowed."`
	specSingleToolResult   = specToolResultsAlone + ` Its example "Valid - single tool result" has a content that is one object.`
	specMultipleToolResult = specToolResultsAlone + ` Its example "Valid - multiple tool results".`
	specMixedContent       = specToolResultsAlone + ` Its example "Invalid - mixed content".`
	specRoles              = `sampling.mdx, Message Roles: "Tool use requests are sent in CreateMessageResult with the ` +
		`"assistant" role. Tool results are sent back in messages with the "user" role. Messages with tool ` +
		`results cannot contain other kinds of content."`
	specBalance = `sampling.mdx, Tool Use and Result Balance: "every assistant message containing ToolUseContent ` +
		`blocks MUST be followed by a user message that consists entirely of ToolResultContent blocks, with ` +
		`each tool use (e.g. with id: $id) matched by a corresponding tool result (with toolUseId: $id), ` +
		`before any other message."`
	specValidSequence   = specBalance + ` Its "Example valid sequence".`
	specMissingResult   = specBalance + ` Its "Invalid sequence - missing tool result".`
	specFollowUpExample = `sampling.mdx, Multi-turn Tool Loop: "Follow-up input request ... with tool results" ` +
		`(the example, verbatim; also schema/draft/examples/CreateMessageRequestParams/follow-up-with-tool-results.json).`
	specParallel = `sampling.mdx, Parallel Tool Use: "MCP allows models to make multiple tool use requests in ` +
		`parallel (returning an array of ToolUseContent)."; Tool Use and Result Balance: "Provider APIs can ` +
		`concurrently process multiple tool uses and fetch their results in parallel". No order of the ` +
		`results is stated.`
	specLoop = `sampling.mdx, Multi-turn Tool Loop: "Receives the LLM's response (which might contain new tool ` +
		`uses)" and "Repeats as many times as needed".`
	specMixedAssistant = `sampling.mdx, Result Fields: "An array of content blocks when the response contains ` +
		`one or more content blocks, such as multiple tool uses or mixed content."`
	specToolUseResponse = `sampling.mdx, Sampling with Tools: the client result with two tool_use blocks ` +
		`(also schema/draft/examples/CreateMessageResult/tool-use-response.json).`
	specUniqueID = `schema.ts, ToolUseContent.id: "A unique identifier for this tool use. This ID is used to ` +
		`match tool results to their corresponding tool uses."`
	specMatchingID = `schema.ts, ToolResultContent.toolUseId: "The ID of the tool use this result corresponds to. ` +
		`This MUST match the ID from a previous ToolUseContent."; sampling.mdx, Security Considerations 6: ` +
		`"each ToolUseContent item is responded to with a ToolResultContent item with a matching toolUseId".`
	specNoTools = `sampling.mdx, Creating Messages: the request and result examples, which have no tools; ` +
		`the rules of sampling with tools apply "When using tool use in sampling".`
	specToolsCapability = `sampling.mdx, Tools in Sampling: "Clients MUST declare support for tool use via the ` +
		`sampling.tools capability to receive tool-enabled sampling requests."; schema.ts, ` +
		`CreateMessageRequestParams.tools and .toolChoice: "The client MUST return an error if this field ` +
		`is provided but ClientCapabilities.sampling.tools is not declared."`
	specContextCapability = `schema.ts, CreateMessageRequestParams.includeContext: "servers SHOULD omit this ` +
		`field or use "none", and SHOULD only use the deprecated values if the client declares ` +
		`ClientCapabilities.sampling.context." (2025-11-25: "Servers SHOULD only use these values if the client ` +
		`declares ClientCapabilities.sampling.context."); sampling.mdx, Capabilities: "SHOULD NOT use them ` +
		`unless the client declares sampling.context capability". A SHOULD: CheckCapabilities reports it, and ` +
		`a client may still choose to serve the request.`
	specSamplingCapability = `sampling.mdx, Capabilities: "Clients that support sampling MUST declare the ` +
		`sampling capability".`
)

// Cases returns the cases, every rule with valid and invalid ones.
func Cases() []Case {
	return slices.Concat(
		toolResultsAloneCases(),
		mixedToolResultsCases(),
		roleCases(),
		balancedCases(),
		unansweredCases(),
		misplacedResultsCases(),
		uniqueIDCases(),
		answersAskedCases(),
		severalRulesCases(),
		noToolsCases(),
		toolsCapabilityCases(),
		contextCapabilityCases(),
	)
}

// toolResultsAloneCases are the valid cases of RuleToolResultsAlone: a user message holding tool
// results holds only tool results, whatever those results hold.
func toolResultsAloneCases() []Case {
	return []Case{
		{
			Rule: RuleToolResultsAlone, Name: "single tool result, content one object",
			Spec: specSingleToolResult,
			Params: params(
				user(text("Look it up")),
				assistant(use("call_123", "Paris")),
				`{"role":"user","content":{"type":"tool_result","toolUseId":"call_123","content":[{"type":"text","text":"Result data"}]}}`,
			),
		},
		{
			Rule: RuleToolResultsAlone, Name: "multiple tool results",
			Spec: specMultipleToolResult,
			Params: params(
				user(text("Look them up")),
				assistant(use("call_123", "Paris"), use("call_456", "London")),
				`{"role":"user","content":[`+
					`{"type":"tool_result","toolUseId":"call_123","content":[{"type":"text","text":"Result 1"}]},`+
					`{"type":"tool_result","toolUseId":"call_456","content":[{"type":"text","text":"Result 2"}]}]}`,
			),
		},
		{
			Rule: RuleToolResultsAlone, Name: "a tool result with isError and no content",
			Spec: specToolResultsAlone + ` A failed tool's result is still a tool result.`,
			Params: params(
				user(text("Look it up")),
				assistant(use("call_123", "Paris")),
				`{"role":"user","content":[{"type":"tool_result","toolUseId":"call_123","content":[],"isError":true}]}`,
			),
		},
		{
			Rule: RuleToolResultsAlone, Name: "a tool result holding text, an image and a resource link",
			Spec: specToolResultsAlone + ` The rule is about the blocks of the message; schema.ts, ` +
				`ToolResultContent.content: "can include text, images, audio, resource links, and embedded resources."`,
			Params: params(
				user(text("Show me Paris")),
				assistant(use("a", "Paris")),
				user(`{"type":"tool_result","toolUseId":"a","content":[`+text("Paris:")+`,`+image()+`,`+
					`{"type":"resource_link","uri":"file:///paris.txt","name":"paris.txt"}],"structuredContent":{"temp":18}}`),
			),
		},
	}
}

// mixedToolResultsCases are the invalid cases of RuleToolResultsAlone: a user message mixing tool
// results with other content.
func mixedToolResultsCases() []Case {
	return []Case{
		{
			Rule: RuleToolResultsAlone, Name: "text before a tool result",
			Spec: specMixedContent,
			Params: params(
				user(text("Look it up")),
				assistant(use("call_123", "Paris")),
				`{"role":"user","content":[{"type":"text","text":"Here are the results:"},`+
					`{"type":"tool_result","toolUseId":"call_123","content":[{"type":"text","text":"Result data"}]}]}`,
			),
			Want: []Problem{
				{"/messages/2", "a message with tool results must hold only tool results"},
			},
		},
		{
			Rule: RuleToolResultsAlone, Name: "an image after the tool results",
			Spec: specToolResultsAlone,
			Params: params(
				user(text("Look them up")),
				assistant(use("a", "Paris"), use("b", "London")),
				user(result("a", "18°C"), result("b", "15°C"), image()),
			),
			Want: []Problem{
				{"/messages/2", "a message with tool results must hold only tool results"},
			},
		},
		{
			Rule: RuleToolResultsAlone, Name: "audio between the tool results",
			Spec: specToolResultsAlone,
			Params: params(
				user(text("Look them up")),
				assistant(use("a", "Paris"), use("b", "London")),
				user(result("a", "18°C"), audio(), result("b", "15°C")),
			),
			Want: []Problem{
				{"/messages/2", "a message with tool results must hold only tool results"},
			},
		},
	}
}

// roleCases are the cases of RuleRoles: tool uses only in assistant messages, tool results only
// in user messages.
func roleCases() []Case {
	return []Case{
		{
			Rule: RuleRoles, Name: "result: tool uses from the assistant",
			Spec:   specToolUseResponse,
			Result: createResult("assistant", list(use("call_abc123", "Paris"), use("call_def456", "London"))),
		},
		{
			Rule: RuleRoles, Name: "result: one tool use, content one object",
			Spec:   specRoles,
			Result: createResult("assistant", use("call_abc123", "Paris")),
		},
		{
			Rule: RuleRoles, Name: "result: text and tool uses mixed",
			Spec:   specMixedAssistant,
			Result: createResult("assistant", list(text("Let me check."), use("a", "Paris"), use("b", "London"))),
		},
		{
			Rule: RuleRoles, Name: "result: a tool use with stopReason endTurn",
			Spec: specRoles + ` schema.ts, CreateMessageResult.stopReason: "This field is an open string to ` +
				`allow for provider-specific stop reasons."; no rule ties it to the content.`,
			Result: `{"role":"assistant","content":` + use("a", "Paris") + `,"model":"m","stopReason":"endTurn"}`,
		},
		{
			Rule: RuleRoles, Name: "request: an assistant message mixing text and a tool use",
			Spec: specMixedAssistant,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(text("Let me check."), use("a", "Paris")),
				user(result("a", "18°C")),
			),
		},
		{
			Rule: RuleRoles, Name: "request: a tool use in a user message",
			Spec: specRoles,
			Params: params(
				user(text("Weather in Paris?")),
				user(use("a", "Paris")),
				user(result("a", "18°C")),
			),
			Want: []Problem{
				{"/messages/1/content/0", `a tool use must be in an assistant message, not in a message of role "user"`},
			},
		},
		{
			Rule: RuleRoles, Name: "request: a tool result in an assistant message",
			Spec: specRoles,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				assistant(result("a", "18°C")),
			),
			Want: []Problem{
				{"/messages/2/content/0", `a tool result must be in a user message, not in a message of role "assistant"`},
			},
		},
		{
			Rule: RuleRoles, Name: "result: a tool result from the assistant",
			Spec:   specRoles,
			Result: createResult("assistant", list(result("a", "18°C"))),
			Want: []Problem{
				{"/content/0", `a tool result must be in a user message, not in a message of role "assistant"`},
			},
		},
		{
			Rule: RuleRoles, Name: "result: a tool use from the user, content one object",
			Spec:   specRoles,
			Result: createResult("user", use("a", "Paris")),
			Want: []Problem{
				{"/content", `a tool use must be in an assistant message, not in a message of role "user"`},
			},
		},
	}
}

// balancedCases are the valid cases of RuleBalance: every assistant message with tool uses is
// followed immediately by one user message answering each of its ids, before any other message.
func balancedCases() []Case {
	return []Case{
		{
			Rule: RuleBalance, Name: "the spec's valid sequence",
			Spec: specValidSequence,
			Params: params(
				user(text("What's the weather like in Paris and London?")),
				assistant(use("call_abc123", "Paris"), use("call_def456", "London")),
				user(result("call_abc123", "18°C, partly cloudy"), result("call_def456", "15°C, rainy")),
				assistant(text("Paris is warmer than London.")),
			),
		},
		{
			Rule: RuleBalance, Name: "the spec's follow-up request",
			Spec:   specFollowUpExample,
			Params: followUpExample,
		},
		{
			Rule: RuleBalance, Name: "parallel tool results in reverse order",
			Spec: specParallel,
			Params: params(
				user(text("What's the weather like in Paris and London?")),
				assistant(use("call_abc123", "Paris"), use("call_def456", "London")),
				user(result("call_def456", "15°C, rainy"), result("call_abc123", "18°C, partly cloudy")),
			),
		},
		{
			Rule: RuleBalance, Name: "three parallel tool results in another order",
			Spec: specParallel,
			Params: params(
				user(text("Paris, London, Rome?")),
				assistant(use("a", "Paris"), use("b", "London"), use("c", "Rome")),
				user(result("b", "15°C"), result("c", "25°C"), result("a", "18°C")),
			),
		},
		{
			Rule: RuleBalance, Name: "one tool use and one tool result, each content one object",
			Spec: specSingleToolResult,
			Params: params(
				user(text("Weather in Paris?")),
				`{"role":"assistant","content":`+use("a", "Paris")+`}`,
				`{"role":"user","content":`+result("a", "18°C")+`}`,
				`{"role":"assistant","content":`+text("18°C in Paris.")+`}`,
			),
		},
		{
			Rule: RuleBalance, Name: "several complete rounds",
			Spec: specLoop,
			Params: params(
				user(text("Compare Paris, London and Rome.")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C")),
				assistant(text("Now the others."), use("b", "London"), use("c", "Rome")),
				user(result("c", "25°C"), result("b", "15°C")),
				assistant(text("Rome is the warmest.")),
				user(text("And tomorrow?")),
				assistant(use("d", "Rome")),
				user(result("d", "27°C")),
			),
		},
		{
			Rule: RuleBalance, Name: "a user message right after the tool results",
			Spec: specBalance + ` The rule asks for the tool results before any other message, and no more: ` +
				`nothing says that roles alternate.`,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C")),
				user(text("Answer in Fahrenheit.")),
			),
		},
	}
}

// unansweredCases are invalid cases of RuleBalance: the message right after the tool uses does
// not answer them.
func unansweredCases() []Case {
	return []Case{
		{
			Rule: RuleBalance, Name: "the spec's missing tool result",
			Spec: specMissingResult,
			Params: params(
				user(text("What's the weather like in Paris and London?")),
				assistant(use("call_abc123", "Paris"), use("call_def456", "London")),
				user(result("call_abc123", "18°C, partly cloudy")),
				assistant(text("Paris is 18°C.")),
			),
			Want: []Problem{
				{"/messages/2", `the tool uses "call_def456" of message 1 are not answered`},
			},
		},
		{
			Rule: RuleBalance, Name: "a text message after the tool uses",
			Spec: specBalance,
			Params: params(
				user(text("Weather in Paris and London?")),
				assistant(use("a", "Paris"), use("b", "London")),
				user(text("Never mind.")),
			),
			Want: []Problem{
				{"/messages/2", `the tool uses of message 1 ("a", "b") are not answered: the message after them must hold their tool results`},
			},
		},
		{
			Rule: RuleBalance, Name: "an assistant message after the tool uses",
			Spec: specBalance,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				assistant(text("It is sunny.")),
			),
			Want: []Problem{
				{"/messages/2", `the tool uses of message 1 ("a") are not answered: the message after them must hold their tool results`},
			},
		},
	}
}

// misplacedResultsCases are invalid cases of RuleBalance: the tool results come late, split, or
// never.
func misplacedResultsCases() []Case {
	return []Case{
		{
			Rule: RuleBalance, Name: "another message before the tool results",
			Spec: specBalance,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				user(text("Take your time.")),
				`{"role":"user","content":`+result("a", "18°C")+`}`,
			),
			Want: []Problem{
				{"/messages/2", `the tool uses of message 1 ("a") are not answered: the message after them must hold their tool results`},
				{"/messages/3/content/toolUseId", `"a" answers no tool use: the message before is not an assistant message with that tool use`},
			},
		},
		{
			Rule: RuleBalance, Name: "the tool results split over two messages",
			Spec: specBalance,
			Params: params(
				user(text("Weather in Paris and London?")),
				assistant(use("a", "Paris"), use("b", "London")),
				user(result("a", "18°C")),
				user(result("b", "15°C")),
			),
			Want: []Problem{
				{"/messages/2", `the tool uses "b" of message 1 are not answered`},
				{"/messages/3/content/0/toolUseId", `"b" answers no tool use: the message before is not an assistant message with that tool use`},
			},
		},
		{
			Rule: RuleBalance, Name: "the request ends with unanswered tool uses",
			Spec: specBalance,
			Params: params(
				user(text("Weather in Paris and London?")),
				assistant(use("b", "London"), use("a", "Paris")),
			),
			Want: []Problem{
				{"/messages", `the tool uses "a", "b" of the last message (1) are not answered`},
			},
		},
	}
}

// uniqueIDCases are the cases of RuleUniqueIDs: tool use ids are unique in the conversation.
func uniqueIDCases() []Case {
	return []Case{
		{
			Rule: RuleUniqueIDs, Name: "distinct ids over several rounds",
			Spec: specUniqueID,
			Params: params(
				user(text("Paris, then London.")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C")),
				assistant(use("b", "London")),
				user(result("b", "15°C")),
			),
		},
		{
			Rule: RuleUniqueIDs, Name: "one id twice in one message",
			Spec: specUniqueID,
			Params: params(
				user(text("Paris and London?")),
				assistant(use("a", "Paris"), use("a", "London")),
				user(result("a", "18°C")),
			),
			Want: []Problem{
				{"/messages/1/content/1/id", `tool use id "a" is used twice in the conversation`},
			},
		},
		{
			Rule: RuleUniqueIDs, Name: "an id of an earlier round used again",
			Spec: specUniqueID,
			Params: params(
				user(text("Paris, then London.")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C")),
				`{"role":"assistant","content":`+use("a", "London")+`}`,
				user(result("a", "15°C")),
			),
			Want: []Problem{
				{"/messages/3/content/id", `tool use id "a" is used twice in the conversation`},
			},
		},
		{
			Rule: RuleUniqueIDs, Name: "result: one id twice",
			Spec:   specUniqueID,
			Result: createResult("assistant", list(use("call_1", "Paris"), use("call_2", "Rome"), use("call_1", "London"))),
			Want: []Problem{
				{"/content/2/id", `tool use id "call_1" is used twice in the conversation`},
			},
		},
	}
}

// answersAskedCases are the cases of RuleAnswersAsked: no tool result answers an id that was not
// asked, or was already answered.
func answersAskedCases() []Case {
	return []Case{
		{
			Rule: RuleAnswersAsked, Name: "one tool called twice, each id answered once",
			Spec: specMatchingID + ` Results match tool uses by id, not by tool name.`,
			Params: params(
				user(text("Paris and London?")),
				assistant(use("call_1", "Paris"), use("call_2", "London")),
				user(result("call_2", "15°C"), result("call_1", "18°C")),
				assistant(use("call_3", "Paris")),
				`{"role":"user","content":`+result("call_3", "19°C")+`}`,
			),
		},
		{
			Rule: RuleAnswersAsked, Name: "a tool result for an id not asked",
			Spec: specMatchingID,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C"), result("zzz", "15°C")),
			),
			Want: []Problem{
				{"/messages/2/content/1/toolUseId", `"zzz" answers no tool use of message 1`},
			},
		},
		{
			Rule: RuleAnswersAsked, Name: "the same id answered twice in one message",
			Spec: specMatchingID,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C"), result("a", "19°C")),
			),
			Want: []Problem{
				{"/messages/2/content/1/toolUseId", `"a" answers a tool use of message 1 that is already answered`},
			},
		},
		{
			Rule: RuleAnswersAsked, Name: "an id of an earlier round answered again",
			Spec: specMatchingID,
			Params: params(
				user(text("Paris, then London.")),
				assistant(use("a", "Paris")),
				user(result("a", "18°C")),
				assistant(use("b", "London")),
				user(result("b", "15°C"), result("a", "18°C")),
			),
			Want: []Problem{
				{"/messages/4/content/1/toolUseId", `"a" answers no tool use of message 3`},
			},
		},
		{
			Rule: RuleAnswersAsked, Name: "a tool result opening the conversation",
			Spec: specMatchingID,
			Params: params(
				`{"role":"user","content":` + result("a", "18°C") + `}`,
			),
			Want: []Problem{
				{"/messages/0/content/toolUseId", `"a" answers no tool use: the message before is not an assistant message with that tool use`},
			},
		},
		{
			Rule: RuleAnswersAsked, Name: "a tool result after an assistant message without tool uses",
			Spec: specMatchingID,
			Params: params(
				user(text("Weather in Paris?")),
				assistant(text("Let me think.")),
				user(result("a", "18°C")),
			),
			Want: []Problem{
				{"/messages/2/content/0/toolUseId", `"a" answers no tool use: the message before is not an assistant message with that tool use`},
			},
		},
	}
}

// severalRulesCases break several rules at once: every problem is reported, in the order of the
// messages.
func severalRulesCases() []Case {
	return []Case{
		{
			Rule: RuleBalance, Name: "every problem of a conversation",
			Spec: specBalance + " " + specToolResultsAlone,
			Params: params(
				user(text("Paris and London?")),
				assistant(use("a", "Paris"), use("b", "London")),
				user(text("Here:"), result("a", "18°C"), result("x", "?")),
				assistant(use("a", "Rome")),
			),
			Want: []Problem{
				{"/messages/2", "a message with tool results must hold only tool results"},
				{"/messages/2/content/2/toolUseId", `"x" answers no tool use of message 1`},
				{"/messages/2", `the tool uses "b" of message 1 are not answered`},
				{"/messages/3/content/0/id", `tool use id "a" is used twice in the conversation`},
				{"/messages", `the tool uses "a" of the last message (3) are not answered`},
			},
		},
	}
}

// noToolsCases are conversations without tools: the rules have nothing to say.
func noToolsCases() []Case {
	return []Case{
		{
			Rule: RuleNoTools, Name: "the spec's basic request",
			Spec:   specNoTools,
			Params: basicRequestExample,
		},
		{
			Rule: RuleNoTools, Name: "a text conversation with an image and audio",
			Spec: specNoTools,
			Params: withoutTools(
				user(text("What is in this picture?"), image()),
				assistant(text("A cat.")),
				user(audio()),
				`{"role":"assistant","content":`+text("Meow.")+`}`,
			),
		},
		{
			Rule: RuleNoTools, Name: "consecutive messages of one role",
			Spec: specNoTools + ` Nothing says that roles alternate.`,
			Params: withoutTools(
				user(text("Hello.")),
				user(text("Are you there?")),
				assistant(text("Yes.")),
				assistant(text("How can I help?")),
			),
		},
		{
			Rule: RuleNoTools, Name: "no messages",
			Spec:   specNoTools + ` schema.ts states no minimum number of messages.`,
			Params: withoutTools(),
		},
		{
			Rule: RuleNoTools, Name: "the spec's text result",
			Spec:   specNoTools,
			Result: createResult("assistant", text("The capital of France is Paris.")),
		},
	}
}

// toolsCapabilityCases are the cases of CheckCapabilities about tools: tools and toolChoice need
// sampling.tools.
func toolsCapabilityCases() []Case {
	return []Case{
		{
			Rule: RuleCapabilities, Name: "tools and toolChoice, sampling.tools declared",
			Spec:   specToolsCapability,
			Params: requestWithToolsExample, Client: `{"sampling":{"tools":{}}}`,
		},
		{
			Rule: RuleCapabilities, Name: "tools and toolChoice, sampling without tools",
			Spec:   specToolsCapability,
			Params: requestWithToolsExample, Client: `{"sampling":{}}`,
			Want: []Problem{
				{"/tools", "the client does not declare the sampling.tools capability"},
				{"/toolChoice", "the client does not declare the sampling.tools capability"},
			},
		},
		{
			Rule: RuleCapabilities, Name: "tools alone, sampling.context but not tools",
			Spec:   specToolsCapability,
			Params: followUpExample, Client: `{"sampling":{"context":{}}}`,
			Want: []Problem{
				{"/tools", "the client does not declare the sampling.tools capability"},
			},
		},
		{
			Rule: RuleCapabilities, Name: "an empty tools array is provided",
			Spec:   specToolsCapability,
			Params: `{"messages":[],"maxTokens":10,"tools":[]}`, Client: `{"sampling":{}}`,
			Want: []Problem{
				{"/tools", "the client does not declare the sampling.tools capability"},
			},
		},
		{
			Rule: RuleCapabilities, Name: "toolChoice none alone",
			Spec:   specToolsCapability,
			Params: `{"messages":[],"maxTokens":10,"toolChoice":{"mode":"none"}}`, Client: `{"sampling":{}}`,
			Want: []Problem{
				{"/toolChoice", "the client does not declare the sampling.tools capability"},
			},
		},
		{
			Rule: RuleCapabilities, Name: "no tools, sampling declared",
			Spec:   specToolsCapability,
			Params: basicRequestExample, Client: `{"sampling":{}}`,
		},
	}
}

// contextCapabilityCases are the cases of CheckCapabilities about the rest: includeContext other
// than "none" needs sampling.context; a client without sampling cannot be asked.
func contextCapabilityCases() []Case {
	return []Case{
		{
			Rule: RuleCapabilities, Name: "includeContext thisServer, sampling.context declared",
			Spec:   specContextCapability,
			Params: `{"messages":[],"maxTokens":10,"includeContext":"thisServer"}`, Client: `{"sampling":{"context":{}}}`,
		},
		{
			Rule: RuleCapabilities, Name: "includeContext allServers, sampling.context not declared",
			Spec:   specContextCapability,
			Params: `{"messages":[],"maxTokens":10,"includeContext":"allServers"}`, Client: `{"sampling":{"tools":{}}}`,
			Want: []Problem{
				{"/includeContext", `"allServers" needs the client's sampling.context capability`},
			},
		},
		{
			Rule: RuleCapabilities, Name: "includeContext none, sampling.context not declared",
			Spec:   specContextCapability,
			Params: `{"messages":[],"maxTokens":10,"includeContext":"none"}`, Client: `{"sampling":{}}`,
		},
		{
			Rule: RuleCapabilities, Name: "tools and includeContext, neither declared",
			Spec:   specToolsCapability + " " + specContextCapability,
			Params: `{"messages":[],"maxTokens":10,"tools":[],"includeContext":"thisServer"}`, Client: `{"sampling":{}}`,
			Want: []Problem{
				{"/tools", "the client does not declare the sampling.tools capability"},
				{"/includeContext", `"thisServer" needs the client's sampling.context capability`},
			},
		},
		{
			Rule: RuleCapabilities, Name: "a client without sampling",
			Spec:   specSamplingCapability,
			Params: basicRequestExample, Client: `{"roots":{}}`,
			Want: []Problem{
				{"", "the client does not declare the sampling capability"},
			},
		},
		{
			Rule: RuleCapabilities, Name: "no client capabilities",
			Spec:   specSamplingCapability,
			Params: basicRequestExample, NoClient: true,
			Want: []Problem{
				{"", "the client does not declare the sampling capability"},
			},
		},
	}
}

// The spec's examples, verbatim (schema/draft/examples/CreateMessageRequestParams).
const (
	basicRequestExample = `{
  "messages": [
    {
      "role": "user",
      "content": {
        "type": "text",
        "text": "What is the capital of France?"
      }
    }
  ],
  "modelPreferences": {
    "hints": [
      {
        "name": "claude-3-sonnet"
      }
    ],
    "intelligencePriority": 0.8,
    "speedPriority": 0.5
  },
  "systemPrompt": "You are a helpful assistant.",
  "maxTokens": 100
}`
	requestWithToolsExample = `{
  "messages": [
    {
      "role": "user",
      "content": {
        "type": "text",
        "text": "What's the weather like in Paris and London?"
      }
    }
  ],
  "tools": [
    {
      "name": "get_weather",
      "description": "Get current weather for a city",
      "inputSchema": {
        "type": "object",
        "properties": {
          "city": {
            "type": "string",
            "description": "City name"
          }
        },
        "required": ["city"]
      }
    }
  ],
  "toolChoice": {
    "mode": "auto"
  },
  "maxTokens": 1000
}`
	followUpExample = `{
  "messages": [
    {
      "role": "user",
      "content": {
        "type": "text",
        "text": "What's the weather like in Paris and London?"
      }
    },
    {
      "role": "assistant",
      "content": [
        {
          "type": "tool_use",
          "id": "call_abc123",
          "name": "get_weather",
          "input": { "city": "Paris" }
        },
        {
          "type": "tool_use",
          "id": "call_def456",
          "name": "get_weather",
          "input": { "city": "London" }
        }
      ]
    },
    {
      "role": "user",
      "content": [
        {
          "type": "tool_result",
          "toolUseId": "call_abc123",
          "content": [
            {
              "type": "text",
              "text": "Weather in Paris: 18°C, partly cloudy"
            }
          ]
        },
        {
          "type": "tool_result",
          "toolUseId": "call_def456",
          "content": [
            {
              "type": "text",
              "text": "Weather in London: 15°C, rainy"
            }
          ]
        }
      ]
    }
  ],
  "tools": [
    {
      "name": "get_weather",
      "description": "Get current weather for a city",
      "inputSchema": {
        "type": "object",
        "properties": {
          "city": { "type": "string" }
        },
        "required": ["city"]
      }
    }
  ],
  "maxTokens": 1000
}`
)

// The JSON of the synthetic cases, built from these parts.

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func text(s string) string { return `{"type":"text","text":` + jsonString(s) + `}` }

func image() string { return `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}` }

func audio() string { return `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}` }

// use is a tool use of get_weather for a city.
func use(id, city string) string {
	return `{"type":"tool_use","id":` + jsonString(id) + `,"name":"get_weather","input":{"city":` + jsonString(city) + `}}`
}

// result is a tool result of one text block.
func result(id, s string) string {
	return `{"type":"tool_result","toolUseId":` + jsonString(id) + `,"content":[` + text(s) + `]}`
}

func list(blocks ...string) string { return "[" + strings.Join(blocks, ",") + "]" }

// user and assistant are messages whose content is an array of blocks.
func user(blocks ...string) string { return `{"role":"user","content":` + list(blocks...) + `}` }

func assistant(blocks ...string) string {
	return `{"role":"assistant","content":` + list(blocks...) + `}`
}

// params is a request with the messages and a tool.
func params(messages ...string) string {
	return `{"messages":` + list(messages...) + `,"maxTokens":1000,"tools":[{"name":"get_weather","inputSchema":{"type":"object"}}]}`
}

// withoutTools is a request with the messages and no tools.
func withoutTools(messages ...string) string {
	return `{"messages":` + list(messages...) + `,"maxTokens":1000}`
}

// createResult is a result of the role and content.
func createResult(role, content string) string {
	return `{"role":` + jsonString(role) + `,"content":` + content + `,"model":"claude-3-sonnet-20240307","stopReason":"toolUse"}`
}
