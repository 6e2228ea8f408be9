package smsemu

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Clock is a test's own clock: frozen until moved, and only the test's account lives on it.
type Clock struct {
	ID      string
	control *Control
	mu      sync.Mutex
	now     int64
}

type clockView struct {
	ID  string `json:"id"`
	Now int64  `json:"now"`
}

func (c *Clock) move(command map[string]any) error {
	var view clockView
	if err := c.control.Call("POST", "/clocks/"+url.PathEscape(c.ID), nil, command, &view); err != nil {
		return err
	}
	c.track(view.Now)
	return nil
}

func (c *Clock) track(now int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now > c.now {
		c.now = now
	}
}

// Advance moves the clock forward ("15m", "1h30m"), firing what falls due on the way.
func (c *Clock) Advance(duration string) error { return c.move(map[string]any{"advance": duration}) }

// Set moves the clock to an instant; never backwards.
func (c *Clock) Set(instant time.Time) error {
	return c.move(map[string]any{"set": instant.UTC().Format(time.RFC3339Nano)})
}

// RunUntilIdle fires everything queued on the clock.
func (c *Clock) RunUntilIdle() error { return c.move(map[string]any{"runUntilIdle": true}) }

// Next jumps to the clock's next queued event and fires what is due then.
func (c *Clock) Next() error { return c.move(map[string]any{"next": true}) }

// Now is the clock's time, at once: nothing but the test moves its clock, so it is the time its last move answered.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.UnixMilli(c.now).UTC()
}

// World is one test's world on the emulator; World(t) makes it and deletes it when the test ends.
type World struct {
	t             testing.TB
	Emulator      *Emulator
	APIKey        string
	SigningSecret string
	BaseURL       string
	Client        *Client
	Clock         *Clock
	Catcher       *Catcher
}

func randomHex() string {
	bytes := make([]byte, 16)
	_, _ = rand.Read(bytes)
	return hex.EncodeToString(bytes)
}

// NewWorld makes a test's world on the test binary's shared emulator (started on first use) and deletes it in
// t.Cleanup; when the test failed, the emulator's timeline of its account is written to a file named in its log.
// Safe with t.Parallel(): each world has its own clock and account.
func NewWorld(t testing.TB) *World {
	t.Helper()
	emulator, err := Shared()
	if err != nil {
		t.Fatalf("smsemu: %v", err)
	}
	world, err := openWorld(t, emulator)
	if err != nil {
		t.Fatalf("smsemu: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			world.logTimeline()
		}
		if err := world.close(); err != nil {
			t.Errorf("smsemu: deleting the test's world: %v", err)
		}
	})
	return world
}

func openWorld(t testing.TB, emulator *Emulator) (*World, error) {
	apiKey, secret := "pk_test_"+randomHex(), "sk_test_"+randomHex()
	catcher := newCatcher()
	name := t.Name()
	if len(name) > 200 {
		name = name[:200]
	}
	body := map[string]any{"name": name, "account": map[string]any{
		"apiKey": apiKey, "signingSecret": secret, "webhookUrl": catcher.URL, "sandboxWebhookUrl": catcher.URL,
	}}
	var created struct {
		Clock clockView `json:"clock"`
	}
	if err := emulator.Control.Call("POST", "/worlds", nil, body, &created); err != nil {
		catcher.close()
		return nil, err
	}
	return &World{
		t: t, Emulator: emulator, APIKey: apiKey, SigningSecret: secret, BaseURL: emulator.Origin,
		Client:  NewClient(emulator.Origin, apiKey, secret),
		Clock:   &Clock{ID: created.Clock.ID, control: emulator.Control, now: created.Clock.Now},
		Catcher: catcher,
	}, nil
}

func (w *World) close() error {
	defer w.Catcher.close()
	err := w.Emulator.Control.Call("DELETE", "/clocks/"+url.PathEscape(w.Clock.ID), nil, nil, nil)
	var control *ControlError
	// The test may have deleted its clock itself, or reset the emulator.
	if errors.As(err, &control) && control.Code == "CONTROL_NOT_FOUND" {
		return nil
	}
	return err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func (w *World) logTimeline() {
	page, err := w.ReportHTML()
	if err != nil {
		w.t.Logf("sms-emulator timeline: could not be read: %v", err)
		return
	}
	path := filepath.Join(os.TempDir(), "sms-emulator-timeline-"+unsafeName.ReplaceAllString(w.t.Name(), "_")+".html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		w.t.Logf("sms-emulator timeline: could not be written: %v", err)
		return
	}
	w.t.Logf("sms-emulator timeline: the emulator's timeline of this test's account: %s", path)
}

// ReportHTML is the account's timeline report: every request, message change, webhook try and reply, with times.
func (w *World) ReportHTML() (string, error) {
	var page string
	err := w.Emulator.Control.Call("GET", "/report", url.Values{"account": {w.APIKey}}, nil, &page)
	return page, err
}

// Now is the test clock's time.
func (w *World) Now() time.Time { return w.Clock.Now() }

// Scenario gives the account its own scenario (rules, replies, faults): a map, or YAML/JSON text.
func (w *World) Scenario(scenario any) error {
	return w.Emulator.Control.Call("PUT", "/accounts/"+url.PathEscape(w.APIKey)+"/scenario", nil, scenario, nil)
}

// UseBundledScenario gives the account a bundled scenario by name ("degraded-api", "rate-limited", ...).
func (w *World) UseBundledScenario(name string) error {
	return w.Emulator.Control.Call("PUT", "/accounts/"+url.PathEscape(w.APIKey)+"/scenario/bundled/"+url.PathEscape(name), nil, nil, nil)
}

// WaitFor moves the test's clock to each of the message's next changes until it has the status and its webhooks were
// tried; it fails the test with the message's history when it ends otherwise or within passes first ("" is 1h).
func (w *World) WaitFor(id, status, within string) Message {
	w.t.Helper()
	if within == "" {
		within = "1h"
	}
	var answer struct {
		Message Message   `json:"message"`
		Clock   clockView `json:"clock"`
	}
	err := w.Emulator.Control.Call("POST", "/messages/"+url.PathEscape(id)+"/wait", nil, map[string]any{"status": status, "within": within}, &answer)
	var control *ControlError
	if errors.As(err, &control) && control.Code == "CONTROL_WAIT_FAILED" {
		w.t.Fatalf("sms-emulator: %s", control.Description)
	} else if err != nil {
		w.t.Fatalf("smsemu: waiting for %s: %v", id, err)
	}
	w.Clock.track(answer.Clock.Now)
	return answer.Message
}

// Messages is the account's messages with their legs and history, newest first.
func (w *World) Messages() []Message {
	w.t.Helper()
	var page struct {
		Items []Message `json:"items"`
	}
	if err := w.Emulator.Control.Call("GET", "/messages", url.Values{"account": {w.APIKey}, "limit": {"1000"}}, nil, &page); err != nil {
		w.t.Fatalf("smsemu: listing messages: %v", err)
	}
	return page.Items
}

// Webhooks is every payload the emulator posted to the test's catcher, in order.
func (w *World) Webhooks() []map[string]any {
	var payloads []map[string]any
	for _, request := range w.Catcher.Received() {
		payloads = append(payloads, request.JSON())
	}
	return payloads
}

// AssertWebhook fails the test unless a payload with the given fields (empty: any) reached the catcher.
func (w *World) AssertWebhook(id, status string) map[string]any {
	w.t.Helper()
	payloads := w.Webhooks()
	found := FindWebhook(payloads, id, status, "", "", "")
	if found == nil {
		w.t.Errorf("no webhook matches id=%q status=%q; received:\n%s", id, status, describe(payloads))
	}
	return found
}

// AssertSent fails the test unless the account sent a message to `to` (empty: any) whose text contains `text`.
func (w *World) AssertSent(to, text string) Message {
	w.t.Helper()
	sent := w.Messages()
	var lines []string
	for _, message := range sent {
		body, _ := message["message"].(string)
		if (to == "" || contains(message["recipient"], to)) && strings.Contains(body, text) {
			return message
		}
		lines = append(lines, fmt.Sprintf("  %v to %v: %q", message["status"], message["recipient"], body))
	}
	if len(lines) == 0 {
		lines = []string{"  none"}
	}
	w.t.Errorf("no message sent matches to=%q text=%q; sent:\n%s", to, text, strings.Join(lines, "\n"))
	return nil
}
