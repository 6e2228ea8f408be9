package smsemu

import (
	"net/http"
	"net/url"
)

// The world's acts of decision 0003 (docs/decisions/0003-one-facade.md) beyond its clock, scenario, waits and
// assertions: the same verbs, in the same argument order, as every other door. Each fails the test when the emulator
// refuses it.

// MessageByReference is the world's newest message sent with this client_reference (the control API's exact
// clientReference filter, either environment); it fails the test when the account sent none.
func (w *World) MessageByReference(reference string) ControlMessage {
	w.t.Helper()
	found := w.ListMessages(MessageFilter{ClientReference: reference, PageQuery: PageQuery{Limit: 1}})
	if len(found) == 0 {
		w.t.Fatalf("%sno message of this world was sent with the client_reference %q", ErrorPrefix, reference)
		return ControlMessage{}
	}
	return found[0]
}

// Reply injects an inbound reply to a sent message: the text first, the sender optional (default the message's
// first recipient). It answers once the reply's webhook was tried.
func (w *World) Reply(id, text string, from ...string) ControlMessage {
	w.t.Helper()
	reply := Reply{Text: text}
	if len(from) > 0 {
		reply.From = from[0]
	}
	message, err := w.Control.RepliesInject(id, reply)
	if err != nil {
		w.t.Fatalf("%sreplying to %s: %v", ErrorPrefix, id, err)
	}
	return message
}

// OptOut opts a number out of the world's account, in an environment (default the world's).
func (w *World) OptOut(number string, environment ...string) OptOut {
	w.t.Helper()
	optOut, err := w.Control.OptOutsAdd(number, OptOutTarget{Account: w.APIKey, Environment: w.environmentOr(environment)})
	if err != nil {
		w.t.Fatalf("%sopting %s out: %v", ErrorPrefix, number, err)
	}
	return optOut
}

// Balance is the world's account's credits in an environment (default the world's).
func (w *World) Balance(environment ...string) int {
	w.t.Helper()
	account, err := w.Control.AccountsGet(w.APIKey)
	if err != nil {
		w.t.Fatalf("%sreading the balance: %v", ErrorPrefix, err)
	}
	if w.environmentOr(environment) == Sandbox {
		return account.Sandbox.Balance
	}
	return account.Live.Balance
}

// WebhookLog is the emulator's record of each webhook of the world's account, every try with its answer, oldest
// first (the filter's Account is this world's).
func (w *World) WebhookLog(filter WebhookFilter) []WebhookEvent {
	w.t.Helper()
	filter.Account = w.APIKey
	if filter.Limit == 0 {
		filter.Limit = 1000
	}
	page, err := w.Control.WebhooksList(filter)
	if err != nil {
		w.t.Fatalf("%sreading the webhook log: %v", ErrorPrefix, err)
	}
	return page.Items
}

// ForwardTo hands each of the world's webhooks from now on to the app: an http.Handler in this process, or the URL
// (a string) of an app beside the test. The kit keeps its copy either way, and the emulator gets the app's answer, so
// an app built from the world's key and URL is attached after the world exists.
func (w *World) ForwardTo(app any) {
	w.t.Helper()
	switch target := app.(type) {
	case http.Handler:
		w.Catcher.forwardTo(target, "")
	case string:
		if _, err := url.ParseRequestURI(target); err != nil {
			w.t.Fatalf("%sforwarding webhooks to %q: %v", ErrorPrefix, target, err)
		}
		w.Catcher.forwardTo(nil, target)
	default:
		w.t.Fatalf("%swebhooks are forwarded to an http.Handler or a URL, not %T", ErrorPrefix, app)
	}
}

// CheckReceiver runs check-receiver against the app's webhook receiver at url (served where the emulator reaches it)
// and answers its report; options[0] sets the rest (its Receiver is url; its SigningSecret defaults to the world's
// webhook secret, the one the app checks).
func (w *World) CheckReceiver(url string, options ...ReceiverCheckInput) ReceiverReport {
	w.t.Helper()
	input := ReceiverCheckInput{}
	if len(options) > 0 {
		input = options[0]
	}
	input.Receiver = url
	if input.SigningSecret == "" {
		input.SigningSecret = w.Account.WebhookSigningSecret
	}
	report, err := w.Control.ReceiverCheck(input)
	if err != nil {
		w.t.Fatalf("%schecking the receiver %s: %v", ErrorPrefix, url, err)
	}
	return report
}

// TimelineHTML is the world's account's timeline report: every request, message change, webhook try and reply, with
// times.
func (w *World) TimelineHTML() string {
	w.t.Helper()
	page, err := w.ReportHTML()
	if err != nil {
		w.t.Fatalf("%sreading the timeline: %v", ErrorPrefix, err)
	}
	return page
}

func (w *World) environmentOr(given []string) string {
	if len(given) > 0 && given[0] != "" {
		return given[0]
	}
	return w.Environment
}
