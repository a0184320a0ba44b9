package backfill

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 11, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{map[string]string{"Retry-After-Ms": "250"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After-Ms": "1.5"}, 1500 * time.Microsecond, true},
		{map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{map[string]string{"Retry-After": "0"}, 0, true},
		{map[string]string{"Retry-After-Ms": "100", "Retry-After": "30"}, 100 * time.Millisecond, true},
		{map[string]string{"Retry-After": "Tue, 25 Nov 2025 12:00:10 GMT"}, 10 * time.Second, true},
		{map[string]string{"Retry-After": "Tue, 25 Nov 2025 11:00:00 GMT"}, 0, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After-Ms": "-5"}, 0, false},
		{nil, 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		got, ok := retryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v: got %v, %v; want %v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	s := newSampler(ProviderOpenAI, "m", &Options{Retry: RetryPolicy{InitialBackoff: 100 * time.Millisecond, MaxBackoff: time.Second}})
	for n, max := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 70: time.Second} {
		for range 50 {
			if d := s.backoff(n); d < max/2 || d > max {
				t.Fatalf("backoff(%d) = %v, want between %v and %v", n, d, max/2, max)
			}
		}
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Bearer abcdefgh1234 rejected", "Bearer [REDACTED] rejected"},
		{"the basic plan", "the basic plan"},
		{"see https://u:p@host/x and http://host/y", "see https://[REDACTED]@host/x and http://host/y"},
		{"key sk-proj-abcdef123456 invalid", "key [REDACTED] invalid"},
		{"line\nbreak", "line break"},
		{"the secret hunter22 again hunter22", "the secret [REDACTED] again [REDACTED]"},
		{strings.Repeat("é", 300), strings.Repeat("é", 250) + "…"},
	} {
		if got := sanitize(tc.in, []string{"hunter22", "abc"}); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
