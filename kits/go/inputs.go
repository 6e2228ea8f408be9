package smsemu

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// durationValue is a duration as the control API takes it: a time.Duration becomes milliseconds (rounded up, so a
// wait never ends early), a text ("15m", "1h30m", "500ms") goes as written; nil is "not given".
func durationValue(value any) (any, error) {
	switch v := value.(type) {
	case nil:
		return nil, nil
	case time.Duration:
		return int64((v + time.Millisecond - 1) / time.Millisecond), nil
	case string:
		return v, nil
	default:
		return nil, fmt.Errorf("smsemu: a duration is a time.Duration or a text such as \"15m\", not %T", value)
	}
}

// instantValue is an instant as the control API takes it: a time.Time in RFC 3339 (UTC), a text as written.
func instantValue(value any) (any, error) {
	switch v := value.(type) {
	case nil:
		return nil, nil
	case time.Time:
		if v.IsZero() {
			return nil, nil
		}
		return v.UTC().Format(time.RFC3339Nano), nil
	case string:
		return v, nil
	default:
		return nil, fmt.Errorf("smsemu: an instant is a time.Time or an RFC 3339 text, not %T", value)
	}
}

// fields is a JSON body under construction: set leaves out zero values, so "not given" never travels as 0 or "".
type fields map[string]any

func (f fields) set(name string, value any) {
	switch v := value.(type) {
	case nil:
		return
	case string:
		if v == "" {
			return
		}
	case int:
		if v == 0 {
			return
		}
	case *int:
		if v == nil {
			return
		}
		value = *v
	case bool:
		if !v {
			return
		}
	case []string:
		if v == nil {
			return
		}
	}
	f[name] = value
}

func (f fields) duration(name string, value any) error {
	converted, err := durationValue(value)
	f.set(name, converted)
	return err
}

func (f fields) instant(name string, value any) error {
	converted, err := instantValue(value)
	f.set(name, converted)
	return err
}

// ClockCommand moves a clock: Advance and Limit are a time.Duration or a text ("15m"); Set a time.Time or an RFC
// 3339 text; Mode and Speed are for the main clock only.
type ClockCommand struct {
	Advance      any
	Set          any
	Mode         string
	Speed        float64
	RunUntilIdle bool
	Limit        any
	Next         bool
}

func (c ClockCommand) body() (fields, error) {
	f := fields{}
	if err := f.duration("advance", c.Advance); err != nil {
		return nil, err
	}
	if err := f.instant("set", c.Set); err != nil {
		return nil, err
	}
	if err := f.duration("limit", c.Limit); err != nil {
		return nil, err
	}
	f.set("mode", c.Mode)
	if c.Speed != 0 {
		f["speed"] = c.Speed
	}
	f.set("runUntilIdle", c.RunUntilIdle)
	f.set("next", c.Next)
	return f, nil
}

// TestClockInput is a test clock to create: StartTime a time.Time or a text (default the main clock's now).
type TestClockInput struct {
	StartTime any
	Name      string
}

func (c TestClockInput) body() (fields, error) {
	f := fields{}
	f.set("name", c.Name)
	return f, f.instant("startTime", c.StartTime)
}

// AccountInput is an account to create (or a world's account: APIKey is drawn when empty). Balance and
// SandboxBalance are pointers so that 0 can be asked for.
type AccountInput struct {
	APIKey            string
	SigningSecret     string
	Balance           *int
	SandboxBalance    *int
	WebhookURL        string
	SandboxWebhookURL string
	Scopes            []string
	Clock             string
}

func (a AccountInput) body() fields {
	f := fields{}
	f.set("apiKey", a.APIKey)
	f.set("signingSecret", a.SigningSecret)
	f.set("balance", a.Balance)
	f.set("sandboxBalance", a.SandboxBalance)
	f.set("webhookUrl", a.WebhookURL)
	f.set("sandboxWebhookUrl", a.SandboxWebhookURL)
	f.set("scopes", a.Scopes)
	f.set("clock", a.Clock)
	return f
}

// WalletPatch changes one environment of an account.
type WalletPatch struct {
	Balance    *int
	AddBalance int
	WebhookURL string
}

// AccountPatch changes an account.
type AccountPatch struct {
	SigningSecret string
	Scopes        []string
	Live          *WalletPatch
	Sandbox       *WalletPatch
}

func (p AccountPatch) body() fields {
	f := fields{}
	f.set("signingSecret", p.SigningSecret)
	f.set("scopes", p.Scopes)
	for name, wallet := range map[string]*WalletPatch{"live": p.Live, "sandbox": p.Sandbox} {
		if wallet != nil {
			w := fields{}
			w.set("balance", wallet.Balance)
			w.set("addBalance", wallet.AddBalance)
			w.set("webhookUrl", wallet.WebhookURL)
			f[name] = w
		}
	}
	return f
}

// WorldRequest is a world to make in one call: a test clock (Name, StartTime: a time.Time or a text), an account on
// it and the account's own Scenario (a map, or YAML/JSON text).
type WorldRequest struct {
	Name      string
	StartTime any
	Account   AccountInput
	Scenario  any
}

func (w WorldRequest) body() (fields, error) {
	f := fields{}
	f.set("name", w.Name)
	if err := f.instant("startTime", w.StartTime); err != nil {
		return nil, err
	}
	if account := w.Account.body(); len(account) > 0 {
		f["account"] = account
	}
	if w.Scenario != nil {
		f["scenario"] = w.Scenario
	}
	return f, nil
}

// PageQuery asks for one page of a list (0: the emulator's default).
type PageQuery struct {
	Page  int
	Limit int
}

func (p PageQuery) values() url.Values {
	values := url.Values{}
	if p.Page > 0 {
		values.Set("page", strconv.Itoa(p.Page))
	}
	if p.Limit > 0 {
		values.Set("limit", strconv.Itoa(p.Limit))
	}
	return values
}

func addQuery(values url.Values, name, value string) {
	if value != "" {
		values.Set(name, value)
	}
}

// MessageFilter chooses the messages a list shows; empty fields match everything.
type MessageFilter struct {
	Environment     string
	Account         string
	Status          string
	Recipient       string
	ClientReference string
	PageQuery
}

func (m MessageFilter) values() url.Values {
	values := m.PageQuery.values()
	addQuery(values, "environment", m.Environment)
	addQuery(values, "account", m.Account)
	addQuery(values, "status", m.Status)
	addQuery(values, "recipient", m.Recipient)
	addQuery(values, "clientReference", m.ClientReference)
	return values
}

// ReplyFilter chooses the inbound replies a list shows.
type ReplyFilter struct {
	Environment string
	Account     string
	PageQuery
}

func (r ReplyFilter) values() url.Values {
	values := r.PageQuery.values()
	addQuery(values, "environment", r.Environment)
	addQuery(values, "account", r.Account)
	return values
}

// WebhookFilter chooses the webhook log's events: by account, environment, message or state ("pending", "delayed",
// "delivered", "failed", "skipped").
type WebhookFilter struct {
	Account     string
	Environment string
	Message     string
	State       string
	PageQuery
}

func (w WebhookFilter) values() url.Values {
	values := w.PageQuery.values()
	addQuery(values, "account", w.Account)
	addQuery(values, "environment", w.Environment)
	addQuery(values, "message", w.Message)
	addQuery(values, "state", w.State)
	return values
}

// JournalFilter chooses request journal entries; Since is a time.Time, an RFC 3339 text or a journal id ("req_12").
type JournalFilter struct {
	Account     string
	Environment string
	Method      string
	Path        string
	Status      int
	Code        string
	Since       any
	Message     string
	PageQuery
}

func (j JournalFilter) values() (url.Values, error) {
	values := j.PageQuery.values()
	addQuery(values, "account", j.Account)
	addQuery(values, "environment", j.Environment)
	addQuery(values, "method", j.Method)
	addQuery(values, "path", j.Path)
	if j.Status != 0 {
		values.Set("status", strconv.Itoa(j.Status))
	}
	addQuery(values, "code", j.Code)
	addQuery(values, "message", j.Message)
	since, err := instantValue(j.Since)
	if text, ok := since.(string); ok {
		values.Set("since", text)
	}
	return values, err
}

// OptOutTarget names the account (default: the emulator's default account) and environment (default live) of an
// opt-out.
type OptOutTarget struct {
	Account     string
	Environment string
}

func (o OptOutTarget) values() url.Values {
	values := url.Values{}
	addQuery(values, "account", o.Account)
	addQuery(values, "environment", o.Environment)
	return values
}

// ChaosInput changes the delivery-behaviour rates; nil fields keep their value. Delay is a time.Duration or a text.
type ChaosInput struct {
	DuplicateRate *float64
	DelayRate     *float64
	ReorderRate   *float64
	Delay         any
}

func (c ChaosInput) body() (fields, error) {
	f := fields{}
	for name, rate := range map[string]*float64{"duplicateRate": c.DuplicateRate, "delayRate": c.DelayRate, "reorderRate": c.ReorderRate} {
		if rate != nil {
			f[name] = *rate
		}
	}
	return f, f.duration("delay", c.Delay)
}

// Reply is an inbound reply to inject: From defaults to the message's first recipient.
type Reply struct {
	From string
	Text string
}
