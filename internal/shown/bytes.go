package shown

import "fmt"

// Bytes writes a size in decimal units, to three significant digits:
// "512 B", "40 MB", "8.5 GB" (engine/cost's messages and the commands'
// read limits alike).
func Bytes(x float64) string {
	switch {
	case !(x < 1e24):
		return "more than 1e24 B"
	case x >= 1e12:
		return fmt.Sprintf("%.3g TB", x/1e12)
	case x >= 1e9:
		return fmt.Sprintf("%.3g GB", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.3g MB", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3g kB", x/1e3)
	}
	return fmt.Sprintf("%.0f B", x)
}
