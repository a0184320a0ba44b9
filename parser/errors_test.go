package parser

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errorCases are TestErrors's bad inputs, each with the start of the error it must give.
var errorCases = []struct {
	name string
	src  string
	want string // the error must start with "x.ts:" + want
}{
	{"unterminated string", "type A = \"abc;\n", `1:10: found unterminated string`},
	{"unterminated single-quoted string", "type A = 'abc", `1:10: found unterminated string`},
	{"unterminated comment", "/** doc\ninterface A {}", `1:1: found unterminated comment`},
	{"bad character", "type A = \\x;", "1:10: found '\\\\', expected a token"},
	{"missing semicolon after alias", "type A = string type B = number;", "1:17: found `type`, expected `;`"},
	{"missing semicolon after const", "const A = 1 const B = 2;", "1:13: found `const`, expected `;`"},
	{"missing closing brace", "interface A {\n  a: string;\n", "3:1: found end of file, expected a member name or `}`"},
	{"missing member separator", "interface A { a: string b: number }", "1:25: found `b`, expected `;` or `}`"},
	{"function body", "export function f() {}", "1:21: found `{`, expected `;` (mcpgen reads declarations, not function bodies)"},
	{"statement", "type A = string;\nif (x) {}", "2:1: found `if`, expected a declaration"},
	{"function", "export declare function f(): void;", "1:16: found a function declaration f, which cannot be mapped to Go"},
	{"enum", "enum E {}", "1:1: found an enum E, which cannot be mapped to Go"},
	{"generic interface", "interface A<T> { a: T }", "1:12: found type parameters in A, which cannot be mapped to Go"},
	{"generic alias", "type A<T> = T[];", "1:7: found type parameters in A, which cannot be mapped to Go"},
	{"conditional type", "type A = string extends B ? C : D;", "1:10: found a conditional type in A, which cannot be mapped to Go"},
	{"indexed access", "type A = B[\"x\"];", "1:10: found an indexed access type in A, which cannot be mapped to Go"},
	{"method", "interface A { f(): void }", "1:15: found a method signature in A, which cannot be mapped to Go"},
	{"index key not string", "interface A { [k: number]: string }", "1:15: found an index signature whose key is not string in A, which cannot be mapped to Go"},
	{"two index signatures", "interface A { [k: string]: string; [j: string]: number }", "1:36: found a second index signature"},
	{"missing type", "type A = ;", "1:10: found `;`, expected a type"},
	{"minus without number", "type A = -x;", "1:11: found `x`, expected a number"},
	{"const of a type", "const A = string;\ntype B = string;", "1:11: found a value that is not a literal in A, which cannot be mapped to Go"},
	{"empty file", "", "1:1: found no interface or type alias, expected at least one"},
	{"only comments and constants", "// x\nexport const A = 1;\n;", "1:1: found no interface or type alias, expected at least one"},
	{"not UTF-8", "type A = string;\n/** a \xff */\ntype B = string;", "2:7: found the byte 0xff, which is not UTF-8, expected UTF-8 text"},
	{"not UTF-8 after CRLF", "type A = string;\r\n\r\n  \xc3(", "3:3: found the byte 0xc3, which is not UTF-8"},
	{"deep parentheses", "type A = " + strings.Repeat("(", 1000) + "string" + strings.Repeat(")", 1000) + ";", "1:110: found types or blocks nested more than 100 deep, expected at most 100"},
	{"deep arrays", "type A = string" + strings.Repeat("[]", 10000) + ";", "1:214: found array types nested more than 100 deep, expected at most 100"},
	{"deep objects", "type A = " + strings.Repeat("{ a: ", 200) + "string" + strings.Repeat("}", 200) + ";", "1:"},
	{"long unknown name", "type A = " + strings.Repeat("X", 1<<20) + ";", "1:10: found unknown type XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX… (1048576 bytes), expected a declared type"},
	{"long bad token", "type A = " + strings.Repeat("9", 1<<20) + "x;", "1:10: found `999999999999999999999999999999999999999999999999… (1048577 bytes)`, expected a number"},
	{"unknown type", "interface A {\n  b: Missing;\n}", "2:6: found unknown type Missing"},
	{"unknown type in extends", "interface A extends Missing {}", "1:21: found unknown type Missing"},
	{"unknown constant", "type A = typeof MISSING;", "1:10: found unknown constant MISSING"},
	{"constant as type", "const C = 1;\ntype A = C;", "2:10: found constant C, expected a type"},
	{"extends cycle", "interface A extends B {}\ninterface B extends A {}", "2:21: found a cycle A → B → A"},
	{"self extends", "interface A extends A {}", "1:21: found a cycle A → A"},
	{"alias cycle in extends", "type A = B;\ntype B = A;\ninterface C extends A {}", "3:21: found a cycle"},
	{"omit of a non-member", "interface A { a: string }\ntype B = Omit<A, \"a\" | \"b\">;", "2:24: found \"b\", expected a member"},
	{"omit of a non-object", "type A = string;\ntype B = Omit<A, \"a\">;", "2:15: found string, expected an object type"},
	{"extends a union", "type A = string | number;\ninterface B extends A {}", "2:21: found union, expected an object type"},
	{"record with number keys", "type A = Record<number, string>;", "1:17: found a Record key type other than string"},
	{"array arity", "type A = Array<string, number>;", "1:10: found Array with 2 type arguments, expected 1"},
	{"generic reference", "interface B {}\ntype A = B<string>;", "2:10: found type arguments to B"},
	{"duplicate declaration", "type A = string;\ninterface A {}", "2:11: found a second declaration of A"},
	{"duplicate member", "interface A {\n  a: string;\n  a: number;\n}", "3:3: found a second member \"a\""},
	{"bad @minimum", "interface A {\n  /** @minimum low */\n  a: number;\n}", "2:7: found \"low\" after @minimum, expected a number"},
	{"bad @maxItems", "interface A {\n  /** @maxItems 1.5 */\n  a: string[];\n}", "2:7: found \"1.5\" after @maxItems, expected an integer"},
	{"bad @TJS-type", "interface A {\n  /** @TJS-type string */\n  a: number;\n}", "2:7: found @TJS-type \"string\""},
	// Found against esbuild (oracle_test.go).
	{"number with two points", "type A = 2..5e3;", "1:12: found `.5e3`, expected `;`"},
	{"number with a leading zero", "const A = 05;\ntype B = string;", "1:11: found a legacy octal literal in A, which cannot be mapped to Go"},
	{"number without exponent digits", "type A = 1e;", "1:10: found `1e`, expected digits in its exponent"},
	{"number then a letter", "type A = 1x;", "1:10: found `1x`, expected a number"},
	{"line break after type", "export type\nA = string;", "1:12: found a line break after `type`, expected the name on the same line"},
	{"line break after interface", "interface\nA {}", "1:10: found a line break after `interface`, expected the name on the same line"},
	{"type arguments on the next line", "type A = Array\n<string>;", "2:1: found `<`, expected a declaration"},
	{"array brackets on the next line", "type A = string\n[];", "2:1: found `[`, expected a declaration"},
	{"lone CR as a line break", "export type\rA = string;", "1:12: found a line break after `type`"},
	{"lone CR in a string", "type A = \"a\rb\";", "1:10: found unterminated string"},
	{"private name in an interface", "interface A { #a: string }", "1:15: found `#a`, expected a member name or `}`"},
	{"octal escape", `const A = "\1";`, `1:11: found an octal escape \1, expected another escape`},
	{"octal escape after zero", `const A = "\01";`, `1:11: found an octal escape \01, expected another escape`},
	{"short hex escape", `const A = "\x4";`, `1:11: found a bad \x escape, expected \xXX`},
	{"short unicode escape", `const A = "\uD83D\uDE0";`, `1:11: found a bad \u escape, expected \uXXXX`},
	{"escaped backslash then a line break", "const A = 'a\\\\\nb';", "1:11: found unterminated string"},
	{"backslash at the end of the file", "const A = 'a\\", "1:11: found unterminated string"},
	{"line continuation then the end of the file", "const A = 'a\\\n", "1:11: found unterminated string"},
	{"bare Array", "type A = Array;", "1:10: found Array with 0 type arguments, expected 1"},
	{"bare Omit", "type A = Omit;", "1:10: found Omit with 0 type arguments, expected 2"},
}

// TestErrors checks that bad inputs give an error at the right position.
func TestErrors(t *testing.T) {
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load("x.ts", []byte(tt.src))
			require.Error(t, err)
			require.Nil(t, s)
			assert.True(t, strings.HasPrefix(err.Error(), "x.ts:"+tt.want), "got error %q\nwant prefix x.ts:%s", err, tt.want)
		})
	}
}

// TestStringEscapes checks the values of escapes in string literals, and the line of the
// declaration after them.
func TestStringEscapes(t *testing.T) {
	tests := []struct {
		name, lit, want string
		breaks          int // line breaks in lit
	}{
		{"simple escapes", `"\x41\u00e9\0\'"`, "A\u00e9\x00'", 0},
		{"surrogate pair", `"\uD83D\uDE00"`, "\U0001F600", 0},
		{"surrogate pair in lower case", `"<\ud83d\ude00>"`, "<\U0001F600>", 0},
		// esbuild keeps a lone surrogate, which a Go string cannot hold.
		{"lone high surrogate", `"\uD83Dx"`, "\uFFFDx", 0},
		{"lone low surrogate", `"\uDE00"`, "\uFFFD", 0},
		{"high surrogate before a non-surrogate escape", `"\uD83D\u0041"`, "\uFFFDA", 0},
		{"low then high surrogate", `"\uDE00\uD83D"`, "\uFFFD\uFFFD", 0},
		{"line continuation by LF", "'a\\\nb'", "ab", 1},
		{"line continuation by CRLF", "'a\\\r\nb'", "ab", 1},
		{"line continuation by CR", "'a\\\rb'", "ab", 1},
		{"line continuation by U+2028", "'a\\\u2028b'", "ab", 1},
		{"line continuation by U+2029", "'a\\\u2029b'", "ab", 1},
		{"two line continuations", "'a\\\n\\\nb'", "ab", 2},
		{"escaped U+2028 is no line break", `"a\u2028b"`, "a\u2028b", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("x.ts", []byte("const A = "+tt.lit+";\ntype B = string;"))
			require.NoError(t, err)
			assert.Equal(t, tt.want, f.Decls[0].(*Const).Value.Value.Str)
			assert.Equal(t, model.Pos{File: "x.ts", Line: 2 + tt.breaks, Col: 6}, f.Decls[1].Position())
		})
	}
}
