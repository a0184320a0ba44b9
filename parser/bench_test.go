package parser

import (
	"strconv"
	"strings"
	"testing"
)

// absurdInputs are valid TypeScript (or almost) that no schema holds, whose cost must stay
// bounded: the parser stops at the nesting limit instead of following the input down.
var absurdInputs = []struct {
	name string
	src  string
	ok   bool // whether Load succeeds
}{
	{"parens-100k", "type A = " + strings.Repeat("(", 100_000) + "string" + strings.Repeat(")", 100_000) + ";", false},
	{"parens-1M", "type A = " + strings.Repeat("(", 1_000_000) + "string" + strings.Repeat(")", 1_000_000) + ";", false},
	{"arrays-10k", "type A = string" + strings.Repeat("[]", 10_000) + ";", false},
	{"objects-100k", "type A = " + strings.Repeat("{ a: ", 100_000) + "string" + strings.Repeat(" }", 100_000) + ";", false},
	{"identifier-1MB", "type A = " + strings.Repeat("X", 1<<20) + ";", false},
	{"union-100k", "type A = " + strings.Repeat(`"v" | `, 100_000) + "string;", true},
	{"members-100k", "interface A {" + func() string {
		var b strings.Builder
		for i := range 100_000 {
			b.WriteString(" m" + strconv.Itoa(i) + ": string;")
		}
		return b.String()
	}() + " }", true},
}

// BenchmarkLoadAbsurd measures Load on the absurd inputs (ns/op, MB/s, B/op, allocs/op).
func BenchmarkLoadAbsurd(b *testing.B) {
	for _, in := range absurdInputs {
		src := []byte(in.src)
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				_, err := Load("a.ts", src)
				if (err == nil) != in.ok {
					b.Fatalf("Load: %v", err)
				}
			}
		})
	}
}
