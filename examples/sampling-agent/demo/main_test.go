package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemo runs the demo as a newcomer does (go run), at both protocol flows, without the
// providers' variables, with the module proxy off and, where the machine allows it (unshare, as
// root), in a network namespace of its own, which has no network at all: it must print each round
// and the final answer, and exit 0 within 2 minutes (its packages compiled before).
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example; skipped with -short")
	}
	isolated := exec.Command("unshare", "--net", "true").Run() == nil
	if !isolated {
		t.Log("unshare --net is not available here: the demo runs with the machine's network")
	}
	// What go run compiles, the demo and the example it builds, compiled first, untimed: on a
	// machine that CI shares with other jobs a cold build alone can take minutes, and the 2
	// minutes are the demo's, not the compiler's.
	for _, pkg := range []string{".", "github.com/mcpgen/mcpgen/examples/sampling-agent"} {
		if out, err := exec.Command("go", "build", "-o", os.DevNull, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := []string{"go", "run", "."}
			if protocol != "" {
				args = append(args, "-protocol", protocol)
			}
			if isolated {
				args = append([]string{"unshare", "--net"}, args...)
			}
			cmd := exec.CommandContext(ctx, args[0], args[1:]...)
			cmd.Env = append(withoutKeys(os.Environ()), "GOPROXY=off")
			start := time.Now()
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s\n%s", strings.Join(args, " "), out)
			require.Less(t, time.Since(start), 2*time.Minute, "the demo exits within 2 minutes")
			t.Logf("%s: %.1fs\n%s", strings.Join(args, " "), time.Since(start).Seconds(), out)
			s := string(out)
			assert.Contains(t, s, "a go-sdk client whose model is scripted")
			assert.Contains(t, s, "no provider, no API key, no network")
			for _, want := range []string{
				"round 1: the server asks the model: 1 message(s), tools offered: get_weather, add\n",
				"  model (scripted) -> tool call: get_weather {\"city\":\"Paris\"}\n",
				"  tool result (w1): Weather in Paris: 18°C, partly cloudy\n",
				"  tool result (w2): Weather in London: 15°C, rainy\n",
				"  model (scripted) -> tool call: add {\"numbers\":[18,15]}\n",
				"round 3: the server asks the model: 5 message(s)",
				"  tool result (s1): 33\n",
				"  model (scripted) -> final answer: Weather in Paris: 18°C, partly cloudy. Weather in London: 15°C, rainy. Together: 33°C.\n",
				"the agent tool's result, after 3 rounds: Weather in Paris: 18°C, partly cloudy. Weather in London: 15°C, rainy. Together: 33°C.\n",
			} {
				assert.Contains(t, s, want)
			}
			if protocol == "" {
				assert.Contains(t, s, "connected at protocol version 2026-07-28")
				assert.Equal(t, 3, strings.Count(s, "server: input_required, asking for sampling-"), "one input_required result per round")
			} else {
				assert.Contains(t, s, "connected at protocol version 2025-11-25")
				assert.Equal(t, 3, strings.Count(s, "server: sampling/createMessage\n"), "one sampling request per round")
			}
		})
	}
}
