package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeStrict decodes one JSON value from data into v and refuses what
// encoding/json lets through when the data comes from a file someone else
// may have edited: an object key given twice (encoding/json keeps the
// last), a key v has no field for, and anything after the value. Its
// errors name the byte offset.
func DecodeStrict(data []byte, v any) error {
	if err := checkKeys(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("data after the JSON value at byte %d", dec.InputOffset())
	}
	return nil
}

// checkKeys walks data's tokens and refuses an object that names a key
// twice, or data after the first value.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// One frame per open object or array: an object's keys so far, and
	// whether the next string token is a key.
	type frame struct {
		keys    map[string]bool
		wantKey bool
	}
	var stack []frame
	for values := 0; ; {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(stack) == 0 {
			if values++; values > 1 {
				return fmt.Errorf("data after the JSON value at byte %d", dec.InputOffset())
			}
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].keys != nil && stack[top].wantKey {
			if k, ok := tok.(string); ok {
				if stack[top].keys[k] {
					return fmt.Errorf("key %q given twice in one object, before byte %d", k, dec.InputOffset())
				}
				stack[top].keys[k] = true
				stack[top].wantKey = false
				continue
			}
		}
		if top >= 0 && stack[top].keys != nil {
			stack[top].wantKey = true // after this value comes a key or '}'
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if n := len(stack) - 1; n >= 0 && stack[n].keys != nil {
				stack[n].wantKey = true
			}
		}
	}
}
