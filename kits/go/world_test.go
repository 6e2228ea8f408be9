package smsemu

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	var options []MainOption
	// TestASuiteOverItsBudgetFailsNamingTheTestsThatSpentMost runs this binary again with a suite budget.
	if budget, err := strconv.Atoi(os.Getenv("SMSEMU_INNER_SUITE_BUDGET")); err == nil {
		options = append(options, SuiteBudget(budget))
	}
	// TestSharedEmulatorGivesTheRunsEmulatorAndMainStopsIt runs this binary again with an emulator of its own making.
	if os.Getenv("SMSEMU_INNER_SHARED_FROM") != "" {
		options = append(options, SharedEmulator(func() (*Emulator, error) {
			emulator, err := Start()
			if err == nil {
				emulator.Source = "given by SharedEmulator"
				emulator.OnStop = func() { fmt.Println("OnStop called after the tests") }
			}
			return emulator, err
		}))
	}
	// TestASignalledRunStopsItsSharedEmulatorBeforeItEnds runs this binary again with an emulator that says when it stops.
	if os.Getenv("SMSEMU_INNER_SIGNALLED") != "" {
		options = append(options, SharedEmulator(func() (*Emulator, error) {
			return &Emulator{Source: "given to be signalled", OnStop: func() { fmt.Println("OnStop called on the signal") }}, nil
		}))
	}
	// TestARegisteredSharedEmulatorIsTheRunsEmulatorAndMainStopsIt and TestMainsSharedEmulatorOptionWinsOverARegisteredOne
	// run this binary again with a registration, as a blank-imported package's init makes.
	if os.Getenv("SMSEMU_INNER_REGISTERED") != "" {
		RegisterSharedEmulator("example.com/registered", func() (*Emulator, error) {
			emulator, err := Start()
			if err == nil {
				emulator.Source = "registered in TestMain"
				emulator.OnStop = func() { fmt.Println("OnStop of the registered emulator called after the tests") }
			}
			return emulator, err
		})
	}
	// TestASecondRegistrationPanicsNamingBoth runs this binary again with two.
	if os.Getenv("SMSEMU_INNER_REGISTER_TWICE") != "" {
		RegisterSharedEmulator("example.com/first", Start)
		RegisterSharedEmulator("example.com/second", Start)
	}
	os.Exit(Main(m, options...))
}

func TestAScheduledSendGoesOutWhenTheTestMovesItsClock(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	scheduled, err := w.Client.Schedule([]string{"27831234567"}, "Your table is ready", w.Now().Add(20*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	at := scheduled.ScheduledAt()
	if err := w.Clock.Set(at.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Client.Get(scheduled.ID); got.Status != "scheduled" {
		t.Fatalf("a second before its time the message is %v", got.Status)
	}
	if err := w.Clock.Set(at); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Client.Get(scheduled.ID); got.Status == "scheduled" {
		t.Fatal("at its time the message is still scheduled")
	}
	w.WaitFor(scheduled.ID, "delivered", nil)
	w.AssertWebhook(scheduled.ID, "delivered")
}

func TestAWebhookAnswered500IsSentAgain(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	w.Catcher.RespondWith(500, 200)
	sent, err := w.Client.Send([]string{"27831234567"}, "Twice")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	var tries []CaughtRequest
	for _, request := range w.Catcher.Received() {
		if request.JSON()["status"] == "submitted" {
			tries = append(tries, request)
		}
	}
	if len(tries) != 2 || tries[0].Header.Get("X-Emulator-Event-Id") != tries[1].Header.Get("X-Emulator-Event-Id") {
		t.Fatalf("want the submitted notification twice, same event: %+v", tries)
	}
	if tries[1].Header.Get("X-Emulator-Attempt") != "2" {
		t.Errorf("second try's attempt header: %q", tries[1].Header.Get("X-Emulator-Attempt"))
	}
	w.AssertWebhook(sent.ID, "delivered")
}

func TestANetworkFaultIsAClearErrorAndTheNextSendWorks(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	w.Scenario(map[string]any{"faults": []any{map[string]any{"match": map[string]any{"operation": "send"}, "network": "reset", "count": 1}}})
	_, err := w.Client.Send([]string{"27831234567"}, "Lost")
	var apiError *APIError
	if !errors.As(err, &apiError) || apiError.Code != "NETWORK_ERROR" || apiError.Status != 0 {
		t.Fatalf("want NETWORK_ERROR, got %v", err)
	}
	if sent, err := w.Client.Send([]string{"27831234567"}, "Through"); err != nil || sent.Status != "pending" {
		t.Fatalf("the next send: %v %v", sent, err)
	}
}

func TestARateLimitIsClearedByMovingTheClockByRetryAfter(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	w.UseBundledScenario("rate-limited")
	for i := 0; i < 5; i++ {
		if _, err := w.Client.Send([]string{"27831234567"}, "Within the limit"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := w.Client.Send([]string{"27831234567"}, "Over it")
	var apiError *APIError
	if !errors.As(err, &apiError) || apiError.Code != "TOO_MANY_REQUESTS" || apiError.RetryAfter < 1 {
		t.Fatalf("want TOO_MANY_REQUESTS with Retry-After, got %v", err)
	}
	if err := w.Clock.Advance(fmt.Sprintf("%ds", apiError.RetryAfter)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Client.Send([]string{"27831234567"}, "Allowed again"); err != nil {
		t.Fatal(err)
	}
}

func TestErrorsCarryTheCodeStatusAndDescription(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	_, err := w.Client.Send([]string{"0831234567"}, "Bad number")
	var apiError *APIError
	if !errors.As(err, &apiError) || apiError.Code != "INVALID_RECIPIENT_ENTRY" || apiError.Status != 400 || !strings.Contains(apiError.Description, "0831234567") {
		t.Fatalf("got %v", err)
	}
}

// Tests in parallel, each on its own clock: none sees another's time or messages.
func TestParallelTestsSeeOnlyTheirOwnTimeAndMessages(t *testing.T) {
	for hours := 1; hours <= 8; hours++ {
		hours := hours
		t.Run(fmt.Sprintf("%dh", hours), func(t *testing.T) {
			t.Parallel()
			w := NewWorld(t)
			start := w.Now()
			if err := w.Clock.Advance(fmt.Sprintf("%dh", hours)); err != nil {
				t.Fatal(err)
			}
			sent, err := w.Client.Send([]string{"27831234567"}, fmt.Sprintf("Test %d", hours))
			if err != nil {
				t.Fatal(err)
			}
			w.WaitFor(sent.ID, "delivered", nil)
			messages := w.Messages()
			if len(messages) != 1 || messages[0].Message != fmt.Sprintf("Test %d", hours) {
				t.Fatalf("messages: %v", messages)
			}
			if got := len(w.Webhooks()); got != 2 {
				t.Fatalf("webhooks: %d", got)
			}
			if moved := w.Now().Sub(start); moved < time.Duration(hours)*time.Hour || moved >= time.Duration(hours)*time.Hour+time.Minute {
				t.Fatalf("the clock moved %s", moved)
			}
		})
	}
}

// TestInnerFailing is run by TestAFailingTestLogsItsTimeline in a process of its own; it fails on purpose.
func TestInnerFailing(t *testing.T) {
	if os.Getenv("SMSEMU_INNER_FAILING") == "" {
		t.Skip("run by TestAFailingTestLogsItsTimeline")
	}
	w := NewWorld(t)
	sent, err := w.Client.Send([]string{"27831234567"}, "Are you there?")
	if err != nil {
		t.Fatal(err)
	}
	if sent.Status != "delivered" {
		t.Errorf("message %v is %v", sent.ID, sent.Status)
	}
}

// runInnerFailing runs TestInnerFailing in a process of its own with extra flags; answers its timeline file and
// output.
func runInnerFailing(t *testing.T, flags ...string) (string, []byte) {
	t.Helper()
	inner := exec.Command(os.Args[0], append([]string{"-test.run=^TestInnerFailing$", "-test.v"}, flags...)...)
	inner.Env = append(os.Environ(), "SMSEMU_INNER_FAILING=1")
	output, err := inner.CombinedOutput()
	if err == nil {
		t.Fatalf("the inner test passed:\n%s", output)
	}
	match := regexp.MustCompile(`sms-emulator timeline: the emulator's timeline of this test's account: (\S+\.html)`).FindSubmatch(output)
	if match == nil {
		t.Fatalf("no timeline in the output:\n%s", output)
	}
	return string(match[1]), output
}

func TestAFailingTestLogsItsTimeline(t *testing.T) {
	t.Parallel()
	path, output := runInnerFailing(t)
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(filepath.Dir(path))
	id := regexp.MustCompile(`message (\S+) is pending`).FindSubmatch(output)
	if id == nil || !strings.Contains(string(page), string(id[1])) {
		t.Fatalf("the timeline does not show the message:\n%s", output)
	}
	if filepath.Base(path) != TimelineFileName("TestInnerFailing") || strings.HasPrefix(path, os.TempDir()) {
		t.Fatalf("the timeline is at %s: not the rule's name, or in the shared temp folder", path)
	}
	// Another run writes another file: runs never overwrite each other.
	again, _ := runInnerFailing(t)
	defer os.RemoveAll(filepath.Dir(again))
	if again == path {
		t.Fatalf("two runs wrote the same file %s", path)
	}
}

func TestWithArtifactsTheTimelineGoesToTheTestsArtifactFolder(t *testing.T) {
	t.Parallel()
	if _, ok := any(t).(interface{ ArtifactDir() string }); !ok {
		t.Skip("this Go has no t.ArtifactDir (Go 1.26 and newer)")
	}
	output := t.TempDir()
	path, _ := runInnerFailing(t, "-test.artifacts", "-test.outputdir="+output)
	if !strings.HasPrefix(path, output) {
		t.Fatalf("the timeline is at %s, not under -outputdir %s", path, output)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// benchmarkWorlds times b.N worlds on the shared emulator, each set up, given to `use`, then cleaned up.
func benchmarkWorlds(b *testing.B, use func(w *World)) {
	emulator, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, err := OpenWorld(b, emulator)
		if err != nil {
			b.Fatal(err)
		}
		use(w)
		w.Close()
	}
}

// BenchmarkWorld is what a test's world costs: set-up and clean-up, one call each.
func BenchmarkWorld(b *testing.B) {
	benchmarkWorlds(b, func(*World) {})
}

// BenchmarkWorldWithSend adds a send waited to delivered and a webhook assertion.
func BenchmarkWorldWithSend(b *testing.B) {
	benchmarkWorlds(b, func(w *World) {
		sent, err := w.Client.Send([]string{"27831234567"}, "Your appointment is at 10:00")
		if err != nil {
			b.Fatal(err)
		}
		w.WaitFor(sent.ID, "delivered", nil)
		w.AssertWebhook(sent.ID, "delivered")
	})
}

// Every Go block of docs/go.md, docs/cost-checks.md and the kit's README runs as pasted, each in a package of its own
// in a module that requires this one, as a user's would (go vet, then go test); a fragment says so with
// <!-- not run: reason --> above it.
func TestTheGuidesGoBlocksRunAsPasted(t *testing.T) {
	t.Parallel()
	fence := regexp.MustCompile("(?ms)^([^\n]*)\n```(\\w*)\n(.*?)^```$")
	var blocks [][]byte
	for _, page := range []string{"../../docs/go.md", "../../docs/cost-checks.md", "README.md"} {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range fence.FindAllSubmatch(text, -1) {
			if string(block[2]) == "go" && !strings.HasPrefix(string(block[1]), "<!-- not run: ") {
				blocks = append(blocks, block[3])
			}
		}
	}
	if len(blocks) == 0 {
		t.Fatal("docs/go.md shows no Go example")
	}
	kit, _ := os.Getwd()
	project := t.TempDir()
	module := "module reminders\n\ngo 1.21\n\nrequire smsemulator.dev/smsemu v0.0.0\n\nreplace smsemulator.dev/smsemu => " + kit + "\n"
	if err := os.WriteFile(project+"/go.mod", []byte(module), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, block := range blocks {
		folder := fmt.Sprintf("%s/block%d", project, i)
		if err := os.Mkdir(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(folder+"/guide_test.go", block, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emulator, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		run := exec.Command("go", step...)
		run.Dir = project
		// The project's own folder holds no emulator: its test uses this binary's, as a team's CI would share one.
		run.Env = append(os.Environ(), "SMS_EMULATOR_URL="+emulator.Origin)
		if output, err := run.CombinedOutput(); err != nil {
			t.Fatalf("go %s of the guide's Go failed: %v\n%s", step[0], err, output)
		}
	}
}

func TestAnAddressThatIsNotAnEmulatorIsAClearError(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>my app</html>"))
	}))
	defer page.Close()
	t.Setenv("SMS_EMULATOR_URL", page.URL)
	_, err := Start()
	if err == nil || !strings.Contains(err.Error(), "something other than the control API's JSON (<html>my app</html>)") {
		t.Fatalf("got %v", err)
	}
}
