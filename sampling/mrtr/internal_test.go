//lint:file-ignore SA1019 sampling is deprecated as of 2026-07-28 (SEP-2577), and still in it: these tests convert its types

package mrtr

import (
	"compress/flate"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	v1125 "github.com/mcpgen/mcpgen/gen/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/gen/mcp20260728"
	"github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"
)

// TestConversionsOnSpecExamples: the spec's sampling examples of 2026-07-28 cross the boundary
// between the two versions' types and come back as the same JSON.
func TestConversionsOnSpecExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "spec", "*.json"))
	if err != nil || len(files) != 6 {
		t.Fatalf("%d examples: %v", len(files), err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var probe map[string]json.RawMessage
		json.Unmarshal(data, &probe)
		var out []byte
		if _, ok := probe["messages"]; ok {
			var p v1125.CreateMessageRequestParams
			if err := v1125.Unmarshal(data, &p); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			q, err := boundary.Convert[mcp.CreateMessageRequestParams](&p)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if out, err = mcp.Marshal(q); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		} else {
			var r mcp.CreateMessageResult
			if err := mcp.Unmarshal(data, &r); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			q, err := boundary.Convert[v1125.CreateMessageResult](&r)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if out, err = v1125.Marshal(q); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		var a, b any
		json.Unmarshal(data, &a)
		json.Unmarshal(out, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: converted to\n%s", file, out)
		}
	}
}

func TestSealOpen(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	p := &envelope{ID: "id", Expires: 1, Principal: "p", Request: "r", Body: json.RawMessage(`{"key":"sampling-1","conv":"c","n":2,"params":{"messages":[],"maxTokens":1}}`)}
	s, err := seal(key, p, DefaultMaxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	got, err := open(key, s, DefaultMaxStateBytes)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Fatalf("open: %+v, %v", got, err)
	}
	if _, err := open([]byte(strings.Repeat("x", 32)), s, DefaultMaxStateBytes); !errors.Is(err, ErrTamperedState) {
		t.Errorf("another key: %v", err)
	}
	if _, err := seal(key, p, 40); !errors.Is(err, ErrStateTooLarge) {
		t.Errorf("too large: %v", err)
	}
}

// TestSealKeepsCompressorsAcrossGC: sealing and opening a state after garbage collections reuse
// the compressor and decompressor of the state before (a sync.Pool would have dropped them, and
// each seal would allocate its megabyte of tables again).
func TestSealKeepsCompressorsAcrossGC(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	p := &envelope{ID: "id", Expires: 1, Principal: "p", Request: "r", Body: json.RawMessage(`{"key":"sampling-1","conv":"c","n":2,"params":{"messages":[],"maxTokens":1}}`)}
	round := func() {
		s, err := seal(key, p, DefaultMaxStateBytes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := open(key, s, DefaultMaxStateBytes); err != nil {
			t.Fatal(err)
		}
	}
	round()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	round()
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("a seal and an open after two collections allocated %d bytes", n)
	}
}

// FuzzOpen: whatever the client sends as requestState, open returns an error or a payload that
// seals back to the same state (only states the server issued open), and never panics.
func FuzzOpen(f *testing.F) {
	key := []byte(strings.Repeat("k", 32))
	p := &envelope{ID: "id", Expires: 1, Body: json.RawMessage(`{}`)}
	s, err := seal(key, p, DefaultMaxStateBytes)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(s)
	f.Add(s[:len(s)-1])
	f.Add("v2..")
	f.Add("v2.AAAA.AAAA")
	f.Fuzz(func(t *testing.T, state string) {
		got, err := open(key, state, 4096)
		if err != nil {
			var serr *StateError
			if !errors.As(err, &serr) || serr.Code != codeInvalidParams {
				t.Fatalf("error %#v", err)
			}
			return
		}
		again, err := seal(key, got, 4096)
		if err != nil || again != state {
			t.Fatalf("opened %q, which seals to %q (%v)", state, again, err)
		}
	})
}

// TestOpenBoundsInflation: a state whose envelope inflates to more than maxInflateRatio times
// the state, or to more than MaxStateBytes, is refused before its JSON is read, even with a valid
// MAC (a state of an older format or configuration, say); seal never issues one.
func TestOpenBoundsInflation(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	e := &envelope{ID: "id", Expires: 1, Body: json.RawMessage(`"` + strings.Repeat("a", 100<<10) + `"`)}
	data, _ := json.Marshal(e)
	dense, err := sealAt(key, data, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(key, dense, DefaultMaxStateBytes); !errors.Is(err, ErrStateTooLarge) {
		t.Errorf("%d bytes inflating to %d: %v", len(dense), len(data), err)
	}
	s, err := seal(key, e, DefaultMaxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > maxInflateRatio*len(s) {
		t.Errorf("seal issued %d bytes for %d bytes of JSON", len(s), len(data))
	}
	if got, err := open(key, s, DefaultMaxStateBytes); err != nil || !reflect.DeepEqual(got, e) {
		t.Errorf("open: %v", err)
	}
	if _, err := open(key, s, len(data)-1); !errors.Is(err, ErrStateTooLarge) {
		t.Errorf("more than MaxStateBytes: %v", err)
	}
}
