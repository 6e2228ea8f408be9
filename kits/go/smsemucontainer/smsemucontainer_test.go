package smsemucontainer

import (
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
	"smsemulator.dev/smsemu"
)

// These tests need no Docker: they read what Run would ask Testcontainers for, and build URLs from a given host and
// port. The tests that start the image are in container_test.go.

func request(t *testing.T, img string, opts ...testcontainers.ContainerCustomizer) testcontainers.GenericContainerRequest {
	t.Helper()
	req, err := containerRequest(img, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestTheImageIsTheContractsUnlessTheVariableOrTheArgumentNamesAnother(t *testing.T) {
	t.Setenv(smsemu.ContainerImageEnv, "")
	if got := request(t, "").Image; got != smsemu.ContainerImage {
		t.Errorf("with neither, the image is %q", got)
	}
	t.Setenv(smsemu.ContainerImageEnv, "registry.example/sms-emulator:9")
	if got := request(t, "").Image; got != "registry.example/sms-emulator:9" {
		t.Errorf("with %s set, the image is %q", smsemu.ContainerImageEnv, got)
	}
	if got := request(t, "mine/sms-emulator:1").Image; got != "mine/sms-emulator:1" {
		t.Errorf("with an argument and the variable, the image is %q", got)
	}
	if got := request(t, "", testcontainers.WithImage("opt/sms-emulator:2")).Image; got != "opt/sms-emulator:2" {
		t.Errorf("with testcontainers.WithImage, the image is %q", got)
	}
}

func TestTheContainerExposesTheEmulatorsPortAndWaitsFor200OnItsHealthPath(t *testing.T) {
	req := request(t, "")
	if len(req.ExposedPorts) != 1 || req.ExposedPorts[0] != "2727/tcp" || !req.Started {
		t.Fatalf("exposes %v, started %v", req.ExposedPorts, req.Started)
	}
	strategy, ok := req.WaitingFor.(*wait.HTTPStrategy)
	if !ok {
		t.Fatalf("waits with %T", req.WaitingFor)
	}
	if strategy.Path != "/_emulator/health" || strategy.Port.String() != "2727/tcp" {
		t.Errorf("waits on %s of %s", strategy.Path, strategy.Port)
	}
	if !strategy.StatusCodeMatcher(200) || strategy.StatusCodeMatcher(503) || strategy.StatusCodeMatcher(204) {
		t.Error("the wait does not take 200, and only 200, as ready")
	}
	if timeout := strategy.Timeout(); timeout == nil || *timeout != smsemu.DefaultStartTimeout {
		t.Errorf("the wait gives up after %v, not the kit's start timeout", timeout)
	}
}

func TestTheWaitHonoursSmsEmulatorStartTimeoutInTheKitsGrammarWhenItIsSet(t *testing.T) {
	t.Setenv("SMS_EMULATOR_START_TIMEOUT", "3m")
	strategy := request(t, "").WaitingFor.(*wait.HTTPStrategy)
	if timeout := strategy.Timeout(); timeout == nil || *timeout != 180*time.Second {
		t.Errorf("with SMS_EMULATOR_START_TIMEOUT=3m the wait gives up after %v, not 180 s", timeout)
	}
	t.Setenv("SMS_EMULATOR_START_TIMEOUT", "2x")
	if _, err := containerRequest(""); err == nil || !strings.Contains(err.Error(), `SMS_EMULATOR_START_TIMEOUT`) {
		t.Errorf("with SMS_EMULATOR_START_TIMEOUT=2x the request is made (%v), not refused naming the variable", err)
	}
}

func TestEachContainerGetsAFreshControlTokenUnlessOneIsGiven(t *testing.T) {
	first := request(t, "").Env["SMS_EMULATOR_CONTROL_TOKEN"]
	second := request(t, "").Env["SMS_EMULATOR_CONTROL_TOKEN"]
	if !regexp.MustCompile(`^tc_[0-9a-f]{64}$`).MatchString(first) || first == second {
		t.Fatalf("the tokens are %q and %q", first, second)
	}
	if got := request(t, "", WithControlToken("team-token")).Env["SMS_EMULATOR_CONTROL_TOKEN"]; got != "team-token" {
		t.Errorf("WithControlToken gave %q", got)
	}
	if got := request(t, "", WithAllowedHosts("sms", "sms.test")).Env["SMS_EMULATOR_ALLOWED_HOSTS"]; got != "sms,sms.test" {
		t.Errorf("WithAllowedHosts gave %q", got)
	}
}

func TestAControlTokenAHeaderCannotCarryIsRefusedWithoutShowingIt(t *testing.T) {
	for _, token := range []string{"s3cret\nX-Other: 1", "two words", "pässwort", "s3cret\t"} {
		_, err := containerRequest("", WithControlToken(token))
		if err == nil || !strings.Contains(err.Error(), "sms-emulator: a control token is one or more printable ASCII characters without spaces") || strings.Contains(err.Error(), token[:4]) {
			t.Errorf("WithControlToken(%q): %v", token, err)
		}
	}
	if got := request(t, "", WithControlToken("a~Z.0_9-+/=!")).Env["SMS_EMULATOR_CONTROL_TOKEN"]; got != "a~Z.0_9-+/=!" {
		t.Errorf("a token of every kind of printable ASCII gave %q", got)
	}
}

func TestAnEmptyControlTokenIsRefusedBeforeAnyContainerStarts(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock") // a request that reached Docker would fail otherwise
	c, err := Run(t.Context(), "", WithControlToken(" "))
	if c != nil || err == nil || !strings.Contains(err.Error(), "sms-emulator: the container's control token (SMS_EMULATOR_CONTROL_TOKEN) is empty") {
		t.Fatalf("got %v, %v", c, err)
	}
}

func TestACustomizersErrorIsReturnedNamingTheKit(t *testing.T) {
	failing := testcontainers.CustomizeRequestOption(func(*testcontainers.GenericContainerRequest) error {
		return errOption
	})
	if _, err := containerRequest("", failing); err == nil || err.Error() != "sms-emulator: no such option" {
		t.Fatalf("got %v", err)
	}
}

var errOption = errors.New("no such option")

func TestTheURLsAreTheMappedPortOnTheHostUnderTheKitsPaths(t *testing.T) {
	mapped := network.MustParsePort("49153/tcp")
	if got := origin("127.0.0.1", mapped); got != "http://127.0.0.1:49153" {
		t.Errorf("origin %q", got)
	}
	if got := origin("::1", mapped); got != "http://[::1]:49153" {
		t.Errorf("an IPv6 host's origin %q", got)
	}
	if smsemu.LivePath != "/v1" || smsemu.SandboxPath != "/sandbox/v1" || smsemu.ControlPath != "/_emulator" {
		t.Errorf("the kit's paths are %s, %s, %s", smsemu.LivePath, smsemu.SandboxPath, smsemu.ControlPath)
	}
}

func TestTheCatcherHostIsTheGatewayOfTheContainersFirstNetworkOrLoopback(t *testing.T) {
	withGateway := func(address string) *network.EndpointSettings {
		settings := &network.EndpointSettings{}
		if address != "" {
			settings.Gateway = mustAddr(t, address)
		}
		return settings
	}
	networks := map[string]*network.EndpointSettings{"zeta": withGateway("10.99.0.1"), "podman": withGateway("10.88.0.1"), "host": withGateway("")}
	if got := gateway(networks); got != "10.88.0.1" {
		t.Errorf("the catcher host is %q", got)
	}
	if got := gateway(map[string]*network.EndpointSettings{"host": withGateway("")}); got != "" {
		t.Errorf("on the host network, the catcher host is %q", got)
	}
}

func mustAddr(t *testing.T, text string) netip.Addr {
	t.Helper()
	address, err := netip.ParseAddr(text)
	if err != nil {
		t.Fatal(err)
	}
	return address
}

func TestEmulatorIsMainsSharedEmulatorAndItsErrorFailsTheWorld(t *testing.T) {
	inner := exec.Command(os.Args[0], "-test.run=^TestInnerWorldOnTheSharedContainer$", "-test.v")
	inner.Env = append(os.Environ(), innerEnv+"=1", "DOCKER_HOST=unix:///nonexistent/docker.sock")
	output, err := inner.CombinedOutput()
	if err == nil || !strings.Contains(string(output), "--- FAIL: TestInnerWorldOnTheSharedContainer") ||
		!strings.Contains(string(output), "sms-emulator: the container's control token (SMS_EMULATOR_CONTROL_TOKEN) is empty") {
		t.Fatalf("the inner run: %v\n%s", err, output)
	}
}

// TestInnerWorldOnTheSharedContainer is run by TestEmulatorIsMainsSharedEmulatorAndItsErrorFailsTheWorld in a process of
// its own, whose TestMain gives smsemu.Main Emulator() with a token it refuses before anything starts.
func TestInnerWorldOnTheSharedContainer(t *testing.T) {
	if os.Getenv(innerEnv) == "" {
		t.Skip("run by TestEmulatorIsMainsSharedEmulatorAndItsErrorFailsTheWorld")
	}
	smsemu.NewWorld(t)
}
