package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServerCannotReadProxyEnvironment (Linux): the server cannot read the key from the proxy's
// environment in /proc either. Run as root, the proxy runs as nobody for the test (root reads any
// process's environment).
func TestServerCannotReadProxyEnvironment(t *testing.T) {
	p := providers[0]
	_, url := fakeProvider(t, p, recorded(p.replies...))
	bin := os.Args[0]
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		// A copy of the test binary that nobody may run.
		dir, err := os.MkdirTemp("", "sp")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		data, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "sampling-proxy.test")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, 0o755)
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	var stderr syncBuffer
	cmd := exec.Command(bin, "-provider", p.name, "-model", p.model, "--", bin, "test-server")
	cmd.Env = environ(p.keyVar+"=test-key", p.urlVar+"="+url)
	cmd.Dir = "/"
	cmd.Stderr = &stderr
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "parent-env", Arguments: map[string]any{"name": p.keyVar}})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "unreadable" {
		t.Errorf("the server reads the proxy's environment: %s", got)
	}
}
