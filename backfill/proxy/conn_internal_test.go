package proxy

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLineReader: lines up to the bound come whole (without their newline, a CR kept); a longer
// one is skipped to its end and reported with its head; the reader goes on after it.
func TestLineReader(t *testing.T) {
	long := `{"id":3,"method":"x","params":"` + strings.Repeat("a", 200<<10) + `"}`
	in := "12345\n" + "123456\n" + "1234567\n" + "ab\r\n" + long + "\n" + "\n" + "last"
	lr := newLineReader(strings.NewReader(in), 6)
	for _, want := range []string{"12345", "123456", "", "ab\r", "", "", "last"} {
		got, err := lr.next()
		var tooLarge *MessageTooLargeError
		switch {
		case errors.As(err, &tooLarge):
			if tooLarge.Limit != 6 || len(tooLarge.Head) == 0 || len(tooLarge.Head) > headBytes {
				t.Errorf("too large: %+v", tooLarge)
			}
			got = nil
		case err != nil:
			t.Fatalf("next: %v", err)
		}
		if string(got) != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
}

func TestEnvelope(t *testing.T) {
	for _, tt := range []struct {
		head, id, method string
	}{
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"x":`, `"a"`, "tools/call"},
		{`{"method":"m","id":7,"params":`, "7", "m"},
		{`{"jsonrpc":"2.0","params":{"big":"...`, "", ""},
		{`[{"id":1}]`, "", ""},
		{`not json`, "", ""},
	} {
		id, method := envelope([]byte(tt.head))
		if string(id) != tt.id || method != tt.method {
			t.Errorf("envelope(%s) = %s, %q; want %s, %q", tt.head, id, method, tt.id, tt.method)
		}
	}
}
