package mcpdraft

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// The benchmarks decode and encode the draft's sampling request example with the generated
// codecs, next to encoding/json on map[string]any, the representation SDKs fall back to when
// they do not type a message. Compare them in one run:
//
//	go test -run '^$' -bench . ./mcpdraft
//
// They loop on b.N, not b.Loop, which needs Go 1.24: the gen module builds and tests with Go 1.23
// (its go directive).

func example(b *testing.B) []byte {
	data, err := os.ReadFile("../testdata/examples/draft/CreateMessageRequest/sampling-request.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return data
}

func BenchmarkDecodeGenerated(b *testing.B) {
	data := example(b)
	b.ResetTimer()
	for range b.N {
		var v CreateMessageRequest
		if err := v.UnmarshalJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStdlibMap(b *testing.B) {
	data := example(b)
	b.ResetTimer()
	for range b.N {
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeGenerated(b *testing.B) {
	data := example(b)
	var v CreateMessageRequest
	if err := v.UnmarshalJSON(data); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := v.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeStdlibMap(b *testing.B) {
	data := example(b)
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidation measures what validation adds to decoding, on three sampling requests: the
// draft's CreateMessageRequest example (one text message), its follow-up request with tool
// results (CreateMessageRequestParams: two parallel tool uses and their results, the sampling
// rules at work), and a tool loop of 10 such rounds. For each: decode alone, Validate alone
// (the sampling rules included), the sampling rules alone, and Unmarshal (decode and validate).
//
//	go test -run '^$' -bench Validation ./mcpdraft
func BenchmarkValidation(b *testing.B) {
	followUp, err := os.ReadFile("../testdata/examples/draft/CreateMessageRequestParams/follow-up-with-tool-results.json")
	if err != nil {
		b.Fatal(err)
	}
	request, err := os.ReadFile("../testdata/examples/draft/CreateMessageRequest/sampling-request.json")
	if err != nil {
		b.Fatal(err)
	}
	type message interface {
		UnmarshalJSON([]byte) error
		Validate() error
	}
	for _, bm := range []struct {
		name string
		data []byte
		new  func() message
	}{
		{"sampling-request", request, func() message { return new(CreateMessageRequest) }},
		{"follow-up-with-tool-results", followUp, func() message { return new(CreateMessageRequestParams) }},
		{"tool-loop-10-rounds", toolLoop(10), func() message { return new(CreateMessageRequestParams) }},
	} {
		v := bm.new()
		if err := Unmarshal(bm.data, v); err != nil {
			b.Fatal(err)
		}
		run := func(name string, f func() error) {
			b.Run(bm.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(bm.data)))
				b.ReportAllocs()
				for range b.N {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		run("decode", func() error { return bm.new().UnmarshalJSON(bm.data) })
		run("validate", v.Validate)
		if p, ok := v.(*CreateMessageRequestParams); ok {
			run("rules", func() error {
				var c validator
				p.validateRules(&c)
				return c.err()
			})
		}
		run("decode+validate", func() error { return Unmarshal(bm.data, bm.new()) })
	}
}

// toolLoop is the JSON of a CreateMessageRequestParams with a question and the given number of
// rounds of two parallel tool uses, their results and the assistant's text.
func toolLoop(rounds int) []byte {
	messages := []SamplingMessage{{Role: RoleUser, Content: NewSamplingMessageContent(&TextContent{Text: "Compare the weather of these cities."})}}
	for i := range rounds {
		a, b := fmt.Sprintf("call_%d_a", i), fmt.Sprintf("call_%d_b", i)
		city := json.RawMessage(`"Paris"`)
		messages = append(messages,
			SamplingMessage{Role: RoleAssistant, Content: NewSamplingMessageContentList(
				&TextContent{Text: "Let me look these up."},
				&ToolUseContent{ID: a, Name: "get_weather", Input: map[string]json.RawMessage{"city": city}},
				&ToolUseContent{ID: b, Name: "get_weather", Input: map[string]json.RawMessage{"city": city}},
			)},
			SamplingMessage{Role: RoleUser, Content: NewSamplingMessageContentList(
				&ToolResultContent{ToolUseID: b, Content: []ContentBlock{&TextContent{Text: "15°C, rainy"}}},
				&ToolResultContent{ToolUseID: a, Content: []ContentBlock{&TextContent{Text: "18°C, partly cloudy"}}},
			)},
			SamplingMessage{Role: RoleAssistant, Content: NewSamplingMessageContent(&TextContent{Text: "Paris is warmer."})},
			SamplingMessage{Role: RoleUser, Content: NewSamplingMessageContent(&TextContent{Text: "And now?"})},
		)
	}
	data, err := Marshal(&CreateMessageRequestParams{Messages: messages, MaxTokens: 1000})
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkDecodeServerMessage decodes the same request as a message of the server, as a peer's
// transport does: the message's kind is read first (a pass over the whole message), then the
// request.
func BenchmarkDecodeServerMessage(b *testing.B) {
	data := example(b)
	b.ResetTimer()
	for range b.N {
		if _, err := DecodeServerMessage(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}
