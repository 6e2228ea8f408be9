package smsemu

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAWorldHasItsOwnSecretStartTimeBalancesAndScopes(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	w := NewWorld(t, WithSigningSecret("sk_test_the_worlds_own"), WithStartTime(start), WithBalance(7),
		WithSandboxBalance(3), WithScopes("balance", "read"))
	if w.SigningSecret != "sk_test_the_worlds_own" || w.Account.SigningSecret != "sk_test_the_worlds_own" {
		t.Fatalf("secret: %q", w.SigningSecret)
	}
	if !w.Now().Equal(start) {
		t.Fatalf("the world starts at %s, not %s", w.Now(), start)
	}
	if w.Account.Live.Balance != 7 || w.Account.Sandbox.Balance != 3 {
		t.Fatalf("balances: %+v", w.Account)
	}
	if balance, err := w.Client.Balance(); err != nil || balance != 7 {
		t.Fatalf("the API's balance: %d %v", balance, err)
	}
	_, err := w.Client.Send([]string{"27831234567"}, "Not allowed")
	var apiError *APIError
	if !errors.As(err, &apiError) || apiError.Status != 403 {
		t.Fatalf("a key without the send scope sent: %v", err)
	}
}

func TestAStartTimeTextIsTakenAsWritten(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithStartTime("2026-11-23T09:00:00+02:00"))
	if want := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC); !w.Now().Equal(want) {
		t.Fatalf("the world starts at %s", w.Now())
	}
}

func TestASandboxWorldsClientAndBaseURLUseTheSandbox(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithEnvironment(Sandbox), WithSandboxBalance(5))
	if !strings.HasSuffix(w.BaseURL, "/sandbox") {
		t.Fatalf("base URL %s", w.BaseURL)
	}
	sent, err := w.Client.Send([]string{"27831234567"}, "In the sandbox")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", 2*time.Hour)
	if got := w.ListMessages(MessageFilter{Environment: Sandbox}); len(got) != 1 || got[0].Environment != Sandbox {
		t.Fatalf("sandbox messages: %+v", got)
	}
	if got := w.ListMessages(MessageFilter{Environment: Live}); len(got) != 0 {
		t.Fatalf("live messages: %+v", got)
	}
	w.AssertWebhook(sent.ID, "delivered")
}

func TestAnEnvironmentThatIsNeitherIsRefused(t *testing.T) {
	emulator, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWorld(t, emulator, WithEnvironment("staging")); err == nil || !strings.Contains(err.Error(), `"staging"`) {
		t.Fatalf("got %v", err)
	}
}

// app is an app's own webhook handler: it refuses the first post, then takes each and remembers it.
type app struct {
	mu      sync.Mutex
	posts   []string
	refused int
}

func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	a.mu.Lock()
	defer a.mu.Unlock()
	if r.URL.Path != "/sms/status" || r.Header.Get("X-Emulator-Event-Id") == "" {
		http.Error(w, "not a webhook", http.StatusNotFound)
		return
	}
	if a.refused == 0 {
		a.refused++
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	a.posts = append(a.posts, string(body))
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"taken":true}`))
}

func TestAWorldsWebhooksReachTheAppsHandlerAndTheKitKeepsACopy(t *testing.T) {
	t.Parallel()
	handler := &app{}
	w := NewWorld(t, WithAppHandler(handler), WithWebhookPath("/sms/status"))
	sent, err := w.Client.Send([]string{"27831234567"}, "Handed on")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	w.AssertWebhook(sent.ID, "delivered")
	received := w.Catcher.Received()
	// The app's 503 made the emulator send the first notification again: three posts, two taken.
	if len(received) != 3 || received[0].Status != 503 || received[1].Status != 200 || received[1].AppAnswer != `{"taken":true}` {
		t.Fatalf("the catcher's copies: %+v", received)
	}
	if received[0].Body != received[1].Body || received[0].Path != "/sms/status" {
		t.Fatalf("the retry differs from the first try: %+v", received[:2])
	}
	handler.mu.Lock()
	defer handler.mu.Unlock()
	if len(handler.posts) != 2 || handler.posts[0] != received[1].Body || handler.posts[1] != received[2].Body {
		t.Fatalf("the app took %d posts: %v", len(handler.posts), handler.posts)
	}
}

func TestAWorldsWebhooksReachTheAppsURL(t *testing.T) {
	t.Parallel()
	handler := &app{}
	server := httptest.NewServer(handler)
	defer server.Close()
	w := NewWorld(t, WithAppURL(server.URL+"/sms/status"))
	sent, err := w.Client.Send([]string{"27831234567"}, "Posted on")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	received := w.Catcher.Received()
	if len(received) != 3 || received[0].Status != 503 || received[2].Status != 200 || received[2].Payload().Status != "delivered" {
		t.Fatalf("the catcher's copies: %+v", received)
	}
	handler.mu.Lock()
	defer handler.mu.Unlock()
	if len(handler.posts) != 2 {
		t.Fatalf("the app took %d posts", len(handler.posts))
	}
}

func TestRunUntilIdleStopsAtItsLimit(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	start := w.Now()
	if _, err := w.Client.Schedule([]string{"27831234567"}, "Tomorrow", start.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	run, err := w.Clock.RunUntilIdle(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if run.Idle || run.StoppedAt != "limit" || w.Now().Sub(start) != time.Hour {
		t.Fatalf("run %+v, clock moved %s", run, w.Now().Sub(start))
	}
	run, err = w.Clock.RunUntilIdle()
	if err != nil || !run.Idle || run.Fired == 0 {
		t.Fatalf("run %+v %v", run, err)
	}
}
