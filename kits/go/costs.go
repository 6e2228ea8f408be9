package smsemu

import "fmt"

// The cost checks (issue 41): a text stays GSM-7, fits N segments, a world or a suite spent at most N credits. The
// emulator counts and words each answer (Cost's Breakdown, AccountsSpend's Summary), so every kit fails with the same
// text and none counts segments itself.

// costText is the text a cost assertion checks: the text itself, or a message's (the client's Message, a
// ControlMessage).
func costText(subject any) (string, error) {
	switch s := subject.(type) {
	case string:
		return s, nil
	case Message:
		return s.Message, nil
	case *Message:
		return s.Message, nil
	case ControlMessage:
		return s.Message, nil
	case *ControlMessage:
		return s.Message, nil
	}
	return "", fmt.Errorf("%sa cost assertion takes a text, a Message or a ControlMessage, not %T", ErrorPrefix, subject)
}

func plural(count int, word string) string {
	if count == 1 {
		return fmt.Sprintf("%d %s", count, word)
	}
	return fmt.Sprintf("%d %ss", count, word)
}

// explain asks the emulator why the subject's text costs what it costs; it fails the test when it cannot.
func (w *World) explain(subject any) CostExplanation {
	w.t.Helper()
	text, err := costText(subject)
	if err != nil {
		w.t.Fatalf("%v", err)
	}
	explained, err := w.Control.Cost(CostInput{Text: text})
	if err != nil {
		w.t.Fatalf("%sasking the emulator what the text costs: %v", ErrorPrefix, err)
	}
	return explained
}

// AssertStaysGSM7 fails the test unless the text (a string, or a Message's or ControlMessage's text) stays GSM-7,
// with the emulator's breakdown: each character that forced UCS-2, its position and code point, and what was meant.
func (w *World) AssertStaysGSM7(subject any) CostExplanation {
	w.t.Helper()
	explained := w.explain(subject)
	if explained.Encoding != "GSM-7" {
		w.t.Errorf("expected the text to stay GSM-7; it is %s", explained.Breakdown)
	}
	return explained
}

// AssertFitsSegments fails the test unless the text (a string, or a Message's or ControlMessage's text) is sent in
// at most segments parts, with the emulator's breakdown.
func (w *World) AssertFitsSegments(subject any, segments int) CostExplanation {
	w.t.Helper()
	if segments < 1 {
		w.t.Fatalf("%sAssertFitsSegments takes a number of segments from 1, not %d", ErrorPrefix, segments)
	}
	explained := w.explain(subject)
	if explained.Segments > segments {
		w.t.Errorf("expected the text to fit %s; it is %s", plural(segments, "segment"), explained.Breakdown)
	}
	return explained
}

// Spend is what the world's account spent (both environments): its credits, its messages, the five costliest (Top,
// each with its one-line Line) and the whole as a failure shows it (Summary). It fails the test when the emulator
// cannot say.
func (w *World) Spend() Spend {
	w.t.Helper()
	spent, err := w.Control.AccountsSpend(w.APIKey)
	if err != nil {
		w.t.Fatalf("%sreading the world's spend: %v", ErrorPrefix, err)
	}
	return spent
}

// overBudget says why spent is over a budget of credits ("expected <whose> to cost at most N credits; it spent …"
// with the top spenders), or "" within it.
func overBudget(spent Spend, credits int, whose string) string {
	if spent.Credits <= credits {
		return ""
	}
	return fmt.Sprintf("expected %s to cost at most %s; it %s", whose, plural(credits, "credit"), spent.Summary)
}

// AssertCostAtMost fails the test unless the world's account spent at most credits so far, naming the top spenders
// (each with its encoding, segments, recipients and the character that forced UCS-2).
func (w *World) AssertCostAtMost(credits int) Spend {
	w.t.Helper()
	spent := w.Spend()
	if failure := overBudget(spent, credits, "the world's account "+w.APIKey); failure != "" {
		w.t.Errorf("%s", failure)
	}
	return spent
}
