package backfill_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/backfill"
	"github.com/mcpgen/mcpgen/backfill/internal/testkit"
)

// TestBillable: whether a failed call may have been billed follows from what reached the
// provider: a request never written (a closed port, a name that does not resolve) was not billed,
// nor one answered with HTTP error statuses only; one that the provider read without answering
// (the connection closed, the attempt timed out) may have been, even when a later attempt was
// refused with an error status.
func TestBillable(t *testing.T) {
	refused, hungUp := testkit.ClosedPort(t), testkit.HangUp(t)
	retry := backfill.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, AttemptTimeout: 300 * time.Millisecond}
	overloaded := testkit.Reply{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"overloaded"}}`}
	for _, f := range fixtures {
		for _, tc := range []struct {
			name string
			url  string
			want bool
		}{
			{"connection refused", "http://" + refused + "/", false},
			{"unresolvable host", "http://provider.invalid/", false},
			{"HTTP 529 each time", serve(t, &testkit.Provider{Path: f.path, Replies: []testkit.Reply{overloaded}}), false},
			{"connection closed after the request", "http://" + hungUp + "/", true},
			{"timed out, then HTTP 529", serve(t, &testkit.Provider{Path: f.path, Replies: []testkit.Reply{{Delay: 5 * time.Second}, overloaded}}), true},
		} {
			_, err := f.sampler(tc.url, retry).CreateMessage(context.Background(), params(t, "text"))
			var pe *backfill.ProviderError
			if !errors.As(err, &pe) {
				t.Errorf("%s, %s: got %v, want a *ProviderError", f.name, tc.name, err)
				continue
			}
			if pe.Billable != tc.want || pe.Attempts != retry.MaxAttempts {
				t.Errorf("%s, %s: Billable %v after %d attempts (%v), want %v after %d", f.name, tc.name, pe.Billable, pe.Attempts, pe, tc.want, retry.MaxAttempts)
			}
		}
	}
}
