// Helpers of the behavior tests; TestBehavior copies this file next to every generated package.

package mcptest

import (
	"encoding/json"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// marshal encodes v with its MarshalJSON method (json.Marshal would compact raw values).
func marshal(t *testing.T, v json.Marshaler) string {
	t.Helper()
	b, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}
