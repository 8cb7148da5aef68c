package nbc

// Pinned totals (do not edit by hand: go test ./engine/nbc -run TestPinned -update).
const (
	pinned2TCC                = 0.0021398333333333339
	pinned32NBCF              = 0.003108940000000001
	pinned32NBCFMaster        = 0.0030834399999999998
	pinned2NBCTInterference   = 0.002282119999999996
	pinned2TCCMemoryShare     = 0.0025636555555555549
	pinned32NBCTMemoryShare   = 0.0040257142857142844
	pinned32TCCOversubscribed = 0.010781833333333315
)
