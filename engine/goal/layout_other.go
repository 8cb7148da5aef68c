//go:build !js

package goal

// layoutBuild: large schedules are laid out by level (places.go).
const layoutBuild = true
