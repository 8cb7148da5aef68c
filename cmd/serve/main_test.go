package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"commlab/cmd/serve/sitehttp"
)

func TestFlagErrorsNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-nope"}, "-nope"},
		{[]string{"-addr", "8080", "-dir", dir}, "-addr"},
		{[]string{"-dir", filepath.Join(dir, "absent")}, "-dir"},
		{[]string{"-dir", file}, "-dir"},
		{[]string{"-dir", dir, "extra"}, `"extra"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(&stdout, &stderr, tt.args)
		if err == nil {
			t.Errorf("run(%q) succeeded, want an error naming %s", tt.args, tt.want)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
			t.Errorf("run(%q) = %q, want one line naming %s", tt.args, msg, tt.want)
		}
		if stdout.Len()+stderr.Len() != 0 {
			t.Errorf("run(%q) printed %q %q; the error alone should say it", tt.args, stdout.String(), stderr.String())
		}
	}
}

func TestHelp(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(&stdout, io.Discard, []string{"-h"}); err != nil {
		t.Fatalf("run(-h) = %v, want nil", err)
	}
	for _, want := range []string{"-addr", "-dir", "127.0.0.1:8080"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("usage %q lacks %q", stdout.String(), want)
		}
	}
}

// TestServe runs the real server on a loopback port and checks what a
// browser would get, then that cancelling stops it cleanly.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"index.html":   "<!doctype html><title>commlab</title>",
		"commlab.wasm": "\x00asm\x01\x00\x00\x00",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, dir, nil, &stdout, &stderr) }()

	base := "http://" + ln.Addr().String()
	client := &http.Client{Timeout: 5 * time.Second}
	for _, tt := range []struct {
		path        string
		status      int
		contentType string
	}{
		{"/", http.StatusOK, "text/html; charset=utf-8"},
		{"/commlab.wasm", http.StatusOK, "application/wasm"},
		{"/nothing.html", http.StatusNotFound, ""},
	} {
		resp, err := client.Get(base + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if tt.contentType != "" && resp.Header.Get("Content-Type") != tt.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.path, resp.Header.Get("Content-Type"), tt.contentType)
		}
		if got := resp.Header.Get("Content-Security-Policy"); got != sitehttp.CSP {
			t.Errorf("GET %s: CSP %q, want %q", tt.path, got, sitehttp.CSP)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after cancel")
	}
	if want := "on " + base + "/"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout %q does not give the URL %s", stdout.String(), base+"/")
	}
	// The temp site has no reports and no wasm_exec.js: serve should say so.
	for _, want := range []string{"make report", "wasm_exec.js"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q does not mention %q", stderr.String(), want)
		}
	}
}
