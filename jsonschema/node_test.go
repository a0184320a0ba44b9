package jsonschema

import (
	"testing"

	"github.com/mcpgen/mcpgen/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseJSONPositions(t *testing.T) {
	data := []byte("{\n  \"é\": 1,\n  \"a\\\"b\" :\t[true, null],\n\"o\": {\"k\": \"v\"}}")
	n, err := parseJSON(data)
	require.NoError(t, err)
	lines := model.NewLines("", data)
	at := func(off int) [2]int {
		p := lines.Pos(off)
		return [2]int{p.Line, p.Col}
	}
	require.Equal(t, kindObject, n.kind)
	require.Len(t, n.fields, 3)

	tests := []struct {
		name string
		off  int
		want [2]int
	}{
		{"document", n.off, [2]int{1, 1}},
		{"key after a multibyte key's line", n.fields[1].off, [2]int{3, 3}},
		{"multibyte key", n.fields[0].off, [2]int{2, 3}},
		{"value after a multibyte key (columns count bytes)", n.fields[0].val.off, [2]int{2, 9}},
		{"value after a tab", n.fields[1].val.off, [2]int{3, 12}},
		{"array element", n.fields[1].val.elems[1].off, [2]int{3, 19}},
		{"nested key", n.fields[2].val.fields[0].off, [2]int{4, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, at(tt.off))
		})
	}
	assert.Equal(t, `a"b`, n.fields[1].key)
	assert.Equal(t, "1", n.fields[0].val.str)
	assert.Equal(t, []string{kindBool, kindNull}, []string{n.fields[1].val.elems[0].kind, n.fields[1].val.elems[1].kind})
	assert.Equal(t, "v", n.get("o").val.get("k").val.str)
	assert.Nil(t, n.get("missing"))
}
