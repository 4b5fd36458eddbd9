package main

import (
	"bytes"
	"os"
	"testing"
)

// The committed models.go is what the generator prints for the committed openapi.json, and printing it twice
// gives the same bytes.
func TestModelsAreFreshAndDeterministic(t *testing.T) {
	doc, err := os.ReadFile("../../../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	first, err := generate(doc)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		again, err := generate(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two runs on the same document printed different code")
		}
	}
	committed, err := os.ReadFile("../../models.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, committed) {
		t.Fatal("models.go is stale: run `go run ./internal/generate < ../openapi.json > models.go` in sdks/go")
	}
}
