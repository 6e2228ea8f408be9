package smsemu

import "time"

// The generated answers (types.go) carry times as the control API writes them: epoch milliseconds and RFC 3339 texts.
// These read them as time.Time.

// At is the clock's time.
func (c ClockInfo) At() time.Time { return time.UnixMilli(c.Now).UTC() }

// At is the test clock's time.
func (c TestClock) At() time.Time { return time.UnixMilli(c.Now).UTC() }

// ScheduledAt is the message's schedule as an instant (the zero time when it has none).
func (m ControlMessage) ScheduledAt() time.Time { return parseInstant(m.Schedule) }

// Created is the message's creation date as an instant.
func (m ControlMessage) Created() time.Time { return parseInstant(m.CreationDate) }

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
