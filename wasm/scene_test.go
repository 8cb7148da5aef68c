package main

import "testing"

func TestSceneParam(t *testing.T) {
	tests := []struct{ href, want string }{
		{"http://127.0.0.1:8080/scene.html?scene=butterfly", "butterfly"},
		{"http://127.0.0.1:8080/scene.html?embed=1&scene=logp", "logp"},
		{"http://127.0.0.1:8080/scene.html", defaultScene},
		{"http://127.0.0.1:8080/scene.html?scene=", defaultScene},
		{"file:///home/me/site/scene.html?scene=nbc#t=3", "nbc"},
		{"::not a url", defaultScene},
	}
	for _, tt := range tests {
		if got := sceneParam(tt.href); got != tt.want {
			t.Errorf("sceneParam(%q) = %q, want %q", tt.href, got, tt.want)
		}
	}
}
