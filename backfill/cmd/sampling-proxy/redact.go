package main

import (
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
)

// credentialPatterns match credentials in text: the password of a URL's user info, API keys of
// the usual forms, and the values of authorization headers.
var credentialPatterns = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(://[^/@\s:"']*):[^/@\s"']*@`), "$1:[REDACTED]@"},
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{8,}`), "[REDACTED]"},
	{regexp.MustCompile(`(?i)\b(authorization|x-api-key|api-key|proxy-authorization)(["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+)?[^\s"',;]+`), "$1$2$3[REDACTED]"},
}

// redact removes the given secrets and anything that looks like a credential from s.
func redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[REDACTED]")
		}
	}
	for _, p := range credentialPatterns {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// newRedactingHandler is a text handler on w whose records have credentials redacted from every
// attribute (provider errors carry request URLs and response bodies).
func newRedactingHandler(w io.Writer, level slog.Level, secrets []string) slog.Handler {
	return slog.NewTextHandler(w, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			switch a.Value.Kind() {
			case slog.KindString:
				if r := redact(a.Value.String(), secrets); r != a.Value.String() {
					a.Value = slog.StringValue(r)
				}
			case slog.KindAny:
				text := fmt.Sprint(a.Value.Any())
				if r := redact(text, secrets); r != text {
					a.Value = slog.StringValue(r)
				}
			}
			return a
		},
	})
}
