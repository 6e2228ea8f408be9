package smsemu

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// CheckOptions tunes CheckReceiver: how long the receiver may take per post (a time.Duration or a text; default 5s),
// which checks run (Only, or all but Skip), the seed of ids and texts, and the secret to sign posts with
// (Webhook-Signature).
type CheckOptions struct {
	Timeout       any
	Only          []string
	Skip          []string
	Seed          string
	SigningSecret string
}

// CheckAnswer is one answer a receiver gave a check's post (Status 0 and Error when there was none).
type CheckAnswer struct {
	About         string  `json:"about"`
	Status        int     `json:"status,omitempty"`
	Error         string  `json:"error,omitempty"`
	CutAfterBytes int     `json:"cutAfterBytes,omitempty"`
	Ms            float64 `json:"ms"`
}

// CheckResult is one check: what it sends, whether the receiver passed, why, and what a real gateway does next.
type CheckResult struct {
	Name        string        `json:"name"`
	Sends       string        `json:"sends"`
	Passed      bool          `json:"passed"`
	Reason      string        `json:"reason"`
	GatewayNext string        `json:"gatewayNext"`
	Answers     []CheckAnswer `json:"answers"`
}

// ReceiverReport is check-receiver's report (its --json answer).
type ReceiverReport struct {
	URL         string        `json:"url"`
	Passed      bool          `json:"passed"`
	TimeoutMs   float64       `json:"timeoutMs"`
	State       string        `json:"state,omitempty"`
	Checks      []CheckResult `json:"checks"`
	Unseen      []string      `json:"unseen"`
	Unreachable string        `json:"unreachable,omitempty"`
}

// cli is the emulator's command line to run a subcommand with: SMS_EMULATOR_COMMAND's words, else the carried runtime
// with the carried bundle, else a node on PATH with it (the resolution order without its URL step: a running
// emulator's control API has no check-receiver).
func cli() ([]string, error) {
	if command := os.Getenv(envCommand); command != "" {
		return commandWords(command)
	}
	bundle, bundleErr := unpackBundle()
	if bundleErr != nil {
		return nil, bundleErr
	}
	entry := filepath.Join(bundle, BundleEntry)
	if node, err := unpackNode(); err == nil {
		return []string{node, entry}, nil
	}
	node, err := nodeOnPath()
	if err != nil {
		return nil, fmt.Errorf("no carried runtime for this platform and no node on PATH: %v", err)
	}
	return []string{node, entry}, nil
}

// CheckReceiver scores a webhook receiver (the app's handler, served on a URL) with realistic deliveries: duplicates,
// retries, slow answers, bodies a gateway really sends; no emulator needed. It runs the carried CLI's `check-receiver
// <url> --json`; a receiver that fails checks is a report with Passed false, not an error.
func CheckReceiver(url string, options CheckOptions) (ReceiverReport, error) {
	words, err := cli()
	if err != nil {
		return ReceiverReport{}, fmt.Errorf("smsemu: check-receiver: %w", err)
	}
	args := append(words[1:len(words):len(words)], "check-receiver", url, "--json")
	timeout, err := durationValue(options.Timeout)
	if err != nil {
		return ReceiverReport{}, err
	}
	switch t := timeout.(type) {
	case int64:
		args = append(args, "--timeout", fmt.Sprintf("%dms", t))
	case string:
		args = append(args, "--timeout", t)
	}
	if len(options.Only) > 0 {
		args = append(args, "--only", strings.Join(options.Only, ","))
	}
	if len(options.Skip) > 0 {
		args = append(args, "--skip", strings.Join(options.Skip, ","))
	}
	if options.Seed != "" {
		args = append(args, "--seed", options.Seed)
	}
	if options.SigningSecret != "" {
		args = append(args, "--signing-secret", options.SigningSecret)
	}
	command := exec.Command(words[0], args...)
	var stderr strings.Builder
	command.Stderr = &stderr
	out, runErr := command.Output()
	var report ReceiverReport
	if err := json.Unmarshal(out, &report); err != nil || report.URL == "" {
		var exit *exec.ExitError
		if errors.As(runErr, &exit) || runErr != nil {
			return report, fmt.Errorf("smsemu: check-receiver %s: %v: %s", url, runErr, strings.TrimSpace(stderr.String()))
		}
		return report, fmt.Errorf("smsemu: check-receiver %s answered something other than its JSON report: %.200s", url, out)
	}
	return report, nil
}
