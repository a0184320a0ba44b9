package bench

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The constructed corpora are written by the code below, deterministically (a fixed-seed
// generator of its own, so the bytes do not change with the Go release), through encoding/json on
// wire structs of this file: no contender's types take part in building them.
//
// They follow the conventions of the spec's own examples: a message holding one content block
// holds it as an object, and an array only when there are several (parallel tool uses and their
// results, text next to a tool use); an optional member appears only when it says something
// (isError only when true). Tool annotations are written the way the official Go SDK writes them
// (readOnlyHint and idempotentHint always present). Whether a contender holds them is decided by
// the round-trip check, not assumed.

// A Shape is the size of a constructed sampling request.
type Shape struct {
	// Messages is the number of messages of the conversation.
	Messages int
	// Tools is the number of tools offered to the model.
	Tools int
	// Properties is the number of properties of each tool's input schema.
	Properties int
}

func (s Shape) String() string {
	return fmt.Sprintf("%d messages, %d tools of %d-property input schemas", s.Messages, s.Tools, s.Properties)
}

// Wire shapes of the constructed documents. Members are in the order of the spec's examples.
type (
	samplingRequest struct {
		Messages         []message         `json:"messages"`
		ModelPreferences *modelPreferences `json:"modelPreferences,omitempty"`
		SystemPrompt     string            `json:"systemPrompt,omitempty"`
		Temperature      float64           `json:"temperature,omitempty"`
		MaxTokens        int               `json:"maxTokens"`
		StopSequences    []string          `json:"stopSequences,omitempty"`
		Tools            []tool            `json:"tools,omitempty"`
		ToolChoice       *toolChoice       `json:"toolChoice,omitempty"`
	}
	modelPreferences struct {
		Hints                []modelHint `json:"hints"`
		IntelligencePriority float64     `json:"intelligencePriority"`
		SpeedPriority        float64     `json:"speedPriority"`
	}
	modelHint struct {
		Name string `json:"name"`
	}
	toolChoice struct {
		Mode string `json:"mode"`
	}
	message struct {
		Role string `json:"role"`
		// Content is one block, or a []any of several.
		Content any `json:"content"`
	}
	textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	toolUseBlock struct {
		Type  string         `json:"type"`
		ID    string         `json:"id"`
		Name  string         `json:"name"`
		Input map[string]any `json:"input"`
	}
	toolResultBlock struct {
		Type              string      `json:"type"`
		ToolUseID         string      `json:"toolUseId"`
		Content           []textBlock `json:"content"`
		StructuredContent any         `json:"structuredContent,omitempty"`
		IsError           bool        `json:"isError,omitempty"`
	}
	tool struct {
		Name         string          `json:"name"`
		Title        string          `json:"title,omitempty"`
		Description  string          `json:"description,omitempty"`
		InputSchema  objectSchema    `json:"inputSchema"`
		OutputSchema *objectSchema   `json:"outputSchema,omitempty"`
		Annotations  *toolAnnotation `json:"annotations,omitempty"`
	}
	objectSchema struct {
		Type                 string                    `json:"type"`
		Properties           map[string]map[string]any `json:"properties"`
		Required             []string                  `json:"required,omitempty"`
		AdditionalProperties *bool                     `json:"additionalProperties,omitempty"`
	}
	toolAnnotation struct {
		Title           string `json:"title,omitempty"`
		ReadOnlyHint    bool   `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint,omitempty"`
		IdempotentHint  bool   `json:"idempotentHint"`
		OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	}
	toolsList struct {
		ResultType string `json:"resultType"`
		Tools      []tool `json:"tools"`
		NextCursor string `json:"nextCursor,omitempty"`
		TTLMs      int    `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
	}
)

// SamplingRequest returns a sampling/createMessage request's params (the draft's
// CreateMessageRequestParams) of the given shape: a conversation of turns in which the user
// asks, the assistant calls tools (sometimes several in parallel, sometimes after a sentence of
// text), the user returns their results (some with structuredContent, a few errors), and the
// assistant answers. It never ends on an unanswered tool use, so it keeps the spec's sampling
// rules at every size.
func SamplingRequest(s Shape) []byte {
	tools := make([]tool, s.Tools)
	for i := range tools {
		tools[i] = newTool(i, s.Properties, false)
	}
	req := samplingRequest{
		Messages: conversation(s.Messages, tools),
		ModelPreferences: &modelPreferences{
			Hints:                []modelHint{{"claude-sonnet"}, {"gpt-4o"}},
			IntelligencePriority: 0.8,
			SpeedPriority:        0.4,
		},
		SystemPrompt: "You are an operations assistant. Use the tools to look things up before " +
			"answering; never invent identifiers. Answer in the user's language.",
		Temperature: 0.7,
		MaxTokens:   4096,
		Tools:       tools,
	}
	if s.Tools > 0 {
		req.ToolChoice = &toolChoice{Mode: "auto"}
	}
	return marshal(req)
}

// ToolsList returns a tools/list result (the draft's ListToolsResult) of n tools, as a server
// would send it: input schemas of 4 to 12 properties, annotations on every tool, an output schema
// on every third.
func ToolsList(n int) []byte {
	res := toolsList{ResultType: "complete", TTLMs: 300000, CacheScope: "public"}
	for i := range n {
		res.Tools = append(res.Tools, newTool(i, 4+i*7%9, true))
	}
	res.NextCursor = fmt.Sprintf("eyJvZmZzZXQiOiAlZH0=%d", n)
	return marshal(res)
}

func marshal(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // the wire shapes above always encode
	}
	return data
}

// gen is a deterministic source of pseudo-random choices (splitmix64).
type gen struct{ state uint64 }

func newGen(seed uint64) *gen { return &gen{state: seed ^ 0x9e3779b97f4a7c15} }

func (g *gen) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (g *gen) intn(n int) int { return int(g.next() % uint64(n)) }

func pick[T any](g *gen, xs []T) T { return xs[g.intn(len(xs))] }

var (
	verbs = []string{"get", "list", "search", "create", "update", "delete", "summarize",
		"translate", "schedule", "export"}
	nouns = []string{"weather", "calendar_event", "issue", "pull_request", "invoice",
		"customer", "ticket", "document", "email", "deployment", "metric", "alert", "order",
		"shipment", "contract", "meeting", "repository", "build", "incident", "report"}
	words = strings.Fields(`the a of to and in for on with by from at as is are was be this that
		it its latest current previous next region account service status value total average
		daily weekly quarter customer order invoice ticket issue build deploy release branch
		report metric alert incident shipment contract meeting summary result error timeout
		request response cache latency throughput budget forecast revenue usage limit quota
		Paris London Berlin Tokyo café naïve résumé über`)
	propNames = strings.Fields(`query city region account_id customer_id status limit offset
		since until sort_by order labels assignee priority currency amount due_date timezone
		format language include_archived page_size tags owner channel severity environment`)
	propTypes = []string{"string", "string", "string", "integer", "number", "boolean", "array", "enum"}
)

// text returns n words of prose, now and then with a quotation, a line break or a non-ASCII
// character, as model and user text has.
func (g *gen) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			switch g.intn(24) {
			case 0:
				b.WriteString(".\n\n")
			case 1:
				b.WriteString(", ")
			default:
				b.WriteByte(' ')
			}
		}
		w := pick(g, words)
		switch g.intn(40) {
		case 0:
			w = `"` + w + `"`
		case 1:
			w += " →"
		case 2:
			w = "`" + w + "`"
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

// newTool returns tool i of a list: the same for every list that has it.
func newTool(i, properties int, annotated bool) tool {
	g := newGen(uint64(i) + 1<<40)
	verb, noun := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
	name := verb + "_" + noun
	if i >= len(verbs)*len(nouns) {
		name = fmt.Sprintf("%s_%d", name, i/(len(verbs)*len(nouns)))
	}
	t := tool{
		Name:        name,
		Description: strings.ToUpper(verb[:1]) + verb[1:] + " " + strings.ReplaceAll(noun, "_", " ") + " records. " + g.text(8+g.intn(12)),
		InputSchema: g.objectSchema(properties),
	}
	if i%2 == 0 {
		t.Title = strings.ToUpper(verb[:1]) + verb[1:] + " " + strings.ReplaceAll(noun, "_", " ")
	}
	if annotated {
		readOnly := verb == "get" || verb == "list" || verb == "search" || verb == "summarize"
		t.Annotations = &toolAnnotation{ReadOnlyHint: readOnly, IdempotentHint: readOnly || verb == "update"}
		if !readOnly {
			destructive := verb == "delete" || verb == "update"
			t.Annotations.DestructiveHint = &destructive
		}
		if i%4 == 1 {
			open := noun == "weather" || noun == "email"
			t.Annotations.OpenWorldHint = &open
		}
		if i%3 == 0 {
			out := g.objectSchema(3 + g.intn(4))
			t.OutputSchema = &out
		}
	}
	return t
}

func (g *gen) objectSchema(properties int) objectSchema {
	s := objectSchema{Type: "object", Properties: map[string]map[string]any{}}
	for j := range properties {
		name := fmt.Sprintf("%s_%d", pick(g, propNames), j)
		p := map[string]any{"description": g.text(3 + g.intn(6))}
		switch typ := pick(g, propTypes); typ {
		case "enum":
			p["type"] = "string"
			p["enum"] = []string{"asc", "desc", "relevance"}
		case "array":
			p["type"] = "array"
			p["items"] = map[string]any{"type": "string"}
		case "integer":
			p["type"] = typ
			p["minimum"] = 0
			p["maximum"] = 1000
		default:
			p["type"] = typ
		}
		s.Properties[name] = p
		if j < 2 || g.intn(4) == 0 {
			s.Required = append(s.Required, name)
		}
	}
	no := false
	s.AdditionalProperties = &no
	return s
}

// input returns arguments for a tool: its required properties and some of the others.
func (g *gen) input(t tool) map[string]any {
	in := map[string]any{}
	required := map[string]bool{}
	for _, r := range t.InputSchema.Required {
		required[r] = true
	}
	for _, name := range slices.Sorted(maps.Keys(t.InputSchema.Properties)) {
		p := t.InputSchema.Properties[name]
		if !required[name] && g.intn(3) != 0 {
			continue
		}
		switch p["type"] {
		case "integer":
			in[name] = g.intn(1000)
		case "number":
			in[name] = float64(g.intn(100000)) / 100
		case "boolean":
			in[name] = g.intn(2) == 0
		case "array":
			in[name] = []string{pick(g, words), pick(g, words)}
		default:
			if enum, ok := p["enum"].([]string); ok {
				in[name] = pick(g, enum)
			} else {
				in[name] = g.text(1 + g.intn(4))
			}
		}
	}
	return in
}

// structured returns the structured result of a tool call: a record with a nested list.
func (g *gen) structured(id int) map[string]any {
	items := make([]map[string]any, 1+g.intn(4))
	for i := range items {
		items[i] = map[string]any{
			"id":      fmt.Sprintf("rec_%d_%d", id, i),
			"label":   g.text(2 + g.intn(4)),
			"value":   float64(g.intn(1000000)) / 100,
			"updated": fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00Z", 1+g.intn(12), 1+g.intn(28), g.intn(24), g.intn(60)),
		}
	}
	return map[string]any{"count": len(items), "items": items, "complete": g.intn(5) != 0}
}

// conversation returns n messages. A turn is: the user asks; one to three rounds of the
// assistant calling tools (one to three in parallel) and the user returning every result; the
// assistant answers. The last message is never an unanswered tool use.
//
// The messages of a shorter conversation begin every longer one (each tool call draws its
// arguments and result from a generator of its own), so the size of a request grows steadily
// with its shape.
func conversation(n int, tools []tool) []message {
	g := newGen(1)
	var msgs []message
	calls := 0
	add := func(m message) bool {
		if len(msgs) == n {
			return false
		}
		msgs = append(msgs, m)
		return true
	}
	for turn := 0; len(msgs) < n; turn++ {
		words := 10 + g.intn(40)
		if turn == 0 {
			words = 130
		}
		if !add(message{Role: "user", Content: textBlock{"text", g.text(words)}}) {
			break
		}
		rounds := 1 + g.intn(3)
		if len(tools) == 0 {
			rounds = 0
		}
		for range rounds {
			if len(msgs)+2 > n {
				break // no room for both the tool use and its result
			}
			parallel := 1
			if g.intn(3) == 0 {
				parallel = 2 + g.intn(2)
			}
			var uses, results []any
			if g.intn(4) == 0 {
				uses = append(uses, textBlock{"text", g.text(8 + g.intn(20))})
			}
			for range parallel {
				calls++
				u, r := call(calls, tools[g.intn(len(tools))])
				uses = append(uses, u)
				results = append(results, r)
			}
			add(message{Role: "assistant", Content: oneOrMany(uses)})
			add(message{Role: "user", Content: oneOrMany(results)})
		}
		add(message{Role: "assistant", Content: textBlock{"text", g.text(30 + g.intn(90))}})
	}
	return msgs
}

// call returns the tool use and the result of the i-th call of a conversation, to tool t.
func call(i int, t tool) (toolUseBlock, toolResultBlock) {
	g := newGen(uint64(i) + 1<<50)
	id := fmt.Sprintf("toolu_%04d_%06x", i, g.next()&0xffffff)
	u := toolUseBlock{"tool_use", id, t.Name, g.input(t)}
	r := toolResultBlock{Type: "tool_result", ToolUseID: id}
	switch k := g.intn(10); {
	case k == 0:
		r.IsError = true
		r.Content = []textBlock{{"text", "Error: " + g.text(10)}}
	case k < 5:
		sc := g.structured(i)
		r.StructuredContent = sc
		r.Content = []textBlock{{"text", string(marshal(sc))}}
	default:
		r.Content = []textBlock{{"text", g.text(20 + g.intn(80))}}
	}
	return u, r
}

// oneOrMany returns the only block of blocks, or all of them: the form the spec's examples use.
func oneOrMany(blocks []any) any {
	if len(blocks) == 1 {
		return blocks[0]
	}
	return blocks
}
