package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ValidationError is the error of the generated Validate methods: every value rule of the schema
// that a value breaks, each with the JSON pointer of the part at fault. Errors of this type come
// from Validate, [Unmarshal] and [Marshal]; use errors.As to inspect them.
//
// Decoding already enforces the structure of a message (required members, JSON kinds, integers,
// strictness); Validate checks its values: constants and discriminators, closed enums, bounds,
// formats, item counts, unknown variants of unions, the rules of sampling with tools where the
// schema has them, and what decoding cannot see in a value built in Go (a nil required union, a
// constant member set to another value, a member of Extra that the type defines). It recurses
// into every member and reports every problem, not only the first.
type ValidationError struct {
	// Problems lists the broken rules in the order of the value's members, at most
	// maxProblems of them.
	Problems []Problem
	// Omitted counts the problems found beyond maxProblems.
	Omitted int
	// Code is the JSON-RPC error code a receiver of the value answers with: -32601 (method not
	// found) for a request of a method this version does not define, -32600 (invalid request)
	// when a problem lies in a JSON-RPC envelope (its jsonrpc, id or method), -32602 (invalid
	// params) otherwise, in params and results.
	Code int
}

// A Problem is one broken rule.
type Problem struct {
	// Pointer is the RFC 6901 JSON pointer of the part at fault, from the validated value
	// ("/messages/2/content/0/toolUseId"); "" is the value itself. A member name longer than 64
	// bytes is cut with "…".
	Pointer string `json:"pointer"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Pointer == "" {
		return "(root): " + p.Message
	}
	return p.Pointer + ": " + p.Message
}

// maxProblems bounds the problems a ValidationError lists, so that a hostile value with millions
// of bad elements gives an error of bounded size.
const maxProblems = 100

// Error lists the problems, one per line after the first.
func (e *ValidationError) Error() string {
	var b strings.Builder
	n := len(e.Problems) + e.Omitted
	if n == 1 {
		b.WriteString("invalid: ")
	} else {
		fmt.Fprintf(&b, "invalid: %d problems: ", n)
	}
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	if e.Omitted > 0 {
		fmt.Fprintf(&b, "; and %d more", e.Omitted)
	}
	return b.String()
}

// Unmarshal decodes data into v and validates the result: the one call a receiver makes.
// A decoding error names the JSON pointer of the bad input; a value that decodes but breaks a
// rule of the schema gives a *[ValidationError].
func Unmarshal(data []byte, v interface {
	json.Unmarshaler
	Validate() error
}) error {
	if err := v.UnmarshalJSON(data); err != nil {
		return err
	}
	return v.Validate()
}

// UnmarshalNoCopy is [Unmarshal] without the copy of data that every other decode makes, for
// input the caller hands over, such as a message a transport has just read into a buffer of its
// own: the decoded value keeps data (its strings and raw JSON values point into it), which saves
// allocating and copying the whole input. data is only read (strings with escapes are unescaped
// elsewhere), but it must not change after the call, even after an error: the value's strings
// would change with it. A v that is not a type of this package is decoded by its UnmarshalJSON.
func UnmarshalNoCopy(data []byte, v interface {
	json.Unmarshaler
	Validate() error
}) error {
	dv, ok := v.(decodable)
	if !ok {
		return Unmarshal(data, v)
	}
	d := noCopyDecoder(data)
	if err := d.finish(dv.decode(d)); err != nil {
		return err
	}
	return v.Validate()
}

// Marshal validates v and encodes it: the one call a sender makes, so that an invalid value
// never reaches the wire. A value that breaks a rule of the schema gives a *[ValidationError]
// and no bytes.
func Marshal(v interface {
	json.Marshaler
	Validate() error
}) ([]byte, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return v.MarshalJSON()
}

// validator collects the problems of a value. The generated validate methods push the member
// or element they look into on path, and report what they find wrong.
type validator struct {
	path     []step
	problems []Problem
	omitted  int
	// code is the JSON-RPC code the problems call for when it is not the usual one (-32601 for a
	// request of an unknown method), or 0.
	code int
}

// A step is one step of a JSON pointer: a member name, or an array index when index >= 0.
type step struct {
	name  string
	index int
}

// in and at push a member name and an array index; out pops either.
func (v *validator) in(name string) { v.path = append(v.path, step{name: name, index: -1}) }
func (v *validator) at(i int)       { v.path = append(v.path, step{index: i}) }
func (v *validator) out()           { v.path = v.path[:len(v.path)-1] }

// pointer is the JSON pointer of the current path. A member name longer than maxSegmentName
// bytes is cut with "…", as in a DecodeError: a problem under a member of a 1 MB name (a key of
// a map) is not a 1 MB error.
func (v *validator) pointer() string {
	var b strings.Builder
	for _, s := range v.path {
		b.WriteByte('/')
		switch {
		case s.index >= 0:
			b.WriteString(strconv.Itoa(s.index))
		case len(s.name) > maxSegmentName:
			b.WriteString(escapePointer(shorten([]byte(s.name[:maxSegmentName+1]), maxSegmentName)))
		default:
			b.WriteString(escapePointer(s.name))
		}
	}
	return b.String()
}

// report records a problem at the current path.
func (v *validator) report(format string, args ...any) {
	if len(v.problems) == maxProblems {
		v.omitted++
		return
	}
	v.problems = append(v.problems, Problem{Pointer: v.pointer(), Message: fmt.Sprintf(format, args...)})
}

// err returns the problems of a value as a *ValidationError, or nil when there are none. They
// are invalid params (-32602), unless a check set another code.
func (v *validator) err() error {
	return v.errWith(-32602)
}

// messageErr returns the problems of a JSON-RPC message as a *ValidationError, or nil when there
// are none. A problem outside the message's params, result and error makes it an invalid request
// (-32600); problems inside only are invalid params (-32602).
func (v *validator) messageErr() error {
	code := -32602
	for _, p := range v.problems {
		if !inBody(p.Pointer) {
			code = -32600
		}
	}
	return v.errWith(code)
}

// errWith returns the problems as a *ValidationError of the given code (or of the code a check
// set), or nil when there are none.
func (v *validator) errWith(code int) error {
	if len(v.problems) == 0 {
		return nil
	}
	if v.code != 0 {
		code = v.code
	}
	return &ValidationError{Problems: v.problems, Omitted: v.omitted, Code: code}
}

// inBody reports whether a pointer from a JSON-RPC message lies in its params, result or error.
func inBody(pointer string) bool {
	for _, member := range []string{"/params", "/result", "/error"} {
		if rest, ok := strings.CutPrefix(pointer, member); ok && (rest == "" || rest[0] == '/') {
			return true
		}
	}
	return false
}

// validConstant checks a constant member: its zero value stands for the constant (encoding writes
// the constant), any other value must be the constant.
func validConstant[T comparable](v *validator, got, want T) {
	var zero T
	if got != zero && got != want {
		v.report("must be %s, not %s", quoteValue(want), quoteValue(got))
	}
}

// decodedConstant checks a constant member as decoded. Its zero value stands for the constant in
// Go (encoding writes the constant), so a zero read from the wire, where the constant is not zero,
// would be replaced without a word: decoding rejects it. Any other value is kept, and Validate
// reports it.
func decodedConstant[T comparable](d *decoder, got, want T) error {
	var zero T
	if got == zero && want != zero {
		return d.errorf("must be %s, not %s", quoteValue(want), quoteValue(got))
	}
	return nil
}

// quoteValue writes a value as JSON shows it, shortened when long.
func quoteValue(x any) string {
	if s, ok := x.(string); ok {
		if len(s) > 64 {
			cut := 64
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			return strconv.Quote(s[:cut]) + "..."
		}
		return strconv.Quote(s)
	}
	return fmt.Sprint(x)
}

// validEnum checks that s is one of values.
func validEnum(v *validator, s string, values ...string) {
	for _, value := range values {
		if s == value {
			return
		}
	}
	quoted := make([]string, len(values))
	for i, value := range values {
		quoted[i] = strconv.Quote(value)
	}
	v.report("%s is not one of %s", quoteValue(s), strings.Join(quoted, ", "))
}

// validMinimum and validMaximum check the bounds of a number.
func validMinimum[N int64 | float64](v *validator, x N, min float64) {
	if float64(x) < min {
		v.report("%v is less than the minimum %v", x, min)
	}
}

func validMaximum[N int64 | float64](v *validator, x N, max float64) {
	if float64(x) > max {
		v.report("%v is greater than the maximum %v", x, max)
	}
}

// validItems checks the number of items of an array; min or max < 0 is no bound.
func validItems(v *validator, n, min, max int) {
	if min >= 0 && n < min {
		v.report("has %d items, fewer than the minimum %d", n, min)
	}
	if max >= 0 && n > max {
		v.report("has %d items, more than the maximum %d", n, max)
	}
}

// validRequired reports a required member that holds no value (a nil union).
func validRequired(v *validator, present bool) {
	if !present {
		v.report("missing required value")
	}
}

// validAbsent reports each of the members names that extra holds, which must not be present, at
// its pointer with msg.
func validAbsent[V any](v *validator, extra map[string]V, msg string, names ...string) {
	if len(extra) == 0 {
		return
	}
	for _, name := range names {
		if _, ok := extra[name]; ok {
			v.in(name)
			v.report("%s", msg)
			v.out()
		}
	}
}

// validExtra reports a member of Extra that the type defines, which encoding would write twice.
func validExtra[V any](v *validator, extra map[string]V, known ...string) {
	if len(extra) == 0 {
		return
	}
	for _, name := range known {
		if _, ok := extra[name]; ok {
			v.in(name)
			v.report("is set in Extra, but the type defines it")
			v.out()
		}
	}
}

// validFormat checks a string against a format of the schema.
func validFormat(v *validator, s, format string) {
	var msg string
	switch format {
	case "byte":
		msg = checkBase64(s)
	case "uri":
		msg = checkURI(s)
	case "uri-template":
		msg = checkURITemplate(s)
	case "date-time":
		msg = checkDateTime(s)
	default:
		return // a format this runtime does not know is an annotation
	}
	if msg != "" {
		v.report("%s is not a valid %s: %s", quoteValue(s), format, msg)
	}
}

// checkDateTime checks a date-time of RFC 3339 (section 5.6), as JSON Schema's date-time format
// does: full-date "T" full-time, T and Z in either case, an optional fraction of a second, a
// second of 60 (a leap second), an offset of "Z" or ±hh:mm; the day must exist in its month.
func checkDateTime(s string) string {
	num := func(i, n int) (int, bool) {
		if i+n > len(s) {
			return 0, false
		}
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	at := func(i int, c byte) bool { return i < len(s) && s[i] == c }
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	if !ok1 || !ok2 || !ok3 || !at(4, '-') || !at(7, '-') {
		return "want YYYY-MM-DDThh:mm:ss and an offset"
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days[2] = 29
	}
	if month < 1 || month > 12 || day < 1 || day > days[month] {
		return "no such day"
	}
	if !at(10, 'T') && !at(10, 't') {
		return "want T between the date and the time"
	}
	hour, ok1 := num(11, 2)
	minute, ok2 := num(14, 2)
	second, ok3 := num(17, 2)
	if !ok1 || !ok2 || !ok3 || !at(13, ':') || !at(16, ':') {
		return "want YYYY-MM-DDThh:mm:ss and an offset"
	}
	if hour > 23 || minute > 59 || second > 60 {
		return "no such time"
	}
	i := 19
	if at(i, '.') {
		i++
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return "want digits after the decimal point"
		}
	}
	switch {
	case at(i, 'Z') || at(i, 'z'):
		i++
	case at(i, '+') || at(i, '-'):
		oh, ok1 := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok1 || !ok2 || !at(i+3, ':') || oh > 23 || om > 59 {
			return "want an offset of Z or ±hh:mm"
		}
		i += 6
	default:
		return "want an offset of Z or ±hh:mm"
	}
	if i != len(s) {
		return "unexpected text after the offset"
	}
	return ""
}

// checkBase64 checks standard base64 with padding (RFC 4648, section 4), without decoding.
func checkBase64(s string) string {
	if len(s)%4 != 0 {
		return "length is not a multiple of 4"
	}
	pad := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=' && i >= len(s)-2:
			pad++
		case pad > 0:
			return "data after padding"
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
		default:
			return fmt.Sprintf("invalid character %s at offset %d", charAt(s, i), i)
		}
	}
	return ""
}

// checkURI checks an absolute URI with RFC 3986's grammar: scheme ":" hier-part [ "?" query ]
// [ "#" fragment ], every character allowed where it stands and every "%" followed by two hex
// digits. Hosts are checked for their characters, and an IP literal for its brackets.
func checkURI(s string) string {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "no scheme"
	}
	for i := 0; i < colon; i++ {
		c := s[i]
		if !(isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.')) {
			return "invalid scheme"
		}
	}
	rest := s[colon+1:]
	rest, fragment, hasFragment := strings.Cut(rest, "#")
	hier, query, hasQuery := strings.Cut(rest, "?")
	if hasFragment {
		if msg := checkURIChars(fragment, "/?:@"); msg != "" {
			return "fragment: " + msg
		}
	}
	if hasQuery {
		if msg := checkURIChars(query, "/?:@"); msg != "" {
			return "query: " + msg
		}
	}
	path := hier
	if strings.HasPrefix(hier, "//") {
		authority := hier[2:]
		if i := strings.IndexByte(authority, '/'); i >= 0 {
			authority, path = authority[:i], authority[i:]
		} else {
			path = ""
		}
		if msg := checkAuthority(authority); msg != "" {
			return "authority: " + msg
		}
	}
	if msg := checkURIChars(path, "/:@"); msg != "" {
		return "path: " + msg
	}
	return ""
}

// checkAuthority checks [ userinfo "@" ] host [ ":" port ].
func checkAuthority(a string) string {
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		if msg := checkURIChars(a[:i], ":"); msg != "" {
			return "userinfo: " + msg
		}
		a = a[i+1:]
	}
	port := ""
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "unclosed IP literal"
		}
		for i := 1; i < end; i++ {
			if c := a[i]; !(isHex(c) || c == ':' || c == '.' || isUnreserved(c) || isSubDelim(c)) {
				return "invalid character in IP literal"
			}
		}
		port = a[end+1:]
		if port != "" && port[0] != ':' {
			return "data after IP literal"
		}
		port = strings.TrimPrefix(port, ":")
	} else {
		host := a
		if i := strings.LastIndexByte(a, ':'); i >= 0 {
			host, port = a[:i], a[i+1:]
		}
		if msg := checkURIChars(host, ""); msg != "" {
			return "host: " + msg
		}
	}
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return "port is not a number"
		}
	}
	return ""
}

// checkURIChars checks that s holds only unreserved characters, sub-delimiters, the characters
// of extra and percent-encoded octets.
func checkURIChars(s, extra string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "\"%\" not followed by two hex digits"
			}
			i += 2
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(extra, c) >= 0:
		default:
			return fmt.Sprintf("character %s not allowed", charAt(s, i))
		}
	}
	return ""
}

// checkURITemplate checks the syntax of a URI template (RFC 6570, section 2): literals, and
// expressions "{" [ operator ] varspec *( "," varspec ) "}" with varspec = varname [ ":" max-length
// / "*" ].
func checkURITemplate(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "unclosed expression"
			}
			if msg := checkExpression(s[i+1 : i+end]); msg != "" {
				return msg
			}
			i += end
		case c == '}':
			return "\"}\" outside an expression"
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "\"%\" not followed by two hex digits"
			}
			i += 2
		case c <= ' ' || c == 0x7F || strings.IndexByte("\"'<>\\^`|", c) >= 0:
			return fmt.Sprintf("character %s not allowed in a literal", charAt(s, i))
		}
	}
	return ""
}

// checkExpression checks the inside of a URI template expression.
func checkExpression(e string) string {
	if e != "" && strings.IndexByte("+#./;?&=,!@|", e[0]) >= 0 {
		e = e[1:]
	}
	if e == "" {
		return "empty expression"
	}
	for _, spec := range strings.Split(e, ",") {
		name, mod := spec, ""
		if i := strings.IndexAny(spec, ":*"); i >= 0 {
			name, mod = spec[:i], spec[i:]
		}
		if name == "" {
			return "empty variable name"
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			switch {
			case isAlpha(c) || isDigit(c) || c == '_':
			case c == '.' && i > 0 && i < len(name)-1 && name[i-1] != '.':
			case c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]):
				i += 2
			default:
				return fmt.Sprintf("invalid variable name %s", quoteValue(name))
			}
		}
		switch {
		case mod == "" || mod == "*":
		case mod[0] == ':':
			n, err := strconv.Atoi(mod[1:])
			if err != nil || n <= 0 || n >= 10000 || mod[1] == '0' {
				return fmt.Sprintf("invalid prefix modifier %s", quoteValue(mod))
			}
		default:
			return fmt.Sprintf("invalid modifier %s", quoteValue(mod))
		}
	}
	return ""
}

// charAt quotes the character that starts at byte i of s, as it is written: the whole UTF-8
// sequence, or the byte escaped when it starts none.
func charAt(s string, i int) string {
	_, size := utf8.DecodeRuneInString(s[i:])
	return strconv.Quote(s[i : i+size])
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }
