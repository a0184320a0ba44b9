package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/schema"
)

var (
	randN    = flag.Int("randconfig.n", 8, "TestRandomConfigs: the configurations of a batch (generated into one module, vetted at once)")
	randSeed = flag.Uint64("randconfig.seed", 1, "TestRandomConfigs: the seed of the first configuration (the others' follow it); 0 for one from the clock")
	randFor  = flag.Duration("randconfig.for", 0, "TestRandomConfigs: run batches until this much time has passed (0: one batch)")
)

// randSchema is what the configurations are made of: the declarations of the 2026-07-28 schema
// and their members (inline objects' members by their paths).
type randSchema struct {
	decls   []string // every declaration
	objects []string // those of object type
	aliases []string // aliases of an interface or of a string: the candidates of defined
	maps    []string // those whose Go type is a map, as the hand-written Meta is
	// members are the keys of the objects' members (Declaration.member, inherited members
	// and members of inline objects included), by declaration; fits those that a shape key's
	// member entries apply to, by key (the others are refused as changing nothing).
	members map[string][]string
	fits    map[string][]string
	// heirs are the declarations that extend each, transitively.
	heirs map[string][]string
}

// shapesOf are the shape keys whose member entries apply to m, a member of the declaration decl.
func shapesOf(s *model.Schema, decl string, m *model.Member) []string {
	out := []string{"optional"}
	t, err := s.Deref(m.Type)
	if err != nil {
		return out
	}
	object := func(t *model.Type) bool {
		d, err := s.Deref(t)
		return err == nil && d.Kind == model.Object
	}
	switch {
	case t.Kind == model.Array && object(t.Elem):
		out = append(out, "elements")
	case t.Kind == model.Union && len(t.Union.Variants) == 2 && t.Union.Variants[1].Kind == model.Array:
		out = append(out, "oneOrMany")
	case t.Kind == model.Literal && !m.Optional:
		out = append(out, "literals")
	}
	if !m.Optional && object(m.Type) {
		out = append(out, "objects")
	}
	if !m.Optional && (t.Kind == model.Array || t.Kind == model.Map) {
		out = append(out, "nilAs")
	}
	if m.Type.Kind == model.Object && (m.DeclaredIn == "" || m.DeclaredIn == decl) {
		out = append(out, "rename") // an inline object's type has a name to give, where it is declared
	}
	return out
}

// randDeclarations are declarations of mcp-go's configuration (interop/sdkshape/mcpgo.yaml):
// groups of members as bases, a base extending another. Half the configurations add them.
const randDeclarations = `declarations: |
  export interface Annotated { annotations?: Annotations; }
  export interface Resource extends Annotated {}
  export interface TextContent extends Annotated {}
  export interface ImageContent extends Annotated {}
  export interface EmbeddedResource extends Annotated {}
  export interface PaginatedResult extends CacheableResult {}
  export interface MultiRoundTripResult { inputRequests?: InputRequests; requestState?: string; }
  export interface InputRequiredResult extends MultiRoundTripResult {}
  export interface CallToolResult extends MultiRoundTripResult {}
  export interface CreateMessageResult extends Result {}
  export interface DiscoverParams extends RequestParams {}
`

// loadRandSchema loads the 2026-07-28 schema as a configuration does, with randDeclarations if
// declared.
func loadRandSchema(t *testing.T, declared bool) *randSchema {
	t.Helper()
	name, src, err := schema.File("2026-07-28", "schema.ts")
	require.NoError(t, err)
	f := &config.File{}
	if declared {
		f, err = config.Parse("mcpgen.yaml", []byte(randDeclarations))
		require.NoError(t, err)
	}
	s, err := f.Load(name, src)
	require.NoError(t, err)
	r := &randSchema{members: map[string][]string{}, fits: map[string][]string{}, heirs: map[string][]string{}}
	for _, d := range s.Decls {
		r.decls = append(r.decls, d.Name)
		for _, e := range inherited(s, d) {
			r.heirs[e] = append(r.heirs[e], d.Name)
		}
		t, err := s.Deref(d.Type)
		if err != nil {
			continue
		}
		if d.Type.Kind == model.Ref && t.Kind == model.Object || d.Type.Kind == model.String {
			r.aliases = append(r.aliases, d.Name)
		}
		if t.Kind == model.Map {
			r.maps = append(r.maps, d.Name)
		}
		if d.Type.Kind != model.Object {
			continue
		}
		r.objects = append(r.objects, d.Name)
		for _, m := range t.Object.Members {
			r.members[d.Name] = append(r.members[d.Name], d.Name+"."+m.Name)
			for _, key := range shapesOf(s, d.Name, m) {
				r.fits[key] = append(r.fits[key], d.Name+"."+m.Name)
			}
			if m.Type.Kind == model.Object {
				for _, sub := range m.Type.Object.Members {
					r.members[d.Name] = append(r.members[d.Name], d.Name+"."+m.Name+"."+sub.Name)
				}
			}
		}
	}
	return r
}

// inherited are the declarations that d extends, transitively.
func inherited(s *model.Schema, d *model.Decl) []string {
	var out []string
	var walk func(d *model.Decl, depth int)
	walk = func(d *model.Decl, depth int) {
		for _, e := range d.Extends {
			if a := s.Decl(e.Ref); a != nil && !slices.Contains(out, e.Ref) && depth < model.MaxDepth {
				out = append(out, e.Ref)
				walk(a, depth+1)
			}
		}
	}
	walk(d, 0)
	return out
}

// randHandWritten is the hand-written file of every random package: a map type that the
// substitutes and embeds may name, with methods, and a struct that addFields may embed.
const randHandWritten = `package %s

// Meta is a hand-written _meta.
type Meta map[string]any

// GetMeta returns the metadata.
func (m Meta) GetMeta() map[string]any { return m }

// State is a program's own state.
type State struct{ N int }
`

// randBases are the declarations that mcp-go's configuration embeds as bases, and others.
var randBases = []string{"Result", "CacheableResult", "PaginatedResult", "Notification", "Annotated", "MultiRoundTripResult",
	"InputResponseRequestParams", "SamplingMessage", "ElicitResult", "Request", "RequestParams", "BaseMetadata", "DiscoverParams"}

// randShapes are the shape keys and their values.
var randShapes = []struct {
	key    string
	values []string
}{{"optional", []string{"pointer", "omitempty", "omitzero", "value"}}, {"elements", []string{"value", "pointer"}},
	{"objects", []string{"value", "pointer"}}, {"oneOrMany", []string{"struct", "slice"}}, {"nilAs", []string{"empty", "null"}},
	{"literals", []string{"field", "implicit"}}}

// randWriter writes one random configuration.
type randWriter struct {
	r *rand.Rand
	s *randSchema
	b strings.Builder
	// roots are the declarations the configuration selects (types), nil for every one; bases
	// the embedded bases; used the members that entries name already, which member picks
	// again rarely (a member both left out and renamed is refused).
	roots, bases []string
	used         map[string]bool
	// lossless is set for a configuration of every declaration without the keys that lose
	// members or values (substitute, omit, tagCodecs, standIn, unknown, decode, and the shapes
	// but elements, objects and literals): the spec's example messages round-trip through it.
	lossless bool
}

func (w *randWriter) chance(p float64) bool     { return w.r.Float64() < p }
func (w *randWriter) pick(list []string) string { return list[w.r.IntN(len(list))] }

// some picks at most most of what next returns (but "").
func (w *randWriter) some(next func() string, most int) []string {
	var out []string
	for range w.r.IntN(most + 1) {
		if x := next(); x != "" && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// decl picks a declaration: mostly one of the roots, sometimes any (which may not be generated).
func (w *randWriter) decl() string {
	if len(w.roots) == 0 || w.rare() {
		return w.pick(w.s.decls)
	}
	return w.pick(w.roots)
}

// object picks an object declaration as decl does, or "" when there is none.
func (w *randWriter) object() string {
	var objects []string
	for _, d := range append(slices.Clone(w.roots), w.bases...) {
		if w.s.members[d] != nil {
			objects = append(objects, d)
		}
	}
	if len(objects) == 0 || len(w.roots) == 0 || w.rare() {
		objects = w.s.objects
	}
	return w.pick(objects)
}

// objectOrMember picks an object as object does, or sometimes a member (an inline object's
// path, or a member that holds none).
func (w *randWriter) objectOrMember() string {
	if w.chance(0.2) {
		return w.member()
	}
	return w.object()
}

// member picks a member of an object declaration that object picks, one that no entry names
// yet but rarely.
func (w *randWriter) member() string {
	for {
		if m := w.s.members[w.object()]; len(m) > 0 {
			if x := w.pick(m); !w.used[x] || w.rare() {
				w.used[x] = true
				return x
			}
		}
	}
}

// fitting picks a member that the shape key applies to, of a root if one has such a member;
// sometimes any member.
func (w *randWriter) fitting(key string) string {
	var of []string
	for _, m := range w.s.fits[key] {
		d, _, _ := strings.Cut(m, ".")
		if slices.Contains(w.roots, d) || slices.Contains(w.bases, d) {
			of = append(of, m)
		}
	}
	if w.rare() {
		return w.member()
	}
	for range min(len(of), 10) {
		if x := w.pick(of); !w.used[x] {
			w.used[x] = true
			return x
		}
	}
	return "" // none: no entry
}

// results reports whether a result is generated, which Result._meta entries reach.
func (w *randWriter) results() bool {
	return w.roots == nil || slices.ContainsFunc(append(slices.Clone(w.roots), w.bases...), func(d string) bool {
		return d == "Result" || slices.Contains(w.s.heirs["Result"], d)
	})
}

// goIdent is s without the characters a Go identifier cannot have.
func goIdent(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return -1
	}, s)
}

// rare is the chance of an entry meant to be wrong, or to name what may not be generated: one
// in 100, so that most configurations generate.
func (w *randWriter) rare() bool { return w.chance(1.0 / 100) }

func (w *randWriter) list(key string, items []string) {
	if len(items) > 0 {
		fmt.Fprintf(&w.b, "%s: [%s]\n", key, strings.Join(items, ", "))
	}
}

func (w *randWriter) mapping(key string, entries [][2]string) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(&w.b, "%s:\n", key)
	for _, e := range entries {
		fmt.Fprintf(&w.b, "  %s: %s\n", e[0], e[1])
	}
}

// randConfig writes a random configuration of package pkg: a random selection, and random
// entries of every key that shapes the output, each drawn mostly from the selected
// declarations and their members, and from names that collide (another declaration's Go name,
// a derived name, a hand-written type, a field another member has), with the keys mcp-go's
// configuration uses (nested bases, omit, omitzero, defined types, tagCodecs).
func randConfig(r *rand.Rand, schemas [2]*randSchema, pkg string) (yaml string, lossless bool) {
	w := &randWriter{r: r, s: schemas[0], used: map[string]bool{}}
	w.lossless = w.chance(0.2)
	fmt.Fprintf(&w.b, "package: %s\n", pkg)
	if w.chance(0.5) {
		w.s = schemas[1]
		w.b.WriteString(randDeclarations)
	}
	s := w.s
	var defined []string
	if w.chance(0.2) {
		defined = []string{w.pick(s.aliases)}
	}
	if w.chance(0.85) && !w.lossless {
		w.roots = w.some(func() string { return w.pick(s.decls) }, 3)
	}
	for _, b := range randBases {
		if heirs := s.heirs[b]; len(heirs) > 0 && w.chance(0.08) {
			// A base that nothing generated extends changes nothing, and is refused.
			w.bases = append(w.bases, b)
			if w.roots != nil {
				w.roots = append(w.roots, w.pick(heirs))
			}
		}
	}
	if w.roots != nil {
		types := slices.Compact(slices.Sorted(slices.Values(append(append(slices.Clone(w.roots), w.bases...), defined...))))
		w.list("types", types)
	}
	w.list("defined", defined)
	w.names()
	for _, sh := range randShapes {
		if !w.chance(0.3) || w.lossless && !slices.Contains([]string{"elements", "objects", "literals"}, sh.key) {
			continue
		}
		var entries [][2]string
		if w.chance(0.7) {
			entries = append(entries, [2]string{"default", w.pick(sh.values)})
		}
		for _, m := range w.some(func() string { return w.fitting(sh.key) }, 2) {
			entries = append(entries, [2]string{m, w.pick(sh.values)})
		}
		w.mapping(sh.key, entries)
	}
	w.structs()
	for _, kv := range [][2]string{{"unknown", "drop"}, {"decode", "lenient"}, {"validate", "false"}} {
		if w.chance(0.2) && (!w.lossless || kv[0] == "validate") {
			fmt.Fprintf(&w.b, "%s: %s\n", kv[0], kv[1])
		}
	}
	return w.b.String(), w.lossless
}

// names writes rename, fields and substitute. A rename onto the hand-written Meta comes with a
// substitute naming Meta: a name that nothing of the configuration refers to may be a
// hand-written declaration that the output replaces (interop/sdkshape), which mcpgen accepts.
func (w *randWriter) names() {
	s := w.s
	var renames, fields, subs [][2]string
	for _, d := range w.some(w.decl, 2) {
		to := "X" + d
		if w.chance(0.15) {
			to = w.pick([]string{w.pick(s.decls), "Unmarshal" + w.pick(s.decls), w.decl() + "Params", "x" + d, "Meta", "type"})
		}
		if w.lossless && to == "Meta" {
			to = "X" + d // Meta comes with a substitute, which loses the member's own codec
		}
		if to == "Meta" && slices.Contains(s.maps, d) {
			// A map renamed onto the hand-written map Meta is accepted, as an SDK's declaration
			// that the output replaces (interop/sdkshape removes its own afterwards); until it is
			// removed the package declares Meta twice, which mcpgen cannot tell from a mistake.
			to = "X" + d
		}
		renames = append(renames, [2]string{d, to})
	}
	for _, m := range w.some(func() string { return w.fitting("rename") }, 2) {
		to := "Inline" + goIdent(m)
		if w.rare() {
			to = w.pick(s.decls)
		}
		renames = append(renames, [2]string{m, to})
	}
	for _, m := range w.some(w.member, 3) {
		to := "F" + goIdent(m)
		if w.chance(0.1) {
			to = w.pick([]string{"Meta", "Extra", "Type", "ID", "Error", "Content"})
		}
		fields = append(fields, [2]string{m, to})
	}
	for _, k := range w.some(w.member, 3) {
		subs = append(subs, [2]string{k, `"` + w.pick([]string{"any", "string", "int", "map[string]any", "[]string", "Meta", "*Meta",
			"encoding/json.RawMessage", "[]byte", w.decl()}) + `"`})
	}
	if w.lossless {
		subs = nil
	}
	meta := slices.ContainsFunc(renames, func(e [2]string) bool { return e[1] == "Meta" })
	if (meta || w.chance(0.3) && w.results() && !w.lossless) && !slices.ContainsFunc(subs, func(e [2]string) bool { return e[0] == "Result._meta" }) {
		subs = append(subs, [2]string{"Result._meta", "Meta"})
	}
	w.mapping("rename", renames)
	w.mapping("fields", fields)
	w.mapping("substitute", subs)
}

// structs writes embed, omit, defined, tagCodecs, addFields, standIn and order.
func (w *randWriter) structs() {
	s := w.s
	embeds := slices.Clone(w.bases)
	if w.chance(0.2) && w.results() {
		embeds = append(embeds, "Result._meta")
	} else if w.chance(0.1) {
		embeds = append(embeds, w.member())
	}
	w.list("embed", embeds)
	if !w.lossless {
		w.list("omit", w.some(w.member, 2))
		w.list("tagCodecs", w.some(w.objectOrMember, 2))
		if from, to := w.decl(), w.decl(); from != to && w.chance(0.1) {
			w.mapping("standIn", [][2]string{{from, to}})
		}
	}
	if w.chance(0.3) {
		w.mapping("addFields", [][2]string{{w.object(), w.pick([]string{`["err error"]`, `["Raw json.RawMessage"]`, `["State"]`, `["*State"]`})}})
	}
	if w.chance(0.1) {
		o := w.object()
		var names []string
		for _, m := range w.some(func() string { return w.pick(s.members[o]) }, 2) {
			names = append(names, strings.TrimPrefix(m, o+"."))
		}
		w.mapping("order", [][2]string{{o, "[" + strings.Join(names, ", ") + "]"}})
	}
}

// TestRandomConfigs generates random configurations (randConfig) for the 2026-07-28 schema and
// checks that each is either refused with an error at a position of the configuration file
// (file:line:col), or generates Go that go vet accepts; never a panic, never another error. The
// configurations of a batch are generated into one module and vetted by one go vet. A failure
// names the configuration's seed (-randconfig.seed=S -randconfig.n=1 runs it alone) and writes
// it out; testdata/configs keeps the ones found, as cases.
func TestRandomConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	seed := *randSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	schemas := [2]*randSchema{loadRandSchema(t, false), loadRandSchema(t, true)}
	examples := exampleMessages(t)
	start := time.Now()
	accepted, refused, roundTripped := 0, 0, 0
	for batch := 0; batch == 0 || time.Since(start) < *randFor; batch++ {
		root := t.TempDir()
		var outs []*configOutput
		seeds := map[string]uint64{}
		for i := range *randN {
			seedI := seed + uint64(batch**randN+i)
			pkg := fmt.Sprintf("r%d", seedI)
			yaml, lossless := randConfig(rand.New(rand.NewPCG(seedI, 0)), schemas, pkg)
			o := &configOutput{name: pkg, files: map[string]string{"mcpgen.yaml": yaml, "meta.go": fmt.Sprintf(randHandWritten, pkg)}}
			if lossless {
				addRoundTrip(t, o, examples)
			}
			seeds[pkg] = seedI
			outs = append(outs, o)
		}
		generateGuarded(t, root, outs, seeds)
		failed := vetOutputs(t, root, outs)
		for _, o := range outs {
			dir := filepath.Join(root, o.name)
			if o.err != nil {
				refused++
				t.Logf("seed %d: %v\n%s", seeds[o.name], o.err, o.files["mcpgen.yaml"])
			} else {
				accepted++
				if o.files["roundtrip_test.go"] != "" && failed[o.name] == "" {
					roundTripped++
				}
			}
			switch {
			case o.err != nil && !configPosition(dir).MatchString(o.err.Error()):
				t.Errorf("%s: an error without the configuration's position: %v\n%s", reproduce(t, o, seeds), o.err, o.files["mcpgen.yaml"])
			case o.err == nil && failed[o.name] != "":
				t.Errorf("%s: accepted, and the Go does not pass go vet:\n%s\n%s", reproduce(t, o, seeds), failed[o.name], o.files["mcpgen.yaml"])
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("from seed %d: %d configurations generated Go that go vet accepts (%d of them round-tripping the spec's example messages), %d were refused at an entry, in %s",
		seed, accepted, roundTripped, refused, time.Since(start).Round(time.Second))
}

// exampleMessages are the spec's example messages of 2026-07-28, by their path under
// testdata/examples: the requests and notifications, which decode without knowing a request.
func exampleMessages(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../../schema/2026-07-28/examples/*/*.json")
	require.NoError(t, err)
	out := map[string]string{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var msg map[string]json.RawMessage
		if json.Unmarshal(data, &msg) == nil && msg["jsonrpc"] != nil && msg["method"] != nil {
			out[filepath.Join("testdata", "examples", filepath.Base(filepath.Dir(path)), filepath.Base(path))] = string(data)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// randRoundTrip is the test of a lossless configuration's package (randWriter.lossless): every
// example message decodes, as a client's or a server's, and encodes back to the same JSON.
const randRoundTrip = `package %s

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestExamplesRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/examples/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal("no examples", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecodeClientMessage(data, nil)
		if err != nil {
			m, err = DecodeServerMessage(data, nil)
		}
		if err != nil {
			t.Errorf("%%s: %%v", file, err)
			continue
		}
		out, err := json.Marshal(m)
		var want, got any
		if err != nil || json.Unmarshal(data, &want) != nil || json.Unmarshal(out, &got) != nil || !reflect.DeepEqual(want, got) {
			t.Errorf("%%s: encoded back as %%s (%%v)", file, out, err)
		}
	}
}
`

// addRoundTrip adds the round trip test and the example messages to the files of o.
func addRoundTrip(t *testing.T, o *configOutput, examples map[string]string) {
	t.Helper()
	o.files["roundtrip_test.go"] = fmt.Sprintf(randRoundTrip, o.name)
	for path, data := range examples {
		o.files[path] = data
	}
}

// generateGuarded is generateOutputs, one output at a time, turning a panic into a failure that
// names the configuration.
func generateGuarded(t *testing.T, root string, outs []*configOutput, seeds map[string]uint64) {
	for _, o := range outs {
		func() {
			defer func() {
				if p := recover(); p != nil {
					o.err = fmt.Errorf("panic: %v", p)
					t.Errorf("%s: mcpgen panicked: %v\n%s", reproduce(t, o, seeds), p, o.files["mcpgen.yaml"])
				}
			}()
			generateOutputs(t, root, []*configOutput{o})
		}()
	}
}

// reproduce writes the configuration of a failing output where the test's files outlive it, and
// says how to run it again.
func reproduce(t *testing.T, o *configOutput, seeds map[string]uint64) string {
	path := filepath.Join(os.TempDir(), "randconfig-"+o.name+".yaml")
	if err := os.WriteFile(path, []byte(o.files["mcpgen.yaml"]), 0o644); err != nil {
		t.Log(err)
	}
	return fmt.Sprintf("seed %d (-randconfig.seed=%d -randconfig.n=1; written to %s)", seeds[o.name], seeds[o.name], path)
}
