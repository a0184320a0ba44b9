package consumertest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/schema"
)

// consumerMain uses two generated packages the way an SDK would: it decodes a message of each
// version and encodes a result.
const consumerMain = `package main

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
)

func main() {
	msg, err := mcpdraft.UnmarshalJSONRPCMessage([]byte(` + "`" + `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}` + "`" + `))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%T\n", msg)
	out, err := json.Marshal(mcp20251125.CallToolResult{Content: []mcp20251125.ContentBlock{&mcp20251125.TextContent{Text: "hi"}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out), mcpdraft.SchemaVersion, mcp20251125.SchemaVersion)
}
`

// TestGenFromModuleCache is a program that depends on the gen module, in a fresh module outside
// the repository, with the oldest toolchain gen/go.mod allows: it go gets gen from the proxy,
// vets itself and gen's packages, runs, and runs gen's tests from the module cache, where each
// package round-trips every example it lists. (A test result that go test has cached is for the
// same files and toolchain.)
func TestGenFromModuleCache(t *testing.T) {
	skipSlow(t)
	gomod, err := os.ReadFile(filepath.Join(repoRoot, "gen", "go.mod"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	require.NotNil(t, m, "gen/go.mod has a go directive")
	toolchain := "go" + string(m[1])

	home := t.TempDir()
	dir := filepath.Join(home, "consumer")
	require.NoError(t, os.Mkdir(dir, 0o755))
	env := consumerEnv(t, buildProxy(t), toolchain, home)

	assert.Contains(t, command(t, dir, env, "go", "version"), toolchain+" ")
	command(t, dir, env, "go", "mod", "init", "example.com/consumer")
	command(t, dir, env, "go", "get", genModule+"@"+version)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(consumerMain), 0o644))
	command(t, dir, env, "go", "vet", "./...", genModule+"/...")
	assert.Equal(t, "*mcpdraft.JSONRPCRequest\n"+
		`{"content":[{"type":"text","text":"hi"}]} draft 2025-11-25`+"\n",
		command(t, dir, env, "go", "run", "."))

	out := command(t, dir, env, "go", "test", "-v", genModule+"/...")
	counts := regexp.MustCompile(`MCP (\S+): (\d+)/(\d+) examples of (\S+) validated and round-tripped losslessly \((\d+) rejected`).FindAllStringSubmatch(out, -1)
	var versions []string
	for _, c := range counts {
		versions = append(versions, c[1])
		passed, total, defects := atoi(t, c[2]), atoi(t, c[3]), atoi(t, c[5])
		assert.Equal(t, total, passed+defects, "MCP %s: %d/%d examples round-tripped, %d known defects", c[1], passed, total, defects)
		assert.NotZero(t, total, "MCP %s found no examples in %s", c[1], c[4])
		t.Logf("from the module cache, MCP %s: %d/%d examples round-tripped (%d known defects of the spec)", c[1], passed, total, defects)
	}
	assert.ElementsMatch(t, schema.Versions, versions, "every package ran its example test")
	assert.NotContains(t, out, "no examples found")
	assert.True(t, strings.Contains(out, "\nok  \t"+genModule+"/mcpdraft"), "the mcpdraft tests pass:\n%s", out)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}
