package smsemu

import (
	"encoding/json"
	"time"
)

// Status is a short answer: {"status": "ok"}, {"status": "settled"}.
type Status struct {
	Status string `json:"status"`
}

// Incident is a clock task that failed or was skipped.
type Incident struct {
	Time    string `json:"time"`
	Task    string `json:"task"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
}

// Run is what a runUntilIdle or next move did: how many events fired, whether the clock is idle, and why it stopped
// early ("limit", "task-cap", "restart"; empty when it ran to the end).
type Run struct {
	Fired     int    `json:"fired"`
	Idle      bool   `json:"idle"`
	StoppedAt string `json:"stoppedAt,omitempty"`
}

// ClockInfo is the emulator's main clock.
type ClockInfo struct {
	Now          int64      `json:"now"`
	Time         string     `json:"time"`
	Mode         string     `json:"mode"`
	Speed        float64    `json:"speed"`
	PendingTasks int        `json:"pendingTasks"`
	Incidents    []Incident `json:"incidents"`
	Run          *Run       `json:"run,omitempty"`
}

// At is the clock's time.
func (c ClockInfo) At() time.Time { return time.UnixMilli(c.Now).UTC() }

// TestClock is a test clock: a ClockInfo with its id, name and the API keys of the accounts on it.
type TestClock struct {
	ClockInfo
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Accounts []string `json:"accounts"`
}

// Wallet is one environment of an account.
type Wallet struct {
	Balance    int      `json:"balance"`
	WebhookURL string   `json:"webhookUrl"`
	OptOuts    []string `json:"optOuts"`
	Messages   int      `json:"messages"`
}

// Account is an account as the control API shows it.
type Account struct {
	APIKey        string   `json:"apiKey"`
	SigningSecret string   `json:"signingSecret"`
	Scopes        []string `json:"scopes"`
	Live          Wallet   `json:"live"`
	Sandbox       Wallet   `json:"sandbox"`
	Clock         string   `json:"clock"`
}

// WorldAnswer is what POST /_emulator/worlds answers: the world's clock and account.
type WorldAnswer struct {
	Clock   TestClock `json:"clock"`
	Account Account   `json:"account"`
}

// Change is one step of a message's (or leg's) history.
type Change struct {
	Status string `json:"status"`
	At     string `json:"at"`
}

// Leg is a message's part for one recipient.
type Leg struct {
	Recipient string   `json:"recipient"`
	Status    string   `json:"status"`
	History   []Change `json:"history"`
	Upcoming  []Change `json:"upcoming"`
}

// Message is a message object as the API answers it (and as a delivery webhook posts it, narrowed to one
// recipient). A null field of the API is the empty string here.
type Message struct {
	ID              string         `json:"id"`
	Type            string         `json:"type"`
	Recipient       []string       `json:"recipient"`
	Message         string         `json:"message"`
	ClientReference string         `json:"client_reference"`
	Schedule        string         `json:"schedule"`
	Status          string         `json:"status"`
	Credit          int            `json:"credit"`
	CreationDate    string         `json:"creation_date"`
	DeliveryDate    string         `json:"delivery_date"`
	InReplyTo       string         `json:"in_reply_to,omitempty"`
	Links           map[string]any `json:"_links,omitempty"`
}

// ScheduledAt is the message's schedule as an instant (the zero time when it has none), so it compares with what
// FormatSchedule was given whatever offset or seconds the API wrote.
func (m Message) ScheduledAt() time.Time { return parseInstant(m.Schedule) }

// Created is the message's creation date as an instant.
func (m Message) Created() time.Time { return parseInstant(m.CreationDate) }

// ControlMessage is a message as the control API shows it: the API's fields with its environment, account, legs
// and history.
type ControlMessage struct {
	Message
	Environment string   `json:"environment"`
	Account     string   `json:"account"`
	Segments    int      `json:"segments"`
	Encoding    string   `json:"encoding"`
	UCS2Trigger string   `json:"ucs2_trigger"`
	DeletedAt   string   `json:"deleted_at,omitempty"`
	History     []Change `json:"history"`
	Legs        []Leg    `json:"legs"`
}

// WaitAnswer is what a wait answers: the message as it is then, and its clock's time.
type WaitAnswer struct {
	Message ControlMessage `json:"message"`
	Clock   struct {
		ID   string `json:"id"`
		Now  int64  `json:"now"`
		Time string `json:"time"`
	} `json:"clock"`
}

// Attempt is one try of a webhook event.
type Attempt struct {
	Number     int     `json:"number"`
	At         string  `json:"at"`
	URL        string  `json:"url"`
	Status     int     `json:"status,omitempty"`
	Error      string  `json:"error,omitempty"`
	DurationMs float64 `json:"durationMs"`
	OK         bool    `json:"ok"`
}

// WebhookEvent is one entry of the webhook log: the payload and every try.
type WebhookEvent struct {
	ID          string          `json:"id"`
	Kind        string          `json:"kind"`
	Environment string          `json:"environment"`
	Account     string          `json:"account"`
	MessageID   string          `json:"messageId"`
	Recipient   string          `json:"recipient"`
	Status      string          `json:"status"`
	CreatedAt   string          `json:"createdAt"`
	URL         string          `json:"url"`
	State       string          `json:"state"`
	Payload     json.RawMessage `json:"payload"`
	Attempts    []Attempt       `json:"attempts"`
	Behaviours  []string        `json:"behaviours"`
	// DuplicateOf is, for a duplicate, the id of the event it repeats (and is posted under).
	DuplicateOf string `json:"duplicateOf,omitempty"`
}

// Chaos is the delivery-behaviour rates in force (Delay in milliseconds).
type Chaos struct {
	DuplicateRate float64 `json:"duplicateRate"`
	DelayRate     float64 `json:"delayRate"`
	ReorderRate   float64 `json:"reorderRate"`
	Delay         float64 `json:"delay"`
}

// OptOut is what opting a number out or in answers.
type OptOut struct {
	Account     string `json:"account"`
	Environment string `json:"environment"`
	Number      string `json:"number"`
	OptedOut    bool   `json:"optedOut"`
}

// JournalEntry is one request of the request journal.
type JournalEntry struct {
	ID           string          `json:"id"`
	WallTime     string          `json:"wallTime"`
	Time         string          `json:"time"`
	Method       string          `json:"method"`
	Path         string          `json:"path"`
	Query        string          `json:"query"`
	Environment  string          `json:"environment"`
	Account      string          `json:"account"`
	Status       int             `json:"status"`
	Network      string          `json:"network"`
	Code         string          `json:"code"`
	MessageID    string          `json:"messageId"`
	DurationMs   float64         `json:"durationMs"`
	RequestBody  json.RawMessage `json:"requestBody"`
	ResponseBody json.RawMessage `json:"responseBody"`
}

// Signature is what the emulator's signer answers: the canonical string and its signature.
type Signature struct {
	StringToSign string `json:"string_to_sign"`
	Signature    string `json:"signature"`
}

// BundledScenario is one scenario shipped with the emulator.
type BundledScenario struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// BundledScenarios lists the scenarios shipped with the emulator.
type BundledScenarios struct {
	Scenarios []BundledScenario `json:"scenarios"`
}

// Page is one page of a control list.
type Page[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
	Page  int `json:"page"`
	Limit int `json:"limit"`
}

func parseInstant(text string) time.Time {
	if text == "" {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return time.Time{}
	}
	return at
}
