package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
)

// Type names the schema declaration a corpus is an instance of. It is also the name of the
// definition in the spec's schema.json that the corpus validates against.
type Type string

// The types of the corpora.
const (
	CreateMessageRequestParams Type = "CreateMessageRequestParams"
	CreateMessageResult        Type = "CreateMessageResult"
	ListToolsResult            Type = "ListToolsResult"
	CallToolResult             Type = "CallToolResult"
)

// A Corpus is one JSON document that the benchmarks decode and encode.
type Corpus struct {
	// Name is the benchmark name of the corpus.
	Name string
	// Type is the schema declaration the document is an instance of.
	Type Type
	// Source says where the document comes from: a file of the vendored draft examples, or the
	// shape it was constructed with.
	Source string
	// Data is the document, exactly as the decoders see it.
	Data []byte
}

// The shapes of the constructed corpora.
var (
	// SamplingShape is the constructed sampling request: a 40-message conversation with tools.
	SamplingShape = Shape{Messages: 40, Tools: 25, Properties: 10}
	// ToolCount is the number of tools of the constructed tools/list result.
	ToolCount = 200
)

// examples lists the example files of the vendored draft spec that are corpora, by name.
var examples = []struct{ name, path string }{
	{"sampling-example", "CreateMessageRequestParams/request-with-tools.json"},
	{"tool-use-result", "CreateMessageResult/tool-use-response.json"},
	{"call-tool-result", "CallToolResult/result-with-structured-content.json"},
}

// Corpora returns the corpora of the benchmark, in the order of its tables. root is the
// repository's root directory: the examples are read from root/schema/draft/examples; the other
// corpora are constructed (see [SamplingRequest] and [ToolsList]).
func Corpora(root string) ([]Corpus, error) {
	read := func(name, path string) (Corpus, error) {
		file := filepath.Join(root, "schema", "draft", "examples", filepath.FromSlash(path))
		data, err := os.ReadFile(file)
		if err != nil {
			return Corpus{}, err
		}
		if !json.Valid(data) {
			return Corpus{}, fmt.Errorf("%s: not valid JSON", file)
		}
		return Corpus{
			Name:   name,
			Type:   Type(filepath.Dir(path)),
			Source: "schema/draft/examples/" + path,
			Data:   data,
		}, nil
	}
	var out []Corpus
	for i, ex := range examples {
		c, err := read(ex.name, ex.path)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		switch i {
		case 0:
			out = append(out, Corpus{
				Name:   "sampling-40msg",
				Type:   CreateMessageRequestParams,
				Source: fmt.Sprintf("constructed: %v", SamplingShape),
				Data:   SamplingRequest(SamplingShape),
			})
		case 1:
			out = append(out, Corpus{
				Name:   "tools-list-200",
				Type:   ListToolsResult,
				Source: fmt.Sprintf("constructed: %d tools", ToolCount),
				Data:   ToolsList(ToolCount),
			})
		}
	}
	return out, nil
}

// ScaleSizes are the target sizes, in bytes, of the scaling series: half decades from 1 KB to
// 10 MB.
var ScaleSizes = []int{
	1 << 10, 3 << 10, 10 << 10, 30 << 10, 100 << 10, 300 << 10, 1 << 20, 3 << 20, 10 << 20,
}

// ScaleSeries returns the scaling series: for every size of [ScaleSizes], the sampling request
// of about that size of [SamplingRequestOfSize]. Each corpus is named "size=" and the target
// size ("size=1KB", "size=10MB"); its Data has the exact size.
//
// The series is built once (it takes seconds) and shared: callers must not modify it.
var ScaleSeries = sync.OnceValue(scaleSeries)

func scaleSeries() []Corpus {
	out := make([]Corpus, 0, len(ScaleSizes))
	for _, size := range ScaleSizes {
		shape, data := SamplingRequestOfSize(size)
		out = append(out, Corpus{
			Name:   "size=" + SizeName(size),
			Type:   CreateMessageRequestParams,
			Source: fmt.Sprintf("constructed: %v", shape),
			Data:   data,
		})
	}
	return out
}

// SizeName writes a size in bytes the way the scaling series names it: 1KB, 300KB, 10MB.
func SizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// SamplingRequestOfSize returns a sampling request of the proportions of [SamplingShape] (25 tools
// for 40 messages) and of about size bytes, and its shape: its message count is to 40 as size is
// to the size of the request of [SamplingShape]. (The size grows with the count, almost in
// proportion; a search for the exact count would write many requests of up to 10 MB.)
func SamplingRequestOfSize(size int) (Shape, []byte) {
	perMessage := float64(len(SamplingRequest(SamplingShape))) / float64(SamplingShape.Messages)
	messages := max(1, int(math.Round(float64(size)/perMessage)))
	shape := Shape{
		Messages:   messages,
		Tools:      messages * SamplingShape.Tools / SamplingShape.Messages,
		Properties: SamplingShape.Properties,
	}
	return shape, SamplingRequest(shape)
}

// Compact returns data without insignificant white space: the bytes an encoder of the value
// writes, up to the order of object members.
func Compact(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
