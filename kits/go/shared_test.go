package smsemu

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestConnectHandsBackTheRunningEmulatorAtAnOriginAWorldOpensOn(t *testing.T) {
	t.Parallel()
	running, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	emulator, err := Connect(running.Origin+"/", running.Control.Token)
	if err != nil {
		t.Fatal(err)
	}
	if emulator.Origin != running.Origin || emulator.Source != "a running emulator at "+running.Origin {
		t.Fatalf("Connect gave %q (%q)", emulator.Origin, emulator.Source)
	}
	world, err := OpenWorld(t, emulator)
	if err != nil {
		t.Fatal(err)
	}
	defer world.Close()
	if _, err := world.Client.Send([]string{"27831234567"}, "Hello"); err != nil {
		t.Fatal(err)
	}
	world.AssertSent("27831234567", "Hello")
}

func TestConnectRefusesAServerThatIsNotAnEmulator(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"starting"}`))
	}))
	defer other.Close()
	if _, err := Connect(other.URL, ""); err == nil || !strings.Contains(err.Error(), "not an sms-emulator") {
		t.Fatalf("got %v", err)
	}
}

func TestAWorldsCatcherListensOnTheEmulatorsCatcherHostAndNamesItToTheEmulator(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("127.0.0.2 is a loopback address on Linux only")
	}
	running, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	emulator, err := Connect(running.Origin, running.Control.Token)
	if err != nil {
		t.Fatal(err)
	}
	emulator.CatcherHost = "127.0.0.2"
	world, err := OpenWorld(t, emulator)
	if err != nil {
		t.Fatal(err)
	}
	defer world.Close()
	if !strings.HasPrefix(world.Catcher.URL, "http://127.0.0.2:") || world.Account.Live.WebhookURL != world.Catcher.URL {
		t.Fatalf("the catcher is at %s, the account's webhook URL %s", world.Catcher.URL, world.Account.Live.WebhookURL)
	}
	sent, err := world.Client.Send([]string{"27831234567"}, "Hello")
	if err != nil {
		t.Fatal(err)
	}
	world.WaitFor(sent.ID, "delivered", time.Hour)
	world.AssertWebhook(sent.ID, "delivered")
}

func TestStopCallsOnStopOnce(t *testing.T) {
	calls := 0
	emulator := &Emulator{OnStop: func() { calls++ }}
	emulator.Stop()
	emulator.Stop()
	if calls != 1 {
		t.Fatalf("OnStop was called %d times", calls)
	}
}

func TestSharedEmulatorGivesTheRunsEmulatorAndMainStopsIt(t *testing.T) {
	t.Parallel()
	said := innerRun(t, "^TestInnerSharedFrom$", "SMSEMU_INNER_SHARED_FROM=1")
	mustContain(t, said, "sms-emulator: given by SharedEmulator\n", "--- PASS: TestInnerSharedFrom", "OnStop called after the tests")
	if strings.Index(said, "OnStop called") < strings.Index(said, "--- PASS") {
		t.Fatalf("OnStop was called before the tests ended:\n%s", said)
	}
}

// TestInnerSharedFrom is run by TestSharedEmulatorGivesTheRunsEmulatorAndMainStopsIt in a process of its own, whose
// TestMain gives Main a SharedEmulator.
func TestInnerSharedFrom(t *testing.T) {
	if os.Getenv("SMSEMU_INNER_SHARED_FROM") == "" {
		t.Skip("run by TestSharedEmulatorGivesTheRunsEmulatorAndMainStopsIt")
	}
	w := NewWorld(t)
	if w.Emulator.Source != "given by SharedEmulator" {
		t.Fatalf("the world is on %q", w.Emulator.Source)
	}
}

func TestARegisteredSharedEmulatorIsTheRunsEmulatorAndMainStopsIt(t *testing.T) {
	t.Parallel()
	said := innerRun(t, "^TestInnerRegistered$", "SMSEMU_INNER_REGISTERED=1")
	mustContain(t, said, "sms-emulator: registered in TestMain (registered by example.com/registered)\n",
		"--- PASS: TestInnerRegistered", "OnStop of the registered emulator called after the tests")
	if strings.Index(said, "OnStop of the registered") < strings.Index(said, "--- PASS") {
		t.Fatalf("OnStop was called before the tests ended:\n%s", said)
	}
}

// TestInnerRegistered is run by TestARegisteredSharedEmulatorIsTheRunsEmulatorAndMainStopsIt in a process of its own,
// whose TestMain registers a shared emulator and gives Main no option.
func TestInnerRegistered(t *testing.T) {
	if os.Getenv("SMSEMU_INNER_REGISTERED") == "" {
		t.Skip("run by TestARegisteredSharedEmulatorIsTheRunsEmulatorAndMainStopsIt")
	}
	w := NewWorld(t)
	if w.Emulator.Source != "registered in TestMain" {
		t.Fatalf("the world is on %q", w.Emulator.Source)
	}
}

func TestMainsSharedEmulatorOptionWinsOverARegisteredOne(t *testing.T) {
	t.Parallel()
	said := innerRun(t, "^TestInnerSharedFrom$", "SMSEMU_INNER_SHARED_FROM=1", "SMSEMU_INNER_REGISTERED=1")
	mustContain(t, said, "sms-emulator: given by SharedEmulator (Main's SharedEmulator option, in place of the one example.com/registered registered)\n",
		"--- PASS: TestInnerSharedFrom", "OnStop called after the tests")
	if strings.Contains(said, "OnStop of the registered") {
		t.Fatalf("the registered emulator was started:\n%s", said)
	}
}

func TestASecondRegistrationPanicsNamingBoth(t *testing.T) {
	t.Parallel()
	inner := exec.Command(os.Args[0], "-test.run=^$")
	inner.Env = append(os.Environ(), "SMSEMU_INNER_REGISTER_TWICE=1")
	output, err := inner.CombinedOutput()
	if err == nil || !strings.Contains(string(output), "panic: sms-emulator: RegisterSharedEmulator called twice: example.com/first registered the shared emulator, and example.com/second registers another") {
		t.Fatalf("the inner run: %v\n%s", err, output)
	}
}

func TestARegistrationWithoutANameOrAStartPanics(t *testing.T) {
	for _, name := range []string{"", "example.com/nil"} {
		func() {
			defer func() {
				if said := fmt.Sprint(recover()); !strings.Contains(said, "a registration needs a name and a start function") {
					t.Fatalf("RegisterSharedEmulator(%q, …) panicked with %q", name, said)
				}
			}()
			if name == "" {
				RegisterSharedEmulator(name, Start)
			} else {
				RegisterSharedEmulator(name, nil)
			}
		}()
	}
}

// innerRun runs this test binary again, running only the tests run names, with env added; it fails t when that run
// fails, and is what it printed.
func innerRun(t *testing.T, run string, env ...string) string {
	t.Helper()
	inner := exec.Command(os.Args[0], "-test.run="+run, "-test.v")
	inner.Env = append(os.Environ(), env...)
	output, err := inner.CombinedOutput()
	if err != nil {
		t.Fatalf("the inner run failed: %v\n%s", err, output)
	}
	return string(output)
}

func TestASignalledRunStopsItsSharedEmulatorBeforeItEnds(t *testing.T) {
	t.Parallel()
	inner := exec.Command(os.Args[0], "-test.run=^TestInnerSignalled$", "-test.v")
	inner.Env = append(os.Environ(), "SMSEMU_INNER_SIGNALLED=1")
	said, writes, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inner.Stdout, inner.Stderr = writes, writes
	if err := inner.Start(); err != nil {
		t.Fatal(err)
	}
	writes.Close()
	var output strings.Builder
	lines := bufio.NewScanner(said)
	for lines.Scan() && lines.Text() != "waiting for the signal" {
		output.WriteString(lines.Text() + "\n")
	}
	if err := inner.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		output.WriteString(lines.Text() + "\n")
	}
	_ = inner.Wait()
	mustContain(t, output.String(), "sms-emulator: terminated: stopping the shared emulator before the tests end", "OnStop called on the signal")
}

// TestInnerSignalled is run by TestASignalledRunStopsItsSharedEmulatorBeforeItEnds in a process of its own, which it
// sends SIGTERM once the shared emulator is started.
func TestInnerSignalled(t *testing.T) {
	if os.Getenv("SMSEMU_INNER_SIGNALLED") == "" {
		t.Skip("run by TestASignalledRunStopsItsSharedEmulatorBeforeItEnds")
	}
	if _, err := Shared(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("waiting for the signal")
	<-time.After(time.Minute)
	t.Fatal("no signal came within a minute")
}
