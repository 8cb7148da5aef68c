package nbc

// Pinned totals (do not edit by hand; see TestPinned).
const (
	pinned2TCC   = 0.0021398333333333339
	pinned32NBCF = 0.0030834399999999998
)
