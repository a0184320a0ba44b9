package parser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/model"
)

// This file grows the esbuild oracle into a generator of declaration-file forms: types in every
// place a schema puts them, and the declarations and statements a .d.ts may hold, in several
// spellings. esbuild must accept every form (it judges what is valid syntax); mcpgen must then
// either map it (Load and Classify succeed) or fail with one error, at the construct, that says
// it cannot be mapped to Go and names the declaration.

// mark is where a form expects its one error: the first byte of the construct. It is removed
// before the form is parsed.
const mark = "‸"

// formPrelude declares what the forms refer to.
const formPrelude = `export interface Base { b: string; c?: number }
export type Keys = "k1" | "k2";
export const CONST = "c";
export type Brand = number & { readonly minimum: 0 };
`

// formType is a type expression; what is the construct that cannot be mapped, at the mark, or ""
// when the type maps.
type formType struct {
	typ, what string
}

var mappedTypes = []string{
	`string`, `number`, `boolean`, `null`, `unknown`, `any`, `object`, `"lit"`, `'single'`, `42`,
	`-1.5e3`, `0x1F`, `1_000`, `.5`, `true`, "`tpl`", `"a" | "b"`, `| "a" | "b"`,
	`"a" | "b" | string`, `string | number`, `Base`, `Base[]`, `Base | Base[]`, `readonly Base[]`,
	`ReadonlyArray<Base>`, `Array<Array<string>>`, `Record<string, number>`,
	`Record<"a" | "b", string>`, `Record<"a" | string, string>`, `Record<Keys, number>`,
	`Omit<Base, "b">`, `Pick<Base, "b">`, `Partial<Base>`, `Required<Base>`, `Readonly<Base>`,
	`Base & { extra: string }`, `& Base & { c?: never }`, `{ a: string; b?: number, }`,
	"{\n    a: string\n    b: number\n  }", `{}`, `string | never`, `string | undefined`,
	`number & { readonly minimum: 0 }`, `number & { readonly minimum: 0; readonly maximum: 1 }`,
	`string & {}`, `string & { readonly __brand: "Id" }`, `typeof CONST`, `(string)`,
	`((string | number))`, `string /* c */ | /** d */ number`,
	`{ "quoted key": string; 'single': number; 1: boolean }`, `Brand`, `Brand & { readonly maximum: 9 }`,
	`{ get: string; set?: number; readonly: boolean; new: string; type: null }`,
	`{ readonly a: string; readonly [key: string]: unknown }`, `{ a }`,
}

var unmappedTypes = []formType{
	{`‸Base extends object ? string : number`, "a conditional type"},
	{`‸{ [K in "a" | "b"]: string }`, "a mapped type"},
	{`‸{ readonly [K in keyof Base]?: Base[K] }`, "a mapped type"},
	{`‸{ -readonly [K in Keys as K]-?: string }`, "a mapped type"},
	{`‸(a: string) => void`, "a function type"},
	{`‸() => Base`, "a function type"},
	{`‸<U>(u: U) => U`, "a function type"},
	{`‸({ a }: Base, ...rest: string[]) => a is string`, "a function type"},
	{`‸new () => Base`, "a constructor type"},
	{`‸abstract new () => Base`, "a constructor type"},
	{`‸keyof Base`, "a keyof type"},
	{`‸Base["b"]`, "an indexed access type"},
	{`‸[string, number]`, "a tuple type"},
	{`‸[a: string, b?: number, ...rest: boolean[]]`, "a tuple type"},
	{"‸`a${string}`", "a template literal type"},
	{`‸symbol`, "the type symbol"},
	{`‸bigint`, "the type bigint"},
	{`‸void`, "the type void"},
	{`‸1n`, "a bigint literal"},
	{`‸typeof import("./x")`, "a typeof import type"},
	{`‸import("./x").Y<string>`, "an import type"},
	{`‸N.Y`, "a qualified type name"},
	{`‸Exclude<"a" | "b", "a">`, "the generic type Exclude"},
	{`‸Promise<string>`, "the generic type Promise"},
	{`{ ‸m(): void }`, "a method signature"},
	{`{ ‸m?<T>(t: T): T }`, "a method signature"},
	{`{ ‸(a: string): void }`, "a call signature"},
	{`{ ‸new (a: string): Base }`, "a construct signature"},
	{`{ ‸get x(): string }`, "an accessor"},
	{`{ a: string; ‸[Symbol.iterator]: string }`, "a computed member name"},
	{`{ ‸[k: number]: string }`, "an index signature whose key is not string"},
	{`string | (‸() => void)`, "a function type"},
	{`string | ‸keyof Base`, "a keyof type"},
	{`Array<‸Base["c"]>`, "an indexed access type"},
	{`{ a: { b: ‸[string] } }`, "a tuple type"},
	{`Record<‸number, string>`, "a Record key type other than string and literals"},
	{`number & ‸{ length: number }`, "an intersection of a primitive type and an object type"},
}

// formContext is a place for a type; %s is the type. X is the declaration.
var formContexts = []string{
	"export type X = %s;",
	"export interface X {\n  m: %s;\n}",
	"interface X { m?: %s }",
	"export type X = {\n  readonly \"m-1\": %s,\n};",
	"export interface X extends Base {\n  /**\n   * Doc.\n   * @default 1\n   */\n  m: %s\n}",
	"export type X = Array<%s>;",
	"export type X = Record<string, %s>;",
	"export type X = { [key: string]: %s };",
	"declare type X = (%s)[] | null",
}

// formStatement is a declaration or statement; decl is the declaration named in its error.
type formStatement struct {
	src, decl, what string
}

var formStatements = []formStatement{
	{src: ";"},
	{src: ";;\nexport type X = string;;"},
	{src: "export {};"},
	{src: "export { Base, Keys };"},
	{src: "export type { Base };"},
	{src: "interface Base { d?: boolean }"},
	{src: "export default interface X { a: string }"},
	{src: "export declare interface X {}"},
	{src: "declare type X = string"},
	{src: `export const C2 = "x" as const;`},
	{src: `export declare const C3: "y";`},
	{src: `const C4 = 1, C5 = -2;`},
	{src: `export const C6: number = -1 satisfies number;`},
	{src: "/**\n * @default x\n * @remarks y\n * @param z\n */\nexport type X = string;"},
	{src: "/**\n * @example\n * ```ts\n * x\n * ```\n */\ntype X = string"},
	{src: "export type X =\n  | \"a\"\n  | \"b\"\nexport type Y = X"},
	{src: "/// <reference path=\"x.d.ts\" />\nexport type X = /* one */ string // two"},
	{src: "export\ninterface X { a: string }"},
	{src: "export type X = string\u00a0|\u2028number;\u2029"},
	{src: "export declare ‸function f(a: string): void;", decl: "f", what: "a function declaration"},
	{src: "‸function f<T>(this: Base, { a, b: [c] }: Base, d?: T): asserts d is T;", decl: "f", what: "a function declaration"},
	{src: "declare ‸class C { x: string; m(): void; constructor(a: string); }", decl: "C", what: "a class declaration"},
	{src: "export declare ‸abstract class C<T> extends Base implements Base {\n  private y?: number;\n  static z: string;\n  #p: number;\n  [k: string]: any;\n  get g(): string;\n  protected abstract h<U>(u: U): void;\n}", decl: "C", what: "a class declaration"},
	{src: `‸enum E { A, B = 2, C = "c", "d" = 1 }`, decl: "E", what: "an enum"},
	{src: "export declare ‸const enum E { A }", decl: "E", what: "an enum"},
	{src: "declare ‸namespace N { export type Y = string; namespace M {} }", decl: "N", what: "a namespace declaration"},
	{src: `declare ‸module "m" { export const x: number; }`, decl: "m", what: "a module declaration"},
	{src: `declare ‸module "m";`, decl: "m", what: "a module declaration"},
	{src: "declare ‸global { interface Window { x: string } }", decl: "global", what: "a global augmentation"},
	{src: `‸import type { A } from "./a";`, what: "an import"},
	{src: `‸import * as ns from "./ns";`, what: "an import"},
	{src: `‸import def, { a as b, type c } from "./m" with { type: "json" };`, what: "an import"},
	{src: `‸import "./side";`, what: "an import"},
	{src: `‸import x = require("x");`, what: "an import"},
	{src: `export ‸* from "./m";`, what: "a re-export"},
	{src: `export ‸* as ns from "./m";`, what: "a re-export"},
	{src: `export ‸{ x } from "./m";`, what: "a re-export"},
	{src: `export ‸{ Base as B2 };`, what: "an export under another name"},
	{src: `export ‸= Base;`, what: "an export assignment"},
	{src: `export ‸as namespace NS;`, decl: "NS", what: "a UMD namespace export"},
	{src: `export ‸default Base;`, what: "a default export"},
	{src: `‸let x: string;`, decl: "x", what: "a let declaration"},
	{src: `declare ‸var y: number, z;`, decl: "y", what: "a var declaration"},
	{src: `export const C7 = ‸{ a: 1, "b": [2], ...c };`, decl: "C7", what: "a value that is not a literal"},
	{src: `export const C8 = ‸CONST;`, decl: "C8", what: "a value that is not a literal"},
	{src: `export declare const C9: ‸string;`, decl: "C9", what: "a type that is not a literal type"},
	{src: `export const C10 = ‸1n;`, decl: "C10", what: "a bigint literal"},
	{src: "export const C11 = ‸`a${1}`;", decl: "C11", what: "a template literal with substitutions"},
	{src: "export type G‸<T> = T[];", decl: "G", what: "type parameters"},
	{src: `export interface G2‸<in out T extends string = "x"> { a: T }`, decl: "G2", what: "type parameters"},
	{src: "export type X = ‸never;", decl: "X", what: "the type never"},
	{src: "export interface X { a: never; b: undefined; c: never | undefined }"},
	{src: "export interface X { d: Date; e?: Date[] }"},
	{src: "export interface X extends Base { b: string }\nexport interface X { b: string }"},
	{src: "export interface X { a?: never; b?: undefined; c: string | undefined }"},
	{src: "export interface X extends Base { b?: never }"},
}

// form is one generated input.
type form struct {
	name       string
	src        string
	line, col  int // of the expected error; 0 when the form maps
	decl, what string
}

// newForm removes the mark from src and records its position.
func newForm(name, src, decl, what string) form {
	f := form{name: name, decl: decl, what: what}
	i := strings.Index(src, mark)
	if i < 0 {
		f.src = src
		return f
	}
	f.src = src[:i] + src[i+len(mark):]
	f.line, f.col = 1, 1
	for j := range i {
		if endsLine(src, j) {
			f.line, f.col = f.line+1, 1
		} else {
			f.col++
		}
	}
	return f
}

// spellings are the ways each form is written: as is, with CRLF line breaks, with tabs, and
// under JSDoc comments with unknown tags.
var spellings = []struct {
	name  string
	apply func(string) string
}{
	{"plain", func(s string) string { return s }},
	{"crlf", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	{"tabs", func(s string) string { return strings.ReplaceAll(s, " ", " \t") }},
	{"jsdoc", func(s string) string {
		return regexp.MustCompile(`(?m)^(export|interface|type|declare|const)\b`).ReplaceAllString(s, "/**\n * Doc.\n * @default 0\n * @since 2025-01-01\n */\n$1")
	}},
}

// generateForms returns every form in every spelling.
func generateForms() []form {
	var forms []form
	add := func(name, src, decl, what string) {
		for _, sp := range spellings {
			forms = append(forms, newForm(name+"/"+sp.name, sp.apply(formPrelude+src+"\n"), decl, what))
		}
	}
	for ci, ctx := range formContexts {
		for _, t := range mappedTypes {
			add(fmt.Sprintf("context%d/%s", ci, t), fmt.Sprintf(ctx, t), "", "")
		}
		for _, t := range unmappedTypes {
			add(fmt.Sprintf("context%d/%s", ci, t.typ), fmt.Sprintf(ctx, t.typ), "X", t.what)
		}
	}
	for _, s := range formStatements {
		add("statement/"+s.src, s.src, s.decl, s.what)
	}
	return forms
}

var errorLine = regexp.MustCompile(`^f\.ts:(\d+):(\d+): found (.*) which cannot be mapped to Go$`)

// TestForms checks mcpgen against esbuild on the generated forms.
func TestForms(t *testing.T) {
	forms := generateForms()
	var accepted, mapped, rejected int
	for _, f := range forms {
		if errs := esbuildErrors("f.ts", f.src); len(errs) > 0 {
			t.Errorf("%s: esbuild rejects the form: %s\n%s", f.name, errs[0].Text, f.src)
			continue
		}
		accepted++
		s, err := Load("f.ts", []byte(f.src))
		if err == nil {
			err = model.Classify(s)
		}
		if f.what == "" {
			if assert.NoError(t, err, "%s: the form should map\n%s", f.name, f.src) {
				mapped++
			}
			continue
		}
		if !assert.Error(t, err, "%s: the form should not map\n%s", f.name, f.src) {
			continue
		}
		m := errorLine.FindStringSubmatch(err.Error())
		if !assert.NotNil(t, m, "%s: not one cannot-be-mapped error: %v", f.name, err) {
			continue
		}
		ok := assert.Equal(t, fmt.Sprintf("%d:%d", f.line, f.col), m[1]+":"+m[2], "%s: position of %v\n%s", f.name, err, f.src)
		ok = assert.True(t, strings.HasPrefix(m[3], f.what+" ") || strings.HasPrefix(m[3], f.what+","), "%s: construct: want %q in %v", f.name, f.what, err) && ok
		if f.decl != "" {
			ok = assert.Contains(t, m[3], " "+f.decl+",", "%s: declaration: want %s in %v", f.name, f.decl, err) && ok
		}
		if ok {
			rejected++
		}
	}
	t.Logf("%d forms generated, %d accepted by esbuild; mcpgen maps %d and rejects %d with one cannot-be-mapped error at the construct",
		len(forms), accepted, mapped, rejected)
	require.Greater(t, len(forms), 2000)
	assert.Equal(t, len(forms), mapped+rejected)
}
