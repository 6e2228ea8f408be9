package smsemu

import "testing"

// Main runs a package's tests and then stops the shared emulator (it would stop by itself when the test binary ends):
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	return code
}
