package scene

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"commlab/internal/permsort"
	"commlab/render"
)

// The view's own URL keys, beside each scene's fields.
const (
	KeyScene    = "scene"
	KeySeed     = "seed"
	KeyT        = "t" // playhead, simulated seconds
	KeySpeed    = "speed"
	KeyTheme    = "theme"
	KeyEmbed    = "embed"
	KeyAutoplay = "autoplay"
	KeyLoop     = "loop"
	KeyScale    = "scale" // device pixels per CSS pixel on top of the screen's, for scaled slides
)

var reserved = map[string]bool{
	KeyScene: true, KeySeed: true, KeyT: true, KeySpeed: true,
	KeyTheme: true, KeyEmbed: true, KeyAutoplay: true, KeyLoop: true, KeyScale: true,
}

// MinScale and MaxScale bound the URL's scale: a deck scaled up 4 times
// is a 3840-wide projector for a 960-wide slide.
const (
	MinScale = 0.5
	MaxScale = 4
)

// Speeds are the playback speeds +/- step through; 1 plays a whole run in
// PlaySeconds.
var Speeds = []float64{0.125, 0.25, 0.5, 1, 2, 4, 8}

// DefaultSeed is the seed of a URL that names none, unless the scene's
// Info.Seed names another.
const DefaultSeed = 1

// State is everything a view shows, and what its URL carries.
type State struct {
	Scene    string
	Values   Values
	Seed     uint64
	T        float64 // playhead in simulated seconds
	Speed    float64 // one of Speeds
	Theme    string  // one of render.ThemeNames
	Embed    bool    // no page chrome: the canvas fills the frame
	Autoplay bool    // start playing on load
	Loop     bool    // restart at the end
	// Scale multiplies the screen's device pixels per CSS pixel, so that a
	// scene stays sharp on a slide that a deck scales up with a CSS
	// transform (the page applies it before the canvas exists).
	Scale float64
}

// Default is the state of a bare URL for scene sc.
func Default(sc Scene) State {
	seed := sc.Info().Seed
	if seed == 0 {
		seed = DefaultSeed
	}
	return State{
		Scene:  sc.Info().Name,
		Values: Defaults(sc.Fields()),
		Seed:   seed,
		Speed:  1,
		Theme:  render.ThemeNames[0],
		Scale:  1,
	}
}

// ParseQuery reads a state from a URL query. Every valid value is kept;
// each bad one (or unknown or repeated key) falls back to its default and
// adds one error, so a page can say what it ignored and still show a
// picture. An unknown scene falls back to the registry's first. Fields
// that depend on others follow them (see Follow); ParseQueryNotices also
// returns the notices of values moved into range.
func ParseQuery(query string, reg Registry) (State, []error) {
	st, _, errs := ParseQueryNotices(query, reg)
	return st, errs
}

// ParseQueryNotices is ParseQuery with the notices of Follow.
func ParseQueryNotices(query string, reg Registry) (State, []Notice, []error) {
	var errs []error
	q, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		errs = append(errs, &FieldError{Key: "query", Value: query, Want: "a URL query string (" + err.Error() + ")"})
	}
	// A key given twice is reported, not resolved by picking one: the
	// field keeps its default. (A repeated scene name falls back too.)
	for _, key := range sortedKeys(q) {
		if vs := q[key]; len(vs) > 1 {
			errs = append(errs, &FieldError{Key: key, Value: strings.Join(vs, ", "), Want: fmt.Sprintf("one value; the URL gives %s %d times", CutKey(key), len(vs))})
			delete(q, key)
		}
	}
	sc := reg[0]
	if name := q.Get(KeyScene); name != "" {
		if s, ok := reg.Lookup(name); ok {
			sc = s
		} else {
			errs = append(errs, &FieldError{Key: KeyScene, Value: name, Want: "one of " + strings.Join(reg.Names(), ", ")})
		}
	}
	st := Default(sc)
	fields := sc.Fields()
	given := map[string]bool{}
	parsed := Values{}
	for _, key := range sortedKeys(q) {
		raw := q.Get(key)
		switch key {
		case KeyScene:
		case KeySeed:
			x, err := strconv.ParseUint(raw, 10, 64)
			if err != nil {
				errs = append(errs, &FieldError{Key: key, Value: raw, Want: "a whole number in [0, 18446744073709551615]"})
				continue
			}
			st.Seed = x
		case KeyT:
			// The end of the run is known only after Build; the Player
			// checks the upper bound.
			x, err := strconv.ParseFloat(raw, 64)
			if err != nil || !(x >= 0) || math.IsInf(x, 0) {
				errs = append(errs, &FieldError{Key: key, Value: raw, Want: "a time in seconds, 0 or more"})
				continue
			}
			st.T = x
		case KeySpeed:
			x, err := ParseSpeed(raw)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			st.Speed = x
		case KeyTheme:
			if _, ok := render.ThemeByName(raw); !ok {
				errs = append(errs, &FieldError{Key: key, Value: raw, Want: "one of " + strings.Join(render.ThemeNames, ", ")})
				continue
			}
			st.Theme = raw
		case KeyScale:
			x, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
			if err != nil || !(x >= MinScale && x <= MaxScale) {
				errs = append(errs, &FieldError{Key: key, Value: raw, Want: fmt.Sprintf("a number in [%s, %s]: how much a slide deck scales the frame up", fmtNum(MinScale), fmtNum(MaxScale))})
				continue
			}
			st.Scale = x
		case KeyEmbed, KeyAutoplay, KeyLoop:
			v, err := Field{Key: key, Kind: Bool}.Parse(raw)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			on := v == "1"
			switch key {
			case KeyEmbed:
				st.Embed = on
			case KeyAutoplay:
				st.Autoplay = on
			case KeyLoop:
				st.Loop = on
			}
		default:
			i := slices.IndexFunc(fields, func(f Field) bool { return f.Key == key })
			if i < 0 {
				errs = append(errs, &FieldError{Key: key, Value: raw, Want: "no such parameter in scene " + st.Scene + "; its parameters are " + strings.Join(keys(fields), ", ")})
				continue
			}
			v, err := fields[i].Parse(raw)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			st.Values[key] = v
			given[key] = true
			parsed[key] = v
		}
	}
	// A bad value is not given: its field follows its default.
	notices, ferrs := Follow(fields, nil, st.Values, given)
	errs = append(errs, ferrs...)
	// Follow refuses a given value that would push another field out of
	// an open range (period=1e-7 under duration's default 1e-5) but, there
	// being no nearest value, leaves it in place. A fresh URL must not
	// keep it: like any bad value it falls back to its default, and the
	// fields follow again (found by FuzzParseQuery in scene/catalog).
	for range fields {
		refused := false
		for _, err := range ferrs {
			var fe *FieldError
			// Only a value still in place: Follow has already moved a
			// given value that is out of its own range to its fallback.
			if !errors.As(err, &fe) || !given[fe.Key] || st.Values[fe.Key] != parsed[fe.Key] {
				continue
			}
			if i := slices.IndexFunc(fields, func(f Field) bool { return f.Key == fe.Key }); i >= 0 {
				st.Values[fe.Key] = fields[i].Default
				delete(given, fe.Key)
				refused = true
			}
		}
		if !refused {
			break
		}
		var more []Notice
		more, ferrs = Follow(fields, nil, st.Values, given)
		notices = append(notices, more...)
		errs = append(errs, ferrs...)
	}
	return st, notices, errs
}

// ParseSpeed reads a playback speed; it must be one of Speeds.
func ParseSpeed(raw string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || !slices.Contains(Speeds, x) {
		words := make([]string, len(Speeds))
		for i, s := range Speeds {
			words[i] = fmtNum(s)
		}
		return 0, &FieldError{Key: KeySpeed, Value: raw, Want: "one of " + strings.Join(words, ", ")}
	}
	return x, nil
}

// Query writes the whole state as a URL query in a fixed order (scene,
// the scene's fields in control order, then the view keys), so equal states
// give equal URLs and a reload reproduces the view exactly. Every parameter
// is written, defaults included: a shared link keeps meaning the same view
// even if a later version changes a default.
func (st State) Query(sc Scene) string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	add(KeyScene, st.Scene)
	for _, f := range sc.Fields() {
		add(f.Key, st.Values[f.Key])
	}
	add(KeySeed, strconv.FormatUint(st.Seed, 10))
	add(KeyT, fmtNum(st.T))
	add(KeySpeed, fmtNum(st.Speed))
	add(KeyTheme, st.Theme)
	flag := func(k string, on bool) {
		if on {
			add(k, "1")
		}
	}
	flag(KeyEmbed, st.Embed)
	flag(KeyAutoplay, st.Autoplay)
	flag(KeyLoop, st.Loop)
	if st.Scale != 1 && st.Scale != 0 {
		add(KeyScale, fmtNum(st.Scale))
	}
	return b.String()
}

func sortedKeys(q url.Values) []string {
	ks := make([]string, 0, len(q))
	for k := range q {
		ks = append(ks, k)
	}
	permsort.Sort(ks)
	return ks
}

func keys(fields []Field) []string {
	ks := make([]string, len(fields))
	for i, f := range fields {
		ks[i] = f.Key
	}
	return ks
}

// InitialT is where the playhead starts for a page opened at query with
// state st (parsed from it) and run built from st: the query's t if it
// names one; 0 if it asks to autoplay; otherwise the run's most telling
// moment (Moment) if it has one, else its end, so that a bare link shows
// the point of the run at once (Play restarts from 0 at the end).
func InitialT(query string, st State, run Run) float64 {
	q, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	switch {
	case q.Has(KeyT) && len(q[KeyT]) == 1:
		return st.T
	case st.Autoplay:
		return 0
	}
	if m, ok := run.(Moment); ok {
		if t := m.Moment(); t >= 0 && t <= run.End() {
			return t
		}
	}
	return run.End()
}
