package bench

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkHostile decodes the hostile shapes (HostileShapes) at each of their sizes with
// mcpgen's draft types, encoding/json into an any, and the jx Skip floor, in the same run. The
// largest size of each shape (50 MB strings, a million members or elements, 9,999 levels) is
// skipped under -short. One shape by hand:
//
//	go test -run '^$' -bench 'Hostile/meta-members/' -benchmem -count 3 ./bench
func BenchmarkHostile(b *testing.B) {
	for _, s := range HostileShapes() {
		b.Run(s.Name, func(b *testing.B) {
			for i, n := range s.Sizes {
				b.Run(HostileSizeName(n, s.Unit), func(b *testing.B) {
					if testing.Short() && i == len(s.Sizes)-1 {
						b.Skip("the largest size is not run under -short")
					}
					data := s.Build(n)
					for _, dec := range HostileDecoders() {
						b.Run(dec.Name, func(b *testing.B) {
							decode := dec.New(s.Type)
							b.SetBytes(int64(len(data)))
							b.ReportAllocs()
							for b.Loop() {
								if err := decode(data); err != nil {
									b.Fatal(err)
								}
							}
						})
					}
				})
			}
		})
	}
}

// TestHostileShapes checks the hostile shapes at their smallest size: each is an instance of its
// type by the draft's schema.json, mcpgen's draft types hold it (it decodes, and encodes to the
// same JSON value), and every decoder of the benchmark accepts it.
func TestHostileShapes(t *testing.T) {
	for _, s := range HostileShapes() {
		t.Run(s.Name, func(t *testing.T) {
			n := s.Sizes[0]
			data := s.Build(n)
			require.NoError(t, validate("draft", s.Type, data), "draft schema.json")
			draft, _ := Contenders()[0].Codec(s.Type)
			require.NoError(t, Hold(draft, data))
			for _, dec := range HostileDecoders() {
				assert.NoError(t, dec.New(s.Type)(data), dec.Name)
			}
		})
	}
}

// TestHostileSizes checks that the shapes have the sizes they are named by.
func TestHostileSizes(t *testing.T) {
	text := func(data []byte) string {
		//lint:ignore SA1019 sampling is deprecated in the draft, and still in it
		var p mcpdraft.CreateMessageRequestParams
		require.NoError(t, p.UnmarshalJSON(data))
		return p.Messages[0].Content.List[0].(*mcpdraft.TextContent).Text
	}
	for _, s := range HostileShapes()[:2] {
		data := s.Build(1000)
		var raw struct {
			Messages []struct {
				Content struct{ Text json.RawMessage }
			}
		}
		require.NoError(t, json.Unmarshal(data, &raw))
		assert.Len(t, raw.Messages[0].Content.Text, 1000+2, "%s: the JSON string of the text", s.Name)
		// The decoded text is the same with encoding/json.
		var std struct {
			Messages []struct{ Content struct{ Text string } }
		}
		require.NoError(t, json.Unmarshal(data, &std))
		assert.Equal(t, std.Messages[0].Content.Text, text(data), s.Name)
	}
	for _, s := range HostileShapes()[2:] {
		data := s.Build(1000)
		var v struct {
			Meta              map[string]json.RawMessage `json:"_meta"`
			Content           []json.RawMessage
			StructuredContent json.RawMessage
		}
		require.NoError(t, json.Unmarshal(data, &v))
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &top))
		var got int
		switch s.Name {
		case "meta-members":
			got = len(v.Meta)
		case "extra-members":
			got = len(top) - 2 // resultType, content
		case "content-array":
			got = len(v.Content)
		case "structured-members":
			var m map[string]any
			require.NoError(t, json.Unmarshal(v.StructuredContent, &m))
			got = len(m)
		case "structured-array":
			var a []any
			require.NoError(t, json.Unmarshal(v.StructuredContent, &a))
			got = len(a)
		case "deep-arrays", "deep-objects":
			var depth, deepest int
			for _, c := range data {
				switch c {
				case '[', '{':
					depth++
					deepest = max(deepest, depth)
				case ']', '}':
					depth--
				}
			}
			got = deepest - 1 // the message's own object
		}
		assert.Equal(t, 1000, got, s.Name)
	}
}
