package main

// action is something the keyboard or a button does to playback.
type action uint8

const (
	actNone action = iota
	actToggle
	actPlay
	actPause
	actStepFwd
	actStepBack
	actFaster
	actSlower
	actRestart
)

// keyAction maps a KeyboardEvent's key (and code, which names the physical
// key whatever the layout) to a playback action: space plays or pauses,
// the arrows step, + and - change the speed (also = and _ on the unshifted
// keys, and the numeric keypad), Home restarts. Keys with Ctrl, Alt or
// Meta held belong to the browser (zoom is Ctrl +).
func keyAction(key, code string, ctrl, alt, meta bool) action {
	if ctrl || alt || meta {
		return actNone
	}
	switch code {
	case "NumpadAdd":
		return actFaster
	case "NumpadSubtract":
		return actSlower
	}
	switch key {
	case " ", "Spacebar":
		return actToggle
	case "ArrowRight", "Right":
		return actStepFwd
	case "ArrowLeft", "Left":
		return actStepBack
	case "+", "=":
		return actFaster
	case "-", "_":
		return actSlower
	case "Home":
		return actRestart
	}
	return actNone
}

// keyTargetIgnored says whether a key pressed in an element with this tag
// name belongs to that element: typing in a field, choosing in a list,
// moving a slider, pressing a button with space.
func keyTargetIgnored(tag string, editable bool) bool {
	if editable {
		return true
	}
	switch tag {
	case "INPUT", "SELECT", "TEXTAREA", "BUTTON", "A":
		return true
	}
	return false
}
