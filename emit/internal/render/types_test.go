package render

import (
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// TestAddedField: a hand-written field naming a type of a standard library package by its name
// (json.RawMessage, *http.Header) imports the package; other source is written as it is.
func TestAddedField(t *testing.T) {
	f := jen.NewFile("p")
	f.Type().Id("T").Struct(addedField("Raw json.RawMessage"), addedField("h *http.Header"), addedField("err error"), addedField("state"))
	got := f.GoString()
	for _, want := range []string{`"encoding/json"`, `"net/http"`, "Raw json.RawMessage", "h   *http.Header", "err error", "state"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q not in\n%s", want, got)
		}
	}
}
