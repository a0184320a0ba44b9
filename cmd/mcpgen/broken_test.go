package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// garbage returns n pseudo-random bytes: binary data, neither UTF-8 nor TypeScript.
func garbage(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return string(b)
}

// brokenInputs are malformed schema files, each with where its one error is and what it says.
var brokenInputs = []struct {
	name, file, src string
	pos             string // line:col
	want            string // in the message
}{
	{"unterminated comment", "schema.ts", "export interface A {\n  /** the doc\n  a: string;\n}\n", "2:3", "found unterminated comment, expected `*/`"},
	{"missing brace", "schema.ts", "export interface A {\n  a: string;\n\nexport interface B {}\n", "4:8", "found `interface`, expected `;` or `}`"},
	{"unknown type reference", "schema.ts", "export interface A {\n  b: Missing;\n}\n", "2:6", "found unknown type Missing, expected a declared type"},
	{"duplicate declaration", "schema.ts", "export type A = string;\nexport interface B {}\nexport type A = number;\n", "3:13", "found a second declaration of A, expected one"},
	{"construct that cannot be mapped", "schema.ts", "export interface A { a: string }\nexport type B<T> = T extends string ? A : never;\n", "2:14", "found type parameters in B, which cannot be mapped to Go"},
	{"conditional type", "schema.ts", "export interface A { a: string }\nexport type B = A extends object ? A : never;\n", "2:17", "found a conditional type in B, which cannot be mapped to Go"},
	{"function declaration", "schema.ts", "export interface A {}\nexport declare function f(a: A): void;\n", "2:16", "found a function declaration f, which cannot be mapped to Go"},
	{"union that cannot be classified", "schema.ts", "export type A = string;\nexport type B = string;\nexport interface C {\n  u: A | B;\n}\n", "4:6", "no decision procedure: variants A and B are both JSON string"},
	{"empty file", "schema.ts", "", "1:1", "found no interface or type alias, expected at least one"},
	{"declaration-free file", "schema.ts", "// Only comments,\n;\nexport const A = 1;\n", "1:1", "found no interface or type alias, expected at least one"},
	{"binary garbage", "schema.ts", "\x7fELF\x02\x01\x01" + garbage(4096), "1:10", "found the byte 0x"},
	{"megabyte-long identifier", "schema.ts", "export interface A {\n  b: " + strings.Repeat("Q", 1<<20) + ";\n}\n", "2:6", "found unknown type QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ… (1048576 bytes)"},
	{"a million parentheses", "schema.ts", "export type A = " + strings.Repeat("(", 1_000_000) + "string" + strings.Repeat(")", 1_000_000) + ";\n", "1:117", "found types or blocks nested more than 100 deep"},
	{"ten thousand []", "schema.ts", "export type A = string" + strings.Repeat("[]", 10_000) + ";\n", "1:221", "found array types nested more than 100 deep"},
	{"non-UTF-8 in a doc comment", "schema.ts", "/**\n * Caf\xe9.\n */\nexport interface A {\n  a: string;\n}\n", "2:7", "found the byte 0xe9, which is not UTF-8, expected UTF-8 text"},
	{"NUL byte outside a comment", "schema.ts", "export interface A {\n  a: string;\x00\n}\n", "2:13", `found '\x00', expected a token`},
	{"JSON: not UTF-8", "schema.json", "{\"definitions\": {\"A\": {\"description\": \"\xff\", \"type\": \"string\"}}}", "1:40", "found the byte 0xff, which is not UTF-8"},
	{"JSON: no definitions", "schema.json", `{"$schema": "x", "definitions": {}}`, "1:18", "found no definitions, expected at least one"},
	{"JSON: truncated", "schema.json", `{"definitions": {"A": {"type": "string"`, "1:40", "unexpected end of JSON input"},
	{"JSON: deep nesting", "schema.json", `{"definitions": {"A": ` + strings.Repeat(`{"type": "array", "items": `, 100_000) + `{}` + strings.Repeat("}", 100_000) + "}}", "1:", "nested more than"},
	{"JSON: long unknown keyword", "schema.json", `{"definitions": {"A": {"` + strings.Repeat("k", 1<<20) + `": 1}}}`, "1:24", "A: unsupported keyword \"kkkk"},
}

// TestBrokenInput runs the command on each malformed schema: one error line naming
// file:line:col, exit status 2, no panic, and an output directory left byte for byte as it was.
func TestBrokenInput(t *testing.T) {
	out := t.TempDir()
	var discard bytes.Buffer
	require.Equal(t, 0, cli([]string{"-o", out}, &discard, &discard))
	before := snapshot(t, out)
	for _, tc := range brokenInputs {
		t.Run(tc.name, func(t *testing.T) {
			schema := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, os.WriteFile(schema, []byte(tc.src), 0o644))
			var stdout, stderr bytes.Buffer
			code := cli([]string{"-schema", schema, "-o", out}, &stdout, &stderr)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout.String())
			msg := stderr.String()
			assert.True(t, strings.HasPrefix(msg, "mcpgen: "+schema+":"+tc.pos), "want mcpgen: %s:%s..., got %.300q", schema, tc.pos, msg)
			assert.Contains(t, msg, tc.want)
			assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %.300q", msg)
			assert.True(t, strings.HasSuffix(msg, "\n"))
			assert.LessOrEqual(t, len(msg), len(schema)+500, "an error line of bounded length: %.300q", msg)
			assert.Equal(t, before, snapshot(t, out), "the output directory changed")
			assertNoTemps(t, out)
		})
	}
}
