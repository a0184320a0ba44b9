package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// root is the repository's root, from this package's directory (where go test runs it).
const root = ".."

var loadCorpora = sync.OnceValues(func() ([]Corpus, error) { return Corpora(root) })

func corpora(tb testing.TB) []Corpus {
	tb.Helper()
	cs, err := loadCorpora()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// schemas compiles the definitions of one spec version's schema.json with a real JSON Schema
// validator, the reference the corpora and the contenders' applicability are decided by.
type schemas struct {
	compiler *jsonschema.Compiler
	prefix   string
	compiled map[Type]*jsonschema.Schema
}

var (
	schemasMu sync.Mutex
	loaded    = map[string]*schemas{}
	// accepted caches, by spec version and corpus name, whether the version accepts a corpus:
	// validating a 10 MB document takes seconds, and benchmarks with -count ask many times.
	accepted = map[[2]string]error{}
)

// validate validates a document of type t against the schema.json of a spec version.
func validate(version string, t Type, data []byte) error {
	schemasMu.Lock()
	defer schemasMu.Unlock()
	s, ok := loaded[version]
	if !ok {
		file := filepath.Join(root, "schema", version, "schema.json")
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("schema.json", doc); err != nil {
			return err
		}
		s = &schemas{compiler: c, prefix: "schema.json#/$defs/", compiled: map[Type]*jsonschema.Schema{}}
		if _, ok := doc.(map[string]any)["$defs"]; !ok {
			s.prefix = "schema.json#/definitions/"
		}
		loaded[version] = s
	}
	sch, ok := s.compiled[t]
	if !ok {
		var err error
		if sch, err = s.compiler.Compile(s.prefix + string(t)); err != nil {
			return err
		}
		s.compiled[t] = sch
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// applies returns nil when a contender's spec version accepts a corpus, and otherwise why not.
//
// The first question about a corpus is answered for every contender's spec version at once, and
// then the reference validator is dropped and the garbage collected: the compiled schemas and
// parsed schema.json documents are a megabyte of pointers, and while a benchmark runs the heap
// should hold nothing of the harness's own for the collector to mark again in every cycle (it
// made each contender pay for the collections its allocations cause at a rate set by the
// harness, not by the contender).
func applies(k Contender, c Corpus) error {
	if k.Spec == "" {
		return nil
	}
	key := [2]string{k.Spec, c.Name}
	schemasMu.Lock()
	err, ok := accepted[key]
	schemasMu.Unlock()
	if ok {
		return err
	}
	for _, other := range Contenders() {
		if other.Spec == "" {
			continue
		}
		key := [2]string{other.Spec, c.Name}
		schemasMu.Lock()
		_, done := accepted[key]
		schemasMu.Unlock()
		if done {
			continue
		}
		err := validate(other.Spec, c.Type, c.Data)
		if err != nil {
			err = fmt.Errorf("not a valid %s %s: %s", other.Spec, c.Type, oneLine(err))
		}
		schemasMu.Lock()
		accepted[key] = err
		schemasMu.Unlock()
	}
	schemasMu.Lock()
	clear(loaded)
	err = accepted[key]
	schemasMu.Unlock()
	runtime.GC()
	return err
}

var (
	holdMu    sync.Mutex
	holdCache = map[[2]string]error{}
)

// status returns nil when contender k is given corpus c and holds it, and otherwise the reason
// a benchmark skips it: "n/a: ..." when it has no type for it or its spec version rejects it,
// "cannot hold: ..." when the round trip loses data. Results are cached by name.
func status(k Contender, c Corpus) (Codec, error) {
	codec, ok := k.Codec(c.Type)
	if !ok {
		return codec, fmt.Errorf("n/a: no type for %s", c.Type)
	}
	if err := applies(k, c); err != nil {
		return codec, fmt.Errorf("n/a: %w", err)
	}
	key := [2]string{k.Name, c.Name}
	holdMu.Lock()
	err, ok := holdCache[key]
	holdMu.Unlock()
	if !ok {
		err = Hold(codec, c.Data)
		holdMu.Lock()
		holdCache[key] = err
		holdMu.Unlock()
		runtime.GC() // the garbage of the check, before the timing starts
	}
	if err != nil {
		return codec, fmt.Errorf("cannot hold: %w", err)
	}
	return codec, nil
}
