package smsemu

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// Not parallel: it changes the working folder, as go test does for each package of a module.
func TestARelativePathInTheCommandIsResolvedAgainstTheModuleRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "internal", "billing")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	here, _ := os.Getwd()
	defer os.Chdir(here)
	if err := os.Chdir(deep); err != nil {
		t.Fatal(err)
	}
	words, err := commandWords(`node ./tools/emulator/bin/sms-emulator.js --seed "a b" /opt/x.js`)
	if err != nil {
		t.Fatal(err)
	}
	// The root as the working folder names it (a temp folder may sit behind a symlink).
	wd, _ := os.Getwd()
	resolvedRoot := filepath.Dir(filepath.Dir(wd))
	want := []string{"node", filepath.Join(resolvedRoot, "tools/emulator/bin/sms-emulator.js"), "--seed", "a b", "/opt/x.js"}
	if strings.Join(words, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", words, want)
	}
}

func TestAnUnclosedQuoteInTheCommandIsAClearError(t *testing.T) {
	if _, err := commandWords(`node "bin/sms-emulator.js`); err == nil || !strings.Contains(err.Error(), "quote") {
		t.Fatalf("got %v", err)
	}
}

// Not parallel: it empties PATH and the resolution variables.
func TestWhenNothingWorksOneErrorNamesEveryStep(t *testing.T) {
	t.Setenv(envURL, "")
	t.Setenv(envCommand, "")
	t.Setenv("PATH", t.TempDir())
	saved := carriedRuntime
	carriedRuntime = nil
	defer func() { carriedRuntime = saved }()
	_, err := Start()
	if err == nil {
		t.Fatal("an emulator was found")
	}
	for _, step := range []string{"1. SMS_EMULATOR_URL (a running emulator, with SMS_EMULATOR_CONTROL_TOKEN if it needs one): not set\n",
		"2. SMS_EMULATOR_COMMAND (a command that starts one; a relative path in it is resolved against the project root): not set\n",
		"3. the Node runtime this kit carries, with the emulator it carries: no runtime module for " + runtime.GOOS + "_" + runtime.GOARCH,
		"4. a node 20.19.0 or newer on PATH, with the emulator this kit carries: not found\n", "never run"} {
		if !strings.Contains(err.Error(), step) {
			t.Errorf("the error does not say %q:\n%v", step, err)
		}
	}
}

func TestAnEmulatorThatCannotStartIsAClearErrorWithItsOutput(t *testing.T) {
	t.Setenv(envURL, "")
	t.Setenv(envCommand, "sh -c 'echo no-such-emulator >&2; exit 3' sh")
	_, err := Start()
	if err == nil || !strings.Contains(err.Error(), "before it was ready") || !strings.Contains(err.Error(), "no-such-emulator") {
		t.Fatalf("got %v", err)
	}
}

func gzipped(t *testing.T, content string) []byte {
	var buffer bytes.Buffer
	writer := gzip.NewWriter(&buffer)
	_, _ = writer.Write([]byte(content))
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	return buffer.Bytes()
}

// Not parallel: it points the user's cache folder elsewhere.
func TestTheCarriedRuntimeIsUnpackedOncePerVersionWithItsExecutableBit(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv("LocalAppData", cache)
	savedRuntime, savedBundle := carriedRuntime, carriedBundle
	defer func() { carriedRuntime, carriedBundle = savedRuntime, savedBundle }()
	carriedRuntime = &carriedNode{gzipped: gzipped(t, "#!/bin/sh\necho carried\n"), name: "node", version: "v24.0.0"}
	carriedBundle = fstest.MapFS{"bin/sms-emulator.js": {Data: []byte("// the CLI")}, "package.json": {Data: []byte("{}")}}
	node, err := unpackNode()
	if err != nil {
		t.Fatal(err)
	}
	bundle, err := unpackBundle()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := os.UserCacheDir()
	folder := filepath.Join(base, "sms-emulator", "go", Version)
	if !strings.HasPrefix(node, folder) || !strings.HasPrefix(bundle, folder) {
		t.Fatalf("unpacked to %s and %s, not under %s", node, bundle, folder)
	}
	info, err := os.Stat(node)
	if err != nil || (runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0) {
		t.Fatalf("the node binary: %v %v", info, err)
	}
	if script, _ := os.ReadFile(filepath.Join(bundle, BundleEntry)); string(script) != "// the CLI" {
		t.Fatalf("the bundle's entry: %q", script)
	}
	// A second test binary finds it unpacked: nothing is written again.
	if err := os.WriteFile(filepath.Join(bundle, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := unpackBundle(); err != nil || again != bundle {
		t.Fatalf("again: %s %v", again, err)
	}
	if _, err := os.Stat(filepath.Join(bundle, "marker")); err != nil {
		t.Fatal("the bundle was unpacked again")
	}
	entries, _ := os.ReadDir(folder)
	for _, entry := range entries {
		if strings.Contains(entry.Name(), ".partial-") {
			t.Fatalf("a partial folder was left: %s", entry.Name())
		}
	}
}

func TestANodeVersionIsComparedPartByPart(t *testing.T) {
	for version, want := range map[string]bool{"20.19.0": true, "20.20.2": true, "24.0.0": true, "20.18.9": false, "19.9.0": false, "20.19": true, "20": false} {
		if got := atLeast(version, MinimumNode); got != want {
			t.Errorf("atLeast(%s) = %v", version, got)
		}
	}
}

func TestAPasswordInTheURLIsMaskedWhereTheKitPrintsIt(t *testing.T) {
	t.Setenv(envURL, "http://proxy:pw-PLANTED-1@127.0.0.1:1/")
	_, err := Start()
	if err == nil || strings.Contains(err.Error(), "pw-PLANTED-1") || !strings.Contains(err.Error(), "SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:1/") {
		t.Fatalf("the error shows the password or not the URL: %v", err)
	}
}

func TestShownURLMasksEveryPasswordTheEmulatorMasksAndNothingElse(t *testing.T) {
	cases := map[string]string{
		"http://user:p@ss:w@rd@[::1]:4000/hook?to=a@b":                   "http://user:***@[::1]:4000/hook?to=a@b",
		`"http://u:one@a.test" and ftp://v:two@b.test/x, mail me@c.test`: `"http://u:***@a.test" and ftp://v:***@b.test/x, mail me@c.test`,
	}
	for _, kept := range []string{"http://127.0.0.1:4000/x", "http://hooks@h/", "http://u:@h/", "http://h/p@x", "not a url: pw@host"} {
		cases[kept] = kept
	}
	for text, want := range cases {
		if got := shownURL(text); got != want {
			t.Errorf("shownURL(%q) = %q, want %q", text, got, want)
		}
	}
}
