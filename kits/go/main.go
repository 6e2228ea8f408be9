package smsemu

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
)

// Main runs a package's tests and then stops the shared emulator (it would stop by itself when the test binary ends),
// or stops it first when the run is interrupted (os.Interrupt, SIGTERM), so that no container outlives it:
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
	interrupted := stopSharedOnSignal()
	code := m.Run()
	signal.Stop(interrupted)
	stopShared()
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

// stopSharedOnce makes the shared emulator's stop happen once, after the tests or on a signal, whichever comes first.
var stopSharedOnce sync.Once

// stopShared stops the shared emulator once it is started or its start given up (sharedOnce), and stops no other: a
// container is not left running when the tests end or the run is interrupted.
func stopShared() {
	stopSharedOnce.Do(func() {
		sharedOnce.Do(func() {})
		if shared != nil {
			shared.Stop()
		}
	})
}

// stopSharedOnSignal makes an interrupt or SIGTERM (Ctrl-C, a CI job cancelled, kill) stop the shared emulator before the
// test binary ends, as after the tests: a container has no parent process to notice the end, and Ryuk may be off.
func stopSharedOnSignal() chan os.Signal {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		got := <-signals
		fmt.Fprintf(os.Stderr, "%s%v: stopping the shared emulator before the tests end\n", ErrorPrefix, got)
		stopShared()
		os.Exit(1)
	}()
	return signals
}

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
