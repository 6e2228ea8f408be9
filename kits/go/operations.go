package smsemu

import (
	"encoding/json"
	"net/url"
)

// One method per operation of the emulator's control API (docs/control-api.md), named by the kit contract's rule
// (test-vectors/kit-contract.json: operation id "group.op" in PascalCase); contract_test.go fails when one is
// missing. Each summary is the operation's own, shortened.

func p(segment string) string { return "/" + url.PathEscape(segment) }

// Health answers {"status": "ok"} once the emulator answers.
func (c *Control) Health() (Status, error) { return call[Status](c, "GET", "/health", nil, nil) }

// ClockState is the main clock: now, mode, speed, pending tasks, incidents.
func (c *Control) ClockState() (ClockInfo, error) {
	return call[ClockInfo](c, "GET", "/clock", nil, nil)
}

// ClockMove moves the main clock (advance, set, mode, speed, runUntilIdle with a limit, next).
func (c *Control) ClockMove(command ClockCommand) (ClockInfo, error) {
	body, err := command.body()
	return withBody[ClockInfo](c, "POST", "/clock", nil, body, err)
}

// ClocksList is every test clock, in creation order.
func (c *Control) ClocksList(page PageQuery) (Page[TestClock], error) {
	return call[Page[TestClock]](c, "GET", "/clocks", page.values(), nil)
}

// ClocksGet is one test clock.
func (c *Control) ClocksGet(id string) (TestClock, error) {
	return call[TestClock](c, "GET", "/clocks"+p(id), nil, nil)
}

// ClocksCreate creates a test clock, frozen until moved.
func (c *Control) ClocksCreate(input TestClockInput) (TestClock, error) {
	body, err := input.body()
	return withBody[TestClock](c, "POST", "/clocks", nil, body, err)
}

// ClocksMove moves a test clock (advance, set, runUntilIdle with a limit, next); only its own tasks fire.
func (c *Control) ClocksMove(id string, command ClockCommand) (TestClock, error) {
	body, err := command.body()
	return withBody[TestClock](c, "POST", "/clocks"+p(id), nil, body, err)
}

// ClocksDelete deletes a test clock and every account on it, with their messages and logs.
func (c *Control) ClocksDelete(id string) error {
	return c.Call("DELETE", "/clocks"+p(id), nil, nil, nil)
}

// WorldsCreate makes a test's world in one call: a test clock, an account on it and its own scenario.
func (c *Control) WorldsCreate(request WorldRequest) (WorldAnswer, error) {
	body, err := request.body()
	return withBody[WorldAnswer](c, "POST", "/worlds", nil, body, err)
}

// AccountsList is every account, in creation order.
func (c *Control) AccountsList(page PageQuery) (Page[Account], error) {
	return call[Page[Account]](c, "GET", "/accounts", page.values(), nil)
}

// AccountsGet is one account.
func (c *Control) AccountsGet(key string) (Account, error) {
	return call[Account](c, "GET", "/accounts"+p(key), nil, nil)
}

// AccountsCreate creates an account.
func (c *Control) AccountsCreate(input AccountInput) (Account, error) {
	return call[Account](c, "POST", "/accounts", nil, input.body())
}

// AccountsUpdate changes an account's secret, scopes, balances or webhook URLs.
func (c *Control) AccountsUpdate(key string, patch AccountPatch) (Account, error) {
	return call[Account](c, "PATCH", "/accounts"+p(key), nil, patch.body())
}

// AccountsDelete removes an account with its messages and logs.
func (c *Control) AccountsDelete(key string) error {
	return c.Call("DELETE", "/accounts"+p(key), nil, nil, nil)
}

// AccountsGetScenario is the account's own scenario (rules, replies, faults), defaults filled in.
func (c *Control) AccountsGetScenario(key string) (json.RawMessage, error) {
	return call[json.RawMessage](c, "GET", "/accounts"+p(key)+"/scenario", nil, nil)
}

// AccountsSetScenario gives the account its own scenario: a map, or YAML/JSON text.
func (c *Control) AccountsSetScenario(key string, scenario any) (json.RawMessage, error) {
	return call[json.RawMessage](c, "PUT", "/accounts"+p(key)+"/scenario", nil, scenario)
}

// AccountsUseBundledScenario gives the account a bundled scenario by name.
func (c *Control) AccountsUseBundledScenario(key, name string) (json.RawMessage, error) {
	return call[json.RawMessage](c, "PUT", "/accounts"+p(key)+"/scenario/bundled"+p(name), nil, nil)
}

// AccountsClearScenario removes the account's own scenario.
func (c *Control) AccountsClearScenario(key string) error {
	return c.Call("DELETE", "/accounts"+p(key)+"/scenario", nil, nil, nil)
}

// MessagesList is messages of both environments with legs and history, newest first.
func (c *Control) MessagesList(filter MessageFilter) (Page[ControlMessage], error) {
	return call[Page[ControlMessage]](c, "GET", "/messages", filter.values(), nil)
}

// MessagesGet is one message with legs, history and upcoming changes.
func (c *Control) MessagesGet(id string) (ControlMessage, error) {
	return call[ControlMessage](c, "GET", "/messages"+p(id), nil, nil)
}

// MessagesForceStatus forces an outcome now for the open legs (or one recipient's); answers after the webhooks
// were tried.
func (c *Control) MessagesForceStatus(id, status, recipient string) (ControlMessage, error) {
	body := fields{"status": status}
	body.set("recipient", recipient)
	return call[ControlMessage](c, "POST", "/messages"+p(id)+"/status", nil, body)
}

// MessagesWait moves the message's own clock to each of its next changes until it has the status and its webhooks
// were tried; within is a time.Duration or a text (nil: 1h). A wait that ends otherwise is a ControlError with code
// CONTROL_WAIT_FAILED and the message's history.
func (c *Control) MessagesWait(id, status string, within any) (WaitAnswer, error) {
	body := fields{"status": status}
	err := body.duration("within", within)
	return withBody[WaitAnswer](c, "POST", "/messages"+p(id)+"/wait", nil, body, err)
}

// RepliesInject injects an inbound reply to a sent message; answers after its webhook was tried.
func (c *Control) RepliesInject(id string, reply Reply) (ControlMessage, error) {
	body := fields{}
	body.set("from", reply.From)
	body.set("text", reply.Text)
	return call[ControlMessage](c, "POST", "/messages"+p(id)+"/replies", nil, body)
}

// RepliesList is inbound replies, oldest first.
func (c *Control) RepliesList(filter ReplyFilter) (Page[ControlMessage], error) {
	return call[Page[ControlMessage]](c, "GET", "/replies", filter.values(), nil)
}

// WebhooksList is the webhook log, oldest first: every event with every try.
func (c *Control) WebhooksList(filter WebhookFilter) (Page[WebhookEvent], error) {
	return call[Page[WebhookEvent]](c, "GET", "/webhooks", filter.values(), nil)
}

// WebhooksGet is one webhook event.
func (c *Control) WebhooksGet(id string) (WebhookEvent, error) {
	return call[WebhookEvent](c, "GET", "/webhooks"+p(id), nil, nil)
}

// WebhooksRedeliver posts an event again to the account's current URL; answers once its tries end.
func (c *Control) WebhooksRedeliver(id string) (WebhookEvent, error) {
	return call[WebhookEvent](c, "POST", "/webhooks"+p(id)+"/redeliver", nil, nil)
}

// WebhooksSettled answers once every webhook try under way or due has ended (only the account's clock's, when an
// account is named).
func (c *Control) WebhooksSettled(account string) (Status, error) {
	body := fields{}
	body.set("account", account)
	return call[Status](c, "POST", "/webhooks/settle", nil, body)
}

// WebhooksChaos is the delivery-behaviour rates in force.
func (c *Control) WebhooksChaos() (Chaos, error) {
	return call[Chaos](c, "GET", "/webhooks/chaos", nil, nil)
}

// WebhooksSetChaos changes the delivery-behaviour rates; fields left nil keep their value.
func (c *Control) WebhooksSetChaos(input ChaosInput) (Chaos, error) {
	body, err := input.body()
	return withBody[Chaos](c, "POST", "/webhooks/chaos", nil, body, err)
}

// ScenarioGet is the active scenario, defaults filled in.
func (c *Control) ScenarioGet() (json.RawMessage, error) {
	return call[json.RawMessage](c, "GET", "/scenario", nil, nil)
}

// ScenarioSet replaces the active scenario: a map, or YAML/JSON text.
func (c *Control) ScenarioSet(scenario any) (json.RawMessage, error) {
	return call[json.RawMessage](c, "PUT", "/scenario", nil, scenario)
}

// ScenarioBundled is the scenarios shipped with the emulator, by name with what each does.
func (c *Control) ScenarioBundled() (BundledScenarios, error) {
	return call[BundledScenarios](c, "GET", "/scenario/bundled", nil, nil)
}

// ScenarioUseBundled makes a bundled scenario the active one by name.
func (c *Control) ScenarioUseBundled(name string) (json.RawMessage, error) {
	return call[json.RawMessage](c, "PUT", "/scenario/bundled"+p(name), nil, nil)
}

// OptOutsList is the numbers opted out of an account in an environment.
func (c *Control) OptOutsList(target OptOutTarget, page PageQuery) (Page[string], error) {
	query := target.values()
	for name, values := range page.values() {
		query[name] = values
	}
	return call[Page[string]](c, "GET", "/opt-outs", query, nil)
}

// OptOutsAdd opts a number out.
func (c *Control) OptOutsAdd(number string, target OptOutTarget) (OptOut, error) {
	return call[OptOut](c, "PUT", "/opt-outs"+p(number), target.values(), nil)
}

// OptOutsRemove opts a number back in.
func (c *Control) OptOutsRemove(number string, target OptOutTarget) (OptOut, error) {
	return call[OptOut](c, "DELETE", "/opt-outs"+p(number), target.values(), nil)
}

// RequestsFind is the request journal, newest first: every API request, accepted or rejected.
func (c *Control) RequestsFind(filter JournalFilter) (Page[JournalEntry], error) {
	query, err := filter.values()
	if err != nil {
		return Page[JournalEntry]{}, err
	}
	return call[Page[JournalEntry]](c, "GET", "/requests", query, nil)
}

// RequestsCount is how many journal entries match the filter.
func (c *Control) RequestsCount(filter JournalFilter) (int, error) {
	query, err := filter.values()
	if err != nil {
		return 0, err
	}
	return call[int](c, "GET", "/requests/count", query, nil)
}

// Sign is the emulator's own signature of a body with an account's secret (empty: the default account).
func (c *Control) Sign(body map[string]any, account string) (Signature, error) {
	query := url.Values{}
	addQuery(query, "account", account)
	return call[Signature](c, "POST", "/sign", query, body)
}

// Reset puts the emulator back to its start-up state, or one account only.
func (c *Control) Reset(account string) (Status, error) {
	body := fields{}
	body.set("account", account)
	return call[Status](c, "POST", "/reset", nil, body)
}

// Snapshot is the whole state as JSON.
func (c *Control) Snapshot() (json.RawMessage, error) {
	return call[json.RawMessage](c, "GET", "/snapshot", nil, nil)
}

// Restore replaces the whole state with a snapshot.
func (c *Control) Restore(snapshot json.RawMessage) (Status, error) {
	return call[Status](c, "PUT", "/snapshot", nil, snapshot)
}
