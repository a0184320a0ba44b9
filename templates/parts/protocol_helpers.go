//go:build ignore

//mcpgen:protocol

package parts

import (
	"encoding/json"
	"slices"
	"strings"
)

// The schema-independent helpers of the generated protocol layer (protocol.go): looking a method
// up in the generated table Methods, and converting between error objects.

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
