//go:build js && wasm

package main

import (
	"syscall/js"

	"commlab/scene/schedule"
)

// loadGOALFunc is window.commlabLoadGOAL(text, name, kind): it parses a
// GOAL file for the schedule scene (scene/schedule.AddFile) and returns
// {ok, key, error}. site/schedule.js wraps it as commlab.loadGOAL, which
// then selects the file with setParams({file: key}); this file only
// parses, so it needs no access to the page's state. It is installed
// before main runs and lives as long as the page.
var loadGOALFunc = js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
	reply := func(key, msg string) map[string]any {
		return map[string]any{"ok": msg == "", "key": key, "error": msg}
	}
	defer func() {
		if r := recover(); r != nil {
			ret = reply("", "commlab.loadGOAL: internal error")
		}
	}()
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return reply("", "commlab.loadGOAL(text, name): text must be the GOAL file's text (a string)")
	}
	name, kind := "loaded.goal", schedule.KindUpload
	if len(args) > 1 && args[1].Type() == js.TypeString {
		name = args[1].String()
	}
	if len(args) > 2 && args[2].Type() == js.TypeString {
		kind = args[2].String()
	}
	key, err := schedule.AddFile(kind, name, []byte(args[0].String()))
	if err != nil {
		return reply("", err.Error())
	}
	return reply(key, "")
})

// loadNoiseTraceFunc is window.commlabLoadNoiseTrace(text, name): it
// parses a LogGOPSim noise trace (scene/schedule.AddNoiseTrace) and
// returns {ok, key, error}; site/schedule.js wraps it as
// commlab.loadNoiseTrace, which selects it with setParams({noise_trace:
// key}). Errors name the line and column.
var loadNoiseTraceFunc = js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
	reply := func(key, msg string) map[string]any {
		return map[string]any{"ok": msg == "", "key": key, "error": msg}
	}
	defer func() {
		if r := recover(); r != nil {
			ret = reply("", "commlab.loadNoiseTrace: internal error")
		}
	}()
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return reply("", "commlab.loadNoiseTrace(text, name): text must be the trace's text (a string of start<TAB>duration lines, ns)")
	}
	name := "noise.txt"
	if len(args) > 1 && args[1].Type() == js.TypeString {
		name = args[1].String()
	}
	key, err := schedule.AddNoiseTrace(name, []byte(args[0].String()))
	if err != nil {
		return reply("", err.Error())
	}
	return reply(key, "")
})

func init() {
	js.Global().Set("commlabLoadGOAL", loadGOALFunc)
	js.Global().Set("commlabLoadNoiseTrace", loadNoiseTraceFunc)
}
