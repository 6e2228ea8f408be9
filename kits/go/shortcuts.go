package smsemu

import "time"

// The contract's shortcuts (kit-contract.json "shortcuts"): operations with their arguments filled in, as the
// in-process handle offers them. Durations are a time.Duration or a text ("15m"); instants a time.Time or a text.

// ClockNow is the main clock's time.
func (c *Control) ClockNow() (time.Time, error) {
	clock, err := c.ClockState()
	return clock.At(), err
}

// ClockAdvance moves the main clock forward.
func (c *Control) ClockAdvance(by any) (ClockInfo, error) {
	return c.ClockMove(ClockCommand{Advance: by})
}

// ClockSet sets the main clock to an instant.
func (c *Control) ClockSet(at any) (ClockInfo, error) { return c.ClockMove(ClockCommand{Set: at}) }

// ClockConfigure changes the main clock's mode ("manual", "realtime"; empty keeps it) and speed (0 keeps it).
func (c *Control) ClockConfigure(mode string, speed float64) (ClockInfo, error) {
	return c.ClockMove(ClockCommand{Mode: mode, Speed: speed})
}

// ClockRunUntilIdle runs the main clock until nothing is queued, or what falls due within a limit when one is given.
func (c *Control) ClockRunUntilIdle(limit ...any) (ClockInfo, error) {
	command := ClockCommand{RunUntilIdle: true}
	if len(limit) > 0 {
		command.Limit = limit[0]
	}
	return c.ClockMove(command)
}

// ClockNext runs the main clock to its next queued event.
func (c *Control) ClockNext() (ClockInfo, error) { return c.ClockMove(ClockCommand{Next: true}) }

// ClocksNow is a test clock's time.
func (c *Control) ClocksNow(id string) (time.Time, error) {
	clock, err := c.ClocksGet(id)
	return clock.At(), err
}

// ClocksAdvance moves a test clock forward.
func (c *Control) ClocksAdvance(id string, by any) (TestClock, error) {
	return c.ClocksMove(id, ClockCommand{Advance: by})
}

// ClocksSet sets a test clock to an instant.
func (c *Control) ClocksSet(id string, at any) (TestClock, error) {
	return c.ClocksMove(id, ClockCommand{Set: at})
}

// ClocksRunUntilIdle runs a test clock until none of its tasks is queued, or within a limit when one is given.
func (c *Control) ClocksRunUntilIdle(id string, limit ...any) (TestClock, error) {
	command := ClockCommand{RunUntilIdle: true}
	if len(limit) > 0 {
		command.Limit = limit[0]
	}
	return c.ClocksMove(id, command)
}

// ClocksNext runs a test clock to its next queued event.
func (c *Control) ClocksNext(id string) (TestClock, error) {
	return c.ClocksMove(id, ClockCommand{Next: true})
}
