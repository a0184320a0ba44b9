package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/templates"
)

// Helpers to build small models by hand.

func at(line int) model.Pos { return model.Pos{File: "test.ts", Line: line, Col: 1} }

func typ(k model.Kind) *model.Type { return &model.Type{Kind: k} }

func ref(name string) *model.Type { return &model.Type{Kind: model.Ref, Ref: name} }

func object(line int, members ...*model.Member) *model.Type {
	return &model.Type{Kind: model.Object, Object: &model.ObjectType{Members: members}, Pos: at(line)}
}

func member(line int, name string, t *model.Type, optional bool) *model.Member {
	return &model.Member{Name: name, Type: t, Optional: optional, Pos: at(line)}
}

func decl(line int, name string, t *model.Type) *model.Decl {
	return &model.Decl{Name: name, Type: t, Pos: at(line)}
}

// A generateErrorCase is a model that Generate refuses, and the error it gives.
type generateErrorCase struct {
	name   string
	schema *model.Schema
	opts   Options
	want   string
}

// nullable is `string | null`.
var nullable = &model.Type{Kind: model.Union, Union: &model.UnionType{Variants: []*model.Type{typ(model.String), typ(model.Null)}}, Pos: at(2)}

// generateErrorCases are the models of TestGenerateErrors.
var generateErrorCases = []generateErrorCase{{
	name: "field collision",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Result", object(1, member(2, "_meta", typ(model.Any), true), member(3, "meta", typ(model.String), true))),
	}},
	want: `test.ts:3:1: Result.meta: Go field name Meta is already used by Result._meta: name one of them under fields`,
}, {
	name: "member without a Go name",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Result", object(1, member(2, "1a", typ(model.String), true))),
	}},
	want: `test.ts:2:1: Result.1a: the member has no Go name ("1a" is not an identifier): name it under fields`,
}, {
	name: "declaration without a Go name",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(4, "1X", typ(model.String)),
	}},
	want: `test.ts:4:1: declaration 1X: "1X" is not a Go identifier`,
}, {
	name: "SchemaVersion declared by the schema",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(3, "SchemaVersion", object(3)),
	}},
	want: "test.ts:3:1: declaration SchemaVersion: Go name SchemaVersion is already used by the generated constant",
}, {
	name: "Extra collision",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Result", object(1, member(2, "extra", typ(model.String), true))),
	}},
	want: `test.ts:2:1: Result.extra: Go field name Extra is already used by the unknown members (Extra): name one of them under fields`,
}, {
	name: "declaration collision",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "RequestId", typ(model.String)),
		decl(2, "RequestID", typ(model.String)),
	}},
	want: "test.ts:2:1: declaration RequestID: Go name RequestID is already used by declaration RequestId (test.ts:1:1)",
}, {
	name: "constant collision",
	schema: &model.Schema{
		Decls:  []*model.Decl{decl(1, "ParseError", object(1)), decl(2, "CodeParseError", object(2))},
		Consts: []*model.Const{{Name: "PARSE_ERROR", Value: model.Value{Kind: model.Integer, Num: "-32700"}, Pos: at(3)}},
	},
	want: "test.ts:3:1: constant PARSE_ERROR: Go name CodeParseError is already used by declaration CodeParseError (test.ts:2:1)",
}, {
	name: "runtime helper collision",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Variant", &model.Type{Kind: model.Union, Union: &model.UnionType{Variants: []*model.Type{typ(model.String), typ(model.Integer)}}}),
	}},
	want: "test.ts:1:1: function of union Variant: Go name decodeVariant is already used by runtime identifier (runtime wire_unions.go:",
}, {
	name: "union without decision",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Id", &model.Type{Kind: model.Union, Union: &model.UnionType{Variants: []*model.Type{typ(model.String), typ(model.Integer)}}}),
	}},
	want: "test.ts:1:1: declaration Id: union has no decision (run model.Classify)",
}, {
	name: "optional nullable",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Task", object(1, member(2, "ttl", nullable, true))),
	}},
	want: `test.ts:2:1: Task: member "ttl": an optional nullable member is not supported`,
}, {
	name: "undeclared reference",
	schema: &model.Schema{Decls: []*model.Decl{
		decl(1, "Task", object(1, member(2, "result", ref("Result"), true))),
	}},
	want: "reference to undeclared Result",
}, {
	name:   "no package",
	schema: &model.Schema{},
	opts:   Options{Runtime: templates.Runtime()},
	want:   "emit: no package name",
}, {
	name:   "bad runtime",
	schema: &model.Schema{},
	opts:   Options{Package: "p", Runtime: map[string]string{"wire.go": "not go"}},
	want:   "emit: runtime:",
}, {
	// Planning names the files and writes doc.go: neither fails after rendering.
	name:   "runtime file with a generated file's name",
	schema: &model.Schema{},
	opts:   Options{Package: "p", Runtime: map[string]string{"doc.go": "package p\n"}},
	want:   "emit: the runtime file doc.go has the name of a generated file",
}, {
	name:   "package doc that does not execute",
	schema: &model.Schema{},
	opts:   Options{Package: "p", PackageDoc: "{{.Missing}}"},
	want:   "emit: package doc: ",
}}

// TestGenerateErrors checks that each model of generateErrorCases is refused with its error, and
// that planning (makePlan) is what refuses it.
func TestGenerateErrors(t *testing.T) {
	for _, tt := range generateErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.Package == "" && tt.opts.Runtime == nil {
				tt.opts = Options{Package: "p", Version: "test", Runtime: templates.Runtime()}
			}
			if tt.name != "union without decision" {
				require.NoError(t, model.Classify(tt.schema))
			}
			_, err := Generate(tt.schema, tt.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			if tt.opts.Package != "" {
				// Planning finds every error: rendering has none to add.
				_, planErr := makePlan(tt.schema, tt.opts)
				assert.Equal(t, err, planErr)
			}
		})
	}
}
