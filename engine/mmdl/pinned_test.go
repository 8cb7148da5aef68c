package mmdl

// ProcSet 2, Load 2, calibrated, R = 5 (TestPinned).
const (
	pinT        = 10.379213261695714
	pinMakespan = 10.381213261695713
	pinFinal0   = 75010.94735907804
	pinFinal7   = 58754.099661024018
)

// The paper's schedule of the same case, R = 5 (TestPinned).
const pinPaperMakespan = 12.43188882023594
