package smsemucontainer

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"smsemulator.dev/smsemu"
)

// The container suite: these tests start the image, so they run only when asked (SMS_EMULATOR_CONTAINER_SUITE=1,
// which kits/go/container-suite.sh sets under scripts/image/with-podman.sh) and fail there when no Docker API is at
// DOCKER_HOST. Everywhere else they are skipped, saying why. One container serves them all, one world per test.

const (
	suiteEnv = "SMS_EMULATOR_CONTAINER_SUITE"
	innerEnv = "SMSEMUCONTAINER_INNER_MAIN"
)

var (
	suiteContainer *Container
	suiteEmulator  *smsemu.Emulator
)

func TestMain(m *testing.M) {
	// TestEmulatorIsMainsSharedEmulatorAndItsErrorFailsTheWorld runs this binary again with Main given Emulator().
	if os.Getenv(innerEnv) != "" {
		os.Exit(smsemu.Main(m, Emulator(WithControlToken(""))))
	}
	if os.Getenv(suiteEnv) == "" {
		os.Exit(m.Run())
	}
	if os.Getenv("DOCKER_HOST") == "" {
		fmt.Fprintf(os.Stderr, "%s=1 but DOCKER_HOST is not set: run it as bash scripts/image/with-podman.sh bash kits/go/container-suite.sh\n", suiteEnv)
		os.Exit(1)
	}
	ctx := context.Background()
	began := time.Now()
	c, err := Run(ctx, "")
	if err == nil {
		suiteContainer = c
		suiteEmulator, err = c.Emulator(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if c != nil {
			_ = c.Terminate(ctx)
		}
		os.Exit(1)
	}
	fmt.Printf("smsemucontainer suite: the container started (healthy, connected) in %d ms: %s\n", time.Since(began).Milliseconds(), suiteEmulator.Source)
	code := m.Run()
	began = time.Now()
	if err := testcontainers.TerminateContainer(c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	fmt.Printf("smsemucontainer suite: the container stopped and was removed in %d ms\n", time.Since(began).Milliseconds())
	os.Exit(code)
}

// suiteWorld is a world of the test's own on the suite's container, deleted when the test ends.
func suiteWorld(t *testing.T, options ...smsemu.Option) *smsemu.World {
	t.Helper()
	if suiteEmulator == nil {
		t.Skipf("starts the image: run by kits/go/container-suite.sh (%s=1 under scripts/image/with-podman.sh)", suiteEnv)
	}
	world, err := smsemu.OpenWorld(t, suiteEmulator, options...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(world.Close)
	return world
}

func TestAWorldOnTheContainerSendsAndItsCatcherHearsTheDeliveryWebhook(t *testing.T) {
	t.Parallel()
	w := suiteWorld(t)
	sent, err := w.Client.Send([]string{"27831234567"}, "From the container")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", time.Hour)
	w.AssertWebhook(sent.ID, "delivered") // posted by the emulator in the container to this process's catcher
	w.AssertSent("27831234567", "From the container")
}

func TestTwoWorldsOnOneContainerSeeOnlyTheirOwnMessagesBalanceAndTime(t *testing.T) {
	t.Parallel()
	monday := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	first, second := suiteWorld(t, smsemu.WithStartTime(monday), smsemu.WithBalance(5)), suiteWorld(t, smsemu.WithBalance(9))
	if _, err := first.Client.Send([]string{"27831234567"}, "First's"); err != nil {
		t.Fatal(err)
	}
	if err := first.Clock.Advance(3 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := second.Messages(); len(got) != 0 {
		t.Errorf("the second world sees %d messages", len(got))
	}
	if len(first.Messages()) != 1 || first.Balance() != 4 || second.Balance() != 9 {
		t.Errorf("first: %d messages, balance %d; second: balance %d", len(first.Messages()), first.Balance(), second.Balance())
	}
	if !first.Now().Equal(monday.Add(3*time.Hour)) || second.Now().Equal(first.Now()) {
		t.Errorf("first's time %s, second's %s", first.Now(), second.Now())
	}
}

func TestEverySegmentsVectorIsCountedByTheEmulatorInTheContainer(t *testing.T) {
	t.Parallel()
	w := suiteWorld(t)
	raw, err := fs.ReadFile(smsemu.Vectors(), "segments.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name, Text, Encoding string
			Units, Segments      int
			UCS2Trigger          string
			Credits              *int
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil || len(file.Cases) == 0 {
		t.Fatalf("segments.json: %v, %d cases", err, len(file.Cases))
	}
	for _, c := range file.Cases {
		why, err := w.Control.Cost(smsemu.CostInput{Text: c.Text})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		first := ""
		if len(why.Triggers) > 0 {
			first = why.Triggers[0].Char
		}
		if why.Encoding != c.Encoding || why.Units != c.Units || why.Segments != c.Segments || first != c.UCS2Trigger ||
			(c.Credits != nil && why.Credits != *c.Credits) {
			t.Errorf("%s: %s, %d units, %d segments, %d credits, first trigger %q; the vectors say %s, %d, %d, %v, %q", c.Name,
				why.Encoding, why.Units, why.Segments, why.Credits, first, c.Encoding, c.Units, c.Segments, c.Credits, c.UCS2Trigger)
		}
	}
}

func TestTheAccessorsNameTheMappedPortAndTheControlAPIWantsTheContainersToken(t *testing.T) {
	t.Parallel()
	w := suiteWorld(t)
	ctx := t.Context()
	api, err := suiteContainer.APIURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sandbox, _ := suiteContainer.SandboxURL(ctx)
	control, _ := suiteContainer.ControlURL(ctx)
	if api != w.Emulator.Origin+"/v1" || sandbox != w.Emulator.Origin+"/sandbox/v1" || control != w.Emulator.Origin+"/_emulator" {
		t.Fatalf("the URLs are %s, %s, %s for %s", api, sandbox, control, w.Emulator.Origin)
	}
	status := func(url string, withKey bool) int {
		request, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if withKey {
			request.SetBasicAuth(w.APIKey, "")
		}
		response, err := http.DefaultClient.Do(request)
		if err != nil {
			t.Fatal(err)
		}
		response.Body.Close()
		return response.StatusCode
	}
	if got := status(api+"/messages/balance", true); got != 200 {
		t.Errorf("the world's balance at APIURL answered %d", got)
	}
	if got := status(control+"/health", false); got != 200 {
		t.Errorf("the health path answered %d without a token", got)
	}
	if got := status(control+"/clocks", false); got != 401 {
		t.Errorf("the control API answered %d without the token", got)
	}
	if !strings.HasPrefix(suiteContainer.ControlToken(), "tc_") || suiteContainer.ControlToken() != w.Control.Token {
		t.Errorf("the container's token %q is not the world's control client's %q", suiteContainer.ControlToken(), w.Control.Token)
	}
}
