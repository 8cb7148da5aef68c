// Package verdict holds what the studies' findings share: the verdict a
// check earns, and the small statistics (median, rank correlation) the
// checks compute from a report's cells.
package verdict
