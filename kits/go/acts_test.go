package smsemu

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fatalRecorder is a testing.TB whose Fatalf ends only the calling goroutine and keeps the text, to prove what a
// world's act does when it fails.
type fatalRecorder struct {
	testing.TB
	mu      sync.Mutex
	message string
}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.message = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fatalRecorder) Helper() {}

func TestMessageByReferenceFindsTheWorldsMessageSentWithThatClientReference(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	first, err := w.Client.SendWith(map[string]any{"recipient": []string{"27831234567"}, "message": "Order 1 shipped", "client_reference": "order-1"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.Client.SendWith(map[string]any{"recipient": []string{"27831234567"}, "message": "Order 2 shipped", "client_reference": "order-2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.MessageByReference("order-2"); got.ID != second.ID || got.ClientReference != "order-2" {
		t.Fatalf("order-2 is %s (%q), want %s", got.ID, got.ClientReference, second.ID)
	}
	if got := w.MessageByReference("order-1"); got.ID != first.ID {
		t.Fatalf("order-1 is %s, want %s", got.ID, first.ID)
	}
	// Another world's message with the same reference is not this world's.
	other := NewWorld(t)
	if _, err := other.Client.SendWith(map[string]any{"recipient": []string{"27831234567"}, "message": "x", "client_reference": "order-3"}); err != nil {
		t.Fatal(err)
	}
	recorder := &fatalRecorder{TB: t}
	w.t = recorder
	done := make(chan struct{})
	go func() { defer close(done); w.MessageByReference("order-3") }()
	<-done
	w.t = t
	if !strings.Contains(recorder.message, "no message of this world was sent with the client_reference") {
		t.Fatalf("a reference the world never sent: %q", recorder.message)
	}
}

func TestAnAppsHandlerAttachedAfterTheWorldExistsGetsItsWebhooksAndTheKitKeepsItsCopy(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	var mu sync.Mutex
	heard := 0
	// The app is built from the world's key and URL, then attached.
	w.ForwardTo(http.HandlerFunc(func(response http.ResponseWriter, request *http.Request) {
		mu.Lock()
		heard++
		mu.Unlock()
		_, _ = response.Write([]byte("the app's"))
	}))
	sent, err := w.Client.Send([]string{"27831234567"}, "Hello")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	w.AssertWebhook(sent.ID, "delivered")
	received := w.Catcher.Received()
	mu.Lock()
	defer mu.Unlock()
	if len(received) == 0 || heard != len(received) {
		t.Fatalf("the app heard %d posts, the kit kept %d", heard, len(received))
	}
	for _, caught := range received {
		if caught.AppAnswer != "the app's" {
			t.Fatalf("the emulator was answered %q, not the app's answer", caught.AppAnswer)
		}
	}
}

func TestTheWorldsActsReplyOptOutBalanceWebhookLogAndTimeline(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithBalance(50), WithSandboxBalance(7))
	sent, err := w.Client.Send([]string{"27831234567"}, "Are you coming?")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	reply := w.Reply(sent.ID, "Yes")
	if reply.Message != "Yes" || reply.Type != "sms-reply" || len(reply.Recipient) == 0 || reply.Recipient[0] == "Yes" {
		t.Fatalf("the reply: %+v", reply)
	}
	if optOut := w.OptOut("27830000001"); !optOut.OptedOut || optOut.Environment != Live || optOut.Account != w.APIKey {
		t.Fatalf("the opt-out: %+v", optOut)
	}
	if live, sandbox := w.Balance(), w.Balance(Sandbox); live != 50-sent.Credit || sandbox != 7 {
		t.Fatalf("balances %d and %d", live, sandbox)
	}
	log := w.WebhookLog(WebhookFilter{Message: sent.ID})
	if len(log) == 0 || log[0].MessageID != sent.ID || log[0].Account != w.APIKey {
		t.Fatalf("the webhook log: %+v", log)
	}
	if page := w.TimelineHTML(); !strings.Contains(page, sent.ID) {
		t.Fatal("the timeline does not show the message")
	}
}

func TestAWaitFailsAtOnceNamingTheAnswersWhenTheAppsHandlerRefusedEveryTry(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithAppHandler(http.HandlerFunc(func(response http.ResponseWriter, _ *http.Request) {
		http.Error(response, "bad signature", http.StatusUnauthorized)
	})))
	sent, err := w.Client.Send([]string{"27831234567"}, "Hello")
	if err != nil {
		t.Fatal(err)
	}
	recorder := &fatalRecorder{TB: t}
	w.t = recorder
	done := make(chan struct{})
	go func() { defer close(done); w.WaitFor(sent.ID, "delivered", nil) }()
	<-done
	w.t = t
	if !strings.Contains(recorder.message, "401") {
		t.Fatalf("the wait for a webhook the app refused every time: %q", recorder.message)
	}
}

// runFailing runs a world's act with a fatalRecorder as its test and answers what it failed with ("" when it passed).
func runFailing(t *testing.T, w *World, act func()) string {
	recorder := &fatalRecorder{TB: t}
	w.t = recorder
	done := make(chan struct{})
	go func() { defer close(done); act() }()
	<-done
	w.t = t
	return recorder.message
}

func TestScenarioAndUseBundledScenarioAnswerTheScenarioAndFailTheTestWhenRefused(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	if kept := w.UseBundledScenario("rate-limited"); !strings.Contains(string(kept), "rateLimit") {
		t.Fatalf("the bundled scenario answered: %s", kept)
	}
	if kept := w.Scenario(map[string]any{"rules": []any{}}); len(kept) == 0 {
		t.Fatal("the scenario answered nothing")
	}
	if message := runFailing(t, w, func() { w.UseBundledScenario("no-such-scenario") }); !strings.Contains(message, `using the bundled scenario "no-such-scenario"`) {
		t.Fatalf("an unknown bundled scenario: %q", message)
	}
	if message := runFailing(t, w, func() { w.Scenario(map[string]any{"rules": "not a list"}) }); !strings.Contains(message, "setting the world's scenario") {
		t.Fatalf("a refused scenario: %q", message)
	}
}

func TestAWorldClosedByItsTestIsDeletedOnceAndItsCleanupPasses(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	w.Close()
	w.Close()
	_, err := w.Control.ClocksGet(w.Clock.ID)
	var control *ControlError
	if !errors.As(err, &control) || control.Code != "CONTROL_NOT_FOUND" {
		t.Fatalf("the closed world's clock: %v", err)
	}
}

func TestCloseFailsTheTestWhenTheEmulatorRefusesTheDelete(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	refusing := httptest.NewServer(http.HandlerFunc(func(writer http.ResponseWriter, _ *http.Request) {
		writer.Header().Set("Content-Type", "application/json")
		writer.WriteHeader(http.StatusInternalServerError)
		_, _ = writer.Write([]byte(`{"error":{"code":"INTERNAL_ERROR","message":"refused"}}`))
	}))
	defer refusing.Close()
	emulator := w.Control
	w.Control = &Control{Origin: refusing.URL}
	message := runFailing(t, w, w.Close)
	if err := emulator.ClocksDelete(w.Clock.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(message, "deleting the world") {
		t.Fatalf("a refused delete: %q", message)
	}
}
