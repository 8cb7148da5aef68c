package main

import (
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	v := buildVersion()
	if !strings.HasPrefix(v, "commlab ") || !strings.Contains(v, "(go") {
		t.Fatalf("buildVersion() = %q, want \"commlab REV (goX.Y)\"", v)
	}
}
