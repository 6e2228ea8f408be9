package shared_test

import (
	"fmt"
	"strings"
	"testing"

	"smsemulator.dev/smsemu"
	_ "smsemulator.dev/smsemu/smsemucontainer/shared"
)

func TestImportingSharedRegistersTheContainerAsTheSharedEmulator(t *testing.T) {
	defer func() {
		said := fmt.Sprint(recover())
		if !strings.Contains(said, "RegisterSharedEmulator called twice: smsemulator.dev/smsemu/smsemucontainer/shared registered the shared emulator") {
			t.Fatalf("a second registration panicked with %q, not naming the one the import made", said)
		}
	}()
	// A second registration panics naming the first (and changes nothing): the blank import above made one.
	smsemu.RegisterSharedEmulator("example.com/second", smsemu.Start)
}

// This package has no TestMain, so nothing would stop a container started here: the registration refuses to start one.
func TestAPackageWithoutMainIsRefusedTheContainerNamingTheTestMainToAdd(t *testing.T) {
	_, err := smsemu.Shared()
	if err == nil || !strings.Contains(err.Error(), "add func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) } to one test file of the package") {
		t.Fatalf("the shared emulator without Main: %v", err)
	}
}
