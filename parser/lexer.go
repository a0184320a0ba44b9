package parser

import (
	"math/big"
	"strconv"
	"strings"
	"unicode"
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
	tokPrivate // #name, in a class
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

// String describes the token for the "found X" of error messages, shortened when it is long.
func (t token) String() string {
	if t.kind == tokEOF {
		return "end of file"
	}
	return "`" + model.Shorten(t.text) + "`"
}

// is reports whether t is the punctuation or identifier s.
func (t token) is(s string) bool {
	return (t.kind == tokPunct || t.kind == tokIdent) && t.text == s
}

// puncts are the punctuation tokens, longest first where one is a prefix of another. `>` is
// always a token of its own, so that `A<B<C>>` closes two type argument lists.
var puncts = []string{
	"...", "=>",
	"{", "}", "[", "]", "(", ")", "<", ">", ":", ";", ",", "|", "&", "?", "=", ".", "-", "+",
	"*", "!", "~", "@", "`", "/", "%", "^",
}

// lexer splits a source file into tokens. Its state is a small value: the parser copies it to
// look ahead.
type lexer struct {
	file string
	src  string
	off  int // of the next unread byte
	line int
	col  int // of src[off]
	doc  *comment
}

// newLexer returns a lexer of src, which must be valid UTF-8 (see checkUTF8).
func newLexer(file string, src []byte) *lexer {
	l := &lexer{file: file, src: string(src), line: 1, col: 1}
	if strings.HasPrefix(l.src, "\uFEFF") { // a byte order mark
		l.off = len("\uFEFF")
	}
	return l
}

// checkUTF8 returns an error at the first byte of src that is not part of valid UTF-8.
func checkUTF8(file string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	i := 0
	for i < len(src) {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	l := &lexer{file: file, src: string(src[:i]), line: 1, col: 1}
	l.advance(i)
	return l.pos().Errorf("found the byte 0x%02x, which is not UTF-8, expected UTF-8 text", src[i])
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
	case isDigit(c) || c == '.' && isDigit(l.peekByte(1)):
		n, err := l.numberLen(tok.pos)
		if err != nil {
			return token{}, err
		}
		tok.kind = tokNumber
		l.advance(n)
	case c == '"' || c == '\'':
		s, err := l.stringLit(c)
		if err != nil {
			return token{}, err
		}
		tok.kind, tok.str = tokString, s
	case c == '#' && l.identLen(l.off+1) > 0: // a private name, in a class
		tok.kind = tokPrivate
		l.advance(1 + l.identLen(l.off+1))
	default:
		if n := l.identLen(l.off); n > 0 {
			tok.kind = tokIdent
			l.advance(n)
			break
		}
		for _, p := range puncts {
			if strings.HasPrefix(l.src[l.off:], p) {
				tok.kind = tokPunct
				l.advance(len(p))
				break
			}
		}
		if tok.kind != tokPunct {
			r, _ := utf8.DecodeRuneInString(l.src[l.off:])
			return token{}, tok.pos.Errorf("found %q, expected a token", r)
		}
	}
	tok.text = l.src[start:l.off]
	return tok, nil
}

// identLen returns the length of the identifier at src[i:], or 0.
func (l *lexer) identLen(i int) int {
	n := i
	for n < len(l.src) {
		r, size := rune(l.src[n]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(l.src[n:])
		}
		if n == i && !isIdentStartRune(r) || n > i && !isIdentPartRune(r) {
			break
		}
		n += size
	}
	return n - i
}

// skip skips white space and comments, remembering the last JSDoc comment.
func (l *lexer) skip() error {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
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
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(l.src[l.off:])
			if !isSpaceRune(r) {
				return nil
			}
			l.advance(n)
		default:
			return nil
		}
	}
	return nil
}

// isSpaceRune reports whether r is white space or a line terminator of JavaScript beyond ASCII.
func isSpaceRune(r rune) bool {
	return r == '\u2028' || r == '\u2029' || r == '\uFEFF' || unicode.Is(unicode.Zs, r)
}

// numberLen returns the length of the number literal at the current offset: decimal (with an
// optional fraction, exponent and `_` separators), hexadecimal, octal or binary, with an optional
// BigInt suffix `n`. A literal followed by an identifier character is an error.
func (l *lexer) numberLen(p model.Pos) (int, error) {
	s := l.src[l.off:]
	digits := func(n int, ok func(byte) bool) int {
		for n < len(s) && (ok(s[n]) || s[n] == '_' && n > 0 && ok(s[n-1]) && n+1 < len(s) && ok(s[n+1])) {
			n++
		}
		return n
	}
	var n int
	if len(s) > 2 && s[0] == '0' && strings.IndexByte("xXoObB", s[1]) >= 0 {
		ok := map[byte]func(byte) bool{'x': isHex, 'o': isOctal, 'b': isBinary}[s[1]|0x20]
		if n = digits(2, ok); n == 2 {
			return 0, p.Errorf("found `%s`, expected digits after it", s[:2])
		}
		if n < len(s) && s[n] == 'n' {
			n++
		}
	} else {
		n = digits(0, isDigit)
		bigint := n < len(s) && s[n] == 'n'
		if bigint {
			n++
		}
		if !bigint && n < len(s) && s[n] == '.' {
			n = digits(n+1, isDigit)
		}
		if !bigint && n < len(s) && (s[n] == 'e' || s[n] == 'E') {
			m := n + 1
			if m < len(s) && (s[m] == '+' || s[m] == '-') {
				m++
			}
			if m >= len(s) || !isDigit(s[m]) {
				return 0, p.Errorf("found `%s`, expected digits in its exponent", model.Shorten(s[:m]))
			}
			n = digits(m, isDigit)
		}
	}
	if n < len(s) && (l.identLen(l.off+n) > 0 || isDigit(s[n])) {
		return 0, p.Errorf("found `%s`, expected a number", model.Shorten(s[:n+1]))
	}
	return n, nil
}

// numberValue returns the value of a number literal's text, normalized to the decimal form that
// Go and JSON read: no `_`, no base prefix, digits on both sides of a point. bigint reports a
// BigInt literal (`1n`), legacyOctal a literal with a leading 0 such as 0755.
func numberValue(text string) (v model.Value, bigint, legacyOctal bool) {
	text = strings.ReplaceAll(text, "_", "")
	if strings.HasSuffix(text, "n") {
		return model.Value{}, true, false
	}
	if len(text) > 2 && text[0] == '0' && strings.IndexByte("xXoObB", text[1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[text[1]|0x20]
		n, _ := new(big.Int).SetString(text[2:], base)
		return model.NumberValue(n.String()), false, false
	}
	if len(text) > 1 && text[0] == '0' && isDigit(text[1]) {
		return model.Value{}, false, true
	}
	if text[0] == '.' {
		text = "0" + text
	}
	if i := strings.IndexByte(text, '.'); i >= 0 && (i+1 == len(text) || !isDigit(text[i+1])) {
		text = text[:i+1] + "0" + text[i+1:]
	}
	return model.NumberValue(text), false, false
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
		n, err := l.escape(&b, i, p)
		if err != nil {
			return "", err
		}
		i += n
	}
}

// escape decodes the escape sequence at src[i] (a backslash) into b and returns its length. A
// string or template literal starting at p contains it.
func (l *lexer) escape(b *strings.Builder, i int, p model.Pos) (int, error) {
	if i+1 >= len(l.src) {
		return 0, p.Errorf("found unterminated string, expected its end")
	}
	start := i
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
			return 0, p.Errorf("found an octal escape \\0%c, expected another escape", l.src[i])
		}
		b.WriteByte(0)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return 0, p.Errorf("found an octal escape \\%c, expected another escape", e)
	case 'x':
		r, err := strconv.ParseUint(l.src[i:min(i+2, len(l.src))], 16, 8)
		if err != nil || i+2 > len(l.src) {
			return 0, p.Errorf("found a bad \\x escape, expected \\xXX")
		}
		b.WriteRune(rune(r))
		i += 2
	case 'u':
		r, n, ok := unicodeEscape(l.src, i)
		if !ok {
			return 0, p.Errorf("found a bad \\u escape, expected \\uXXXX or \\u{X...}")
		}
		i += n
		if utf16.IsSurrogate(r) && strings.HasPrefix(l.src[i:], "\\u") {
			// A surrogate pair \uD83D\uDE00 is one character.
			if r2, n2, ok := unicodeEscape(l.src, i+2); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					r = pair
					i += 2 + n2
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
			// \\ \" \' and any other escaped character stand for themselves.
			_, n := utf8.DecodeRuneInString(l.src[i-1:])
			b.WriteString(l.src[i-1 : i-1+n])
			i += n - 1
		}
	}
	return i - start, nil
}

// unicodeEscape decodes the digits of \uXXXX or \u{X...} at s[i:] (after the u) and returns the
// rune and the length of the digits.
func unicodeEscape(s string, i int) (rune, int, bool) {
	if strings.HasPrefix(s[i:], "{") {
		end := strings.IndexByte(s[i:], '}')
		if end < 2 || end > 8 {
			return 0, 0, false
		}
		r, err := strconv.ParseUint(s[i+1:i+end], 16, 32)
		if err != nil || r > unicode.MaxRune {
			return 0, 0, false
		}
		return rune(r), end + 1, true
	}
	if i+4 > len(s) {
		return 0, 0, false
	}
	r, err := strconv.ParseUint(s[i:i+4], 16, 16)
	return rune(r), 4, err == nil
}

// templateChunk lexes the characters of a template literal from the current offset, just after
// the opening backquote or the `}` that ends a substitution. It returns the cooked text and
// whether a substitution `${` follows (false: the closing backquote was read).
func (l *lexer) templateChunk(p model.Pos) (string, bool, error) {
	var b strings.Builder
	i := l.off
	for {
		if i >= len(l.src) {
			return "", false, p.Errorf("found unterminated template literal, expected a closing backquote")
		}
		switch c := l.src[i]; {
		case c == '`':
			l.advance(i + 1 - l.off)
			return b.String(), false, nil
		case c == '$' && i+1 < len(l.src) && l.src[i+1] == '{':
			l.advance(i + 2 - l.off)
			return b.String(), true, nil
		case c == '\\':
			n, err := l.escape(&b, i, p)
			if err != nil {
				return "", false, err
			}
			i += n
		case c == '\r':
			// A template's CR and CRLF stand for LF.
			b.WriteByte('\n')
			i++
			if i < len(l.src) && l.src[i] == '\n' {
				i++
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
func isOctal(c byte) bool  { return '0' <= c && c <= '7' }
func isBinary(c byte) bool { return c == '0' || c == '1' }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

// isIdentStartRune and isIdentPartRune follow ID_Start and ID_Continue of JavaScript, as far as
// the unicode package tells them.
func isIdentStartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isIdentStart(byte(r))
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIdentPartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isIdentPart(byte(r))
	}
	return isIdentStartRune(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) ||
		unicode.Is(unicode.Other_ID_Continue, r) || r == '\u200C' || r == '\u200D'
}
