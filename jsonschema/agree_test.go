package jsonschema

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/parser"
)

// known is a difference between schema.ts and schema.json that is expected: either schema.json
// cannot carry the fact, or it is a mistake of the spec's export, which mcpgen -lint-spec reports
// (internal/speclint decides which are which: a difference that changes which values validate is
// a finding there). Version "*" matches every version.
type known struct {
	Version, Decl, Path string
	Reason              Reason
}

// knownDifferences must each match a difference of some version; an entry that matches none
// fails the test, so the table cannot rot.
var knownDifferences = slices.Concat(
	// typescript-json-schema gives an index signature ("additionalProperties") only to the
	// interface that declares it, not to the interfaces that extend it.
	each("*", "{}", ReasonRestDropped, "PaginatedResult", "ListResourcesResult",
		"ListResourceTemplatesResult", "ReadResourceResult", "ListPromptsResult", "GetPromptResult",
		"ListToolsResult", "CallToolResult", "CompleteResult",
		// up to 2025-11-25
		"InitializeResult", "CreateMessageResult", "ListRootsResult", "ElicitResult",
		// from 2026-07-28
		"RequestMetaObject", "NotificationMetaObject", "ResultMetaObject", "InputRequiredResult",
		"DiscoverResult", "CacheableResult", "SubscriptionsListenResultMetaObject", "SubscriptionsListenResult"),
	each("2025-11-25", "{}", ReasonRestDropped, "CreateTaskResult", "ListTasksResult"),

	// `"a" | "b" | string` is exported as {"type": "string"}: the known values are lost.
	each("*", "stopReason", ReasonOpenEnum, "CreateMessageResult"),
	each("*", "", ReasonOpenEnum, "ResultType"),
	each("*", "resultType", ReasonOpenEnum, "Result", "InputRequiredResult", "DiscoverResult",
		"PaginatedResult", "CacheableResult", "ListResourcesResult", "ListResourceTemplatesResult",
		"ReadResourceResult", "SubscriptionsListenResult", "ListPromptsResult", "GetPromptResult",
		"ListToolsResult", "CallToolResult", "CompleteResult"),

	// A union naming a union alias is exported with the alias's variants written out.
	each("*", "", ReasonInlined, "JSONRPCMessage", "PrimitiveSchemaDefinition", "EnumSchema"),
	each("*", "content", ReasonInlined, "CreateMessageResult", "SamplingMessage"),

	// `type ClientNotification = CancelledNotification` is exported as a copy of the interface.
	each("*", "", ReasonWrittenOut, "ClientNotification"),

	// JSONValue's `null` variant is missing from the export: a mistake of the spec, which mcpgen
	// -lint-spec reports (export-loss).
	each("*", "", ReasonNullDropped, "JSONValue"),
	// `Record<string, unknown>` is exported as {"type": "object"}, without additionalProperties.
	each("*", "", ReasonRecordAny, "MetaObject"),
)

// each lists the same difference for several declarations.
func each(version, path string, reason Reason, decls ...string) []known {
	out := make([]known, len(decls))
	for i, d := range decls {
		out[i] = known{Version: version, Decl: d, Path: path, Reason: reason}
	}
	return out
}

// TestAgreement loads every vendored version with both front ends and compares the models.
func TestAgreement(t *testing.T) {
	used := map[known]bool{}
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			ts := loadFile(t, parser.Load, "../schema/"+v+"/schema.ts")
			js := loadFile(t, Load, "../schema/"+v+"/schema.json")
			diffs, members := Compare(ts, js)
			n := 0
			for _, d := range diffs {
				k, ok := lookupKnown(v, d)
				if !ok {
					t.Errorf("%s", d)
					continue
				}
				used[k] = true
				n++
			}
			t.Logf("%s: %d declarations, %d members compared, %d known differences used",
				v, len(ts.Decls), members, n)
		})
	}
	for _, k := range knownDifferences {
		assert.True(t, used[k], "known difference %+v matches no difference", k)
	}
}

func lookupKnown(version string, d Difference) (known, bool) {
	for _, k := range knownDifferences {
		if (k.Version == "*" || k.Version == version) && k.Decl == d.Decl && k.Path == d.Path && k.Reason == d.Reason {
			return k, true
		}
	}
	return known{}, false
}

func loadFile[S any](t *testing.T, load func(string, []byte) (S, error), filename string) S {
	t.Helper()
	data, err := os.ReadFile(filename)
	require.NoError(t, err)
	s, err := load(filename, data)
	require.NoError(t, err)
	return s
}

// TestAgreeOnAliasConstraints holds the front ends to the same reading of constraints declared
// on an alias (SEP-2778 declares `@format`, `@maxLength`... once on `URI`, `Identifier`...): a
// member of that type has them, under its own.
func TestAgreeOnAliasConstraints(t *testing.T) {
	ts := `/**
 * @format uri
 * @maxLength 8192
 */
export type URI = string;
/** @pattern ^file:// */
export type FileURI = URI;
export type Probability = number & { readonly minimum: 0; readonly maximum: 1 };
export interface Root {
  /**
   * @minLength 1
   */
  uri: FileURI;
  /** @TJS-type number */
  p: Probability;
  /** @maxLength 256 */
  name?: string;
}
`
	js := `{"definitions": {
  "URI": {"type": "string", "format": "uri", "maxLength": 8192},
  "FileURI": {"$ref": "#/definitions/URI", "pattern": "^file://"},
  "Probability": {"type": "integer", "minimum": 0, "maximum": 1},
  "Root": {"type": "object", "properties": {
    "uri": {"$ref": "#/definitions/FileURI", "minLength": 1},
    "p": {"$ref": "#/definitions/Probability"},
    "name": {"type": "string", "maxLength": 256}
  }, "required": ["uri", "p"]}
}}`
	fromTS, err := parser.Load("a.ts", []byte(ts))
	require.NoError(t, err)
	fromJSON, err := Load("a.json", []byte(js))
	require.NoError(t, err)
	for _, name := range []string{"uri", "p", "name"} {
		a := fromTS.Decl("Root").Type.Object.Member(name).Constraints
		b := fromJSON.Decl("Root").Type.Object.Member(name).Constraints
		assert.Equal(t, a.String(), b.String(), name)
	}
	assert.Equal(t, "format=uri minLength=1 maxLength=8192 pattern=^file://", fromTS.Decl("Root").Type.Object.Member("uri").Constraints.String())
	assert.Equal(t, "minimum=0 maximum=1", fromTS.Decl("Root").Type.Object.Member("p").Constraints.String())
}
