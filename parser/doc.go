// Package parser is the TypeScript front end of mcpgen: it reads a schema.ts file and resolves it
// into a [model.Schema].
//
// [Parse] reads the declarations that a TypeScript declaration file may hold, with esbuild as the
// judge of what is valid syntax (oracle_test.go, forms_test.go): interfaces, type aliases and
// constants, and also functions, classes, enums, namespaces, imports and exports; every type
// expression (conditional, mapped, function, tuple, template literal, indexed access types...);
// empty statements and automatic semicolon insertion. Statements that are not declarations
// (expressions, loops, function bodies) are syntax errors.
//
// [Load] also resolves the file: `extends`, `&`, declaration merging and the built-in generics
// Omit, Pick, Partial, Required, Readonly, Record, Array and ReadonlyArray are flattened, JSDoc
// comments become [model.Doc]s (tags it does not know are kept in the text), and references to
// other declarations stay [model.Ref] types. `never` and `undefined` drop out of unions and mark
// members that must be absent: an optional one is dropped (`b?: never`), a required one is kept
// as [model.Member].Absent, for the generated code to reject; `Record` with literal keys is an
// object; a branded primitive such as `number & { readonly minimum: 0 }` is the primitive, its
// brand read as constraints. `Date`, when the file declares none, is a string of the date-time
// format, its JSON form. An interface declared again merges into the first declaration; a member
// both declare must have the same type and optionality in both, as TypeScript requires, else it
// is an error naming both positions; so is a member that redeclares an inherited one with a type
// of another JSON kind (`name: number` over an inherited `name: string`).
//
// A construct that TypeScript allows and that has no Go mapping is one error that names it, the
// declaration and the position: `schema.ts:3:10: found a conditional type in A, which cannot be
// mapped to Go`. Other errors have the form `file:line:col: found X, expected Y`. Limits keep
// absurd inputs cheap: types nest at most [model.MaxDepth] deep, bytes that are not UTF-8 are an
// error at their position, names quoted in errors are shortened, and a file without an interface
// or type alias is an error.
//
// # Where things are
//
// Reading: lexer.go turns the text into tokens, keeping each token's JSDoc comment; parse.go
// holds [Parse] and the parser's token handling; statements.go the statements and the
// declarations that map to Go (interfaces, type aliases), variables.go the constants (const, let,
// var), members.go interface headers and bodies, types.go and typeforms.go type expressions,
// expr.go the expressions of initializers, modules.go imports and exports, and unmapped.go the
// declarations with no Go mapping (enums, functions, classes, namespaces). ast.go defines the
// syntax tree they build, and jsdoc.go reads JSDoc comments and their tags.
//
// Resolving: resolve.go holds [Load], which turns the syntax tree into a [model.Schema], and
// resolves declarations and interface bodies; resolve_types.go resolves type expressions and
// references, resolve_generics.go the built-in generics (Record, Omit, Pick...),
// resolve_brands.go branded primitives, and resolve_merge.go declaration merging, inheritance
// and the checks that merged or redeclared members agree.
package parser
