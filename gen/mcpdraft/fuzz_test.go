package mcpdraft

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

// decoders are the entry points the fuzz target exercises: any message, the typed client and
// server unions, the sampling types, and the message decoders of the protocol layer.
var decoders = []func([]byte) (any, error){
	func(b []byte) (any, error) { return UnmarshalJSONRPCMessage(b) },
	func(b []byte) (any, error) { return UnmarshalClientRequest(b) },
	func(b []byte) (any, error) { return UnmarshalServerNotification(b) },
	func(b []byte) (any, error) { return UnmarshalServerResult(b) },
	func(b []byte) (any, error) { return UnmarshalPrimitiveSchemaDefinition(b) },
	func(b []byte) (any, error) { var v CreateMessageRequestParams; return &v, json.Unmarshal(b, &v) },
	func(b []byte) (any, error) { var v CreateMessageResult; return &v, json.Unmarshal(b, &v) },
	// The protocol layer: a message whose response answers a tools/call (resultType decides).
	func(b []byte) (any, error) { return DecodeServerMessage(b, pendingToolsCall) },
	func(b []byte) (any, error) { return DecodeClientMessage(b, pendingToolsCall) },
	func(b []byte) (any, error) { return UnmarshalAnyResultFor(MethodCallTool, b) },
}

// pendingToolsCall says that every response answers a tools/call.
func pendingToolsCall(RequestID) (string, bool) { return MethodCallTool, true }

// FuzzDecode feeds arbitrary bytes to the generated decoders. Decoding must never panic; whatever
// decodes must encode, and the encoding must decode to the same JSON again.
func FuzzDecode(f *testing.F) {
	files, err := filepath.Glob("../testdata/examples/draft/*/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range decoders {
			f.Add(uint8(i), data)
		}
	}
	// Hostile shapes (see hostile_test.go), small enough to mutate quickly: a duplicate
	// discriminator, nesting, a long member name, escapes in names, a long number and id.
	for _, seed := range []struct {
		which int // the index of the decoder in decoders
		data  string
	}{
		{5, sampling(`{"type":"text","text":"hi","type":"image","data":"AA==","mimeType":"image/png"}`)},
		{5, toolUse(`{"x":` + nestedArrays(64) + `,"\ud83d\ude00":{"t\u0065xt":"\u00e9"}}`)},
		{7, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"structuredContent":` +
			strings.Repeat(`{"a":`, 64) + "1" + strings.Repeat("}", 64) + `,"_meta":{"` + strings.Repeat("k", 300) + `":1}}}`},
		{8, toolsCall(`"`+strings.Repeat("i", 300)+`"`, `"name":"x","arguments":{"n":`+strings.Repeat("9", 40)+`e-30}`)},
	} {
		f.Add(uint8(seed.which), []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		decode := decoders[int(which)%len(decoders)]
		v, err := decode(data)
		if err != nil {
			return
		}
		first, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("decoded %T but cannot encode it: %v", v, err)
		}
		again, err := decode(first)
		if err != nil {
			t.Fatalf("cannot decode its own encoding %s: %v", first, err)
		}
		second, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if err := jsonvalue.Equal(first, second); err != nil {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, first, second)
		}
	})
}

// FuzzDecodeNoCopy holds the decoders that keep their input (UnmarshalNoCopy and the NoCopy
// message decoders) to their copying twins: the same value or the same error, and the input only
// read, whatever it is.
func FuzzDecodeNoCopy(f *testing.F) {
	files, err := filepath.Glob("../testdata/examples/draft/*/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range 3 {
			f.Add(uint8(i), data)
		}
	}
	f.Add(uint8(0), []byte(sampling(`{"type":"text","text":"caf\u00e9 \"q\"\n`+strings.Repeat(`\\`, 600)+`"}`)))
	type pair struct{ copying, noCopy func([]byte) (any, error) }
	pairs := []pair{
		{func(b []byte) (any, error) { var v CreateMessageRequestParams; return &v, Unmarshal(b, &v) },
			func(b []byte) (any, error) { var v CreateMessageRequestParams; return &v, UnmarshalNoCopy(b, &v) }},
		{func(b []byte) (any, error) { return DecodeClientMessage(b, pendingToolsCall) },
			func(b []byte) (any, error) { return DecodeClientMessageNoCopy(b, pendingToolsCall) }},
		{func(b []byte) (any, error) { return DecodeServerMessage(b, pendingToolsCall) },
			func(b []byte) (any, error) { return DecodeServerMessageNoCopy(b, pendingToolsCall) }},
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		p := pairs[int(which)%len(pairs)]
		in := bytes.Clone(data)
		want, wantErr := p.copying(data)
		got, err := p.noCopy(in)
		if !bytes.Equal(in, data) {
			t.Fatalf("the input changed:\n%q\n%q", data, in)
		}
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("got error %v, want %v", err, wantErr)
		}
		if err != nil {
			return
		}
		a, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("got %s\nwant %s", a, b)
		}
	})
}
