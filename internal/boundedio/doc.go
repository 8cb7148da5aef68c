// Package boundedio reads inputs of unknown size (files, pipes, devices,
// standard input) with a byte limit checked before the bytes are kept:
// /dev/zero or a pipe that never ends is refused once it passes the limit,
// with a message naming the input and the limit, instead of growing until
// the process runs out of memory. A regular file larger than the limit is
// refused from its size, before anything is read.
//
// The commands take the limit from their memory budget
// (cmd/internal/budget's ReadLimit). The package sits at the floor, under
// the engine: it imports the standard library and internal/shown only.
package boundedio
