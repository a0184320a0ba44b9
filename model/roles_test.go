package model

import "testing"

func TestResultOf(t *testing.T) {
	for _, tt := range []struct {
		request, result string
		ok              bool
	}{
		{"CallToolRequest", "CallToolResult", true},
		{"PingRequest", "PingResult", true},
		{"Request", "Result", false},
		{"CancelledNotification", "CancelledNotificationResult", false},
	} {
		if result, ok := ResultOf(tt.request); result != tt.result || ok != tt.ok {
			t.Errorf("ResultOf(%q) = %q, %v; want %q, %v", tt.request, result, ok, tt.result, tt.ok)
		}
	}
	if ResponseOf("CallToolResult") != "CallToolResultResponse" {
		t.Error(ResponseOf("CallToolResult"))
	}
}

// TestSides: each side's results answer the other side's requests.
func TestSides(t *testing.T) {
	if Client.Other() != Server || Server.Other() != Client {
		t.Error("Other")
	}
	for _, s := range Sides() {
		for _, name := range []string{s.Request, s.Notification, s.Result} {
			if name[:len(s.Name)] != s.Name {
				t.Errorf("%s: %s", s.Name, name)
			}
		}
	}
}
