package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
)

// TestParseEveryError: a file with several mistakes has them all in one error, by position,
// from different keys and within one key's list or mapping; the entries between them are read.
func TestParseEveryError(t *testing.T) {
	src := "package: func\n" +
		"types: [Tool, 2Tool, Tool]\n" +
		"rename:\n  Tool: my-tool\n  Resource: Res\n  Prompt: 3p\n" +
		"initialisms: [MIME, a-b]\n" +
		"tpyes: [Tool]\n" +
		"optional: maybe\n" +
		"validate: true\nvalidate: false\n"
	f, err := Parse("mcpgen.yaml", []byte(src))
	require.Error(t, err)
	assert.Nil(t, f, "a key that is not one, or comes twice: the others' checks would be wrong")
	var list model.ErrorList
	require.ErrorAs(t, err, &list)
	assert.Equal(t, `mcpgen.yaml:1:10: package: "func" is not a valid Go package name
mcpgen.yaml:2:15: types: "2Tool" does not name a declaration (Tool) or a member (Tool.inputSchema)
mcpgen.yaml:2:22: types: Tool is listed twice (first at line 2)
mcpgen.yaml:4:9: rename: Tool: "my-tool" is not a Go identifier
mcpgen.yaml:6:11: rename: Prompt: "3p" is not a Go identifier
mcpgen.yaml:7:21: initialisms: "a-b" is not a Go identifier
mcpgen.yaml:8:1: unknown key "tpyes" (did you mean types?); the keys are `+strings.Join(keys, ", ")+`
mcpgen.yaml:9:11: optional: "maybe" is not one of pointer, omitempty, omitzero, value
mcpgen.yaml:11:1: validate is set twice (first at line 10)`, err.Error())
}

// TestParsePartial: with the mistakes of entries that do not decide the schema or the
// selection, Parse returns the file without those entries, for the others' checks; with a
// mistake in types, declarations or standIn, no file.
func TestParsePartial(t *testing.T) {
	f, err := Parse("mcpgen.yaml", []byte("package: func\ntypes: [Tool]\nrename:\n  Tool: my-tool\n  Resource: Res\noptional: maybe\n"+
		"elements:\n  Tool.icons: pointers\n  Tool.annotations: pointer\nvalidate: no\nomit: [Tool, Tool.title]\n"))
	require.Error(t, err)
	assert.Equal(t, 6, len(err.(model.ErrorList)), err.Error())
	require.NotNil(t, f)
	assert.Empty(t, f.Package)
	assert.Equal(t, []emit.Entry{{Name: "Tool", Pos: at(2, 9)}}, f.Config.Types)
	assert.Equal(t, map[string]emit.Entry{"Resource": {Name: "Res", Pos: at(5, 13)}}, f.Config.Names)
	assert.Equal(t, emit.Shape{}, f.Config.Optional)
	assert.Equal(t, emit.Shape{Members: map[string]emit.Entry{"Tool.annotations": {Name: "pointer", Pos: at(9, 21)}}}, f.Config.Elements)
	assert.False(t, f.Config.NoValidate, "validate: no is no choice")
	assert.Equal(t, []emit.Entry{{Name: "Tool.title", Pos: at(11, 14)}}, f.Config.Omit)

	for _, src := range []string{"types: [Tool, 2Tool]\n", "declarations: [x]\n", "standIn:\n  Tool.x: Y\n"} {
		f, err := Parse("mcpgen.yaml", []byte(src+"rename:\n  Tool: T\n"))
		require.Error(t, err, src)
		assert.Nil(t, f, src)
	}
}

// TestLoadEveryStandInError: every stand-in naming what the schema does not declare is reported
// in one run.
func TestLoadEveryStandInError(t *testing.T) {
	f, err := Parse("c.yaml", []byte("standIn:\n  Block: Wide\n  Missing: Text\n"))
	require.NoError(t, err)
	_, err = f.Load("schema.ts", []byte("export type Block = Text;\nexport interface Text { text: string }\n"))
	require.Error(t, err)
	assert.Equal(t, "c.yaml:2:10: standIn: Block: the schema declares no Wide (declare it under declarations)\n"+
		"c.yaml:3:12: standIn: the schema declares no Missing", err.Error())
}

// TestCheckEverySubstitute: every substitute whose Go type does not exist is reported in one run.
func TestCheckEverySubstitute(t *testing.T) {
	subs := map[string]emit.Substitute{
		"JSONValue":     {Path: "encoding/json", Name: "Raw", Pos: at(3, 14)},
		"ProgressToken": {Name: "any", Pos: at(4, 18)},
		"Tool":          {Path: "encoding/json", Name: "Decoder2", Pos: at(5, 9)},
	}
	err := CheckSubstitutes(emit.Config{Substitutes: subs}, t.TempDir(), func(string) bool { return false })
	require.Error(t, err)
	assert.Equal(t, "mcpgen.yaml:3:14: substitute: JSONValue: no type Raw in package encoding/json\n"+
		"mcpgen.yaml:5:9: substitute: Tool: no type Decoder2 in package encoding/json", err.Error())
}
