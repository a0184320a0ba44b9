// Command extractdocs copies every JSON-RPC message of the MCP specification's documentation
// pages into the traffic corpus: each ```json or ```jsonc code block of docs/<version>/**/*.mdx is
// read as a sequence of JSON values (jsonc comments removed), and every value that is a JSON-RPC
// message (an object with a "jsonrpc" member) is written, as the page writes it (its
// indentation, // comments and trailing commas removed), to <out>/<version>.txt under a "-- <page>:<line> --" header. Blocks that
// are not JSON (placeholders such as "...") and values that are not messages (params or
// capabilities shown alone) are counted, and the blocks that fail to parse are listed in the
// file's header with the parse error, so that nothing is dropped silently.
//
//	go run ./internal/extractdocs -docs <spec>/docs -o testdata/specdocs
//
// The spec repository's docs are not part of this repository; the output is.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	docs := flag.String("docs", "", "the spec repository's docs directory (docs/<version>/**/*.mdx)")
	out := flag.String("o", "testdata/specdocs", "output directory")
	source := flag.String("source", "github.com/modelcontextprotocol/modelcontextprotocol", "where the docs come from, for the header")
	commit := flag.String("commit", "", "the commit of the docs, for the header")
	flag.Parse()
	if *docs == "" {
		log.Fatal("-docs is required")
	}
	versions, err := os.ReadDir(*docs)
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range versions {
		if !v.IsDir() {
			continue
		}
		c, err := extractVersion(filepath.Join(*docs, v.Name()))
		if err != nil {
			log.Fatal(err)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "# The JSON-RPC messages of the MCP specification's documentation pages, version %s,\n", v.Name())
		fmt.Fprintf(&b, "# extracted by internal/extractdocs from %s docs/%s", *source, v.Name())
		if *commit != "" {
			fmt.Fprintf(&b, " at commit %s", *commit)
		}
		fmt.Fprintf(&b, ".\n# License: see NOTICE.md in this directory. Do not edit; run extractdocs again.\n#\n")
		fmt.Fprintf(&b, "# %d pages, %d json/jsonc code blocks, %d JSON values, %d of them messages;\n", c.pages, c.blocks, c.values, len(c.messages))
		fmt.Fprintf(&b, "# %d values are not messages (params, results or capabilities shown alone);\n", c.values-len(c.messages))
		fmt.Fprintf(&b, "# %d blocks are not JSON:\n", len(c.broken))
		for _, br := range c.broken {
			fmt.Fprintf(&b, "#   %s\n", br)
		}
		for _, m := range c.messages {
			fmt.Fprintf(&b, "-- %s:%d --\n%s\n", m.page, m.line, m.text)
		}
		if err := os.MkdirAll(*out, 0o755); err != nil {
			log.Fatal(err)
		}
		file := filepath.Join(*out, v.Name()+".txt")
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		log.Printf("%s: %d messages of %d values in %d blocks (%d blocks not JSON)", file, len(c.messages), c.values, c.blocks, len(c.broken))
	}
}

type message struct {
	page string
	line int
	text string
}

type corpus struct {
	pages, blocks, values int
	messages              []message
	broken                []string // "<page>:<line>: <error>"
}

func extractVersion(dir string) (*corpus, error) {
	c := &corpus{}
	var pages []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".mdx") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(pages)
	for _, path := range pages {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		c.pages++
		for _, blk := range codeBlocks(data) {
			c.blocks++
			c.extractBlock(rel, blk)
		}
	}
	return c, nil
}

// block is a json or jsonc code block: its lines without the fence, and the line number of
// its first line.
type block struct {
	line  int
	lines []string
}

// codeBlocks returns the json and jsonc fenced code blocks of an mdx page (fences may be
// indented, as inside list items and components).
func codeBlocks(data []byte) []block {
	var out []block
	var cur *block
	indent := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if cur == nil {
			if lang, ok := strings.CutPrefix(trimmed, "```"); ok {
				lang = strings.Fields(lang + " x")[0]
				if lang == "json" || lang == "jsonc" {
					cur = &block{line: n + 1}
					indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
				}
			}
			continue
		}
		if trimmed == "```" {
			out = append(out, *cur)
			cur = nil
			continue
		}
		cur.lines = append(cur.lines, strings.TrimPrefix(line, indent))
	}
	return out
}

// extractBlock reads the JSON values of one block.
func (c *corpus) extractBlock(page string, blk block) {
	// json blocks of the pages have comments too ("// Elicitation request."): removed from both.
	lines := stripComments(blk.lines)
	text := strings.Join(lines, "\n")
	dec := json.NewDecoder(strings.NewReader(text))
	for {
		start := skipSpace(text, int(dec.InputOffset()))
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return
		}
		line := blk.line + strings.Count(text[:start], "\n")
		if err != nil {
			c.broken = append(c.broken, fmt.Sprintf("%s:%d: %v", page, line, err))
			return
		}
		c.values++
		var probe map[string]json.RawMessage
		if json.Unmarshal(raw, &probe) != nil || probe["jsonrpc"] == nil {
			continue
		}
		c.messages = append(c.messages, message{page: page, line: line, text: dedent(text[start:int(dec.InputOffset())])})
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.ContainsRune(" \t\r\n", rune(s[i])) {
		i++
	}
	return i
}

// dedent removes the indentation that the value's lines after the first share with its closing
// line, so that a value indented in the page reads as written.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	last := lines[len(lines)-1]
	indent := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], indent)
	}
	return strings.Join(lines, "\n")
}

// stripComments removes // comments outside strings, and a comma left before a closing bracket
// (jsonc allows trailing commas).
func stripComments(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		inString, escaped := false, false
		cut := len(l)
		for j := 0; j < len(l); j++ {
			ch := l[j]
			switch {
			case escaped:
				escaped = false
			case inString && ch == '\\':
				escaped = true
			case ch == '"':
				inString = !inString
			case !inString && ch == '/' && j+1 < len(l) && l[j+1] == '/':
				cut = j
				j = len(l)
			}
		}
		out[i] = strings.TrimRight(l[:cut], " \t")
	}
	// Trailing commas: a ',' whose next non-space character (across lines) is '}' or ']'.
	joined := strings.Join(out, "\n")
	var b strings.Builder
	inString, escaped := false, false
	for j := 0; j < len(joined); j++ {
		ch := joined[j]
		switch {
		case escaped:
			escaped = false
		case inString && ch == '\\':
			escaped = true
		case ch == '"':
			inString = !inString
		case !inString && ch == ',':
			k := skipSpace(joined, j+1)
			if k < len(joined) && (joined[k] == '}' || joined[k] == ']') {
				continue
			}
		}
		b.WriteByte(ch)
	}
	return strings.Split(b.String(), "\n")
}
