// Package smsemu gives each Go test of an app's SMS integration a world of its own on sms-emulator: an account on
// its own test clock (with its own signing secret, start time, balances, environment and scopes), a client that
// signs, a webhook catcher that keeps a copy of every delivery and can hand it to the app's own webhook handler, the
// clock in the test's hands, assertions, and the emulator's timeline of a failing test in a file named in its log.
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m)) }
//
//	func TestAReminderIsDelivered(t *testing.T) {
//		t.Parallel()
//		w := smsemu.NewWorld(t, smsemu.WithSigningSecret("sk_test_reminders"), smsemu.WithAppHandler(app.Webhooks()))
//		sent, err := w.Client.Send([]string{"27831234567"}, "Your appointment is at 10:00")
//		...
//		w.WaitFor(sent.ID, "delivered", time.Hour)
//		w.AssertWebhook(sent.ID, "delivered")
//	}
//
// Where the emulator comes from, in this order, printed once when a test binary starts one (Resolve):
// SMS_EMULATOR_URL (with SMS_EMULATOR_CONTROL_TOKEN), a running one shared by the run; SMS_EMULATOR_COMMAND, a
// command that starts one (a relative path in it is resolved against the module root, the folder holding go.mod, so
// every package finds it); the Node runtime this module carries for the platform (the module
// smsemulator.dev/smsemu/node/<goos>_<goarch>) with the emulator bundle it carries; a node 20 or newer on PATH with
// that bundle. Never an unpinned npx: when none works, one error names every step and what it found.
//
// Every operation of the emulator's control API is a method of Control (World.Control), with typed inputs and
// answers; durations and instants are taken as time.Duration and time.Time as well as the API's own texts ("15m",
// RFC 3339). Standard library only; safe with t.Parallel().
package smsemu
