// Package outfile writes the commands' output files so that a reader never
// sees half a file and nothing but the named file is touched:
//
//   - a regular file (or a new one) is written through a temporary file in
//     the same directory and renamed into place, keeping an existing file's
//     mode and giving a new one 0644 less the umask;
//   - a symlink is followed: its target is written, the link stays;
//   - a FIFO or a device (/dev/stdout, /dev/null, /dev/full) is written
//     through, never replaced by a regular file;
//   - "-" is the standard output;
//   - SIGINT, SIGTERM, SIGHUP or SIGQUIT while a temporary file exists
//     removes it (see CleanOnSignal), and a temporary file a killed run left behind is
//     removed by the next write of the same name once it is an hour old.
package outfile
