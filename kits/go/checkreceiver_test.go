package smsemu

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestCheckReceiverScoresAReceiverAndNamesTheChecksItFails(t *testing.T) {
	t.Parallel()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer failing.Close()
	report, err := CheckReceiver(failing.URL, CheckOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if report.Passed || report.URL != failing.URL || len(report.Checks) == 0 || report.TimeoutMs != 2000 {
		t.Fatalf("report: %+v", report)
	}
	failed := 0
	for _, check := range report.Checks {
		if !check.Passed {
			failed++
			if len(check.Answers) == 0 || check.Answers[0].Status != 500 || check.Reason == "" {
				t.Errorf("%s failed without the receiver's 500 and a reason: %+v", check.Name, check)
			}
		}
	}
	if failed == 0 {
		t.Fatal("no check failed on a receiver that answers 500")
	}
}

func TestCheckReceiverRefusesAnUnknownCheckClearly(t *testing.T) {
	t.Parallel()
	if _, err := CheckReceiver("http://127.0.0.1:9/", CheckOptions{Only: []string{"no-such-check"}}); err == nil || !strings.Contains(err.Error(), "no-such-check") {
		t.Fatalf("got %v", err)
	}
}
