// Package shared, imported for its side effect, makes a container the shared emulator of the test binary that links
// it: one line in the imports of one test file of a package moves that package's suite from the carried runtime to a
// container, with TestMain, NewWorld and every world act unchanged:
//
//	import _ "smsemulator.dev/smsemu/smsemucontainer/shared"
//
// Its init registers smsemucontainer.StartEmulator (the kit contract's image, or SMS_EMULATOR_IMAGE's, with a fresh
// control token) as smsemu.Main's shared emulator (smsemu.RegisterSharedEmulator), as a database/sql driver registers
// itself: started on the first smsemu.NewWorld, terminated by smsemu.Main after the tests, named in the run's header
// line. An explicit smsemu.Main(m, smsemucontainer.Emulator(…)) wins over it.
package shared

import (
	"smsemulator.dev/smsemu"
	"smsemulator.dev/smsemu/smsemucontainer"
)

// importPath names this registration in the run's header line (and in the panic of a second one).
const importPath = "smsemulator.dev/smsemu/smsemucontainer/shared"

func init() {
	smsemu.RegisterSharedEmulator(importPath, func() (*smsemu.Emulator, error) { return smsemucontainer.StartEmulator() })
}
