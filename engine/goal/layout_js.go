//go:build js

package goal

// layoutBuild: the browser keeps every schedule in file order (places.go).
const layoutBuild = false
