package smsemu

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// TimelineMaxLength is the longest a timeline file's name may be (the kit contract's timeline.maxLength).
const TimelineMaxLength = 100

// TimelineHashLength is how many hex digits of the test's SHA-256 a shortened name carries (timeline.hashLength), so
// two long names never share a file.
const TimelineHashLength = 8

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// TimelineFileName is the file name of a test's timeline, by the kit contract's rule: "sms-emulator-timeline-",
// the test's name (t.Name()) with every run of characters other than A-Z a-z 0-9 _ . - made one _, and ".html". A
// name too long for TimelineMaxLength keeps the test's own name (after its last / or :: outside square brackets)
// whole: <front>-<hash>-<name>, the hash the first TimelineHashLength hex digits of the whole name's SHA-256 and the
// front as much of the rest as fits.
func TimelineFileName(test string) string {
	const prefix, suffix = "sms-emulator-timeline-", ".html"
	room := TimelineMaxLength - len(prefix) - len(suffix)
	if whole := unsafeName.ReplaceAllString(test, "_"); len(whole) <= room {
		return prefix + whole + suffix
	}
	sum := sha256.Sum256([]byte(test))
	hash := hex.EncodeToString(sum[:])[:TimelineHashLength]
	start := testNameStart(test)
	name := cutTo(unsafeName.ReplaceAllString(test[start:], "_"), room-len(hash)-1)
	front := cutTo(unsafeName.ReplaceAllString(test[:start], "_"), room-len(hash)-2-len(name))
	if front != "" {
		front += "-"
	}
	return prefix + front + hash + "-" + name + suffix
}

// testNameStart is where the test's own name starts: after the last / or :: outside square brackets (a subtest's
// name or a parameter may hold either).
func testNameStart(test string) int {
	depth, start := 0, 0
	for i := 0; i < len(test); i++ {
		switch c := test[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth = max(0, depth-1)
		case depth == 0 && c == '/':
			start = i + 1
		case depth == 0 && strings.HasPrefix(test[i:], "::"):
			start = i + 2
		}
	}
	return start
}

// cutTo is text's first n bytes (all of it when shorter; none when n is not positive). Safe names are ASCII.
func cutTo(text string, n int) string {
	return text[:min(len(text), max(0, n))]
}

// runID names this test binary's run, so one run's timelines never overwrite another's.
var runID = fmt.Sprintf("%s-%d", time.Now().UTC().Format("20060102T150405Z"), os.Getpid())

// timelineFolder is where a test's timeline goes: the test's artefact folder when go test was given -artifacts (Go
// 1.26 and newer keep it under -outputdir), else this run's folder under the user's cache folder
// (<cache>/sms-emulator/timelines/<run>/), never the shared temp folder.
func timelineFolder(t any) (string, error) {
	if artifacts := flag.Lookup("test.artifacts"); artifacts != nil && artifacts.Value.String() == "true" {
		if withArtifacts, ok := t.(interface{ ArtifactDir() string }); ok {
			return withArtifacts.ArtifactDir(), nil
		}
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	folder := filepath.Join(base, "sms-emulator", "timelines", runID)
	return folder, os.MkdirAll(folder, 0o755)
}

func (w *World) logTimeline() {
	page, err := w.ReportHTML()
	if err != nil {
		w.t.Logf("sms-emulator timeline: could not be read: %v", err)
		return
	}
	folder, err := timelineFolder(w.t)
	if err != nil {
		w.t.Logf("sms-emulator timeline: no folder for it: %v", err)
		return
	}
	path := filepath.Join(folder, TimelineFileName(w.t.Name()))
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		w.t.Logf("sms-emulator timeline: could not be written: %v", err)
		return
	}
	w.t.Logf("sms-emulator timeline: the emulator's timeline of this test's account: %s", path)
}
