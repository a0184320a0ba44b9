package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/backfill/proxy"
)

// The defaults of the limits on spending: finite, so that a server cannot spend without bound
// with the operator's key unless the operator says so (-token-budget 0).
const (
	defaultTokenBudget       = 1_000_000
	defaultMaxRoundSamples   = 4
	defaultMaxRequestSamples = 20
)

// safetyFlags are the flags that bound spending beyond the basic limits and that keep secrets
// off the command line.
type safetyFlags struct {
	maxRoundSamples   *int
	maxRequestSamples *int
	routeBudgets      *string
	headerFile        *string
}

func addSafetyFlags(fs *flag.FlagSet) *safetyFlags {
	return &safetyFlags{
		maxRoundSamples:   fs.Int("max-round-samples", defaultMaxRoundSamples, "sampling requests answered in one input_required round; a round asking for more fails the request (0: no bound)"),
		maxRequestSamples: fs.Int("max-request-samples", defaultMaxRequestSamples, "sampling requests answered for one client request over all its rounds (0: no bound)"),
		routeBudgets:      fs.String("route-budget", "", "token budgets of -model-map routes, within -token-budget: 'opus=20000,sonnet=200000' (a costly model can be given less)"),
		headerFile:        fs.String("header-file", "", "a file of HTTP headers for a remote server, one \"Name: value\" a line (for secrets: the command line is readable by every user)"),
	}
}

// limits are the proxy's limits from the flags.
func (f *safetyFlags) limits(maxTokens, tokenBudget int64, maxConcurrent int) proxy.Limits {
	return proxy.Limits{MaxTokens: maxTokens, TokenBudget: tokenBudget, MaxConcurrent: maxConcurrent,
		MaxRoundSamples: *f.maxRoundSamples, MaxRequestSamples: *f.maxRequestSamples}
}

// headerLines reads the lines of -header-file, if given.
func (f *safetyFlags) headerLines() ([]string, error) {
	if *f.headerFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(*f.headerFile)
	if err != nil {
		return nil, fmt.Errorf("-header-file: %v", err)
	}
	return strings.Split(string(data), "\n"), nil
}

// querySecrets are the values of an endpoint's query (a token in ?api_key=..., say), which the
// log redacts.
func querySecrets(endpoint string) []string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil
	}
	var out []string
	for _, vs := range u.Query() {
		for _, v := range vs {
			out = append(out, v, url.QueryEscape(v))
		}
	}
	return out
}

// warnExposure warns about what other users of the machine can read or do: secrets on the
// command line (in /proc/PID/cmdline, readable by every user), and a proxy run as root (a server
// it starts as root can read the proxy's memory and environment, the key included).
func warnExposure(log *slog.Logger, headerArgs int, endpoint string, remote bool) {
	if headerArgs > 0 {
		log.Warn("-header values are on the command line, which every user of this machine can read (ps, /proc/PID/cmdline); give secret headers in " + headersVar + " or -header-file")
	}
	if remote {
		if u, err := url.Parse(endpoint); err == nil && (u.RawQuery != "" || u.User != nil) {
			log.Warn("the remote server's URL holds a query or user information, on the command line, which every user of this machine can read; give credentials in a header (" + headersVar + " or -header-file)")
		}
	}
	if !remote && os.Geteuid() == 0 {
		log.Warn("the proxy runs as root: a server it starts runs as root too, and can read the proxy's environment and memory (the provider's key) whatever the proxy does; run the proxy as an unprivileged user")
	}
}
