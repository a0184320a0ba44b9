package main

import (
	"os"
	"testing"
)

// TestRegistryUpToDate fails when interop/validation/registry.go is not what registrygen writes
// for the packages of gen/ as they are now.
func TestRegistryUpToDate(t *testing.T) {
	want, err := Generate("../../../../gen", "../../../../schema")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../registry.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("interop/validation/registry.go is stale: run go generate in interop/validation")
	}
}
