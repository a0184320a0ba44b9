package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/go-faster/jx"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
)

// BenchmarkScan measures the JSON machinery alone, on each corpus: what reading the bytes costs
// before any value is built. It is the measurement behind the choice of the generated codecs'
// scanner (docs/json-machinery.md):
//
//   - mcpgen-scan: the generated runtime's scanner, reached through a public API: the corpus is
//     the structuredContent of a CallToolResult, which the decoder checks (syntax, UTF-8,
//     duplicate member names) and keeps as raw JSON, with the one copy of the input that
//     UnmarshalJSON makes;
//   - mcpgen-scan-nocopy: the same with UnmarshalNoCopy, which keeps the input instead of a copy
//     (and validates the result, a CallToolResult of two members);
//   - jx.Skip: github.com/go-faster/jx, the fastest scanner we know of (it checks syntax, not
//     duplicate names);
//   - json.Valid and json.Decoder.Token: the standard library's scanner;
//   - jsontext.SkipValue and ReadToken: encoding/json/v2's scanner, when the toolchain has it
//     (GOEXPERIMENT=jsonv2; scan_jsonv2_test.go).
func BenchmarkScan(b *testing.B) {
	for _, c := range corpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			wrapped := append(append([]byte(`{"content":[],"structuredContent":`), c.Data...), '}')
			run := func(name string, data []byte, f func([]byte) error) {
				b.Run(name, func(b *testing.B) {
					if err := f(data); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						if err := f(data); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			run("mcpgen-scan", wrapped, func(data []byte) error {
				var r mcpdraft.CallToolResult
				return r.UnmarshalJSON(data)
			})
			run("mcpgen-scan-nocopy", wrapped, func(data []byte) error {
				var r mcpdraft.CallToolResult
				return mcpdraft.UnmarshalNoCopy(data, &r)
			})
			var jd jx.Decoder
			run("jx.Skip", c.Data, func(data []byte) error {
				jd.ResetBytes(data)
				return jd.Skip()
			})
			run("json.Valid", c.Data, func(data []byte) error {
				if !json.Valid(data) {
					b.Fatal("not valid JSON")
				}
				return nil
			})
			run("json.Token", c.Data, func(data []byte) error {
				d := json.NewDecoder(bytes.NewReader(data))
				for {
					if _, err := d.Token(); err == io.EOF {
						return nil
					} else if err != nil {
						return err
					}
				}
			})
			for name, f := range jsontextScanners {
				run(name, c.Data, f)
			}
		})
	}
}

// jsontextScanners are the scanners of encoding/json/jsontext, set by scan_jsonv2_test.go when the
// toolchain has the package.
var jsontextScanners = map[string]func([]byte) error{}
