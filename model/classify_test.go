package model_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/parser"
)

func load(t *testing.T, name, src string) (*model.Schema, error) {
	t.Helper()
	s, err := parser.Load(name, []byte(src))
	require.NoError(t, err)
	return s, model.Classify(s)
}

// summary renders a decision compactly: "enum closed a,b", "object type: A=x B=y|z", ...
func summary(d *model.Decision) string {
	switch d.Strategy {
	case model.EnumStrategy:
		open := "closed"
		if d.Open {
			open = "open"
		}
		return fmt.Sprintf("enum %s %s", open, strings.Join(d.Values, ","))
	case model.ObjectStrategy:
		var parts []string
		for _, v := range d.Variants {
			p := describe(v.Type)
			if d.Discriminator != "" {
				var vals []string
				for _, val := range v.Values {
					vals = append(vals, val.Str)
				}
				p += "=" + strings.Join(vals, "|")
				if v.DiscriminatorOptional {
					p += "?"
				}
			}
			parts = append(parts, p)
		}
		return fmt.Sprintf("object %s: %s", d.Discriminator, strings.Join(parts, " "))
	case model.KindStrategy:
		var parts []string
		for _, k := range d.Kinds {
			switch {
			case k.Objects != nil:
				parts = append(parts, k.JSONKind+"=("+summary(k.Objects)+")")
			case k.Alternatives != nil:
				var alts []string
				for _, a := range k.Alternatives {
					alts = append(alts, describe(a))
				}
				parts = append(parts, k.JSONKind+"="+strings.Join(alts, ","))
			default:
				parts = append(parts, k.JSONKind+"="+describe(k.Type))
			}
		}
		return "kind " + strings.Join(parts, " ")
	case model.OneOrManyStrategy:
		return "one-or-many " + describe(d.Elem)
	case model.NullableStrategy:
		return "nullable " + describe(d.Elem)
	}
	return d.Strategy.String()
}

func describe(t *model.Type) string {
	switch t.Kind {
	case model.Ref:
		return t.Ref
	case model.Array:
		return describe(t.Elem) + "[]"
	}
	return t.Kind.String()
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"closed enum", `type R = "user" | "assistant";`, "enum closed user,assistant"},
		{"open enum", `type R = "a" | "b" | string;`, "enum open a,b"},
		{"kinds", `type Id = string | number;`, "kind string=string number=integer"},
		{"nullable", `interface T { ttl: number | null } type N = T | null;`, "nullable T"},
		{"one or many", `interface B { x: string } type C = B | B[];`, "one-or-many B"},
		{"free form", `type O = { [k: string]: V }; type A = V[]; type V = string | number | boolean | null | O | A;`, "free-form"},
		{"discriminated",
			`interface T { type: "text"; text: string } interface I { type: "image"; data: string } type C = T | I;`,
			"object type: T=text I=image"},
		{"optional discriminator",
			`interface F { mode?: "form"; message: string } interface U { mode: "url"; url: string } type P = F | U;`,
			"object mode: F=form? U=url"},
		{"several values and shared values",
			`interface S { type: "string" } interface N { type: "number" | "integer" } interface E { type: "string"; enum: string[] } type P = S | N | E;`,
			"object type: S=string N=number|integer E=string"},
		{"by required members, nested unions flattened",
			`interface Q { jsonrpc: "2.0"; id: string; method: string } interface N { jsonrpc: "2.0"; method: string }
			 interface R { jsonrpc: "2.0"; id: string; result: string } interface E { jsonrpc: "2.0"; error: string }
			 type Resp = R | E; type M = Q | N | Resp;`,
			"object : Q N R E"},
		{"objects and arrays",
			`interface Q { id: string; method: string } interface N { method: string } type B = (Q | N)[]; type M = Q | B | N | Q[];`,
			"kind object=(object : Q N) array=B,Q[]"},
		{"identical objects", `interface A { x?: string } interface B { x?: string } type U = A | B;`, "object : A B"},
		{"alias variants", `interface R { a?: string } type Empty = R; interface X { a?: string; x: string } type U = Empty | X;`,
			"object : Empty X"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := load(t, "t.ts", tt.src)
			require.NoError(t, err)
			last := s.Decls[len(s.Decls)-1]
			require.Equal(t, model.Union, last.Type.Kind)
			assert.Equal(t, tt.want, summary(last.Type.Union.Decision))
		})
	}
}

func TestClassifyErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"literal mixed with kinds", `interface A { x: string } type U = "a" | number | A;`,
			`t.ts:1:36: union in U: no decision procedure: literal "a" mixed with other kinds`},
		{"same kind twice", `type C = string; type U = C | string;`, "t.ts:1:27: union in U: no decision procedure: variants C and string are both JSON string"},
		{"nested in a member", `interface A { v: number | boolean | number[] | boolean }`,
			"t.ts:1:18: union in A.v: no decision procedure: variants boolean and boolean are both JSON boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, "t.ts", tt.src)
			require.EqualError(t, err, tt.want)
		})
	}
}

// TestClassifySchemas classifies every vendored schema and checks the decisions the generated
// API depends on.
func TestClassifySchemas(t *testing.T) {
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"} {
		t.Run(v, func(t *testing.T) {
			name := "../schema/" + v + "/schema.ts"
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			s, err := parser.Load(name, src)
			require.NoError(t, err)
			require.NoError(t, model.Classify(s))
		})
	}

	src, err := os.ReadFile("../schema/draft/schema.ts")
	require.NoError(t, err)
	s, err := parser.Load("schema.ts", src)
	require.NoError(t, err)
	require.NoError(t, model.Classify(s))
	decl := func(name string) *model.Decision {
		d := s.Decl(name)
		require.NotNil(t, d, name)
		require.Equal(t, model.Union, d.Type.Kind, name)
		return d.Type.Union.Decision
	}
	member := func(decl, member string) *model.Decision {
		m := s.Decl(decl).Type.Object.Member(member)
		require.NotNil(t, m, decl+"."+member)
		typ := m.Type
		if typ.Kind == model.Array || typ.Kind == model.Map {
			typ = typ.Elem
		}
		require.Equal(t, model.Union, typ.Kind, decl+"."+member)
		return typ.Union.Decision
	}
	for _, tt := range []struct {
		got  *model.Decision
		want string
	}{
		{decl("SamplingMessageContentBlock"), "object type: TextContent=text ImageContent=image AudioContent=audio ToolUseContent=tool_use ToolResultContent=tool_result"},
		{decl("ContentBlock"), "object type: TextContent=text ImageContent=image AudioContent=audio ResourceLink=resource_link EmbeddedResource=resource"},
		{member("SamplingMessage", "content"), "one-or-many SamplingMessageContentBlock"},
		{member("CreateMessageResult", "stopReason"), "enum open endTurn,stopSequence,maxTokens,toolUse"},
		{member("ToolChoice", "mode"), "enum closed auto,required,none"},
		{decl("Role"), "enum closed user,assistant"},
		{decl("ResultType"), "enum open complete,input_required"},
		{decl("RequestId"), "kind string=string number=integer"},
		{decl("JSONValue"), "free-form"},
		{decl("JSONRPCMessage"), "object : JSONRPCRequest JSONRPCNotification JSONRPCResultResponse JSONRPCErrorResponse"},
		{decl("ElicitRequestParams"), "object mode: ElicitRequestFormParams=form? ElicitRequestURLParams=url"},
		{decl("PrimitiveSchemaDefinition"), "object type: StringSchema=string NumberSchema=number|integer BooleanSchema=boolean " +
			"UntitledSingleSelectEnumSchema=string TitledSingleSelectEnumSchema=string UntitledMultiSelectEnumSchema=array " +
			"TitledMultiSelectEnumSchema=array LegacyTitledEnumSchema=string"},
		{member("ReadResourceResult", "contents"), "object : TextResourceContents BlobResourceContents"},
		{member("ElicitResult", "content"), "kind string=string number=integer boolean=boolean array=string[]"},
	} {
		assert.Equal(t, tt.want, summary(tt.got))
	}
	assert.Equal(t, "method", decl("ClientRequest").Discriminator)
	assert.Equal(t, "method", decl("ServerNotification").Discriminator)
	assert.Equal(t, "", decl("ServerResult").Discriminator)
}

// TestRepeatedUnionsOfUnions: unions of unions that repeat each other are flattened once each,
// not once per path (90 levels would be 2^90 paths), and still decide as their leaves.
func TestRepeatedUnionsOfUnions(t *testing.T) {
	var b strings.Builder
	b.WriteString("type A0 = string | number;\n")
	for i := 1; i < 90; i++ {
		fmt.Fprintf(&b, "type A%d = A%d | A%d;\n", i, i-1, i-1)
	}
	b.WriteString("interface T {\n  a: A89;\n}\n")
	s, err := load(t, "chain.ts", b.String())
	require.NoError(t, err)
	assert.Equal(t, model.KindStrategy, s.Decl("A89").Type.Union.Decision.Strategy)
	assert.Len(t, s.Decl("A89").Type.Union.Decision.Kinds, 2)
}

// TestClassifyEach: every union without a decision procedure is an error of its own, and the
// others are decided, where Classify stops at the first.
func TestClassifyEach(t *testing.T) {
	s, err := parser.Load("s.ts", []byte(`type A = string | "x" | number;
interface P { a: string }
interface Q { b: string }
type B = P | Q;
type C = string[] | { [key: string]: string } | boolean | true;
`))
	require.NoError(t, err)
	errs := model.ClassifyEach(s)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`s.ts:1:10: union in A: no decision procedure: literal "x" mixed with other kinds`,
		`s.ts:5:10: union in C: no decision procedure: literal true mixed with other kinds`,
	}, got)
	assert.Nil(t, s.Decl("A").Type.Union.Decision)
	require.NotNil(t, s.Decl("B").Type.Union.Decision)
	assert.Equal(t, "object : P Q", summary(s.Decl("B").Type.Union.Decision))
	assert.Error(t, model.Classify(s), "Classify stops at the first")
}
