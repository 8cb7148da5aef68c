package main

import (
	"math"
	"strconv"

	"commlab/scene"
)

// jsOther stands for a JavaScript value that is not a number, a boolean or
// a string (undefined, null, an object); it carries the value's type name
// for the message.
type jsOther string

// paramText turns a value given to window.commlab.setParams into the text
// that URL parsing reads, so that a value means the same from a script as
// from the address bar: numbers in the shortest form that reads back the
// same (64, 1e-06), booleans as true/false (which bool fields accept and
// other fields reject by name), strings unchanged. Anything else is an
// error naming the key.
func paramText(key string, v any) (string, *scene.FieldError) {
	switch v := v.(type) {
	case float64:
		// Whole numbers as JavaScript's String(v) writes them (no
		// exponent), so a seed of 2^40 reads as one; %g would write
		// 1.099511627776e+12, which the seed's integer parser rejects.
		if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
			return strconv.FormatFloat(v, 'f', -1, 64), nil
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case bool:
		return strconv.FormatBool(v), nil
	case string:
		return v, nil
	case jsOther:
		return "", &scene.FieldError{Key: key, Value: string(v), Want: "a number, true/false or a string"}
	}
	return "", &scene.FieldError{Key: key, Value: "?", Want: "a number, true/false or a string"}
}
