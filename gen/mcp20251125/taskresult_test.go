package mcp20251125

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/jsonvalue"
)

// createTask is the CreateTaskResult of basic/utilities/tasks.mdx: what a receiver answers at
// once to a task-augmented request.
const createTask = `{"task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working","statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000}}`

// checkTaskAugmentedMethods checks that Methods marks as task-augmented exactly the methods whose
// results include CreateTaskResult, and that these are the three the schema lets a task augment;
// it returns them, sorted.
func checkTaskAugmentedMethods(t *testing.T) []string {
	t.Helper()
	var augmented []string
	for _, m := range Methods {
		if got, want := m.TaskAugmented, slices.Contains(m.Results, reflect.TypeFor[*CreateTaskResult]()); got != want {
			t.Errorf("%s: TaskAugmented is %v, but CreateTaskResult in Results is %v", m.Method, got, want)
		}
		if m.TaskAugmented {
			augmented = append(augmented, m.Method)
		}
	}
	slices.Sort(augmented)
	if got := strings.Join(augmented, " "); got != "elicitation/create sampling/createMessage tools/call" {
		t.Fatalf("task-augmented methods: %s", got)
	}
	return augmented
}

// TestTaskAugmentedResults decodes the results of the three requests that can be task-augmented
// in 2025-11-25 (tools/call, answered by a server; sampling/createMessage and elicitation/create,
// answered by a client) in both forms, the method's own result and a CreateTaskResult, through the
// side's UnmarshalXResultFor, UnmarshalAnyResultFor and DecodeXMessage; and checks that a request
// that cannot be task-augmented does not take a CreateTaskResult.
func TestTaskAugmentedResults(t *testing.T) {
	plain := map[string]string{
		MethodCallTool:      `{"content":[{"type":"text","text":"Sunny, 21°C"}],"isError":false}`,
		MethodCreateMessage: `{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"claude-3-sonnet","stopReason":"endTurn"}`,
		MethodElicit:        `{"action":"accept","content":{"name":"octocat"}}`,
	}
	augmented := checkTaskAugmentedMethods(t)
	for _, method := range augmented {
		info, _ := LookupMethod(method)
		for _, c := range []struct {
			name string
			body string
			want reflect.Type
		}{
			{"plain", plain[method], info.Results[0]},
			{"task", createTask, reflect.TypeFor[*CreateTaskResult]()},
		} {
			t.Run(method+"/"+c.name, func(t *testing.T) {
				body := []byte(c.body)
				decoders := map[string]func() (any, error){
					"UnmarshalAnyResultFor": func() (any, error) { return UnmarshalAnyResultFor(method, body) },
				}
				decodeMessage := DecodeServerMessage
				if info.FromClient { // a server answers it
					decoders["UnmarshalServerResultFor"] = func() (any, error) { return UnmarshalServerResultFor(method, body) }
				} else {
					decoders["UnmarshalClientResultFor"] = func() (any, error) { return UnmarshalClientResultFor(method, body) }
					decodeMessage = DecodeClientMessage
				}
				decoders["Decode message"] = func() (any, error) {
					var p Pending
					p.Add(RequestIDNumber(7), method)
					msg, err := decodeMessage([]byte(`{"jsonrpc":"2.0","id":7,"result":`+c.body+`}`), p.Take)
					if err != nil {
						return nil, err
					}
					return msg.(*JSONRPCResultResponse).Result, nil
				}
				for how, decode := range decoders {
					v, err := decode()
					if err != nil {
						t.Errorf("%s: %v", how, err)
						continue
					}
					if reflect.TypeOf(v) != c.want {
						t.Errorf("%s: %T, want %v", how, v, c.want)
						continue
					}
					if err := v.(interface{ Validate() error }).Validate(); err != nil {
						t.Errorf("%s: Validate: %v", how, err)
					}
					again, err := json.Marshal(v)
					if err == nil {
						err = jsonvalue.Equal(body, again)
					}
					if err != nil {
						t.Errorf("%s: encodes back differently: %v", how, err)
					}
				}
			})
		}
	}

	// A request that cannot be task-augmented is not answered with a CreateTaskResult.
	for _, method := range []string{MethodListTools, MethodGetPrompt} {
		if v, err := UnmarshalServerResultFor(method, []byte(createTask)); err == nil {
			t.Errorf("%s: a CreateTaskResult decodes as %T", method, v)
		}
	}
}

// TestErrorResponseTakesPending checks that an error response, like a result, takes the request it
// answers from Pending.
func TestErrorResponseTakesPending(t *testing.T) {
	var p Pending
	p.Add(RequestIDNumber(1), MethodCallTool)
	p.Add(RequestIDString("1"), MethodListTools)
	msg, err := DecodeServerMessage([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`), p.Take)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := msg.(*JSONRPCErrorResponse); !ok {
		t.Fatalf("%T, want *JSONRPCErrorResponse", msg)
	}
	if method, ok := p.Take(RequestIDString("1")); p.Len() != 0 || !ok || method != MethodListTools {
		t.Errorf("the error response to id 1 left %d pending requests, or took the request with id \"1\"", p.Len())
	}
}
