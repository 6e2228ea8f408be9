package smsemu

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// APIError is an error answer of the API: its code (SIGNATURE_MISMATCH, ...), HTTP status, description and headers.
// Code is NETWORK_ERROR (status 0) when no answer came; RetryAfter is Retry-After in seconds of the emulator's clock
// (a rate limit counts on the test's clock: move it instead of sleeping).
type APIError struct {
	Code        string
	Status      int
	Description string
	Header      http.Header
	RetryAfter  int
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Description)
}

// Client signs every request with the account's secret, as the API requires (Basic auth with the API key).
type Client struct {
	root   string
	auth   string
	secret string
	Offset string
	HTTP   *http.Client
}

// API paths per environment under the emulator's origin (the kit contract's paths.api).
const (
	LivePath    = "/v1"
	SandboxPath = "/sandbox/v1"
)

// Environments of an account: live (the default) and sandbox.
const (
	Live    = "live"
	Sandbox = "sandbox"
)

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

// MessageList is one page of the API's message list.
type MessageList struct {
	List       []Message `json:"list"`
	Page       int       `json:"page"`
	Limit      int       `json:"limit"`
	TotalPages int       `json:"total_pages"`
	TotalItems int       `json:"total_items"`
}

// NewClient is a client of the live API (/v1) at baseURL.
func NewClient(baseURL, apiKey, signingSecret string) *Client {
	return NewEnvironmentClient(baseURL, Live, apiKey, signingSecret)
}

// NewEnvironmentClient is a client of an environment's API: live (/v1) or sandbox (/sandbox/v1).
func NewEnvironmentClient(baseURL, environment, apiKey, signingSecret string) *Client {
	path := LivePath
	if environment == Sandbox {
		path = SandboxPath
	}
	return &Client{
		root:   strings.TrimRight(baseURL, "/") + path + "/messages",
		auth:   "Basic " + base64.StdEncoding.EncodeToString([]byte(apiKey+":")),
		secret: signingSecret,
		Offset: "+02:00",
		// The kit's pool, whose idle connections end before the emulator's do; no retry here: the client plays the
		// app's, and a network fault of a scenario must reach the test.
		HTTP: &http.Client{Timeout: 30 * time.Second, Transport: sharedTransport},
	}
}

// Send sends a message to one or more recipients; answers the message object.
func (c *Client) Send(recipients []string, message string) (Message, error) {
	return c.call("POST", "", map[string]any{"recipient": recipients, "message": message})
}

// SendWith sends with extra fields (client_reference, schedule as the API takes it).
func (c *Client) SendWith(fields map[string]any) (Message, error) {
	return c.call("POST", "", fields)
}

// Schedule schedules a message for an instant (written in c.Offset, rounded up to the minute).
func (c *Client) Schedule(recipients []string, message string, at time.Time) (Message, error) {
	schedule, err := FormatSchedule(at, c.Offset)
	if err != nil {
		return Message{}, err
	}
	return c.call("POST", "", map[string]any{"recipient": recipients, "message": message, "schedule": schedule})
}

// Get reads one message.
func (c *Client) Get(id string) (Message, error) { return c.call("GET", "/"+url.PathEscape(id), nil) }

// List reads a page of messages, newest first (query: recipient, status, search, page, limit).
func (c *Client) List(query url.Values) (MessageList, error) {
	suffix := ""
	if len(query) > 0 {
		suffix = "?" + query.Encode()
	}
	var list MessageList
	err := c.do("GET", suffix, nil, &list)
	return list, err
}

// Edit changes the given fields of a scheduled message.
func (c *Client) Edit(id string, fields map[string]any) (Message, error) {
	return c.call("PATCH", "/"+url.PathEscape(id), fields)
}

// Delete deletes a scheduled message.
func (c *Client) Delete(id string) (Message, error) {
	return c.call("DELETE", "/"+url.PathEscape(id), nil)
}

// Balance reads the account's credits.
func (c *Client) Balance() (int, error) {
	var answer struct {
		Balance int `json:"balance"`
	}
	err := c.do("GET", "/balance", nil, &answer)
	return answer.Balance, err
}

func (c *Client) call(method, path string, body map[string]any) (Message, error) {
	var message Message
	err := c.do(method, path, body, &message)
	return message, err
}

func (c *Client) do(method, path string, body map[string]any, out any) error {
	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(encoded)
	}
	request, err := http.NewRequest(method, c.root+path, reader)
	if err != nil {
		return err
	}
	if body != nil {
		request.Header.Set("Content-Type", "application/json")
		request.Header.Set("Signature", Sign(body, c.secret))
	}
	request.Header.Set("Authorization", c.auth)
	request.Header.Set("Accept", "application/json")
	response, err := c.HTTP.Do(request)
	if err != nil {
		return &APIError{Code: "NETWORK_ERROR", Description: fmt.Sprintf("%s %s got no answer: %v", method, shownURL(c.root+path), err)}
	}
	defer response.Body.Close()
	raw, err := io.ReadAll(response.Body)
	if err != nil {
		return &APIError{Code: "NETWORK_ERROR", Status: response.StatusCode, Description: fmt.Sprintf("%s %s: the answer broke off: %v", method, shownURL(c.root+path), err)}
	}
	var parsed map[string]any
	_ = json.Unmarshal(raw, &parsed)
	if response.StatusCode >= 200 && response.StatusCode < 300 && parsed != nil && parsed["description"] == nil {
		return json.Unmarshal(raw, out)
	}
	failure := parsed
	if wrapped, ok := parsed["error"].(map[string]any); ok {
		failure = wrapped
	}
	code, _ := failure["message"].(string)
	description, _ := failure["description"].(string)
	if code == "" {
		code, description = "UNEXPECTED_RESPONSE", fmt.Sprintf("%s %s answered %d: %.200s", method, shownURL(c.root+path), response.StatusCode, raw)
	}
	retryAfter, _ := strconv.Atoi(response.Header.Get("Retry-After"))
	return &APIError{Code: code, Status: response.StatusCode, Description: description, Header: response.Header, RetryAfter: retryAfter}
}
