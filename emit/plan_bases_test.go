package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
	mcpparser "github.com/mcpgen/mcpgen/parser"
	"github.com/mcpgen/mcpgen/templates"
)

// basesSchema has bases that extend bases, two that extend the same one side by side, an Omit of
// one, and a declaration that declares its base's only member again.
const basesSchema = `export interface Result {
  _meta?: { [key: string]: unknown };
}
export interface Cached extends Result {
  ttl: number;
  scope?: string;
}
export interface Paged extends Result {
  next?: string;
}
export interface List extends Paged, Cached {
  items: string[];
}
export interface CachedPage extends Cached {
  next?: string;
}
export interface List2 extends CachedPage {
  items: string[];
}
export interface Uncached extends Omit<Cached, "ttl"> {
  x: string;
}
export interface Annotated {
  note?: string;
}
export interface Text extends Annotated {
  note?: string;
  text: string;
}
`

func generateBases(t *testing.T, c Config) (map[string][]byte, error) {
	t.Helper()
	s, err := mcpparser.Load("bases.ts", []byte(basesSchema))
	require.NoError(t, err)
	s.Version = "test"
	require.NoError(t, model.Protocol(s))
	require.NoError(t, model.Classify(s))
	return Generate(s, Options{Package: "mcp", Version: "test", SchemaHash: "sha256:0", Runtime: templates.Runtime(), Config: c})
}

// TestNestedBases: a struct embeds the outermost of the bases it inherits from, each base the
// bases it inherits from in turn; a member declared again, and declared nowhere else, is held by
// the base its extends clause names.
func TestNestedBases(t *testing.T) {
	files, err := generateBases(t, Config{
		Types: []Entry{entry("List2", 1), entry("Result", 1), entry("Cached", 1), entry("CachedPage", 1), entry("Text", 1), entry("Annotated", 1)},
		Embed: []Entry{entry("Result", 2), entry("Cached", 2), entry("CachedPage", 2), entry("Annotated", 2)},
	})
	require.NoError(t, err)
	types := string(files["types.go"])
	for _, want := range []string{
		`(?m)^type List2 struct \{\n(\t//.*\n)*\tCachedPage\n(\t//.*\n)*\tItems +\[\]string`,
		`(?m)^type CachedPage struct \{\n(\t//.*\n)*\tCached\n(\t//.*\n)*\tNext +\*string`,
		`(?m)^type Cached struct \{\n(\t//.*\n)*\tResult\n(\t//.*\n)*\tTTL +int64`,
		`(?m)^type Text struct \{\n(\t//.*\n)*\tAnnotated\n(\t//.*\n)*\tText +string`,
	} {
		assert.Regexp(t, want, types)
	}
	assert.NotRegexp(t, `(?m)^type List2 struct \{\n(\t.*\n)*\t(Cached|Result)\n`, types, "the outer base alone")
}

// TestBasesRefused: two bases side by side that hold the same member, and a base with a member
// left out, are refused at the base's entry, naming the member.
func TestBasesRefused(t *testing.T) {
	_, err := generateBases(t, Config{
		Types: []Entry{entry("List", 1), entry("Result", 1), entry("Cached", 1), entry("Paged", 1)},
		Embed: []Entry{entry("Result", 2), entry("Cached", 3), entry("Paged", 4)},
	})
	assert.EqualError(t, err, `mcpgen.yaml:4:3: embed: List inherits the member "_meta" from both Cached and Paged, which it would embed side by side: make one of them extend the other (declarations: export interface Paged extends Cached {})`)
	_, err = generateBases(t, Config{
		Types: []Entry{entry("Uncached", 1), entry("Cached", 1)},
		Embed: []Entry{entry("Cached", 2)},
	})
	assert.EqualError(t, err, `mcpgen.yaml:2:3: embed: Uncached leaves out the member "ttl" of its base Cached, which embedding it would bring back: remove the omit entry, or the base from embed`)
}

// TestStandInExtendsBreaksPart: a member inherited through an extends clause that a standIn
// entry made name the stand-in is not the schema's: a part using its field is refused at the
// entry.
func TestStandInExtendsBreaksPart(t *testing.T) {
	src := "export interface Moded {\n  mode?: \"fast\" | \"slow\";\n}\nexport interface Loose {\n  mode?: string;\n}\nexport interface Tool extends Moded {\n  name: string;\n}\n"
	standIns := map[string]mcpparser.StandIn{"Moded": {Name: "Loose", Pos: cfgAt(5)}}
	s, err := mcpparser.LoadStandIns("s.ts", []byte(src), standIns)
	require.NoError(t, err)
	s.Version = "test"
	require.NoError(t, model.Protocol(s))
	require.NoError(t, model.Classify(s))
	part := "//go:build ignore\n\n//mcpgen:requires Tool\n\npackage parts\n\nfunc named(t *Tool) bool { return t.Mode != nil }\n"
	_, err = Generate(s, Options{Package: "mcp", Version: "test", SchemaHash: "sha256:0", Runtime: templates.Runtime(),
		Parts: map[string]string{"tools.go": part}, Config: Config{StandIns: map[string]Entry{"Moded": entry("Loose", 5)}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcpgen.yaml:5:3: the configuration changes the type or presence of Tool.mode (the field Tool.Mode)")
}

// TestBaseEntryReachesRedeclared: an entry on a base's member reaches a member that a derived
// declaration declares again and the base holds, so that the two fields stay the same.
func TestBaseEntryReachesRedeclared(t *testing.T) {
	files, err := generateBases(t, Config{
		Types:    []Entry{entry("Text", 1), entry("Annotated", 1)},
		Embed:    []Entry{entry("Annotated", 2)},
		Optional: Shape{Members: map[string]Entry{"Annotated.note": entry(OmitEmpty, 3)}},
	})
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^type Text struct \{\n(\t//.*\n)*\tAnnotated\n`, string(files["types.go"]))
}
