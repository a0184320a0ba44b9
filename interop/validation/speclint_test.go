//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and its rules are what this test holds alike

package validation

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/mcpgen/mcpgen/internal/speclint"
)

// TestSpecLintSamplingRules holds the sampling rules of mcpgen -lint-spec, which read an
// example's JSON, to the generated validators', which run on generated types
// (templates/parts): on random conversations of tool uses and tool results, both find problems
// in the same requests and results, at the same JSON pointers.
func TestSpecLintSamplingRules(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "schema", "draft", "schema.ts"))
	if err != nil {
		t.Fatal(err)
	}
	repo := fstest.MapFS{"schema/draft/schema.ts": &fstest.MapFile{Data: src}}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1500
	docs := map[string][]byte{}
	for i := range n {
		typ, doc := "CreateMessageRequestParams", conversation(rng)
		if i%4 == 0 {
			typ, doc = "CreateMessageResult", samplingResult(rng)
		}
		file := fmt.Sprintf("schema/draft/examples/%s/%04d.json", typ, i)
		repo[file] = &fstest.MapFile{Data: doc}
		docs[file] = doc
	}
	r, err := speclint.Lint(repo)
	if err != nil {
		t.Fatal(err)
	}
	lint := map[string][]string{}
	for _, f := range r.Findings {
		if f.Kind == speclint.Example {
			lint[f.Pos.File] = append(lint[f.Pos.File], f.Subject)
		}
	}
	invalid := 0
	for file, doc := range docs {
		ours := generated(t, file, doc)
		theirs := slices.Compact(slices.Sorted(slices.Values(lint[file])))
		if !slices.Equal(ours, theirs) {
			t.Errorf("%s: the generated validators report %q, -lint-spec %q\n%s", file, ours, theirs, doc)
		}
		if len(ours) > 0 {
			invalid++
		}
	}
	t.Logf("%d random sampling documents, %d with problems, judged alike", n, invalid)
	if invalid < n/4 || invalid > n*3/4 {
		t.Errorf("%d of %d documents have problems: the generator of conversations tests too little", invalid, n)
	}
}

// generated returns the sorted JSON pointers of the problems that the generated package finds in
// doc ("(root)" for the value itself).
func generated(t *testing.T, file string, doc []byte) []string {
	var v interface{ Validate() error }
	if strings.Contains(file, "CreateMessageResult") {
		v = new(mcpdraft.CreateMessageResult)
	} else {
		v = new(mcpdraft.CreateMessageRequestParams)
	}
	if err := json.Unmarshal(doc, v); err != nil {
		t.Fatalf("%s: the generator of conversations wrote a document that does not decode: %v", file, err)
	}
	err := v.Validate()
	if err == nil {
		return nil
	}
	verr, ok := err.(*mcpdraft.ValidationError)
	if !ok {
		t.Fatalf("%s: %v", file, err)
	}
	var out []string
	for _, p := range verr.Problems {
		if p.Pointer == "" {
			p.Pointer = "(root)"
		}
		out = append(out, p.Pointer)
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

// conversation writes a sampling request: a tool loop of one to three rounds (a user's text, an
// assistant's text and tool uses, the user's tool results for them in any order, single blocks
// or lists), of which two in three get one mistake: a role swapped, a tool use id used again, a
// result dropped or answering another id, a text among the results, a stray result.
func conversation(rng *rand.Rand) []byte {
	var messages []map[string]any
	next := 0
	for range 1 + rng.IntN(3) {
		messages = append(messages, message("user", text()))
		var uses, results []any
		for range rng.IntN(3) {
			id := fmt.Sprintf("t%d", next)
			next++
			uses = append(uses, toolUse(id))
			results = append(results, toolResult(id))
		}
		if len(uses) == 0 {
			messages = append(messages, message("assistant", text()))
			continue
		}
		rng.Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
		messages = append(messages, message("assistant", append([]any{text()}, uses...)...), message("user", results...))
	}
	if rng.IntN(3) > 0 {
		mistake(rng, messages)
	}
	data, _ := json.Marshal(map[string]any{"messages": messages, "maxTokens": 100})
	return data
}

// mistake makes one mistake in a conversation.
func mistake(rng *rand.Rand, messages []map[string]any) {
	m := messages[rng.IntN(len(messages))]
	blocks := m["content"].([]any)
	b := blocks[rng.IntN(len(blocks))].(map[string]any)
	switch rng.IntN(6) {
	case 0:
		m["role"] = map[string]string{"user": "assistant", "assistant": "user"}[m["role"].(string)]
	case 1:
		if b["type"] == "tool_use" {
			b["id"] = "t0"
		}
	case 2:
		if len(blocks) > 1 {
			m["content"] = blocks[1:]
		}
	case 3:
		if b["type"] == "tool_result" {
			b["toolUseId"] = "t9"
		}
	case 4:
		m["content"] = append(blocks, text())
	case 5:
		m["content"] = append(blocks, toolResult("t0"))
	}
	if len(m["content"].([]any)) == 1 && rng.IntN(2) == 0 {
		m["content"] = m["content"].([]any)[0] // a single block
	}
}

func samplingResult(rng *rand.Rand) []byte {
	blocks := []any{text(), toolUse("a"), toolUse("b"), toolResult("a")}
	rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	m := message([]string{"user", "assistant"}[rng.IntN(2)], blocks[:1+rng.IntN(2)]...)
	m["model"] = "m"
	data, _ := json.Marshal(m)
	return data
}

func message(role string, blocks ...any) map[string]any {
	return map[string]any{"role": role, "content": blocks}
}

func text() any { return map[string]any{"type": "text", "text": "x"} }

func toolUse(id string) any {
	return map[string]any{"type": "tool_use", "id": id, "name": "f", "input": map[string]any{}}
}

func toolResult(id string) any {
	return map[string]any{"type": "tool_result", "toolUseId": id, "content": []any{}}
}
