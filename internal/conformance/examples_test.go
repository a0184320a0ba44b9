// Package conformance decides, with a real JSON Schema validator, which of the draft spec's
// examples each older spec version accepts. The versions without examples of their own are tested
// on those: the generated packages in gen/ round-trip exactly the files listed here, in
// gen/<package>/testdata/draft-examples.txt (rewrite with -update).
package conformance

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite gen/*/testdata/draft-examples.txt")

// versions maps the spec versions without examples to their package in gen/.
var versions = map[string]string{
	"2024-11-05": "mcp20241105",
	"2025-03-26": "mcp20250326",
	"2025-06-18": "mcp20250618",
	"2025-11-25": "mcp20251125",
}

const examples = "../../schema/draft/examples"

func TestDraftExamplesAccepted(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examples, "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	slices.Sort(files)

	for version, pkg := range versions {
		t.Run(version, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "schema", version, "schema.json"))
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			require.NoError(t, err)
			c := jsonschema.NewCompiler()
			require.NoError(t, c.AddResource("schema.json", doc))
			defs := doc.(map[string]any)["definitions"]
			prefix := "schema.json#/definitions/"
			if defs == nil {
				defs = doc.(map[string]any)["$defs"]
				prefix = "schema.json#/$defs/"
			}

			messages := messageTypes(defs.(map[string]any))
			var accepted []string
			typed, embedded := 0, 0
			for _, file := range files {
				typ := filepath.Base(filepath.Dir(file))
				if _, ok := defs.(map[string]any)[typ]; !ok {
					continue // the type is newer than this version
				}
				typed++
				sch, err := c.Compile(prefix + typ)
				require.NoError(t, err)
				raw, err := os.ReadFile(file)
				require.NoError(t, err)
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
				require.NoError(t, err)
				if sch.Validate(inst) != nil {
					continue
				}
				if _, ok := inst.(map[string]any)["jsonrpc"]; messages[typ] && !ok {
					// The draft's form of a request sent inside an InputRequiredResult. In this
					// version the request is a JSON-RPC message: mcpgen gives it jsonrpc and id
					// (model.Protocol), as 2025-11-25's schema does.
					embedded++
					continue
				}
				accepted = append(accepted, typ+"/"+filepath.Base(file))
			}
			t.Logf("%s: its schema.json accepts %d of the %d draft examples whose type it declares "+
				"(and %d requests without jsonrpc, which are JSON-RPC messages in this version)", version, len(accepted), typed, embedded)

			list := filepath.Join("..", "..", "gen", pkg, "testdata", "draft-examples.txt")
			want := strings.Join(accepted, "\n") + "\n"
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(list), 0o755))
				require.NoError(t, os.WriteFile(list, []byte(want), 0o644))
			}
			got, err := os.ReadFile(list)
			require.NoError(t, err)
			require.Equal(t, want, string(got), "%s is stale; run go test ./internal/conformance -update", list)
		})
	}
}

// messageTypes lists the definitions that the message unions ClientRequest, ServerRequest,
// ClientNotification and ServerNotification name.
func messageTypes(defs map[string]any) map[string]bool {
	types := map[string]bool{}
	for _, union := range []string{"ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"} {
		def, _ := defs[union].(map[string]any)
		variants, _ := def["anyOf"].([]any)
		for _, v := range variants {
			if ref, ok := v.(map[string]any)["$ref"].(string); ok {
				types[ref[strings.LastIndexByte(ref, '/')+1:]] = true
			}
		}
	}
	return types
}
