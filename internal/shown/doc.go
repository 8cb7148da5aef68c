// Package shown shortens what a message repeats of a user's input: a URL
// value, a CSV field, a GOAL line or a command-line argument may be
// megabytes long, and a message must stay one readable line. The engine,
// the scenes and the commands all cut the same way, so a value reads the
// same in every message.
package shown
