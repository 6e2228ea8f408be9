package smsemu

// ReceiverCheckInput is a check-receiver run: the receiver's URL, and optionally its state hook (a URL template with
// {id} or {clientReference}, read after each sequence), how long it may take per post (a time.Duration or a text;
// default the emulator's webhook timeout), which checks run (Only, or all but Skip), the seed of ids and texts, the
// instant payload times are built around (a time.Time or a text) and the secret posts are signed with.
type ReceiverCheckInput struct {
	Receiver        string
	State           string
	ReceiverTimeout any
	Only            []string
	Skip            []string
	Seed            string
	At              any
	SigningSecret   string
}

func (r ReceiverCheckInput) body() (fields, error) {
	f := fields{"receiver": r.Receiver}
	f.set("state", r.State)
	f.set("only", r.Only)
	f.set("skip", r.Skip)
	f.set("seed", r.Seed)
	f.set("signingSecret", r.SigningSecret)
	if err := f.instant("at", r.At); err != nil {
		return nil, err
	}
	return f, f.duration("receiverTimeout", r.ReceiverTimeout)
}

// CheckAnswer is one answer a receiver gave a check's post (Status 0 and Error when there was none).
type CheckAnswer struct {
	About         string  `json:"about"`
	Status        int     `json:"status,omitempty"`
	Error         string  `json:"error,omitempty"`
	CutAfterBytes int     `json:"cutAfterBytes,omitempty"`
	Ms            float64 `json:"ms"`
}

// StateRead is what a receiver's state hook answered after a check's sequence, beside what it should hold.
type StateRead struct {
	Message  string `json:"message"`
	Expected struct {
		Status        string `json:"status"`
		Notifications int    `json:"notifications"`
	} `json:"expected"`
	Held *struct {
		Status        string `json:"status"`
		Notifications int    `json:"notifications"`
	} `json:"held,omitempty"`
	Error  string `json:"error,omitempty"`
	Passed bool   `json:"passed"`
}

// CheckResult is one check: what it sends, whether the receiver passed, why, and what a real gateway does next.
type CheckResult struct {
	Name        string        `json:"name"`
	Sends       string        `json:"sends"`
	Passed      bool          `json:"passed"`
	Reason      string        `json:"reason"`
	GatewayNext string        `json:"gatewayNext"`
	Answers     []CheckAnswer `json:"answers"`
	State       []StateRead   `json:"state,omitempty"`
}

// ReceiverReport is check-receiver's report: every check, and what the run could not see.
type ReceiverReport struct {
	URL         string        `json:"url"`
	Passed      bool          `json:"passed"`
	TimeoutMs   float64       `json:"timeoutMs"`
	State       string        `json:"state,omitempty"`
	Checks      []CheckResult `json:"checks"`
	Unseen      []string      `json:"unseen"`
	Unreachable string        `json:"unreachable,omitempty"`
}

// Limits is what the emulator enforces, as started: most recipients per request (and why), the longest text in
// characters, the largest body in bytes.
type Limits struct {
	BatchLimit     int    `json:"batchLimit"`
	BatchLimitNote string `json:"batchLimitNote"`
	MessageLimit   int    `json:"messageLimit"`
	MaxBodySize    int    `json:"maxBodySize"`
}

// ReceiverCheck runs check-receiver against a webhook receiver (the app's handler, served on a URL the emulator can
// reach) and answers its report: realistic deliveries, duplicates, retries, late and out-of-order posts; a receiver
// that fails checks is a report with Passed false, not an error. Answers when the run ends.
func (c *Control) ReceiverCheck(input ReceiverCheckInput) (ReceiverReport, error) {
	body, err := input.body()
	return withBody[ReceiverReport](c, "POST", "/receiver-check", nil, body, err)
}

// Limits is the limits the emulator applies, as started.
func (c *Control) Limits() (Limits, error) { return call[Limits](c, "GET", "/limits", nil, nil) }
