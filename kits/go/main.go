package smsemu

import (
	"fmt"
	"os"
	"testing"
)

// Main runs a package's tests and then stops the shared emulator (it would stop by itself when the test binary ends):
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) }
//
// With SuiteBudget, a run whose worlds spent more in all fails after its tests, naming the tests that spent most:
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m, smsemu.SuiteBudget(50))) }
//
// The run's shared emulator comes from elsewhere when a linked package registered one (RegisterSharedEmulator), as the
// Testcontainers module's blank import does in one line of a test file's imports:
//
//	import _ "smsemulator.dev/smsemu/smsemucontainer/shared"
//
// or when Main is given SharedEmulator (the module's option is one), which wins over a registration:
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m, smsemucontainer.Emulator())) }
func Main(m *testing.M, options ...MainOption) int {
	var chosen mainOptions
	for _, option := range options {
		option(&chosen)
	}
	suite.credits = chosen.budget
	if chosen.start != nil {
		sharedFrom = chosen.start
	}
	if suite.credits != nil && *suite.credits < 0 {
		fmt.Fprintf(os.Stderr, "%sSuiteBudget(%d): a suite's budget is a whole number of credits from 0\n", ErrorPrefix, *suite.credits)
		return 2
	}
	mainRuns = true
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	if failure := suite.failure(); failure != "" {
		fmt.Fprintf(os.Stderr, "%s%s\n", ErrorPrefix, failure)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// mainRuns is whether Main runs the tests, and so will stop the shared emulator after them: a registered one (a
// container) is refused without it, since nothing else would stop it.
var mainRuns bool

// MainOption sets up Main: SuiteBudget, SharedEmulator.
type MainOption func(*mainOptions)

// mainOptions is what Main's options chose.
type mainOptions struct {
	budget *int
	start  func() (*Emulator, error)
}

// SharedEmulator makes start give the test binary's shared emulator (Shared, and so every NewWorld), in place of the
// resolution order (Start) and of a registered one (RegisterSharedEmulator). It is called once, on first use; where
// the emulator came from (its Source) is printed once, as for the others, and Main stops it after the tests
// (Emulator.Stop, which calls its OnStop).
func SharedEmulator(start func() (*Emulator, error)) MainOption {
	return func(o *mainOptions) { o.start = start }
}
