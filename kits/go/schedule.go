package smsemu

import (
	"fmt"
	"time"
)

// FormatSchedule writes an instant as the API takes a schedule, YYYY-MM-DDTHH:MM±HH:MM in the given offset
// ("+02:00", the service's zone); a time between minutes rounds up, so a message never goes out earlier than asked.
func FormatSchedule(instant time.Time, offset string) (string, error) {
	var sign byte
	var hours, minutes int
	if _, err := fmt.Sscanf(offset, "%c%02d:%02d", &sign, &hours, &minutes); err != nil || (sign != '+' && sign != '-') {
		return "", fmt.Errorf("%s%q is not an offset such as +02:00", ErrorPrefix, offset)
	}
	seconds := hours*3600 + minutes*60
	if sign == '-' {
		seconds = -seconds
	}
	rounded := instant.Truncate(time.Minute)
	if !rounded.Equal(instant) {
		rounded = rounded.Add(time.Minute)
	}
	return rounded.In(time.FixedZone(offset, seconds)).Format("2006-01-02T15:04") + offset, nil
}
