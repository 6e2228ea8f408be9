package smsemu

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestReceiverCheckScoresAReceiverAndNamesTheChecksItFails(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer failing.Close()
	report, err := w.Control.ReceiverCheck(ReceiverCheckInput{Receiver: failing.URL, ReceiverTimeout: 2 * time.Second,
		Only: []string{"statuses", "duplicate"}})
	if err != nil {
		t.Fatal(err)
	}
	if report.Passed || report.URL != failing.URL || len(report.Checks) != 2 || report.TimeoutMs != 2000 {
		t.Fatalf("report: %+v", report)
	}
	for _, check := range report.Checks {
		if check.Passed || len(check.Answers) == 0 || check.Answers[0].Status != 500 || check.Reason == "" {
			t.Errorf("%s: want a failure on the receiver's 500 with a reason: %+v", check.Name, check)
		}
	}
}

func TestAnUnknownCheckIsRefusedWithTheControlAPIsError(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	_, err := w.Control.ReceiverCheck(ReceiverCheckInput{Receiver: "http://127.0.0.1:9/", Only: []string{"no-such-check"}})
	var control *ControlError
	if !errors.As(err, &control) || control.Status != 400 {
		t.Fatalf("got %v", err)
	}
}

func TestLimitsAreTheEmulatorsAsStarted(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	limits, err := w.Control.Limits()
	if err != nil {
		t.Fatal(err)
	}
	if limits.BatchLimit < 1 || limits.MessageLimit < 1 || limits.MaxBodySize < 1 || limits.BatchLimitNote == "" {
		t.Fatalf("limits: %+v", limits)
	}
}
