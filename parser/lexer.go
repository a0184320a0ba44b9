package parser

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/model"
)

// tokenKind classifies a token.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIdent
	tokString
	tokNumber
	tokPunct
)

// token is one lexical token.
type token struct {
	kind tokenKind
	// text is the source text; str is the value of a string literal.
	text string
	str  string
	pos  model.Pos
	// doc is the last JSDoc comment between the previous token and this one, or nil.
	doc *comment
	// nl reports a line break between the previous token and this one.
	nl bool
}

// comment is a raw `/** ... */` JSDoc comment.
type comment struct {
	text string // including /** and */
	pos  model.Pos
}

// String describes the token for the "found X" of error messages.
func (t token) String() string {
	if t.kind == tokEOF {
		return "end of file"
	}
	return "`" + t.text + "`"
}

// is reports whether t is the punctuation or identifier s.
func (t token) is(s string) bool {
	return (t.kind == tokPunct || t.kind == tokIdent) && t.text == s
}

// lexer splits a source file into tokens.
type lexer struct {
	file string
	src  string
	off  int // of the next unread byte
	line int
	col  int // of src[off]
	doc  *comment
}

func newLexer(file string, src []byte) *lexer {
	return &lexer{file: file, src: string(src), line: 1, col: 1}
}

func (l *lexer) pos() model.Pos { return model.Pos{File: l.file, Line: l.line, Col: l.col} }

// advance moves past n bytes, keeping line and column up to date.
func (l *lexer) advance(n int) {
	for i := l.off; i < l.off+n; i++ {
		if endsLine(l.src, i) {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
	}
	l.off += n
}

// endsLine reports whether a line break ends at s[i]: \n, a \r not followed by \n, or the last
// byte of U+2028 or U+2029, the line terminators of JavaScript.
func endsLine(s string, i int) bool {
	switch s[i] {
	case '\n':
		return true
	case '\r':
		return i+1 == len(s) || s[i+1] != '\n'
	case 0xa8, 0xa9:
		return i >= 2 && s[i-2:i] == "\xe2\x80"
	}
	return false
}

func (l *lexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

// next returns the next token, skipping white space and comments.
func (l *lexer) next() (token, error) {
	line := l.line
	if err := l.skip(); err != nil {
		return token{}, err
	}
	tok := token{pos: l.pos(), doc: l.doc, nl: l.line > line}
	l.doc = nil
	if l.off >= len(l.src) {
		return tok, nil
	}
	c := l.src[l.off]
	start := l.off
	switch {
	case isIdentStart(c):
		n := 1
		for l.off+n < len(l.src) && isIdentPart(l.src[l.off+n]) {
			n++
		}
		tok.kind = tokIdent
		l.advance(n)
	case isDigit(c):
		tok.kind = tokNumber
		l.advance(l.numberLen())
		if c == '0' && l.off-start > 1 && isDigit(l.src[start+1]) {
			return token{}, tok.pos.Errorf("found `%s`, expected a number without a leading 0", l.src[start:l.off])
		}
	case c == '"' || c == '\'':
		s, err := l.stringLit(c)
		if err != nil {
			return token{}, err
		}
		tok.kind, tok.str = tokString, s
	case strings.IndexByte("{}[]()<>:;,|&?=.-", c) >= 0:
		tok.kind = tokPunct
		l.advance(1)
	default:
		r, _ := utf8.DecodeRuneInString(l.src[l.off:])
		return token{}, tok.pos.Errorf("found %q, expected a token", r)
	}
	tok.text = l.src[start:l.off]
	return tok, nil
}

// skip skips white space and comments, remembering the last JSDoc comment.
func (l *lexer) skip() error {
	for l.off < len(l.src) {
		switch c := l.src[l.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.advance(1)
		case c == '/' && l.peekByte(1) == '/':
			n := strings.IndexAny(l.src[l.off:], "\n\r\u2028\u2029")
			if n < 0 {
				n = len(l.src) - l.off
			}
			l.advance(n)
		case c == '/' && l.peekByte(1) == '*':
			p := l.pos()
			n := strings.Index(l.src[l.off+2:], "*/")
			if n < 0 {
				return p.Errorf("found unterminated comment, expected `*/`")
			}
			text := l.src[l.off : l.off+n+4]
			if strings.HasPrefix(text, "/**") && text != "/**/" {
				l.doc = &comment{text: text, pos: p}
			}
			l.advance(len(text))
		default:
			return nil
		}
	}
	return nil
}

// numberLen returns the length of the decimal number literal at the current offset: digits, an
// optional fraction and an optional exponent.
func (l *lexer) numberLen() int {
	s := l.src[l.off:]
	digits := func(n int) int {
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		return n
	}
	n := digits(0)
	if n < len(s) && s[n] == '.' {
		n = digits(n + 1)
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		m := n + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			n = digits(m)
		}
	}
	return n
}

// stringLit lexes a string literal quoted by q and returns its value.
func (l *lexer) stringLit(q byte) (string, error) {
	p := l.pos()
	var b strings.Builder
	i := l.off + 1
	for {
		if i >= len(l.src) || l.src[i] == '\n' || l.src[i] == '\r' {
			return "", p.Errorf("found unterminated string, expected closing %c", q)
		}
		c := l.src[i]
		if c == q {
			l.advance(i + 1 - l.off)
			return b.String(), nil
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(l.src) {
			return "", p.Errorf("found unterminated string, expected closing %c", q)
		}
		e := l.src[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			if i < len(l.src) && isDigit(l.src[i]) {
				return "", p.Errorf("found an octal escape \\0%c, expected another escape", l.src[i])
			}
			b.WriteByte(0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return "", p.Errorf("found an octal escape \\%c, expected another escape", e)
		case 'x':
			r, err := strconv.ParseUint(l.src[i:min(i+2, len(l.src))], 16, 8)
			if err != nil || i+2 > len(l.src) {
				return "", p.Errorf("found a bad \\x escape, expected \\xXX")
			}
			b.WriteRune(rune(r))
			i += 2
		case 'u':
			r, ok := hex4(l.src, i)
			if !ok {
				return "", p.Errorf("found a bad \\u escape, expected \\uXXXX")
			}
			i += 4
			if utf16.IsSurrogate(r) && strings.HasPrefix(l.src[i:], "\\u") {
				// A surrogate pair \uD83D\uDE00 is one character.
				if r2, ok := hex4(l.src, i+2); ok {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						i += 6
					}
				}
			}
			// A lone surrogate, which a Go string cannot hold, becomes U+FFFD.
			b.WriteRune(r)
		case '\n', '\r':
			// A line continuation: the backslash and the line break stand for nothing.
			if e == '\r' && i < len(l.src) && l.src[i] == '\n' {
				i++
			}
		default:
			if strings.HasPrefix(l.src[i-1:], "\u2028") || strings.HasPrefix(l.src[i-1:], "\u2029") {
				i += len("\u2028") - 1 // a line continuation by U+2028 or U+2029
			} else {
				b.WriteByte(e) // \\ \" \' and any other escaped character stand for themselves
			}
		}
	}
}

// hex4 decodes the 4 hexadecimal digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	r, err := strconv.ParseUint(s[i:i+4], 16, 16)
	return rune(r), err == nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }
