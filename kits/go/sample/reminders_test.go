package reminders

import (
	"os"
	"strings"
	"testing"
	"time"

	"smsemulator.dev/smsemu"
)

func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) }

const secret = "sk_test_reminders_own_secret"

// world is a test's world whose account signs with the app's own secret and whose webhooks go to the app's handler.
func world(t *testing.T, app *App, options ...smsemu.Option) *smsemu.World {
	t.Helper()
	return smsemu.NewWorld(t, append([]smsemu.Option{smsemu.WithSigningSecret(secret), smsemu.WithAppHandler(app.Webhooks())}, options...)...)
}

func TestAReminderIsDeliveredAndTheAppsHandlerHearsIt(t *testing.T) {
	t.Parallel()
	app := New("", "", secret)
	w := world(t, app)
	app.BaseURL, app.APIKey = w.BaseURL, w.APIKey
	id, err := app.Remind("27831234567", "Your appointment is at 10:00")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(id, "delivered", time.Hour)
	if got := app.Status(id); got != "delivered" {
		t.Fatalf("the app's handler heard %q", got)
	}
	w.AssertWebhook(id, "delivered") // the kit kept its copy of what the app was given
	for _, caught := range w.Catcher.Received() {
		if caught.Status != 204 {
			t.Fatalf("the emulator was answered %d, not the app's 204", caught.Status)
		}
	}
}

func TestAReminderSignedWithAnotherSecretIsRefused(t *testing.T) {
	t.Parallel()
	app := New("", "", "sk_test_not_the_worlds")
	w := world(t, app)
	app.BaseURL, app.APIKey = w.BaseURL, w.APIKey
	if _, err := app.Remind("27831234567", "Hello"); err == nil || !strings.Contains(err.Error(), "SIGNATURE_MISMATCH") {
		t.Fatalf("got %v", err)
	}
	if sent := w.Messages(); len(sent) != 0 {
		t.Fatalf("sent %d", len(sent))
	}
}

func TestAWorldStartsWhenTheTestSaysAndHasItsOwnBalance(t *testing.T) {
	t.Parallel()
	monday := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	app := New("", "", secret)
	w := world(t, app, smsemu.WithStartTime(monday), smsemu.WithBalance(1))
	app.BaseURL, app.APIKey = w.BaseURL, w.APIKey
	if !w.Now().Equal(monday) {
		t.Fatalf("the world starts at %s", w.Now())
	}
	if _, err := app.Remind("27831234567", "The first"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Remind("27831234567", "One too many"); err == nil || !strings.Contains(err.Error(), "INSUFFICIENT_BALANCE") {
		t.Fatalf("got %v", err)
	}
	if err := w.Clock.Advance(2 * time.Hour); err != nil {
		t.Fatal(err)
	}
	w.AssertSent("27831234567", "The first")
}

func TestATrialAccountRemindsThroughTheSandbox(t *testing.T) {
	t.Parallel()
	app := New("", "", secret)
	w := world(t, app, smsemu.WithEnvironment(smsemu.Sandbox))
	app.BaseURL, app.APIKey = w.BaseURL, w.APIKey
	id, err := app.Remind("27831234567", "From the sandbox")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(id, "delivered", time.Hour)
	if got := app.Status(id); got != "delivered" {
		t.Fatalf("the app's handler heard %q", got)
	}
	if sent := w.ListMessages(smsemu.MessageFilter{Environment: smsemu.Sandbox}); len(sent) != 1 {
		t.Fatalf("sandbox messages: %d", len(sent))
	}
}
