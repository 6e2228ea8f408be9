package smsemu

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// TimelineMaxLength is the longest a timeline file's name may be (the kit contract's timeline.maxLength).
const TimelineMaxLength = 100

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// TimelineFileName is the file name of a test's timeline, by the kit contract's rule: "sms-emulator-timeline-",
// the test's name (t.Name()) with every run of characters other than A-Z a-z 0-9 _ . - made one _, and ".html"; the
// name is cut from the front when the whole would pass TimelineMaxLength, since its end names the test.
func TimelineFileName(test string) string {
	const prefix, suffix = "sms-emulator-timeline-", ".html"
	name := unsafeName.ReplaceAllString(test, "_")
	if room := TimelineMaxLength - len(prefix) - len(suffix); len(name) > room {
		name = name[len(name)-room:]
	}
	return prefix + name + suffix
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
