//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"syscall/js"

	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/scene"
)

// expose installs window.commlab (see doc.go for the contract) and the
// keyboard handler, announces the API with "commlab-ready", and returns a
// func that removes both and releases every callback.
func (g *game) expose() (release func()) {
	win := js.Global()
	api := js.Global().Get("Object").New()
	var funcs []js.Func
	def := func(name string, f func(args []js.Value) any) { exposed(api, &funcs, name, f) }
	locked := func(f func(a *app) any) any {
		g.mu.Lock()
		defer g.mu.Unlock()
		return f(g.app)
	}
	// change runs a change and then tells the page, outside the lock.
	change := func(f func(a *app) []*scene.FieldError) any {
		g.mu.Lock()
		errs := f(g.app)
		g.mu.Unlock()
		g.publish(true)
		return result(errs)
	}
	act := func(x action) func([]js.Value) any {
		return func([]js.Value) any {
			return change(func(a *app) []*scene.FieldError { a.Do(x); return nil })
		}
	}

	def("version", func([]js.Value) any { return buildVersion() })
	def("scenes", func([]js.Value) any { return locked(func(a *app) any { return a.Scenes() }) })
	def("fields", func([]js.Value) any { return locked(func(a *app) any { return a.Fields() }) })
	def("state", func([]js.Value) any {
		return locked(func(a *app) any { return a.State(int(g.w), int(g.h)) })
	})
	def("setParams", func(args []js.Value) any {
		kv, errs := jsParams(args)
		if len(errs) > 0 {
			return settled(change(func(a *app) []*scene.FieldError { a.errs = errs; a.dirty = true; return errs }))
		}
		g.mu.Lock()
		j, errs := g.app.Request(kv)
		g.mu.Unlock()
		if j == nil {
			g.publish(true)
			return settled(result(errs))
		}
		return g.launch(j)
	})
	def("cancel", func([]js.Value) any {
		g.mu.Lock()
		stopped := g.app.Cancel()
		g.mu.Unlock()
		g.publish(true)
		if stopped {
			g.built(nil, true)
		}
		g.launchRebuild()
		r := result(nil).(map[string]any)
		r["canceled"] = stopped
		return r
	})
	def("setVisible", func(args []js.Value) any {
		on := true
		if len(args) > 0 {
			_, _, ok := jsType(args[0])
			on = ok && args[0].Truthy()
		}
		return change(func(a *app) []*scene.FieldError { a.SetVisible(on); return nil })
	})
	def("play", act(actPlay))
	def("pause", act(actPause))
	def("toggle", act(actToggle))
	def("faster", act(actFaster))
	def("slower", act(actSlower))
	def("restart", act(actRestart))
	def("step", func(args []js.Value) any {
		dir := 1
		if len(args) > 0 && isNumber(args[0]) && args[0].Float() < 0 {
			dir = -1
		}
		if dir < 0 {
			return act(actStepBack)(nil)
		}
		return act(actStepFwd)(nil)
	})
	def("seek", func(args []js.Value) any {
		if len(args) == 0 || !isNumber(args[0]) {
			v := "undefined"
			if len(args) > 0 {
				_, v, _ = jsType(args[0])
			}
			return change(func(a *app) []*scene.FieldError {
				a.errs = []*scene.FieldError{{Key: scene.KeyT, Value: v, Want: "a time in seconds (a number)"}}
				a.dirty = true
				return a.errs
			})
		}
		t := args[0].Float()
		return change(func(a *app) []*scene.FieldError { return a.Seek(t) })
	})
	def("traceJSON", func([]js.Value) any {
		b, err := g.traceJSON()
		if err != nil {
			return js.Null()
		}
		return string(b)
	})
	def("exportTrace", func([]js.Value) any {
		b, err := g.traceJSON()
		if err != nil {
			return result([]*scene.FieldError{fieldError(err)})
		}
		download(g.fileName("trace.json"), "application/json", b)
		return result(nil)
	})
	def("pngDataURL", func(args []js.Value) any {
		scale, err := pngScale(args, 1)
		if err != nil {
			return js.Null()
		}
		u, err := g.pngDataURL(scale)
		if err != nil {
			return js.Null()
		}
		return u
	})
	def("exportPNG", func(args []js.Value) any {
		// Slides are projected large: twice the canvas by default.
		scale, err := pngScale(args, 2)
		if err != nil {
			return result([]*scene.FieldError{fieldError(err)})
		}
		b, err := g.png(scale)
		if err != nil {
			return result([]*scene.FieldError{fieldError(err)})
		}
		download(g.fileName("png"), "image/png", b)
		return result(nil)
	})

	keys := js.FuncOf(func(_ js.Value, args []js.Value) any {
		g.key(args[0])
		return nil
	})
	funcs = append(funcs, keys)
	win.Call("addEventListener", "keydown", keys)

	win.Set("commlab", api)
	win.Call("dispatchEvent", js.Global().Get("Event").New("commlab-ready"))
	return func() {
		win.Call("removeEventListener", "keydown", keys)
		win.Delete("commlab")
		for _, f := range funcs {
			f.Release()
		}
	}
}

// launch starts j's build (unless it is in flight already, taking over
// this request) and returns setParams' answer: the final {ok, errors} when
// the build ended within its first slice, else {ok: true, building: true};
// either way with done, a Promise of the final {ok, errors, canceled}.
func (g *game) launch(j *job) any {
	promise, resolve := newPromise()
	j.wait(func(errs []*scene.FieldError, canceled bool) {
		r := result(errs).(map[string]any)
		r["canceled"] = canceled
		r["ok"] = len(errs) == 0 && !canceled
		resolve(r)
	})
	building := func() any {
		r := result(nil).(map[string]any)
		r["building"], r["done"] = true, promise
		return r
	}
	if j.launched {
		g.publish(true)
		return building()
	}
	if !g.builder.start(j, g.finishLater) {
		g.publish(true)
		return building()
	}
	g.mu.Lock()
	errs := g.app.Finish(j)
	g.mu.Unlock()
	g.publish(true)
	g.built(errs, false)
	g.launchRebuild()
	r := result(errs).(map[string]any)
	r["done"] = promise
	return r
}

// launchRebuild launches the job that builds a released run again (after
// the build it made room for failed or was canceled: room.go), if any.
func (g *game) launchRebuild() {
	g.mu.Lock()
	j := g.app.job
	g.mu.Unlock()
	if j != nil && j.rebuild && !j.launched {
		g.launch(j)
	}
}

// finishLater applies a build that ended after its first slice; it runs
// on the build's goroutine.
func (g *game) finishLater(j *job) {
	g.mu.Lock()
	mine := j == g.app.job
	errs := g.app.Finish(j)
	g.mu.Unlock()
	if mine {
		g.publish(true)
		g.built(errs, false)
		g.launchRebuild()
	}
}

// built sends "commlab-built" on window: a build ended and its outcome is
// on the page (detail {ok, errors, canceled}).
func (g *game) built(errs []*scene.FieldError, canceled bool) {
	r := result(errs).(map[string]any)
	r["canceled"] = canceled
	r["ok"] = len(errs) == 0 && !canceled
	opts := js.Global().Get("Object").New()
	opts.Set("detail", js.ValueOf(r))
	g.window.Call("dispatchEvent", js.Global().Get("CustomEvent").New("commlab-built", opts))
}

// settled is an answer with nothing left to build: done is a Promise
// already resolved with it.
func settled(r any) any {
	m := r.(map[string]any)
	m["done"] = js.Global().Get("Promise").Call("resolve", js.ValueOf(m))
	return m
}

// newPromise returns a pending Promise and the func that resolves it.
func newPromise() (js.Value, func(v any)) {
	var resolve js.Value
	exec := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve = args[0]
		return nil
	})
	p := js.Global().Get("Promise").New(exec)
	exec.Release()
	return p, func(v any) { resolve.Invoke(v) }
}

// result is the {ok, errors} object the changing calls return.
func result(errs []*scene.FieldError) any {
	list := make([]any, len(errs))
	for i, e := range errs {
		list[i] = map[string]any{"key": e.Key, "value": e.Value, "want": e.Want, "message": message(e)}
	}
	return map[string]any{"ok": len(errs) == 0, "errors": list}
}

// jsParams reads setParams' object argument into text values.
func jsParams(args []js.Value) (map[string]string, []*scene.FieldError) {
	if len(args) == 0 {
		return nil, []*scene.FieldError{{Key: "params", Value: "nothing", Want: "an object such as {P: 32, seed: 7}"}}
	}
	if t, name, ok := jsType(args[0]); !ok || t != js.TypeObject {
		return nil, []*scene.FieldError{{Key: "params", Value: "a " + name, Want: "an object such as {P: 32, seed: 7}"}}
	}
	obj := args[0]
	names := js.Global().Get("Object").Call("keys", obj)
	kv := make(map[string]string, names.Length())
	var errs []*scene.FieldError
	for i := range names.Length() {
		key := names.Index(i).String()
		v := obj.Get(key)
		var x any
		switch t, name, ok := jsType(v); {
		case !ok:
			x = jsOther(name)
		case t == js.TypeNumber:
			x = v.Float()
		case t == js.TypeBoolean:
			x = v.Bool()
		case t == js.TypeString:
			x = v.String()
		default:
			x = jsOther(name)
		}
		s, err := paramText(key, x)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		kv[key] = s
	}
	return kv, errs
}

// pngScale reads the optional scale argument of the PNG exports: def when
// absent, else a number in [0.25, 8] (an error otherwise, never clamped).
func pngScale(args []js.Value, def float64) (float64, error) {
	if len(args) == 0 || args[0].IsUndefined() {
		return def, nil
	}
	if isNumber(args[0]) {
		if s := args[0].Float(); s >= 0.25 && s <= 8 {
			return s, nil
		}
	}
	v := "a " + func() string { _, n, _ := jsType(args[0]); return n }()
	if isNumber(args[0]) {
		v = raw(args[0].Float())
	}
	return 0, &scene.FieldError{Key: "scale", Value: v, Want: "a number in [0.25, 8] (device pixels per CSS pixel)"}
}

// key handles a keydown anywhere in the page (or in the iframe that has
// focus): the keys of keyAction, unless the key belongs to a control.
func (g *game) key(e js.Value) {
	t := e.Get("target")
	tag := ""
	if tn := t.Get("tagName"); tn.Type() == js.TypeString {
		tag = tn.String()
	}
	if keyTargetIgnored(tag, t.Get("isContentEditable").Truthy()) {
		return
	}
	x := keyAction(e.Get("key").String(), e.Get("code").String(),
		e.Get("ctrlKey").Bool(), e.Get("altKey").Bool(), e.Get("metaKey").Bool())
	if x == actNone {
		return
	}
	// The page must not scroll on space and arrows.
	e.Call("preventDefault")
	if e.Get("repeat").Bool() && (x == actToggle || x == actRestart) {
		return
	}
	g.mu.Lock()
	g.app.Do(x)
	g.mu.Unlock()
	g.publish(true)
}

func (g *game) traceJSON() ([]byte, error) {
	g.mu.Lock()
	tr := g.app.run.Trace()
	g.mu.Unlock()
	if tr == nil {
		return nil, errf.Errorf("this run has no trace")
	}
	var b bytes.Buffer
	if err := trace.WriteChrome(&b, tr); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// fileName is commlab-SCENE.ext for downloads.
func (g *game) fileName(ext string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return "commlab-" + g.app.st.Scene + "." + ext
}

// download hands data to the browser as a file, through a blob: URL that
// is revoked once the download has started.
func download(name, mime string, data []byte) {
	global := js.Global()
	arr := global.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	opts := global.Get("Object").New()
	opts.Set("type", mime)
	blob := global.Get("Blob").New(global.Get("Array").Call("of", arr), opts)
	urlAPI := global.Get("URL")
	href := urlAPI.Call("createObjectURL", blob)
	doc := global.Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Set("hidden", true)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	global.Call("setTimeout", urlAPI.Get("revokeObjectURL").Call("bind", urlAPI, href), 10000)
}

// exposed sets api[name] to f wrapped as a JavaScript function and adds
// it to funcs, for the release. A bug must not take the visualizer down
// with it: a panic is reported on the console and returned as an
// "internal" field error, and the last picture stays. Not inlined: the
// wrapper inlined at each of the API's call sites in expose cost 6.5 kB of
// the wasm's gzip budget.
//
//go:noinline
func exposed(api js.Value, funcs *[]js.Func, name string, f func(args []js.Value) any) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprintf("commlab.%s: internal error: %v", name, r)
				js.Global().Get("console").Call("error", msg+"\n"+string(debug.Stack()))
				ret = result([]*scene.FieldError{{Key: "internal", Value: name, Want: msg}})
			}
		}()
		return f(args)
	})
	*funcs = append(*funcs, fn)
	api.Set(name, fn)
}
