package smsemu

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// CaughtRequest is one post the emulator made to a test's catcher.
type CaughtRequest struct {
	Header http.Header
	Body   string
}

// JSON is the post's body decoded.
func (r CaughtRequest) JSON() map[string]any {
	var payload map[string]any
	_ = json.Unmarshal([]byte(r.Body), &payload)
	return payload
}

// Catcher is a test's webhook receiver: what it received, and how it answers (200 unless told otherwise).
type Catcher struct {
	URL      string
	server   *httptest.Server
	mu       sync.Mutex
	received []CaughtRequest
	answers  []int
	always   int
	arrived  chan struct{}
}

func newCatcher() *Catcher {
	c := &Catcher{always: 200, arrived: make(chan struct{}, 1)}
	c.server = httptest.NewServer(http.HandlerFunc(c.serve))
	c.URL = c.server.URL + "/webhooks"
	return c
}

func (c *Catcher) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.received = append(c.received, CaughtRequest{Header: r.Header.Clone(), Body: string(body)})
	status := c.always
	if len(c.answers) > 0 {
		status, c.answers = c.answers[0], c.answers[1:]
	}
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
	w.WriteHeader(status)
}

// RespondWith sets the statuses answered in turn; the last one then stays (RespondWith(500, 200): one failure).
func (c *Catcher) RespondWith(statuses ...int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers, c.always = append([]int(nil), statuses[:len(statuses)-1]...), statuses[len(statuses)-1]
}

// Received is every post so far, in the order it arrived.
func (c *Catcher) Received() []CaughtRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CaughtRequest(nil), c.received...)
}

// WaitFor waits (wall clock: webhooks travel over a real socket) until count posts arrived.
func (c *Catcher) WaitFor(count int, timeout time.Duration) ([]CaughtRequest, error) {
	deadline := time.After(timeout)
	for {
		if got := c.Received(); len(got) >= count {
			return got, nil
		}
		select {
		case <-c.arrived:
		case <-deadline:
			return nil, fmt.Errorf("smsemu: the catcher received %d posts, not %d", len(c.Received()), count)
		}
	}
}

func (c *Catcher) close() { c.server.Close() }

// FindWebhook is the first payload whose given fields all match (empty strings match anything; text is the
// payload's message).
func FindWebhook(payloads []map[string]any, id, status, kind, recipient, text string) map[string]any {
	for _, payload := range payloads {
		if matches(payload["id"], id) && matches(payload["status"], status) && matches(payload["type"], kind) &&
			matches(payload["message"], text) && (recipient == "" || contains(payload["recipient"], recipient)) {
			return payload
		}
	}
	return nil
}

func matches(value any, expected string) bool {
	if expected == "" {
		return true
	}
	text, ok := value.(string)
	return ok && text == expected
}

func contains(list any, wanted string) bool {
	items, _ := list.([]any)
	for _, item := range items {
		if item == wanted {
			return true
		}
	}
	return false
}

func describe(payloads []map[string]any) string {
	var lines []string
	for _, p := range payloads {
		lines = append(lines, fmt.Sprintf("  %v %v %v", p["type"], p["id"], p["status"]))
	}
	if len(lines) == 0 {
		return "  none"
	}
	return strings.Join(lines, "\n")
}
