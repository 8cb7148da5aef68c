package cli

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
)

// BindParams registers one flag per field of the struct *p, named by its
// JSON tag, with the field's current value as default and its help tag as
// usage. One name per parameter everywhere: flag, JSON key, URL key, and the
// Field of the engine's RangeError.
func BindParams(fs *flag.FlagSet, p any) {
	v := reflect.ValueOf(p).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		usage := f.Tag.Get("help")
		switch ptr := v.Field(i).Addr().Interface().(type) {
		case flag.Value: // a named choice (os_phase, net_wait): Set names what it accepts
			fs.Var(ptr, name, usage)
		case *int:
			fs.IntVar(ptr, name, *ptr, usage)
		case *float64:
			fs.Float64Var(ptr, name, *ptr, usage)
		case *bool:
			fs.BoolVar(ptr, name, *ptr, usage)
		default:
			panic(fmt.Sprintf("gen-report: bindParams: field %s has unsupported type %s", f.Name, f.Type))
		}
	}
}
