package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This file holds the parser to the judgment of esbuild, used as a syntax oracle: esbuild has no
// TypeScript AST (it strips types), but it accepts or rejects TypeScript the way tsc's parser does.
//
//   - Every input of the subset esbuild accepts, the parser accepts (TestOracleAccepts).
//   - Every malformed variant (mutant) of an input that esbuild rejects, the parser rejects too,
//     with an error at a position inside the input (TestOracleMutants). Mutants esbuild accepts
//     may be valid TypeScript outside the subset: the parser may reject them, with a position.

// esbuildErrors transforms src as TypeScript with esbuild and returns its errors.
func esbuildErrors(name, src string) []api.Message {
	r := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Sourcefile: name, LogLevel: api.LogLevelSilent})
	return r.Errors
}

// testdataInputs returns testdata/*.ts and testdata/oracle/*.ts.
func testdataInputs(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{"*.ts", filepath.Join("oracle", "*.ts")} {
		m, err := filepath.Glob(filepath.Join("testdata", pattern))
		require.NoError(t, err)
		require.NotEmpty(t, m, pattern)
		files = append(files, m...)
	}
	return files
}

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}

// TestOracleAccepts checks that esbuild and the parser both accept the inputs of the subset.
func TestOracleAccepts(t *testing.T) {
	var files []string
	for _, v := range versions {
		files = append(files, filepath.Join("..", "schema", v, "schema.ts"))
	}
	for _, file := range append(files, testdataInputs(t)...) {
		t.Run(filepath.ToSlash(file), func(t *testing.T) {
			src := readString(t, file)
			require.Empty(t, esbuildErrors(file, src), "esbuild")
			_, err := Parse(file, []byte(src))
			require.NoError(t, err, "Parse")
			_, err = Load(file, []byte(src))
			require.NoError(t, err, "Load")
		})
	}
}

// oracleBase is an input to derive mutants from, mutated only in src[lo:hi].
type oracleBase struct {
	name   string // of the subtest
	file   string // the file name given to esbuild and the parser
	src    string
	lo, hi int
	stride int // truncate and insert at every stride-th token only
}

// oracleDrafts are the draft declarations mutated inside the whole draft schema, which keeps
// every reference resolvable for Load.
var oracleDrafts = []string{
	"JSONValue", "LATEST_PROTOCOL_VERSION", "RequestMetaObject", "HeaderMismatchError",
	"Tool", "LoggingLevel", "ElicitRequestFormParams",
}

// oracleBases returns testdata/*.ts and testdata/oracle/*.ts whole, then the oracleDrafts.
func oracleBases(t *testing.T) []oracleBase {
	var bases []oracleBase
	for _, file := range testdataInputs(t) {
		src := readString(t, file)
		bases = append(bases, oracleBase{filepath.ToSlash(file), filepath.ToSlash(file), src, 0, len(src), 4})
	}
	name := filepath.Join("..", "schema", "draft", "schema.ts")
	src := readString(t, name)
	start := regexp.MustCompile(`(?m)^(export |/\*)`)
	for _, decl := range oracleDrafts {
		loc := regexp.MustCompile(`(?m)^export (interface|type|const) ` + decl + `\b`).FindStringIndex(src)
		require.NotNil(t, loc, decl)
		lo, hi := loc[0], len(src)
		if strings.HasSuffix(src[:lo], "*/\n") {
			lo = strings.LastIndex(src[:lo], "\n/*") + 1
		}
		if next := start.FindStringIndex(src[loc[1]:]); next != nil {
			hi = loc[1] + next[0]
		}
		bases = append(bases, oracleBase{"draft/" + decl, "draft.ts", src, lo, hi, 3})
	}
	// The forms of forms_test.go that have no Go mapping: the syntax the subset does not use.
	var types strings.Builder
	types.WriteString(formPrelude)
	lo := types.Len()
	for i, t := range unmappedTypes {
		fmt.Fprintf(&types, "type T%d = %s;\n", i, strings.ReplaceAll(t.typ, mark, ""))
	}
	bases = append(bases, oracleBase{"forms/types", "forms.ts", types.String(), lo, types.Len(), 3})
	for i, st := range formStatements {
		src := formPrelude + strings.ReplaceAll(st.src, mark, "") + "\n"
		bases = append(bases, oracleBase{fmt.Sprintf("forms/statement%d", i), "forms.ts", src, len(formPrelude), len(src), 2})
	}
	for _, b := range bases {
		require.Empty(t, esbuildErrors(b.file, b.src), "esbuild on the base %s", b.name)
	}
	return bases
}

// oracleToken is a token of the mutant generator's own scanner, kept apart from the lexer under
// test.
type oracleToken struct {
	start, end int
	kind       byte // 'c' block comment, 'l' line comment, 's' string, 'w' word, 'p' punctuation
}

func oracleScan(src string) []oracleToken {
	var toks []oracleToken
	word := func(c byte) bool { return isIdentPart(c) || c >= utf8.RuneSelf }
	for i := 0; i < len(src); {
		start, c := i, src[i]
		var kind byte
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case strings.HasPrefix(src[i:], "//"):
			kind = 'l'
			if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
				i += n
			} else {
				i = len(src)
			}
		case strings.HasPrefix(src[i:], "/*"):
			kind = 'c'
			if n := strings.Index(src[i+2:], "*/"); n >= 0 {
				i += n + 4
			} else {
				i = len(src)
			}
		case c == '"' || c == '\'':
			kind = 's'
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i = min(i+1, len(src))
		case word(c):
			kind = 'w'
			for i < len(src) && word(src[i]) {
				i++
			}
		default:
			kind = 'p'
			i++
		}
		toks = append(toks, oracleToken{start, i, kind})
	}
	return toks
}

// oracleStrays are the stray tokens inserted, one per token in turn.
var oracleStrays = []string{
	"}", "<", "=>", "@", "{", ";", ":", ">", "|", "&", ",", "?", "(", ")", "[", "]", "=",
	`"`, "'", "-", ".", "#", "`", "/*", "*/", "*", "/", "\\", "\n", "\r", "0",
	" interface ", " typeof ", " 1 ", " A ",
}

// oracleMutant is a malformed variant of an oracleBase.
type oracleMutant struct {
	desc string
	src  string
}

// mutants derives the mutants of b, deterministically and without duplicates: the deletion of
// each token, of the quotes of strings and of the delimiters of comments; a `*/` inside
// comments; and at every stride-th token, truncations after and inside it, the insertion of a
// stray token before it and a line break before it (TypeScript has rules against some).
func (b oracleBase) mutants() []oracleMutant {
	src := b.src
	seen := map[string]bool{src: true}
	var ms []oracleMutant
	add := func(m string, format string, args ...any) {
		if !seen[m] {
			seen[m] = true
			ms = append(ms, oracleMutant{fmt.Sprintf(format, args...), m})
		}
	}
	at := func(off int) string {
		line := 1 + strings.Count(src[:off], "\n")
		return fmt.Sprintf("%d:%d", line, off-strings.LastIndexByte(src[:off], '\n'))
	}
	middle := func(tk oracleToken) int {
		mid := (tk.start + tk.end) / 2
		for mid < tk.end && !utf8.RuneStart(src[mid]) {
			mid++
		}
		return mid
	}
	del := func(from, to int, what string) {
		add(src[:from]+src[to:], "delete %s at %s", what, at(from))
	}
	n := 0
	for _, tk := range oracleScan(src) {
		if tk.start < b.lo || tk.end > b.hi {
			continue
		}
		text := src[tk.start:tk.end]
		del(tk.start, tk.end, quoteToken(text))
		switch tk.kind {
		case 'c':
			del(tk.start, tk.start+2, "`/*`")
			if strings.HasSuffix(text, "*/") && len(text) >= 4 {
				del(tk.end-2, tk.end, "`*/`")
			}
			mid := middle(tk)
			add(src[:mid]+"*/"+src[mid:], "insert `*/` at %s", at(mid))
		case 's':
			del(tk.start, tk.start+1, "opening quote")
			if len(text) >= 2 && text[len(text)-1] == text[0] {
				del(tk.end-1, tk.end, "closing quote")
			}
		}
		n++
		if n%b.stride != 0 {
			continue
		}
		add(src[:tk.end], "truncate after %s at %s", quoteToken(text), at(tk.start))
		if tk.end-tk.start > 1 {
			mid := middle(tk)
			add(src[:mid], "truncate inside %s at %s", quoteToken(text), at(mid))
		}
		stray := oracleStrays[(n/b.stride)%len(oracleStrays)]
		add(src[:tk.start]+stray+src[tk.start:], "insert %s at %s", quoteToken(strings.Trim(stray, " ")), at(tk.start))
		add(src[:tk.start]+"\n"+src[tk.start:], "break the line at %s", at(tk.start))
	}
	return ms
}

// quoteToken shows a token in a mutant's description, shortened.
func quoteToken(s string) string {
	if len(s) > 12 {
		s = s[:8] + "…"
	}
	return strconv.Quote(s)
}

var errPosition = regexp.MustCompile(`^(\d+):(\d+): `)

// errorPosition returns the line and column of err, which must start with "name:line:col: ", and
// whether they lie inside src: the column of a line may be one past its end, the last line is the
// one after the last line break.
func errorPosition(name, src string, err error) (line, col int, ok bool) {
	rest, found := strings.CutPrefix(err.Error(), name+":")
	m := errPosition.FindStringSubmatch(rest)
	if !found || m == nil {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	lens := lineLengths(src)
	ok = line >= 1 && line <= len(lens) && col >= 1 && col <= lens[line-1]+1
	return line, col, ok
}

// lineLengths returns the length in bytes of each line of src, where the lexer ends lines (see
// endsLine), with its line break but for the last byte.
func lineLengths(src string) []int {
	var lens []int
	start := 0
	for i := range len(src) {
		if endsLine(src, i) {
			lens = append(lens, i-start)
			start = i + 1
		}
	}
	return append(lens, len(src)-start)
}

// runParser runs Parse then, if it succeeds, Load, and returns the stage that stopped and its
// error.
func runParser(name, src string) (stage string, err error) {
	if _, err = Parse(name, []byte(src)); err != nil {
		return "Parse", err
	}
	_, err = Load(name, []byte(src))
	return "Load", err
}

// oracleStats counts the outcomes of the mutants of one base.
type oracleStats struct {
	mutants  int
	rejected int // by esbuild, hence by the parser
	loadOnly int // rejected by esbuild, accepted by Parse, rejected by Load
	sameLine int // rejected, and the parser's line is esbuild's
	samePos  int // rejected, and the parser's line and column are esbuild's
	accepted int // by esbuild
	outside  int // accepted by esbuild, rejected by the parser
	// outsideParse counts the outside mutants that Parse rejects (a syntax error rather than a
	// construct that cannot be mapped or a reference that does not resolve).
	outsideParse int
	// Examples of each kind, a few per base.
	disagree, outsideEx, outsideParseEx, loadOnlyEx []string
}

func (s *oracleStats) add(o *oracleStats) {
	s.mutants += o.mutants
	s.rejected += o.rejected
	s.loadOnly += o.loadOnly
	s.sameLine += o.sameLine
	s.samePos += o.samePos
	s.accepted += o.accepted
	s.outside += o.outside
	s.outsideParse += o.outsideParse
	s.disagree = append(s.disagree, o.disagree...)
	s.outsideEx = append(s.outsideEx, o.outsideEx...)
	s.outsideParseEx = append(s.outsideParseEx, o.outsideParseEx...)
	s.loadOnlyEx = append(s.loadOnlyEx, o.loadOnlyEx...)
}

const oracleExamples = 3 // per base and kind

func example(list *[]string, format string, args ...any) {
	if len(*list) < oracleExamples {
		*list = append(*list, fmt.Sprintf(format, args...))
	}
}

// check runs esbuild and the parser on the mutant m of base b.
func (b oracleBase) check(t *testing.T, m oracleMutant, s *oracleStats) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: %s: panic: %v", b.name, m.desc, r)
		}
	}()
	s.mutants++
	errs := esbuildErrors(b.file, m.src)
	stage, err := runParser(b.file, m.src)
	var line, col int
	if err != nil {
		var ok bool
		line, col, ok = errorPosition(b.file, m.src, err)
		assert.True(t, ok, "%s: %s: error without a position inside the input: %v", b.name, m.desc, err)
	}
	if len(errs) == 0 {
		s.accepted++
		if err != nil {
			s.outside++
			if stage == "Parse" {
				s.outsideParse++
				example(&s.outsideParseEx, "%s: %s: %v", b.name, m.desc, err)
			} else {
				example(&s.outsideEx, "%s: %s: %v", b.name, m.desc, err)
			}
		}
		return
	}
	s.rejected++
	e := errs[0]
	if !assert.Error(t, err, "%s: %s: esbuild rejects (%s), the parser accepts", b.name, m.desc, e.Text) {
		return
	}
	if stage == "Load" {
		s.loadOnly++
		example(&s.loadOnlyEx, "%s: %s: esbuild %q, Load %v", b.name, m.desc, e.Text, err)
	}
	if e.Location == nil {
		return
	}
	if e.Location.Line == line {
		s.sameLine++
		if e.Location.Column+1 == col {
			s.samePos++
		}
		return
	}
	example(&s.disagree, "%s: %s: esbuild %d:%d %q, parser %v", b.name, m.desc, e.Location.Line, e.Location.Column+1, e.Text, err)
}

// TestOracleMutants checks the parser against esbuild on the mutants of the oracleBases.
func TestOracleMutants(t *testing.T) {
	bases := oracleBases(t)
	stats := make([]oracleStats, len(bases))
	t.Run("bases", func(t *testing.T) {
		for i, b := range bases {
			t.Run(b.name, func(t *testing.T) {
				t.Parallel()
				for _, m := range b.mutants() {
					b.check(t, m, &stats[i])
				}
			})
		}
	})
	var total oracleStats
	for i, b := range bases {
		s := &stats[i]
		t.Logf("%s: %d mutants, esbuild rejects %d (same line %d), accepts %d (parser rejects %d)",
			b.name, s.mutants, s.rejected, s.sameLine, s.accepted, s.outside)
		total.add(s)
	}
	t.Logf("total: %d mutants; esbuild rejects %d, the parser too (%d only in Load); esbuild accepts %d, the parser rejects %d of them (%d in Parse)",
		total.mutants, total.rejected, total.loadOnly, total.accepted, total.outside, total.outsideParse)
	if total.rejected > 0 {
		t.Logf("line agreement with esbuild: %d/%d = %.1f%% (line and column: %.1f%%)", total.sameLine, total.rejected,
			100*float64(total.sameLine)/float64(total.rejected), 100*float64(total.samePos)/float64(total.rejected))
	}
	for _, kind := range []struct {
		title string
		list  []string
	}{{"different lines", total.disagree}, {"rejected only by Load", total.loadOnlyEx},
		{"accepted by esbuild, rejected by Load", total.outsideEx}, {"accepted by esbuild, rejected by Parse", total.outsideParseEx}} {
		t.Logf("%s, for example:", kind.title)
		for _, e := range kind.list {
			t.Logf("  %s", e)
		}
	}
	assert.GreaterOrEqual(t, total.mutants, 500)
	assert.Greater(t, total.rejected, total.mutants/2)
}
