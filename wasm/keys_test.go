package main

import "testing"

func TestKeyAction(t *testing.T) {
	for _, tt := range []struct {
		key, code string
		ctrl      bool
		want      action
	}{
		{" ", "Space", false, actToggle},
		{"ArrowRight", "ArrowRight", false, actStepFwd},
		{"ArrowLeft", "ArrowLeft", false, actStepBack},
		{"+", "Equal", false, actFaster},
		{"=", "Equal", false, actFaster},
		{"-", "Minus", false, actSlower},
		{"_", "Minus", false, actSlower},
		{"+", "NumpadAdd", false, actFaster},
		{"-", "NumpadSubtract", false, actSlower},
		{"Home", "Home", false, actRestart},
		{"+", "Equal", true, actNone}, // browser zoom
		{"a", "KeyA", false, actNone},
		{"Enter", "Enter", false, actNone},
	} {
		if got := keyAction(tt.key, tt.code, tt.ctrl, false, false); got != tt.want {
			t.Errorf("keyAction(%q, %q, ctrl=%v) = %v, want %v", tt.key, tt.code, tt.ctrl, got, tt.want)
		}
	}
}

func TestKeyTargetIgnored(t *testing.T) {
	for tag, want := range map[string]bool{"INPUT": true, "SELECT": true, "TEXTAREA": true, "BUTTON": true, "CANVAS": false, "BODY": false, "": false} {
		if got := keyTargetIgnored(tag, false); got != want {
			t.Errorf("keyTargetIgnored(%q) = %v, want %v", tag, got, want)
		}
	}
	if !keyTargetIgnored("DIV", true) {
		t.Error("a contenteditable element must keep its keys")
	}
}
