package smsemu

import (
	"fmt"
	"sync"
)

// registered is the shared emulator a package registered with RegisterSharedEmulator: who, and how it starts.
type registered struct {
	name  string
	start func() (*Emulator, error)
}

var (
	registrationMu sync.Mutex
	// registration is the one RegisterSharedEmulator made; nil when no linked package made one.
	registration *registered
)

// RegisterSharedEmulator makes start the test binary's shared emulator (Shared, and so every NewWorld) in place of the
// resolution order (Start), in every test binary that links the package calling it. That package calls it in its
// init, so that a blank import in one test file of a package is the whole switch, as a database/sql driver is:
//
//	import _ "smsemulator.dev/smsemu/smsemucontainer/shared"
//
// name (the registering package's import path) is printed in the run's header line beside where the emulator came
// from. Main's SharedEmulator option, given explicitly, wins over a registration (the header line says so). A test
// binary has one registration at most: a second panics naming both, as sql.Register does for a duplicate driver, and
// so do an empty name and a nil start. A registered emulator is only started in a test binary whose tests Main runs
// (a TestMain calling it), since Main is what stops it: without, the first NewWorld fails saying so.
func RegisterSharedEmulator(name string, start func() (*Emulator, error)) {
	if name == "" || start == nil {
		panic(fmt.Sprintf("%sRegisterSharedEmulator(%q, start): a registration needs a name and a start function", ErrorPrefix, name))
	}
	registrationMu.Lock()
	defer registrationMu.Unlock()
	if registration != nil {
		panic(fmt.Sprintf("%sRegisterSharedEmulator called twice: %s registered the shared emulator, and %s registers another; import one of them", ErrorPrefix, registration.name, name))
	}
	registration = &registered{name: name, start: start}
}

// sharedStart is how Shared starts the run's emulator, and what the header line adds about that choice: Main's
// SharedEmulator option, else the registered one, else the resolution order.
func sharedStart() (start func() (*Emulator, error), said string) {
	registrationMu.Lock()
	r := registration
	registrationMu.Unlock()
	switch {
	case sharedFrom != nil && r != nil:
		return sharedFrom, fmt.Sprintf(" (Main's SharedEmulator option, in place of the one %s registered)", r.name)
	case sharedFrom != nil:
		return sharedFrom, ""
	case r != nil:
		return func() (*Emulator, error) {
			if !mainRuns {
				return nil, fmt.Errorf("%sthe shared emulator %s registered is stopped by smsemu.Main after the tests, and this test binary's tests were not run by it, so it would be left running: add func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) } to one test file of the package", ErrorPrefix, r.name)
			}
			emulator, err := r.start()
			if err != nil {
				return nil, fmt.Errorf("%w (the shared emulator %s registered)", err, r.name)
			}
			return emulator, nil
		}, fmt.Sprintf(" (registered by %s)", r.name)
	}
	return Start, ""
}
