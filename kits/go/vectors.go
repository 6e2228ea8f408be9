package smsemu

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// carriedVectors is the repository's test-vectors/ folder, embedded by the module build-artefacts.sh writes
// (carried_vectors.go); nil in a checkout, where Vectors reads the folder itself.
var carriedVectors fs.FS

// Vectors answers the repository's shared test vectors (signing.json, schedule.json, webhooks.json, ..., each
// {"description", "cases"}, and kit-contract.json), so an app's own signer, schedule formatting or webhook parser can
// be checked against the cases the emulator and every kit pass: the copy the module carries when it came from a module
// proxy, else the checkout's test-vectors/ folder beside this kit.
func Vectors() fs.FS {
	if carriedVectors != nil {
		return carriedVectors
	}
	_, source, _, _ := runtime.Caller(0)
	return os.DirFS(filepath.Join(filepath.Dir(source), "..", "..", "test-vectors"))
}
