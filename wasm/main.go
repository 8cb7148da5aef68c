//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"commlab/scene/catalog"
)

func main() {
	if err := run(); err != nil {
		fatal(err.Error())
	}
}

func run() error {
	mark("main")
	query := js.Global().Get("location").Get("search").String()
	// A heavy URL builds in steps between frames like any later change;
	// the scene's defaults are shown meanwhile. The build cannot end
	// before the game exists (it runs only when this goroutine waits), but
	// ready makes that plain.
	b := browserBuilder()
	ready := make(chan struct{})
	var g *game
	a, err := startApp(catalog.All(), query, func(j *job) bool {
		return b.start(j, func(j *job) { <-ready; g.finishLater(j) })
	})
	if err != nil {
		return err
	}
	mark("app")
	g = newGame(a)
	g.builder = b
	close(ready)
	release := g.expose()
	defer release()
	g.publish(true) // the canonical URL at once, and the first state event

	// Keep playing when the iframe of a slide or the page loses focus.
	ebiten.SetRunnableOnUnfocused(true)
	// The screen keeps its pixels between frames, so that a paused view is
	// not repainted 60 times a second and a playing one repaints only what
	// changed (painter.Paint).
	ebiten.SetScreenClearedEveryFrame(false)
	mark("rungame")
	return ebiten.RunGame(g)
}

// fatal says on the page and in the console that the visualizer cannot
// run; the page's loading note becomes the message.
func fatal(msg string) {
	msg = "commlab: " + msg
	js.Global().Get("console").Call("error", msg)
	doc := js.Global().Get("document")
	if st := doc.Call("getElementById", "status"); st.Truthy() {
		st.Set("textContent", msg)
		st.Get("classList").Call("add", "error")
		st.Set("hidden", false)
	}
}
