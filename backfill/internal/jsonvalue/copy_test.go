package jsonvalue

//go:generate cp ../../../gen/internal/jsonvalue/jsonvalue.go jsonvalue.go

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"
)

// TestSameAsOriginal checks that jsonvalue.go is the same as the original in the gen module
// (see the package doc); go generate copies it again.
func TestSameAsOriginal(t *testing.T) {
	original, err := os.ReadFile("../../../gen/internal/jsonvalue/jsonvalue.go")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("the original is not here: this module is built outside its repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	copied, err := os.ReadFile("jsonvalue.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(copied, original) {
		t.Error("jsonvalue.go is not the same as gen/internal/jsonvalue/jsonvalue.go; run go generate")
	}
}
