package smsemu

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Clock is a test's own clock: frozen until moved, and only the test's account lives on it. Every move answers once
// the webhooks it fired were tried.
type Clock struct {
	ID      string
	control *Control
	mu      sync.Mutex
	now     int64
}

func (c *Clock) move(command ClockCommand) (TestClock, error) {
	moved, err := c.control.ClocksMove(c.ID, command)
	if err == nil {
		c.track(moved.Now)
	}
	return moved, err
}

func (c *Clock) track(now int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now > c.now {
		c.now = now
	}
}

// Advance moves the clock forward by a time.Duration or a text ("15m", "1h30m"), firing what falls due on the way.
func (c *Clock) Advance(by any) error {
	_, err := c.move(ClockCommand{Advance: by})
	return err
}

// Set moves the clock to an instant (a time.Time or an RFC 3339 text); never backwards.
func (c *Clock) Set(at any) error {
	_, err := c.move(ClockCommand{Set: at})
	return err
}

// RunUntilIdle fires everything queued on the clock, or what falls due within limit (a time.Duration or a text) when
// one is given; Run says how many events fired, whether the clock is idle, and why it stopped early.
func (c *Clock) RunUntilIdle(limit ...any) (Run, error) {
	command := ClockCommand{RunUntilIdle: true}
	if len(limit) > 0 {
		command.Limit = limit[0]
	}
	moved, err := c.move(command)
	if moved.Run == nil {
		return Run{}, err
	}
	return *moved.Run, err
}

// Next jumps to the clock's next queued event and fires what is due then.
func (c *Clock) Next() (Run, error) {
	moved, err := c.move(ClockCommand{Next: true})
	if moved.Run == nil {
		return Run{}, err
	}
	return *moved.Run, err
}

// Now is the clock's time, at once: nothing but the test moves its clock, so it is the time its last move answered.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.UnixMilli(c.now).UTC()
}

// Option sets up a world: its account's secret, balances, scopes, environment, start time, scenario, and where its
// webhooks go.
type Option func(*worldConfig)

type worldConfig struct {
	request     WorldRequest
	environment string
	app         http.Handler
	appURL      string
	path        string
	budget      *int
}

// WithSigningSecret gives the world's account this signing secret (default: one drawn for the world): the secret the
// app signs its requests with.
func WithSigningSecret(secret string) Option {
	return func(c *worldConfig) { c.request.Account.SigningSecret = secret }
}

// WithWebhookSigningSecret gives the world's account this webhook signing secret (default: one drawn for the world):
// the secret its webhooks are signed with, which the app's handler checks and the catcher verifies. A world's catcher
// keeps only signed posts, so a world cannot be unsigned: an empty secret is refused (an account with unsigned
// webhooks is made with Control.WorldsCreate or AccountsCreate, WebhookSigningSecret a pointer to "").
func WithWebhookSigningSecret(secret string) Option {
	return func(c *worldConfig) { c.request.Account.WebhookSigningSecret = &secret }
}

// WithAPIKey gives the world's account this API key (pk_…; default: one drawn for the world).
func WithAPIKey(key string) Option { return func(c *worldConfig) { c.request.Account.APIKey = key } }

// WithStartTime starts the world's clock at an instant: a time.Time or an RFC 3339 text (default: the emulator's now).
func WithStartTime(at any) Option { return func(c *worldConfig) { c.request.StartTime = at } }

// WithBalance gives the world's account this many live credits.
func WithBalance(credits int) Option {
	return func(c *worldConfig) { c.request.Account.Balance = &credits }
}

// WithSandboxBalance gives the world's account this many sandbox credits.
func WithSandboxBalance(credits int) Option {
	return func(c *worldConfig) { c.request.Account.SandboxBalance = &credits }
}

// WithEnvironment points the world's Client and BaseURL at an environment: Live (the default) or Sandbox.
func WithEnvironment(environment string) Option {
	return func(c *worldConfig) { c.environment = environment }
}

// WithScopes limits what the world's API key may do ("balance", "send", "read", "edit", "delete").
func WithScopes(scopes ...string) Option {
	return func(c *worldConfig) { c.request.Account.Scopes = append([]string{}, scopes...) }
}

// WithScenario gives the world's account its own scenario (rules, replies, faults): a map, or YAML/JSON text.
func WithScenario(scenario any) Option { return func(c *worldConfig) { c.request.Scenario = scenario } }

// WithName names the world's clock (default: the test's name).
func WithName(name string) Option { return func(c *worldConfig) { c.request.Name = name } }

// WithAppHandler hands each webhook post, unchanged, to the app's own handler in this process: the emulator gets the
// app's real answer (so retries follow the app), and the catcher keeps a copy for the kit's assertions and waits.
func WithAppHandler(handler http.Handler) Option { return func(c *worldConfig) { c.app = handler } }

// WithAppURL hands each webhook post, unchanged, to the app's webhook URL (an app running beside the test), with the
// same copy kept.
func WithAppURL(appURL string) Option { return func(c *worldConfig) { c.appURL = appURL } }

// WithWebhookPath is the path of the account's webhook URL on the catcher (default "/webhooks"): the path the app's
// handler sees, for an app whose mux routes by it.
func WithWebhookPath(path string) Option { return func(c *worldConfig) { c.path = path } }

// World is one test's world on the emulator; NewWorld makes it and deletes it when the test ends.
type World struct {
	t        testing.TB
	Emulator *Emulator
	// Control is the emulator's control API (every operation, typed).
	Control       *Control
	APIKey        string
	SigningSecret string
	// Environment is Live or Sandbox (WithEnvironment); BaseURL is that environment's base URL, the one to give the
	// app (its API is at BaseURL + "/v1").
	Environment string
	BaseURL     string
	Account     Account
	Client      *Client
	Clock       *Clock
	Catcher     *Catcher
	closed      atomic.Bool
	budget      *int
}

func randomHex() string {
	bytes := make([]byte, 16)
	_, _ = rand.Read(bytes)
	return hex.EncodeToString(bytes)
}

// NewWorld makes a test's world on the test binary's shared emulator (found on first use: see Start) and deletes it
// in t.Cleanup; when the test failed, the emulator's timeline of its account is written to a file named in its log.
// Safe with t.Parallel(): each world has its own clock and account.
func NewWorld(t testing.TB, options ...Option) *World {
	t.Helper()
	emulator, err := Shared()
	if err != nil {
		t.Fatalf("%v", err)
	}
	world, err := OpenWorld(t, emulator, options...)
	if err != nil {
		t.Fatalf("%s%v", ErrorPrefix, err)
	}
	t.Cleanup(func() {
		if world.closed.Load() {
			return // the test closed its world itself
		}
		if t.Failed() {
			world.logTimeline()
		}
		if err := world.close(); err != nil {
			t.Errorf("%sdeleting the test's world: %v", ErrorPrefix, err)
		}
	})
	return world
}

// OpenWorld makes a world on a given emulator; the caller closes it (NewWorld does both for a test). The world's acts
// fail t.
func OpenWorld(t testing.TB, emulator *Emulator, options ...Option) (*World, error) {
	config := worldConfig{environment: Live, path: "/webhooks", request: WorldRequest{Account: &WorldAccount{}}}
	for _, option := range options {
		option(&config)
	}
	if config.environment != Live && config.environment != Sandbox {
		return nil, fmt.Errorf("the environment %q is neither %q nor %q", config.environment, Live, Sandbox)
	}
	if config.budget != nil && *config.budget < 0 {
		return nil, fmt.Errorf("WithBudget(%d): a test's budget is a whole number of credits from 0", *config.budget)
	}
	if config.app != nil && config.appURL != "" {
		return nil, errors.New("a world hands webhooks to an app's handler or to its URL, not both")
	}
	request := config.request
	if secret := request.Account.WebhookSigningSecret; secret != nil && *secret == "" {
		return nil, errors.New("WithWebhookSigningSecret(\"\") would make the world's webhooks unsigned, and its catcher keeps only signed posts: name a secret, or leave the option out for one drawn per world")
	}
	if request.Account.APIKey == "" {
		request.Account.APIKey = "pk_test_" + randomHex()
	}
	if request.Account.SigningSecret == "" {
		request.Account.SigningSecret = "sk_test_" + randomHex()
	}
	if request.Name == "" {
		request.Name = t.Name()
		if len(request.Name) > 200 {
			request.Name = request.Name[:200]
		}
	}
	maxBody, err := emulator.webhookBodyLimit()
	if err != nil {
		return nil, err
	}
	catcher, err := newCatcher(emulator.CatcherHost, config.path, config.app, config.appURL, maxBody)
	if err != nil {
		return nil, err
	}
	request.Account.WebhookURL, request.Account.SandboxWebhookURL = &catcher.URL, &catcher.URL
	created, err := emulator.Control.WorldsCreate(request)
	if err != nil {
		catcher.close()
		return nil, err
	}
	catcher.trust(created.Account.WebhookSigningSecret)
	base := emulator.Origin
	if config.environment == Sandbox {
		base += strings.TrimSuffix(SandboxPath, LivePath)
	}
	return &World{
		t: t, Emulator: emulator, Control: emulator.Control, APIKey: created.Account.APIKey,
		SigningSecret: created.Account.SigningSecret, Environment: config.environment, BaseURL: base,
		Account: created.Account,
		Client:  NewEnvironmentClient(emulator.Origin, config.environment, created.Account.APIKey, created.Account.SigningSecret),
		Clock:   &Clock{ID: created.Clock.ID, control: emulator.Control, now: created.Clock.Now},
		Catcher: catcher, budget: config.budget,
	}, nil
}

// Close deletes the world (its clock, account, messages and logs) and closes its catcher; it fails the test when the
// emulator refuses. Only the first call acts: NewWorld's clean-up closes a world the test did not close itself.
func (w *World) Close() {
	w.t.Helper()
	if err := w.close(); err != nil {
		w.t.Fatalf("%sdeleting the world: %v", ErrorPrefix, err)
	}
}

func (w *World) close() error {
	if w.closed.Swap(true) {
		return nil
	}
	defer w.Catcher.close()
	w.checkBudget()
	err := w.Control.ClocksDelete(w.Clock.ID)
	var control *ControlError
	// The test may have deleted its clock itself, or reset the emulator.
	if errors.As(err, &control) && control.Code == "CONTROL_NOT_FOUND" {
		return nil
	}
	return err
}

// ReportHTML is the account's timeline report, or why it could not be read.
//
// Deprecated: use TimelineHTML, the name every door uses (decision 0003).
func (w *World) ReportHTML() (string, error) {
	var page string
	err := w.Control.Call("GET", "/report", url.Values{"account": {w.APIKey}}, nil, &page)
	return page, err
}

// Now is the test clock's time.
func (w *World) Now() time.Time { return w.Clock.Now() }

// Scenario gives the account its own scenario (rules, replies, faults): a map, or YAML/JSON text. It answers the
// account's scenario as the emulator keeps it, and fails the test when the emulator refuses it.
func (w *World) Scenario(scenario any) AccountScenario {
	w.t.Helper()
	kept, err := w.Control.AccountsSetScenario(w.APIKey, scenario)
	if err != nil {
		w.t.Fatalf("%ssetting the world's scenario: %v", ErrorPrefix, err)
	}
	return kept
}

// UseBundledScenario gives the account a bundled scenario by name ("degraded-api", "rate-limited", ...). It answers
// the account's scenario, and fails the test when the emulator has no such scenario.
func (w *World) UseBundledScenario(name string) AccountScenario {
	w.t.Helper()
	kept, err := w.Control.AccountsUseBundledScenario(w.APIKey, name)
	if err != nil {
		w.t.Fatalf("%susing the bundled scenario %q: %v", ErrorPrefix, name, err)
	}
	return kept
}

// WaitFor moves the test's clock to each of the message's next changes until it has the status and its webhooks were
// tried; it fails the test with the message's history when it ends otherwise or within (a time.Duration or a text;
// nil is DefaultWaitWithin) passes first, and at once, naming the answers, when the app's receiver refused every try
// of that status's webhook (the emulator's CONTROL_WEBHOOK_REFUSED).
func (w *World) WaitFor(id, status string, within any) ControlMessage {
	w.t.Helper()
	answer, err := w.Control.MessagesWait(id, waitInput(status, within))
	var control *ControlError
	if errors.As(err, &control) && (control.Code == "CONTROL_WAIT_FAILED" || control.Code == "CONTROL_WEBHOOK_REFUSED") {
		w.t.Fatalf("%s%s", ErrorPrefix, control.Description)
	} else if err != nil {
		w.t.Fatalf("%swaiting for %s: %v", ErrorPrefix, id, err)
	}
	w.Clock.track(answer.Clock.Now)
	return answer.Message
}

// waitInput is a world's wait: within nil is the contract's default (DefaultWaitWithin), sent as the kit's own.
func waitInput(status string, within any) MessagesWaitInput {
	if within == nil {
		within = DefaultWaitWithin
	}
	return MessagesWaitInput{Status: status, Within: within}
}

// ListMessages is the account's messages that match filter (its Account is this world's), newest first.
func (w *World) ListMessages(filter MessageFilter) []ControlMessage {
	w.t.Helper()
	filter.Account = w.APIKey
	if filter.Limit == 0 {
		filter.Limit = 1000
	}
	page, err := w.Control.MessagesList(filter)
	if err != nil {
		w.t.Fatalf("%slisting messages: %v", ErrorPrefix, err)
	}
	return page.Items
}

// Messages is the account's messages with their legs and history, newest first.
func (w *World) Messages() []ControlMessage { return w.ListMessages(MessageFilter{}) }

// Webhooks is every payload the emulator posted to the world's catcher, in order: only posts signed with the world's
// webhook secret are kept (ForgedWebhooks lists the others).
func (w *World) Webhooks() []Message {
	var payloads []Message
	for _, request := range w.Catcher.Received() {
		payloads = append(payloads, request.Payload())
	}
	return payloads
}

// ForgedWebhooks is the posts the world's catcher refused (not signed with the world's webhook secret, or larger
// than the emulator's own body bound): never among Webhooks, never handed to the app.
func (w *World) ForgedWebhooks() []RefusedPost { return w.Catcher.Refused() }

// AssertWebhook fails the test unless a payload for the message with the status (empty: any) reached the catcher.
func (w *World) AssertWebhook(id, status string) Message {
	w.t.Helper()
	payloads := w.Webhooks()
	for _, payload := range payloads {
		if (id == "" || payload.ID == id) && (status == "" || payload.Status == status) {
			return payload
		}
	}
	w.t.Errorf("no webhook matches id=%q status=%q; received:\n%s", id, status, describe(payloads))
	return Message{}
}

// AssertSent fails the test unless the account sent a message to `to` (empty: any) whose text contains `text`.
func (w *World) AssertSent(to, text string) ControlMessage {
	w.t.Helper()
	sent := w.Messages()
	var lines []string
	for _, message := range sent {
		if (to == "" || hasRecipient(message.Recipient, to)) && strings.Contains(message.Message, text) {
			return message
		}
		lines = append(lines, fmt.Sprintf("  %s to %s: %q", message.Status, strings.Join(message.Recipient, ","), message.Message))
	}
	if len(lines) == 0 {
		lines = []string{"  none"}
	}
	w.t.Errorf("no message sent matches to=%q text=%q; sent:\n%s", to, text, strings.Join(lines, "\n"))
	return ControlMessage{}
}

func hasRecipient(recipients []string, wanted string) bool {
	for _, recipient := range recipients {
		if recipient == wanted {
			return true
		}
	}
	return false
}
