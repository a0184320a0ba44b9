// Package parser is the TypeScript front end of mcpgen: it reads the subset of TypeScript used by
// the MCP schema.ts files and resolves it into a [model.Schema].
//
// [Parse] turns a file into an AST ([File]); [Load] also resolves it: `extends`, `Omit<>`, `&`
// and `typeof CONST` are flattened, JSDoc comments become [model.Doc]s, and references to other
// declarations stay [model.Ref] types.
//
// The subset: `interface` (with `extends`), `type` and `const` declarations, optionally exported;
// members with optional and quoted names; index signatures; primitive, literal and reference types;
// `typeof`, `T[]`, `Array<T>`, `Record<string, T>`, `Omit<T, K>`, unions, intersections,
// parentheses and object type literals. Anything else is an error of the form
// `file:line:col: found X, expected Y`.
package parser
