package mrtr

import "github.com/mcpgen/mcpgen/sampling/mrtr/internal/boundary"

// Canonical writes a JSON value compacted, with the members of its objects sorted by name (as
// UTF-8 bytes) at every depth, so that two spellings of one value (spacing, member order,
// escapes in strings) give the same text. Strings are written as encoding/json writes them
// (invalid UTF-8 becomes U+FFFD); numbers are kept as written ("1" and "1.0" differ). An object
// with a member name twice, trailing data, or nesting deeper than 1000 levels is an error.
func Canonical(data []byte) (string, error) { return boundary.Canonical(data) }
