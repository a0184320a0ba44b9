package wire

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// formatCases are TestFormats's values of each format, each with whether the format accepts it.
var formatCases = []struct {
	format, value string
	ok            bool
}{
	// RFC 4648 base64, standard alphabet, padded.
	{"byte", "", true},
	{"byte", "aGVsbG8=", true},
	{"byte", "aGVsbG8h", true},
	{"byte", "aGVsbA==", true},
	{"byte", "aGVsbG8", false},   // not a multiple of 4
	{"byte", "aGVs bG8=", false}, // space
	{"byte", "aGVsbG8-", false},  // URL alphabet
	{"byte", "aG=sbG8=", false},  // padding inside
	{"byte", "a===", false},      // three padding characters
	// RFC 3986 absolute URIs (examples from its section 1.1.2).
	{"uri", "ftp://ftp.is.co.za/rfc/rfc1808.txt", true},
	{"uri", "http://www.ietf.org/rfc/rfc2396.txt", true},
	{"uri", "ldap://[2001:db8::7]/c=GB?objectClass?one", true},
	{"uri", "mailto:John.Doe@example.com", true},
	{"uri", "news:comp.infosystems.www.servers.unix", true},
	{"uri", "tel:+1-816-555-1212", true},
	{"uri", "telnet://192.0.2.16:80/", true},
	{"uri", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true},
	{"uri", "file:///home/user/a%20b.txt", true},
	{"uri", "https://example.com/search?q=a/b&x=1#frag/ment", true},
	{"uri", "data:image/png;base64,iVBORw0KGgo=", true},
	{"uri", "", false},
	{"uri", "/relative/path", false},
	{"uri", "example.com/no-scheme", false},
	{"uri", "1http://x", false},
	{"uri", "http://example.com/a b", false},
	{"uri", "http://example.com/%zz", false},
	{"uri", "http://exa mple.com/", false},
	{"uri", "http://example.com:80a/", false},
	{"uri", "http://[::1/", false},
	{"uri", "http://example.com/#a#b", false},
	// RFC 6570 templates (examples from its section 1.2).
	{"uri-template", "http://example.com/~{username}/", true},
	{"uri-template", "http://example.com/dictionary/{term:1}/{term}", true},
	{"uri-template", "http://example.com/search{?q,lang}", true},
	{"uri-template", "{+path}/here", true},
	{"uri-template", "X{#keys*}", true},
	{"uri-template", "{/list*,path:4}", true},
	{"uri-template", "file:///{path}", true},
	{"uri-template", "{var.with.dots}{%20x}", true},
	{"uri-template", "{", false},
	{"uri-template", "}", false},
	{"uri-template", "{}", false},
	{"uri-template", "{a b}", false},
	{"uri-template", "{a:0}", false},
	{"uri-template", "{a:10000}", false},
	{"uri-template", "{a^}", false},
	{"uri-template", "{a..b}", false},
	{"uri-template", "a b{c}", false},
	// RFC 3339 date-times (examples from its section 5.8), as JSON Schema's format.
	{"date-time", "1985-04-12T23:20:50.52Z", true},
	{"date-time", "1996-12-19T16:39:57-08:00", true},
	{"date-time", "1990-12-31T23:59:60Z", true},
	{"date-time", "1990-12-31T15:59:60-08:00", true},
	{"date-time", "1937-01-01T12:00:27.87+00:20", true},
	{"date-time", "2024-02-29t00:00:00z", true},
	{"date-time", "2025-11-25T10:00:00.000Z", true},
	{"date-time", "2023-02-29T00:00:00Z", false}, // not a leap year
	{"date-time", "2025-13-01T00:00:00Z", false},
	{"date-time", "2025-11-25", false},
	{"date-time", "2025-11-25T10:00:00", false}, // no offset
	{"date-time", "2025-11-25 10:00:00Z", false},
	{"date-time", "2025-11-25T24:00:00Z", false},
	{"date-time", "2025-11-25T10:00:00.Z", false},
	{"date-time", "2025-11-25T10:00:00+0100", false},
	{"date-time", "2025-11-25T10:00:00Z ", false},
	{"date-time", "Tue Nov 25 2025", false},
}

func TestFormats(t *testing.T) {
	for _, tt := range formatCases {
		var c validator
		validFormat(&c, tt.value, tt.format)
		if tt.ok {
			assert.Empty(t, c.problems, "%s %q", tt.format, tt.value)
		} else if assert.Len(t, c.problems, 1, "%s %q", tt.format, tt.value) {
			assert.Contains(t, c.problems[0].Message, "is not a valid "+tt.format)
		}
	}
}

func TestValidatorPointersAndCodes(t *testing.T) {
	var c validator
	require.NoError(t, c.messageErr())
	c.in("params")
	c.in("messages")
	c.at(2)
	c.in("a/b~c")
	validEnum(&c, "system", "user", "assistant")
	c.out()
	c.out()
	c.out()
	c.out()
	err := c.err()
	var verr *ValidationError
	require.True(t, errors.As(err, &verr))
	assert.Equal(t, "/params/messages/2/a~1b~0c", verr.Problems[0].Pointer)
	assert.Equal(t, `"system" is not one of "user", "assistant"`, verr.Problems[0].Message)
	assert.Equal(t, -32602, verr.Code)
	assert.Equal(t, -32602, c.messageErr().(*ValidationError).Code, "a problem in params of a message")

	c.in("jsonrpc")
	validConstant(&c, "1.0", "2.0")
	c.out()
	assert.Equal(t, -32600, c.messageErr().(*ValidationError).Code, "a problem in the envelope")
	assert.Equal(t, -32602, c.err().(*ValidationError).Code, "not a message")
	assert.Equal(t, `invalid: 2 problems: /params/messages/2/a~1b~0c: "system" is not one of "user", "assistant"; /jsonrpc: must be "2.0", not "1.0"`, c.messageErr().Error())
}

// TestValidatorLongNames checks that a member name longer than 64 bytes (a key of a map a peer
// sent) is cut in a problem's pointer, as in a DecodeError, and is escaped after the cut.
func TestValidatorLongNames(t *testing.T) {
	var c validator
	c.in("properties")
	c.in(strings.Repeat("k", 1<<20))
	validConstant(&c, "1.0", "2.0")
	c.out()
	c.in(strings.Repeat("~", 100))
	c.in(strings.Repeat("é", 40)) // 80 bytes: cut at a rune's start
	validConstant(&c, "1.0", "2.0")
	err := c.err().(*ValidationError)
	assert.Equal(t, "/properties/"+strings.Repeat("k", 64)+"…", err.Problems[0].Pointer)
	assert.Equal(t, "/properties/"+strings.Repeat("~0", 64)+"…/"+strings.Repeat("é", 32)+"…", err.Problems[1].Pointer)
}

func TestValidatorBounds(t *testing.T) {
	var c validator
	validConstant(&c, "", "object") // the zero value stands for the constant
	validConstant(&c, int64(0), int64(-32700))
	validMinimum(&c, 0.0, 0)
	validMaximum(&c, 1.0, 1)
	validItems(&c, 100, -1, 100)
	validRequired(&c, true)
	validExtra(&c, map[string]int{"other": 1}, "name")
	validAbsent(&c, map[string]int{"other": 1}, "must not be present", "gone")
	require.NoError(t, c.err())

	validMinimum(&c, -0.5, 0)
	validMaximum(&c, int64(2), 1)
	validItems(&c, 101, -1, 100)
	validItems(&c, 0, 1, -1)
	validRequired(&c, false)
	validExtra(&c, map[string]int{"name": 1}, "name")
	validAbsent(&c, map[string]int{"gone": 1}, "must not be present", "gone")
	err := c.err().(*ValidationError)
	var messages []string
	for _, p := range err.Problems {
		messages = append(messages, p.String())
	}
	assert.Equal(t, []string{
		"(root): -0.5 is less than the minimum 0",
		"(root): 2 is greater than the maximum 1",
		"(root): has 101 items, more than the maximum 100",
		"(root): has 0 items, fewer than the minimum 1",
		"(root): missing required value",
		"/name: is set in Extra, but the type defines it",
		"/gone: must not be present",
	}, messages)
}

// A hostile value with a hundred thousand bad elements gives an error of bounded size.
func TestValidatorBoundsProblems(t *testing.T) {
	var c validator
	c.in("items")
	for i := range 100_000 {
		c.at(i)
		validEnum(&c, strings.Repeat("x", 1000), "a")
		c.out()
	}
	c.out()
	err := c.err().(*ValidationError)
	assert.Len(t, err.Problems, maxProblems)
	assert.Equal(t, 100_000-maxProblems, err.Omitted)
	assert.Less(t, len(err.Error()), 20_000)
	assert.True(t, strings.HasSuffix(err.Error(), "; and 99900 more"))
}

// A character that is not allowed is named as it is written, not as its first byte.
func TestFormatMessagesNameCharacters(t *testing.T) {
	tests := []struct{ format, value, want string }{
		{"uri", "http://example.com/café", `"http://example.com/café" is not a valid uri: path: character "é" not allowed`},
		{"uri", "http://example.com/\xff", `"http://example.com/\xff" is not a valid uri: path: character "\xff" not allowed`},
		{"byte", "aGVsb€", `"aGVsb€" is not a valid byte: invalid character "€" at offset 5`},
		{"uri-template", "a\x7f{b}", `"a\x7f{b}" is not a valid uri-template: character "\x7f" not allowed in a literal`},
	}
	for _, tt := range tests {
		var c validator
		validFormat(&c, tt.value, tt.format)
		if assert.Len(t, c.problems, 1, tt.value) {
			assert.Equal(t, tt.want, c.problems[0].Message)
		}
	}
}

// A decoded constant member may hold any value but the zero value of its Go type, which encoding
// would replace with the constant.
func TestDecodedConstant(t *testing.T) {
	d := newDecoder([]byte(`""`))
	s, err := d.str()
	require.NoError(t, err)
	assert.EqualError(t, decodedConstant(d, s, "2.0"), `(root): must be "2.0", not ""`)
	assert.NoError(t, decodedConstant(d, "1.0", "2.0"), "another value is kept, for Validate")
	assert.EqualError(t, decodedConstant(d, int64(0), -32700), `(root): must be -32700, not 0`)
	assert.EqualError(t, decodedConstant(d, false, true), `(root): must be true, not false`)
	assert.NoError(t, decodedConstant(d, int64(0), 0), "a zero constant")
}

// A decoding error says where, and whether the input is JSON at all (fail, on the error path).
func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct {
		in      string
		pointer string
		syntax  bool
	}{
		{`{"a": [1, 2, x]}`, "/a", true}, // not a string, in input that is not JSON
		{`{"a": "b"`, "/a", true},
		{`{"a": "b"} {}`, "", true},
		{`{"a": "\xff"}`, "/a", true},
		{`{"a": true}`, "/a", false}, // JSON, but not a string
		{`{"a": "b", "a": "c"}`, "/a", false},
	} {
		d := newDecoder([]byte(tt.in))
		err := d.object(func(string) error {
			_, err := d.str()
			return err
		})
		if err == nil {
			err = d.end()
		}
		var de *DecodeError
		require.True(t, errors.As(d.fail(err), &de), "%s", tt.in)
		assert.Equal(t, tt.pointer, de.Pointer, "%s", tt.in)
		assert.Equal(t, tt.syntax, de.Syntax, "%s: %v", tt.in, de)
	}
}
