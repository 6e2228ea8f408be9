package smsemu

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The environment variables of the resolution order (the kit contract's resolution.env).
const (
	envURL          = "SMS_EMULATOR_URL"
	envToken        = "SMS_EMULATOR_CONTROL_TOKEN"
	envCommand      = "SMS_EMULATOR_COMMAND"
	envStartTimeout = "SMS_EMULATOR_START_TIMEOUT"
)

// MinimumNode is the oldest Node a node on PATH may be to run the carried bundle (the kit contract's
// resolution.minimumNodeVersion).
const MinimumNode = "20.19.0"

// notFoundText is the one error when no step of the resolution order gave an emulator (the kit contract's
// resolution.notFound, which contract_test.go holds it to), each {step} filled with what that step found.
const notFoundText = "sms-emulator: no emulator to test against. Tried, in this order:\n" +
	"  1. SMS_EMULATOR_URL (a running emulator, with SMS_EMULATOR_CONTROL_TOKEN if it needs one): {url}\n" +
	"  2. SMS_EMULATOR_COMMAND (a command that starts one; a relative path in it is resolved against the project root): {command}\n" +
	"  3. the Node runtime this kit carries, with the emulator it carries: {carried}\n" +
	"  4. a node 20.19.0 or newer on PATH, with the emulator this kit carries: {pathNode}\n" +
	"Set SMS_EMULATOR_URL or SMS_EMULATOR_COMMAND, add this kit's runtime for your platform, or install Node 20 or newer. An unpinned npx is never run."

// BundleEntry is the start script inside the carried bundle folder.
const BundleEntry = "bin/sms-emulator.js"

// Start finds an emulator by the one resolution order (decision 0002), and says in Emulator.Source which step gave
// it:
//
//  1. SMS_EMULATOR_URL (with SMS_EMULATOR_CONTROL_TOKEN): a running emulator, shared by the run;
//  2. SMS_EMULATOR_COMMAND: a command that starts one, split on spaces (quotes group words); a relative path in it
//     is resolved against the module root, the nearest folder upward holding go.mod, so every package finds it;
//  3. the Node runtime carried for this platform (module smsemulator.dev/smsemu/node/<goos>_<goarch>) with the
//     carried emulator bundle, unpacked once per version into the user's cache folder;
//  4. a node on PATH, version 20 or newer, with the carried bundle.
//
// A started emulator listens on a free port with a manual clock and stops with the test binary (--parent-pid).
// Steps 1 and 2, when set, are used or fail with their own error; when none of the steps works, the error names
// all four and what each found. An unpinned npx is never run.
func Start() (*Emulator, error) {
	timeout, err := StartTimeout()
	if err != nil {
		return nil, err
	}
	token := os.Getenv(envToken)
	if origin := os.Getenv(envURL); origin != "" {
		emulator, err := Connect(origin, token)
		if err != nil {
			return nil, fmt.Errorf("%s%s=%s: %w", ErrorPrefix, envURL, shownURL(origin), err)
		}
		emulator.Source = envURL + "=" + shownURL(origin)
		return emulator, nil
	}
	if command := os.Getenv(envCommand); command != "" {
		words, err := commandWords(command)
		if err != nil {
			return nil, fmt.Errorf("%s%s=%s: %w", ErrorPrefix, envCommand, command, err)
		}
		emulator, err := startProcess(words, token, fmt.Sprintf("%s: %s", envCommand, strings.Join(words, " ")), timeout)
		if err != nil {
			return nil, fmt.Errorf("%s%s: %w", ErrorPrefix, envCommand, err)
		}
		return emulator, nil
	}
	found := map[string]string{"url": "not set", "command": "not set"}
	began := time.Now()
	bundle, bundleErr := unpackBundle()
	node, nodeErr := unpackNode()
	cost := "already unpacked"
	if unpacked.Load() > 0 {
		cost = fmt.Sprintf("unpacked in %d ms", time.Since(began).Milliseconds())
	}
	switch {
	case nodeErr != nil:
		found["carried"] = nodeErr.Error()
	case bundleErr != nil:
		found["carried"] = bundleErr.Error()
	default:
		source := fmt.Sprintf("the carried runtime: %s %s (%s)", node, filepath.Join(bundle, BundleEntry), cost)
		emulator, err := startProcess([]string{node, filepath.Join(bundle, BundleEntry)}, token, source, timeout)
		if err == nil {
			return emulator, nil
		}
		found["carried"] = err.Error()
	}
	onPath, pathErr := nodeOnPath()
	switch {
	case pathErr != nil:
		found["pathNode"] = pathErr.Error()
	case bundleErr != nil:
		found["pathNode"] = fmt.Sprintf("%s, but %v", onPath, bundleErr)
	default:
		source := fmt.Sprintf("node on PATH: %s %s", onPath, filepath.Join(bundle, BundleEntry))
		emulator, err := startProcess([]string{onPath, filepath.Join(bundle, BundleEntry)}, token, source, timeout)
		if err == nil {
			return emulator, nil
		}
		found["pathNode"] = err.Error()
	}
	return nil, notFound(found)
}

// notFound is the one error when no step of the resolution order gave an emulator: notFoundText with what each
// step found.
func notFound(found map[string]string) error {
	text := notFoundText
	for _, step := range []string{"url", "command", "carried", "pathNode"} {
		text = strings.Replace(text, "{"+step+"}", found[step], 1)
	}
	return errors.New(text)
}

// nodeOnPath is the path of a node on PATH whose version is MinimumNode or newer.
func nodeOnPath() (string, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("not found")
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %v", path, err)
	}
	version := strings.TrimSpace(string(out))
	if !atLeast(strings.TrimPrefix(version, "v"), MinimumNode) {
		return "", fmt.Errorf("%s is %s, older than %s", path, version, MinimumNode)
	}
	return path, nil
}

// atLeast says whether a dotted version is the minimum or newer (a part that is not a number counts as 0).
func atLeast(version, minimum string) bool {
	have, want := strings.Split(version, "."), strings.Split(minimum, ".")
	for i, part := range want {
		wanted, _ := strconv.Atoi(part)
		got := 0
		if i < len(have) {
			got, _ = strconv.Atoi(have[i])
		}
		if got != wanted {
			return got > wanted
		}
	}
	return true
}

// moduleRoot is the nearest folder upward from the working folder (a package's, under go test) holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working folder or above it")
		}
		dir = parent
	}
}

// commandWords splits SMS_EMULATOR_COMMAND into words (single or double quotes group a word) and makes each relative
// path in it (a word with a path separator, not an option) absolute against the module root, so a command written
// for the module works from every package's folder.
func commandWords(command string) ([]string, error) {
	words, err := splitWords(command)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, errors.New("no command")
	}
	root := ""
	for i, word := range words {
		if strings.HasPrefix(word, "-") || filepath.IsAbs(word) || !strings.ContainsAny(word, `/\`) {
			continue
		}
		if root == "" {
			if root, err = moduleRoot(); err != nil {
				return nil, fmt.Errorf("the relative path %s: %w", word, err)
			}
		}
		words[i] = filepath.Join(root, word)
	}
	return words, nil
}

// splitWords splits a command line on spaces; single and double quotes group, without escapes.
func splitWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
