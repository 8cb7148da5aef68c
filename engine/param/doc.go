// Package param holds what every engine package's parameters share: the
// one error a parameter outside its range gives (Error), and the one type
// a parameter with named values lists them by (Choices).
//
// One name per parameter everywhere: an Error's Field is the parameter's
// JSON name, which is also its CLI flag and its URL key, so the command
// line (cmd/gen-report/internal/cli) and the pages (scene.EngineError)
// find the field with errors.As, never by reading the message's text.
package param
