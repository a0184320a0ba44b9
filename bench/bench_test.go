package bench

import (
	"testing"
)

// The benchmarks are named Op/corpus/contender. A contender that has no type for a corpus, whose
// spec version rejects it, or that cannot hold it (see Hold) is skipped with the reason, which
// `go test -v` prints and cmd/benchtable shows in its table. Run them all through cmd/benchtable
// (see README.md), or one of them with
//
//	go test -run '^$' -bench 'Decode/sampling-40msg/' -benchmem ./bench

func BenchmarkDecode(b *testing.B) {
	for _, c := range corpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			for _, k := range Contenders() {
				b.Run(k.Name, func(b *testing.B) { benchDecode(b, k, c) })
			}
			for _, f := range Floors() {
				if f.Op == Decode {
					b.Run(f.Name, func(b *testing.B) { benchFloor(b, f, c.Data) })
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, c := range corpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			for _, k := range Contenders() {
				if !k.DecodeOnly {
					b.Run(k.Name, func(b *testing.B) { benchEncode(b, k, c) })
				}
			}
			compact, err := Compact(c.Data)
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range Floors() {
				if f.Op == Encode {
					b.Run(f.Name, func(b *testing.B) { benchFloor(b, f, compact) })
				}
			}
		})
	}
}

// scaleContenders are the contenders of the scaling series (BenchmarkScale): mcpgen's draft
// types (with and without the copy of the input), the SDKs', the plain map; with the jx.Skip
// floor.
var scaleContenders = []string{"mcpgen-draft", "mcpgen-draft-nocopy", "go-sdk", "mcp-go", "map"}

// BenchmarkScale decodes sampling requests of growing size, from 1 KB to 10 MB (ScaleSeries).
// cmd/benchplot runs it and plots the result.
func BenchmarkScale(b *testing.B) {
	for _, c := range ScaleSeries() {
		b.Run(c.Name, func(b *testing.B) {
			for _, k := range Contenders() {
				for _, name := range scaleContenders {
					if k.Name == name {
						b.Run(k.Name, func(b *testing.B) { benchDecode(b, k, c) })
					}
				}
			}
			for _, f := range Floors() {
				if f.Name == "jx.Skip" {
					b.Run(f.Name, func(b *testing.B) { benchFloor(b, f, c.Data) })
				}
			}
		})
	}
}

func benchDecode(b *testing.B, k Contender, c Corpus) {
	codec, err := status(k, c)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(c.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Decode(c.Data); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEncode(b *testing.B, k Contender, c Corpus) {
	codec, err := status(k, c)
	if err != nil {
		b.Skip(err)
	}
	v, err := codec.Decode(c.Data)
	if err != nil {
		b.Fatal(err)
	}
	out, err := codec.Encode(v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchFloor(b *testing.B, f Floor, data []byte) {
	run := f.New()
	if err := run(data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := run(data); err != nil {
			b.Fatal(err)
		}
	}
}
