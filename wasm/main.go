//go:build js && wasm

package main

import (
	"os"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

func main() {
	if err := run(); err != nil {
		// The console is where a page's errors go; the e2e tests fail on it.
		js.Global().Get("console").Call("error", "commlab: "+err.Error())
		os.Exit(1)
	}
}

func run() error {
	g := newGame(sceneFromURL())
	release := exposeAPI(g)
	defer release()

	ebiten.SetWindowTitle("commlab")
	ebiten.SetRunnableOnUnfocused(true)
	return ebiten.RunGame(g)
}

// sceneFromURL is the scene the page's URL asks for.
func sceneFromURL() string {
	return sceneParam(js.Global().Get("location").Get("href").String())
}

// exposeAPI installs window.commlab, announces it with a "commlab-ready"
// event, and returns a func that removes it and releases the callbacks.
// The callbacks only read the game's published snapshot: they never block.
func exposeAPI(g *game) (release func()) {
	version := js.FuncOf(func(js.Value, []js.Value) any { return buildVersion() })
	state := js.FuncOf(func(js.Value, []js.Value) any {
		s := g.state.Load()
		return map[string]any{
			"scene":    s.Scene,
			"frames":   s.Frames,
			"playhead": s.Playhead,
			"width":    s.W,
			"height":   s.H,
		}
	})
	api := js.Global().Get("Object").New()
	api.Set("version", version)
	api.Set("state", state)
	win := js.Global()
	win.Set("commlab", api)
	win.Call("dispatchEvent", js.Global().Get("Event").New("commlab-ready"))
	return func() {
		win.Delete("commlab")
		version.Release()
		state.Release()
	}
}
