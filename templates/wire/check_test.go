package wire

import "testing"

// TestCheckFormat holds CheckFormat to the format check of the generated validators
// (validFormat): the same verdict on valid and invalid values of every format, and none for a
// format they do not know.
func TestCheckFormat(t *testing.T) {
	samples := []string{"", "aGVsbG8=", "aGVsbG8", "not base64!", "https://example.com/a?b#c", "file:///tmp/x",
		"no scheme", "http://[::1]:80/", "http://exa mple.com", "file:///{path}", "{+base}/x{?q*}", "{unclosed",
		"2025-01-02T03:04:05Z", "2025-02-30T03:04:05Z", "2025-01-02t03:04:05.5+01:00", "2025-01-02"}
	invalid := 0
	for _, format := range []string{"byte", "uri", "uri-template", "date-time", "email", ""} {
		for _, s := range samples {
			var v validator
			validFormat(&v, s, format)
			got := CheckFormat(s, format)
			if (got == "") != (len(v.problems) == 0) {
				t.Errorf("format %q, %q: CheckFormat says %q, the validator %v", format, s, got, v.problems)
			}
			if got != "" {
				invalid++
			}
		}
	}
	if invalid < 8 {
		t.Errorf("only %d invalid samples: the test compares too little", invalid)
	}
}
