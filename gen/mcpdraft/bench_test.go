package mcpdraft

import (
	"encoding/json"
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
