package cli

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
)

// Custom binds the parameter Name as the flag.Value Value instead of its
// field's plain type (a size that takes unit suffixes: nbc's -msg).
type Custom struct {
	Name  string
	Value flag.Value
}

// BindParams registers one flag per field of the struct *p, named by its
// JSON tag, with the field's current value as default and its help tag as
// usage. One name per parameter everywhere: flag, JSON key, URL key, and
// the Field of the engine's *param.Error. It is every eval command's one
// binding of a parameter struct; custom replaces the plain binding of the
// fields it names.
func BindParams(fs *flag.FlagSet, p any, custom ...Custom) {
	v := reflect.ValueOf(p).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		usage := f.Tag.Get("help")
		if c := customFor(custom, name); c != nil {
			fs.Var(c, name, usage)
			continue
		}
		switch ptr := v.Field(i).Addr().Interface().(type) {
		case flag.Value: // a named choice (os_phase, policy, method): Set names what it accepts
			fs.Var(ptr, name, usage)
		case *int:
			fs.IntVar(ptr, name, *ptr, usage)
		case *int64:
			fs.Int64Var(ptr, name, *ptr, usage)
		case *float64:
			fs.Float64Var(ptr, name, *ptr, usage)
		case *bool:
			fs.BoolVar(ptr, name, *ptr, usage)
		case *string:
			fs.StringVar(ptr, name, *ptr, usage)
		default:
			panic(fmt.Sprintf("gen-report: BindParams: field %s has unsupported type %s", f.Name, f.Type))
		}
	}
}

func customFor(custom []Custom, name string) flag.Value {
	for _, c := range custom {
		if c.Name == name {
			return c.Value
		}
	}
	return nil
}
