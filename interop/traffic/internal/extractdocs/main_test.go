package main

import (
	"strings"
	"testing"
)

// page is an mdx page with the kinds of block the spec's pages have: an indented fence, two
// messages in one block, a comment and a trailing comma, a value that is not a message, a block
// that is not JSON, and a block of another language.
const page = "# Title\n" +
	"```json\n" +
	"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\n" +
	"{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}\n" +
	"```\n" +
	"1. Item\n" +
	"   ```jsonc\n" +
	"   {\n" +
	"     \"jsonrpc\": \"2.0\", // the version\n" +
	"     \"method\": \"notifications/initialized\",\n" +
	"     \"params\": {\"url\": \"https://x.example/a//b\"},\n" +
	"   }\n" +
	"   ```\n" +
	"```json\n{\"capabilities\": {}}\n```\n" +
	"```json\n{\"jsonrpc\": \"2.0\", \"result\": {\"resources\": [...]}}\n```\n" +
	"```typescript\nconst x = {\"jsonrpc\": \"2.0\"};\n```\n"

func TestExtractBlock(t *testing.T) {
	c := &corpus{}
	for _, blk := range codeBlocks([]byte(page)) {
		c.blocks++
		c.extractBlock("p.mdx", blk)
	}
	if c.blocks != 4 || c.values != 4 || len(c.messages) != 3 || len(c.broken) != 1 {
		t.Fatalf("%d blocks, %d values, %d messages, %d broken; want 4, 4, 3, 1", c.blocks, c.values, len(c.messages), len(c.broken))
	}
	want := []message{
		{"p.mdx", 3, `{"jsonrpc": "2.0", "id": 1, "method": "ping"}`},
		{"p.mdx", 4, `{"jsonrpc": "2.0", "id": 1, "result": {}}`},
		{"p.mdx", 8, "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/initialized\",\n  \"params\": {\"url\": \"https://x.example/a//b\"}\n}"},
	}
	for i, m := range c.messages {
		if m != want[i] {
			t.Errorf("message %d: %+v, want %+v", i, m, want[i])
		}
	}
	if !strings.HasPrefix(c.broken[0], "p.mdx:18: ") {
		t.Errorf("broken block: %s, want p.mdx:18", c.broken[0])
	}
}
