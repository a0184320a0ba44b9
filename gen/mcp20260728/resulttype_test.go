package mcp20260728

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

// The examples of this version's schema, for the bodies of the results.
const examplesDir = "../testdata/examples/" + SchemaVersion

// resultTypeCase is one value of resultType and what a result holding it decodes to.
type resultTypeCase struct {
	name       string
	resultType string                                // "" leaves resultType out
	want       func(method MethodInfo) (any, string) // the variant's type (nil for an error), or the error's text
}

// resultTypeCases are the four kinds of resultType of basic/index.mdx (2026-07-28): "complete" (the
// method's result), absent, "input_required" (an InputRequiredResult where the method may be
// answered so, multi round-trip requests), and a value the client does not recognize (the
// Unknown variant, which keeps the JSON: it "MUST be considered invalid", and Validate says so).
var resultTypeCases = []resultTypeCase{
	{"complete", "complete", func(m MethodInfo) (any, string) { return m.Results[0], "" }},
	// The spec: "clients MUST treat an absent resultType as "complete"" (for results of servers of
	// earlier versions). The result decodes with ResultType empty, which stands for "complete":
	// encoding writes resultType "complete" (so the JSON gains that member).
	{"absent", "", func(m MethodInfo) (any, string) { return m.Results[0], "" }},
	{"input_required", "input_required", func(m MethodInfo) (any, string) {
		if m.InputRequired {
			return reflect.TypeFor[*InputRequiredResult](), ""
		}
		return nil, `result type "input_required" does not answer "` + m.Method + `"`
	}},
	{"unknown", "x-future-kind", func(MethodInfo) (any, string) { return "unknown", "" }},
}

// TestResultType decodes, for every request a client sends, the first example of the spec for the
// method's result with resultType set to each case, through UnmarshalServerResultFor,
// UnmarshalAnyResultFor and DecodeServerMessage (the method given by the pending request). A
// decoded result must have the expected type, validate (the Unknown variant aside, which must not)
// and encode back to the same JSON.
func TestResultType(t *testing.T) {
	n := 0
	for _, m := range Methods {
		if !m.FromClient || m.Notification {
			continue
		}
		if got, want := m.InputRequired, slices.Contains(m.Results, reflect.TypeFor[*InputRequiredResult]()); got != want {
			t.Errorf("%s: InputRequired is %v, but InputRequiredResult in Results is %v", m.Method, got, want)
		}
		example := firstExample(t, m.Results[0].Elem().Name())
		for _, c := range resultTypeCases {
			body := withResultType(t, example, c.resultType, m.InputRequired)
			back := body // the JSON the decoded result encodes to
			if c.resultType == "" {
				back = withResultType(t, example, "complete", m.InputRequired)
			}
			want, wantErr := c.want(m)
			t.Run(m.Method+"/"+c.name, func(t *testing.T) {
				n++
				r1, err1 := UnmarshalServerResultFor(m.Method, body)
				checkResult(t, "UnmarshalServerResultFor", r1, err1, back, want, wantErr, reflect.TypeFor[*UnknownServerResult]())
				r2, err2 := UnmarshalAnyResultFor(m.Method, body)
				checkResult(t, "UnmarshalAnyResultFor", r2, err2, back, want, wantErr, reflect.TypeFor[*UnknownAnyResult]())
				msg := []byte(`{"jsonrpc":"2.0","id":"r1","result":` + string(body) + `}`)
				var p Pending
				p.Add(RequestIDString("r1"), m.Method)
				decoded, err3 := DecodeServerMessage(msg, p.Take)
				var r3 AnyResult
				if resp, ok := decoded.(*JSONRPCResultResponse); ok {
					r3 = resp.Result
					msgBack := []byte(`{"jsonrpc":"2.0","id":"r1","result":` + string(back) + `}`)
					if err := jsonvalue.Equal(msgBack, mustMarshal(t, resp)); err != nil {
						t.Errorf("DecodeServerMessage: the response encodes back differently: %v", err)
					}
				} else if err3 == nil {
					t.Fatalf("DecodeServerMessage gave a %T", decoded)
				}
				if p.Len() != 0 {
					t.Errorf("DecodeServerMessage left the request pending")
				}
				checkResult(t, "DecodeServerMessage", r3, err3, back, want, wantErr, reflect.TypeFor[*UnknownAnyResult]())
			})
		}
	}
	if n < 4*10 {
		t.Errorf("%d cases, want the four kinds of resultType for each of the ten methods a server answers", n)
	}
}

// TestInputRequiredResultNullContent: a tools/call result with
// resultType "input_required" and "content": null (a server that reuses CallToolResult for both)
// is the InputRequiredResult, not a *CallToolResult that fails on content.
func TestInputRequiredResultNullContent(t *testing.T) {
	body := []byte(`{"resultType":"input_required","content":null,"requestState":"s","inputRequests":{"ask":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}}}`)
	for name, decode := range map[string]func() (any, error){
		"UnmarshalServerResultFor": func() (any, error) { return UnmarshalServerResultFor(MethodCallTool, body) },
		"UnmarshalAnyResultFor":    func() (any, error) { return UnmarshalAnyResultFor(MethodCallTool, body) },
	} {
		v, err := decode()
		r, ok := v.(*InputRequiredResult)
		if err != nil || !ok {
			t.Fatalf("%s: %T, %v; want *InputRequiredResult", name, v, err)
		}
		if r.RequestState == nil || *r.RequestState != "s" || string(r.Extra["content"]) != "null" {
			t.Errorf("%s: requestState %v, extra %v", name, r.RequestState, r.Extra)
		}
		if req, ok := r.InputRequests["ask"].(*CreateMessageRequest); !ok || req.Params.MaxTokens != 10 {
			t.Errorf("%s: inputRequests[ask] is %T, want the *CreateMessageRequest", name, r.InputRequests["ask"])
		}
		if err := jsonvalue.Equal(body, mustMarshal(t, r)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// checkResult checks one decoding of a result: an error containing wantErr, or a value of the
// wanted type (want is a reflect.Type, or "unknown" for the decoder's Unknown variant) that
// validates (the Unknown variant must not) and encodes to back.
func checkResult(t *testing.T, how string, got any, err error, back []byte, want any, wantErr string, unknown reflect.Type) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: %T, %v; want an error saying %s", how, got, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v", how, err)
		return
	}
	wantType, _ := want.(reflect.Type)
	if want == "unknown" {
		wantType = unknown
	}
	if reflect.TypeOf(got) != wantType {
		t.Errorf("%s: %T, want %v", how, got, wantType)
		return
	}
	verr := got.(interface{ Validate() error }).Validate()
	switch {
	case want == "unknown" && verr == nil:
		t.Errorf("%s: Validate accepts the Unknown variant %s", how, back)
	case want != "unknown" && verr != nil:
		t.Errorf("%s: Validate: %v", how, verr)
	}
	if err := jsonvalue.Equal(back, mustMarshal(t, got)); err != nil {
		t.Errorf("%s: encodes back differently: %v", how, err)
	}
}

// firstExample returns the first example of a result type, as a JSON object.
func firstExample(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, name, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example of %s in %s", name, examplesDir)
	}
	slices.Sort(files)
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	return obj
}

// withResultType returns the example with resultType set (or removed for ""); an
// input_required result also gets a requestState, as the spec requires one of requestState and
// inputRequests.
func withResultType(t *testing.T, example map[string]json.RawMessage, resultType string, inputRequired bool) []byte {
	t.Helper()
	obj := map[string]json.RawMessage{}
	for k, v := range example {
		obj[k] = v
	}
	delete(obj, "resultType")
	if resultType != "" {
		obj["resultType"] = mustMarshal(t, resultType)
	}
	if resultType == "input_required" && inputRequired {
		obj["requestState"] = json.RawMessage(`"opaque-state"`)
	}
	return mustMarshal(t, obj)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
