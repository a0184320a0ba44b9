//go:build ignore

//mcpgen:protocol

package parts

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// The schema-independent helpers of the generated protocol layer (protocol.go): the type of the
// generated table Methods, looking a method up in it, and converting between error objects.

// MethodInfo describes a method of this version, so that a dispatcher can be built from data: who
// sends it, the Go types of the message, its params and its results, and how it may be answered.
type MethodInfo struct {
	// Method is the method name ("tools/call").
	Method string
	// FromClient and FromServer say who sends it (ping: both).
	FromClient, FromServer bool
	// Notification is set for a notification, which gets no response.
	Notification bool
	// Message is the type of the whole message (*CallToolRequest), as DecodeClientMessage or
	// DecodeServerMessage gives it.
	Message reflect.Type
	// Params is the type of the params (*CallToolRequestParams, or a union interface), nil for a
	// method without params.
	Params reflect.Type
	// Results are the types a result of the request can have (*CallToolResult,
	// *InputRequiredResult, *CreateTaskResult); nil for a notification.
	Results []reflect.Type
	// TaskAugmented is set for a request that can be task-augmented: its result is then a
	// CreateTaskResult.
	TaskAugmented bool
	// InputRequired is set for a request that may be answered with an InputRequiredResult (multi
	// round-trip requests).
	InputRequired bool
}

// LookupMethod returns the description of a method, and whether this version defines it.
func LookupMethod(method string) (MethodInfo, bool) {
	i, ok := slices.BinarySearchFunc(Methods, method, func(m MethodInfo, method string) int {
		return strings.Compare(m.Method, method)
	})
	if !ok {
		return MethodInfo{}, false
	}
	return Methods[i], true
}

// convertError decodes the JSON of one error object into another type.
func convertError(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
