package smsemu

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// errorRecorder is a testing.TB that keeps what Errorf says instead of failing the test, to prove an assertion's text.
type errorRecorder struct {
	testing.TB
	mu       sync.Mutex
	messages []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, fmt.Sprintf(format, args...))
}

func (r *errorRecorder) Helper() {}

func (r *errorRecorder) said() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.messages, "\n")
}

// recording runs act with the world failing a recorder instead of t, and answers what the recorder was told.
func recording(t *testing.T, w *World, act func()) string {
	t.Helper()
	recorder := &errorRecorder{TB: t}
	w.t = recorder
	defer func() { w.t = t }()
	act()
	return recorder.said()
}

func mustContain(t *testing.T, said string, wanted ...string) {
	t.Helper()
	for _, text := range wanted {
		if !strings.Contains(said, text) {
			t.Errorf("the failure does not say %q:\n%s", text, said)
		}
	}
}

func TestAUCS2TextFailsEachCostAssertionWithTheBreakdownAndItsGSM7FixPasses(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	trigger := `position 3: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "'"`
	said := recording(t, w, func() { w.AssertStaysGSM7("It’s ready") })
	mustContain(t, said, `expected the text to stay GSM-7; it is UCS-2, 10 UTF-16 units, 1 segment: "It’s ready"`, trigger,
		"with those replaced: GSM-7, 1 segment")
	long := "It’s ready: " + strings.Repeat("a", 60)
	sent, err := w.Client.Send([]string{"27831234567"}, long)
	if err != nil {
		t.Fatal(err)
	}
	said = recording(t, w, func() { w.AssertFitsSegments(sent, 1) })
	mustContain(t, said, "expected the text to fit 1 segment; it is UCS-2, 72 UTF-16 units, 2 segments", trigger)
	said = recording(t, w, func() { w.AssertStaysGSM7(w.Messages()[0]) })
	mustContain(t, said, "expected the text to stay GSM-7; it is UCS-2, 72 UTF-16 units, 2 segments", trigger)
	fixed := strings.Replace(long, "’", "'", 1)
	if said := recording(t, w, func() {
		w.AssertStaysGSM7("It's ready")
		w.AssertFitsSegments(fixed, 1)
		w.AssertFitsSegments(Message{Message: fixed}, 1)
	}); said != "" {
		t.Fatalf("the GSM-7 fix failed:\n%s", said)
	}
}

func TestATestsWorldOverItsCreditsFailsAssertCostAtMostNamingTheTopSpenders(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	if _, err := w.Client.Send([]string{"27831234567", "27831234568"}, "It’s ready"); err != nil {
		t.Fatal(err)
	}
	said := recording(t, w, func() { w.AssertCostAtMost(1) })
	mustContain(t, said, "expected the world's account "+w.APIKey+" to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:",
		`2 credits: to 27831234567, 27831234568: "It’s ready" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by "’" at 3)`)
	if said := recording(t, w, func() { w.AssertCostAtMost(2) }); said != "" {
		t.Fatalf("2 credits spent of 2 failed:\n%s", said)
	}
}

// TestInnerSpender and TestInnerBigSpender are run by the budget tests in a process of their own; each sends one
// UCS-2 text, to 1 and 2 numbers.
func TestInnerSpender(t *testing.T)    { innerSpend(t, 1) }
func TestInnerBigSpender(t *testing.T) { innerSpend(t, 2) }

func innerSpend(t *testing.T, recipients int) {
	if os.Getenv("SMSEMU_INNER_SPEND") == "" {
		t.Skip("run by the budget tests")
	}
	var options []Option
	if credits, err := strconv.Atoi(os.Getenv("SMSEMU_INNER_TEST_BUDGET")); err == nil {
		options = append(options, WithBudget(credits))
	}
	w := NewWorld(t, options...)
	numbers := []string{"27831234567", "27831234568"}[:recipients]
	if _, err := w.Client.Send(numbers, "It’s ready"); err != nil {
		t.Fatal(err)
	}
}

// budgetRuns runs the inner spenders in a process of their own with the budget variable at over, where they must fail
// saying each of wanted, then at within, where they must pass.
func budgetRuns(t *testing.T, variable string, over, within int, wanted ...string) {
	t.Helper()
	for _, budget := range []int{over, within} {
		inner := exec.Command(os.Args[0], "-test.run=^TestInner(Big)?Spender$", "-test.v")
		inner.Env = append(os.Environ(), "SMSEMU_INNER_SPEND=1", fmt.Sprintf("%s=%d", variable, budget))
		output, err := inner.CombinedOutput()
		if passed := err == nil; passed != (budget == within) {
			t.Fatalf("with %s=%d the inner run passed: %v\n%s", variable, budget, passed, output)
		}
		if budget == over {
			mustContain(t, string(output), wanted...)
		}
	}
}

func TestATestOverItsWithBudgetFailsNamingTheTopSpenders(t *testing.T) {
	t.Parallel()
	budgetRuns(t, "SMSEMU_INNER_TEST_BUDGET", 1, 2, "--- PASS: TestInnerSpender", "--- FAIL: TestInnerBigSpender",
		"expected this test to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:",
		`2 credits: to 27831234567, 27831234568: "It’s ready" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by "’" at 3)`,
		"(WithBudget(1))")
}

func TestASuiteOverItsBudgetFailsNamingTheTestsThatSpentMost(t *testing.T) {
	t.Parallel()
	budgetRuns(t, "SMSEMU_INNER_SUITE_BUDGET", 2, 3, "--- PASS: TestInnerSpender", "--- PASS: TestInnerBigSpender",
		"expected the suite to cost at most 2 credits (SuiteBudget); it spent 3 credits in 2 tests. Top spenders:\n"+
			`  - TestInnerBigSpender: 2 credits; its costliest message: 2 credits: to 27831234567, 27831234568: "It’s ready"`,
		`  - TestInnerSpender: 1 credit; its costliest message: 1 credit: to 27831234567: "It’s ready" (UCS-2, 1 segment × 1 recipient; UCS-2 forced by "’" at 3)`)
}

func TestANegativeBudgetIsRefusedNamingWhatABudgetTakes(t *testing.T) {
	t.Parallel()
	for variable, wanted := range map[string]string{
		"SMSEMU_INNER_TEST_BUDGET":  "WithBudget(-1): a test's budget is a whole number of credits from 0",
		"SMSEMU_INNER_SUITE_BUDGET": "SuiteBudget(-1): a suite's budget is a whole number of credits from 0",
	} {
		inner := exec.Command(os.Args[0], "-test.run=^TestInnerSpender$", "-test.v")
		inner.Env = append(os.Environ(), "SMSEMU_INNER_SPEND=1", variable+"=-1")
		output, err := inner.CombinedOutput()
		if err == nil {
			t.Fatalf("with %s=-1 the inner run passed:\n%s", variable, output)
		}
		mustContain(t, string(output), wanted)
	}
}

func TestABudgetIsNotJudgedOnAWorldTheTestDeletedItself(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithBudget(0))
	if _, err := w.Client.Send([]string{"27831234567"}, "Hello"); err != nil {
		t.Fatal(err)
	}
	if err := w.Control.ClocksDelete(w.Clock.ID); err != nil {
		t.Fatal(err)
	}
}
