package main

import "net/url"

// defaultScene is shown when the URL names none.
const defaultScene = "butterfly"

// sceneParam reads the scene from a page URL's ?scene= parameter. The URL
// holds a view's whole state so that it can be shared and reloaded; for now
// that state is only the scene's name.
func sceneParam(href string) string {
	u, err := url.Parse(href)
	if err != nil {
		return defaultScene
	}
	if s := u.Query().Get("scene"); s != "" {
		return s
	}
	return defaultScene
}
