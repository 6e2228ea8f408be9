package smsemu

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// The credit budgets of a test (WithBudget) and of a test binary (SuiteBudget, given to Main): the emulator words each
// spend (AccountsSpend's Summary and Top), the kit only adds them up.

// WithBudget fails the test if its world spent more than credits, judged when the world closes (as the test ends, or
// at Close), naming the top spenders (default: no budget).
func WithBudget(credits int) Option {
	return func(c *worldConfig) { c.budget = &credits }
}

// checkBudget judges the world's spend as it closes: against its WithBudget, and kept for the suite's SuiteBudget.
func (w *World) checkBudget() {
	w.t.Helper()
	if w.budget == nil && suite.credits == nil {
		return
	}
	spent, err := w.Control.AccountsSpend(w.APIKey)
	var control *ControlError
	if errors.As(err, &control) && control.Code == "CONTROL_NOT_FOUND" {
		return // the test deleted its world's clock itself, or reset the emulator: nothing is left to judge
	} else if err != nil {
		w.t.Errorf("%sreading the world's spend for its budget: %v", ErrorPrefix, err)
		return
	}
	suite.add(w.t.Name(), spent)
	if w.budget == nil {
		return
	}
	if failure := overBudget(spent, *w.budget, "this test"); failure != "" {
		w.t.Errorf("%s (WithBudget(%d))", failure, *w.budget)
	}
}

// SuiteBudget fails the test binary, after its tests ran, when the worlds of its tests (NewWorld's) spent more than
// credits in all, naming the tests that spent most, each with its costliest message (default: no budget).
func SuiteBudget(credits int) MainOption {
	return func(s *mainOptions) { s.budget = &credits }
}

// suiteBudget is the test binary's budget and what each test's worlds spent.
type suiteBudget struct {
	credits *int
	mu      sync.Mutex
	spent   map[string]*testSpend
}

type testSpend struct {
	credits   int
	costliest SpendTop
}

var suite suiteBudget

func (s *suiteBudget) add(test string, spent Spend) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spent == nil {
		s.spent = map[string]*testSpend{}
	}
	entry := s.spent[test]
	if entry == nil {
		entry = &testSpend{}
		s.spent[test] = entry
	}
	entry.credits += spent.Credits
	if len(spent.Top) > 0 && spent.Top[0].Credit > entry.costliest.Credit {
		entry.costliest = spent.Top[0]
	}
}

// failure says why the suite is over its budget, naming the five tests that spent most, or "" within it.
func (s *suiteBudget) failure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.credits == nil {
		return ""
	}
	total := 0
	tests := make([]string, 0, len(s.spent))
	for test, entry := range s.spent {
		total += entry.credits
		tests = append(tests, test)
	}
	if total <= *s.credits {
		return ""
	}
	sort.Slice(tests, func(i, j int) bool {
		a, b := s.spent[tests[i]], s.spent[tests[j]]
		return a.credits > b.credits || a.credits == b.credits && tests[i] < tests[j]
	})
	var lines strings.Builder
	for _, test := range tests[:min(5, len(tests))] {
		entry := s.spent[test]
		fmt.Fprintf(&lines, "\n  - %s: %s", test, plural(entry.credits, "credit"))
		if entry.costliest.Line != "" {
			fmt.Fprintf(&lines, "; its costliest message: %s", entry.costliest.Line)
		}
	}
	return fmt.Sprintf("expected the suite to cost at most %s (SuiteBudget); it spent %s in %s. Top spenders:%s",
		plural(*s.credits, "credit"), plural(total, "credit"), plural(len(tests), "test"), lines.String())
}
