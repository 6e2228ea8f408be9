package smsemu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// CaughtRequest is one post the emulator made to a test's catcher, and what the app answered when the catcher
// handed it on.
type CaughtRequest struct {
	Method string
	Path   string
	Header http.Header
	Body   string
	// Status is what the catcher answered the emulator: the app's status when it handed the post on.
	Status int
	// AppAnswer is the body the app answered (empty without an app); AppError why the app could not be reached.
	AppAnswer string
	AppError  string
}

// JSON is the post's body decoded.
func (r CaughtRequest) JSON() map[string]any {
	var payload map[string]any
	_ = json.Unmarshal([]byte(r.Body), &payload)
	return payload
}

// Payload is the post's body as a Message: a delivery notification (the message narrowed to one recipient, with
// that leg's status) or a reply (type sms-reply, InReplyTo set).
func (r CaughtRequest) Payload() Message {
	var payload Message
	_ = json.Unmarshal([]byte(r.Body), &payload)
	return payload
}

// RefusedPost is a post the catcher refused and did not keep: not signed with the world's webhook secret (401), or
// larger than the emulator's own body bound (413, not read past it).
type RefusedPost struct {
	Method string
	Path   string
	Header http.Header
	Status int
	Reason string
}

// keptRefusals is how many refused posts a catcher describes; past it, it only counts them (a flood of forged posts
// costs no memory).
const keptRefusals = 100

// Catcher is a test's webhook receiver. It keeps a copy of every post the emulator made (Webhook-Signature verified
// with the world's webhook secret, the body within the emulator's own bound) for assertions and waits, and answers
// the emulator: with statuses the test scripted (RespondWith), else with the app's own answer when the world was
// given the app's handler (WithAppHandler, WithAppURL), else 200. Any other post is answered 401 or 413, not kept
// and not handed on, and reported (Refused).
type Catcher struct {
	URL      string
	server   *http.Server
	listener net.Listener
	app      http.Handler
	appURL   string
	maxBody  int64
	mu       sync.Mutex
	secret   string
	received []CaughtRequest
	refused  []RefusedPost
	refusals int
	answers  []int
	always   int
	arrived  chan struct{}
	done     chan struct{}
}

// appClient hands posts on to an app's URL; its answer goes back to the emulator whatever it is.
var appClient = &http.Client{Timeout: 60 * time.Second, Transport: newTransport()}

// listenCatcher opens a catcher's socket on a free port of host ("" for 127.0.0.1: Emulator.CatcherHost). net.Listen
// takes the listen backlog from the system (Linux: net.core.somaxconn, 4096 by default since 5.4; macOS
// kern.ipc.somaxconn, 128; Windows SOMAXCONN), never Python's 5: a burst of webhooks waits in the queue instead of
// having its connections dropped and retried.
func listenCatcher(host string) (net.Listener, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	return net.Listen("tcp", net.JoinHostPort(host, "0"))
}

// newCatcher listens for a world's webhooks on host; it refuses every post until trust gives it the world's webhook
// secret.
func newCatcher(host, path string, app http.Handler, appURL string, maxBody int64) (*Catcher, error) {
	listener, err := listenCatcher(host)
	if err != nil {
		return nil, err
	}
	c := &Catcher{listener: listener, app: app, appURL: appURL, maxBody: maxBody, arrived: make(chan struct{}, 1),
		done: make(chan struct{})}
	c.server = &http.Server{Handler: http.HandlerFunc(c.serve), ReadHeaderTimeout: time.Minute}
	c.URL = "http://" + listener.Addr().String() + path
	go func() { _ = c.server.Serve(listener); close(c.done) }()
	return c, nil
}

// forwardTo hands the posts that arrive from now on to the app's handler or to its URL (neither: to nobody).
func (c *Catcher) forwardTo(app http.Handler, appURL string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.app, c.appURL = app, appURL
}

// trust makes the catcher keep posts signed with the world's webhook secret.
func (c *Catcher) trust(secret string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.secret = secret
}

// read is the post's body when it is within the bound and signed with the world's webhook secret; otherwise the
// status it is refused with and why. A body over the bound is not read past it.
func (c *Catcher) read(w http.ResponseWriter, r *http.Request) ([]byte, int, string) {
	if r.ContentLength > c.maxBody {
		return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body declares %d bytes, more than the emulator's bound of %d", r.ContentLength, c.maxBody)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, c.maxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than the emulator's bound of %d bytes", c.maxBody)
	}
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Sprintf("the body broke off: %v", err)
	}
	c.mu.Lock()
	secret := c.secret
	c.mu.Unlock()
	if signature := r.Header.Get("Webhook-Signature"); !VerifyWebhookSignature(body, signature, secret) {
		if signature == "" {
			return nil, http.StatusUnauthorized, "no Webhook-Signature"
		}
		return nil, http.StatusUnauthorized, "the Webhook-Signature is not the world's webhook secret's"
	}
	return body, 0, ""
}

func (c *Catcher) refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	c.mu.Lock()
	c.refusals++
	if len(c.refused) < keptRefusals {
		c.refused = append(c.refused, RefusedPost{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(),
			Status: status, Reason: reason})
	}
	c.mu.Unlock()
	http.Error(w, ErrorPrefix+"the test's catcher refused this post: "+reason, status)
}

func (c *Catcher) serve(w http.ResponseWriter, r *http.Request) {
	body, refusal, reason := c.read(w, r)
	if refusal != 0 {
		c.refuse(w, r, refusal, reason)
		return
	}
	caught := CaughtRequest{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: string(body)}
	c.mu.Lock()
	scripted := c.always != 0 || len(c.answers) > 0
	status := c.always
	if len(c.answers) > 0 {
		status, c.answers = c.answers[0], c.answers[1:]
	}
	app, appURL := c.app, c.appURL
	c.mu.Unlock()
	header, answer := http.Header{}, []byte(nil)
	switch {
	case scripted:
	case app != nil:
		status, header, answer = handOn(app, r, body)
	case appURL != "":
		status, header, answer, caught.AppError = post(appURL, r, body)
	default:
		status = http.StatusOK
	}
	if app != nil || appURL != "" {
		caught.AppAnswer = string(answer)
	}
	caught.Status = status
	c.mu.Lock()
	c.received = append(c.received, caught)
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
	for name, values := range header {
		w.Header()[name] = values
	}
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}

// handOn gives the post, unchanged (method, path, headers, body bytes), to the app's handler in this process.
func handOn(app http.Handler, r *http.Request, body []byte) (int, http.Header, []byte) {
	request := r.Clone(r.Context())
	request.Body = io.NopCloser(bytes.NewReader(body))
	recorder := httptest.NewRecorder()
	app.ServeHTTP(recorder, request)
	return recorder.Code, recorder.Header(), recorder.Body.Bytes()
}

// post hands the post, unchanged, to the app's URL; when nothing answers, the emulator gets a 502 saying why (a
// failed try it retries, as it would for the app itself).
func post(appURL string, r *http.Request, body []byte) (int, http.Header, []byte, string) {
	request, err := http.NewRequest(r.Method, appURL, bytes.NewReader(body))
	if err != nil {
		return http.StatusBadGateway, nil, nil, err.Error()
	}
	request.Header = r.Header.Clone()
	for _, hop := range []string{"Connection", "Content-Length", "Keep-Alive", "Transfer-Encoding"} {
		request.Header.Del(hop)
	}
	response, err := appClient.Do(request)
	if err != nil {
		return http.StatusBadGateway, nil, []byte(err.Error()), err.Error()
	}
	defer response.Body.Close()
	answer, _ := io.ReadAll(response.Body)
	header := http.Header{}
	if kind := response.Header.Get("Content-Type"); kind != "" {
		header.Set("Content-Type", kind)
	}
	return response.StatusCode, header, answer, ""
}

// RespondWith sets the statuses answered in turn, whether or not an app was given; the last one then stays
// (RespondWith(500, 200): one failure, then 200s).
func (c *Catcher) RespondWith(statuses ...int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers, c.always = append([]int(nil), statuses[:len(statuses)-1]...), statuses[len(statuses)-1]
}

// Refused is the posts refused so far (the first 100 of them), in the order they arrived; RefusedCount counts them
// all.
func (c *Catcher) Refused() []RefusedPost {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]RefusedPost(nil), c.refused...)
}

// RefusedCount is how many posts were refused.
func (c *Catcher) RefusedCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refusals
}

// Received is every post kept so far (signed with the world's webhook secret), in the order it arrived.
func (c *Catcher) Received() []CaughtRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CaughtRequest(nil), c.received...)
}

// WaitFor waits (wall clock: webhooks travel over a real socket) until count posts arrived. A world's clock moves
// (Advance, WaitFor, RunUntilIdle) answer after the webhooks they fired were tried, so this is for posts sent on a
// realtime clock or by something else.
func (c *Catcher) WaitFor(count int, timeout time.Duration) ([]CaughtRequest, error) {
	deadline := time.After(timeout)
	for {
		if got := c.Received(); len(got) >= count {
			return got, nil
		}
		select {
		case <-c.arrived:
		case <-deadline:
			return nil, fmt.Errorf("%sthe catcher received %d posts, not %d", ErrorPrefix, len(c.Received()), count)
		}
	}
}

func (c *Catcher) close() {
	_ = c.server.Close()
	<-c.done
}

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

func describe(payloads []Message) string {
	var lines []string
	for _, p := range payloads {
		lines = append(lines, fmt.Sprintf("  %s %s %s to %s", p.Type, p.ID, p.Status, strings.Join(p.Recipient, ",")))
	}
	if len(lines) == 0 {
		return "  none"
	}
	return strings.Join(lines, "\n")
}
