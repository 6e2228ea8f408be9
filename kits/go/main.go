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
func Main(m *testing.M, options ...MainOption) int {
	for _, option := range options {
		option(&suite)
	}
	if suite.credits != nil && *suite.credits < 0 {
		fmt.Fprintf(os.Stderr, "%sSuiteBudget(%d): a suite's budget is a whole number of credits from 0\n", ErrorPrefix, *suite.credits)
		return 2
	}
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
