// Package smsemucontainer runs sms-emulator's image (docs/container.md) for Go tests with Testcontainers, and hands
// back what the Go kit hands back: a *smsemu.Emulator that smsemu.OpenWorld makes a test's world on, or, through
// package shared (a blank import) or Emulator (smsemu.Main's option), the test binary's shared emulator behind every
// smsemu.NewWorld:
//
//	import _ "smsemulator.dev/smsemu/smsemucontainer/shared"
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m, smsemucontainer.Emulator())) }
//
// It is a module of its own (smsemulator.dev/smsemu/smsemucontainer), so the kit stays standard library only.
package smsemucontainer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
	"smsemulator.dev/smsemu"
)

// headerSafe is what an Authorization: Bearer header carries as sent: printable ASCII without spaces.
var headerSafe = regexp.MustCompile(`^[\x21-\x7E]+$`)

// port is the emulator's port inside the container, as Testcontainers names it.
var port = strconv.Itoa(smsemu.ContainerPort) + "/tcp"

// Container is a started sms-emulator container: a Testcontainers container with the emulator's URLs and the
// control token it was started with.
type Container struct {
	testcontainers.Container
	token string
}

// Run starts the image img ("" for the one SMS_EMULATOR_IMAGE names, else the kit contract's smsemu.ContainerImage)
// with the emulator's port exposed and a control token of its own (WithControlToken for a chosen one), and returns
// once its health path answers 200, waiting as long as the kit waits for the carried runtime (SMS_EMULATOR_START_TIMEOUT). opts are any Testcontainers customizers, applied after these defaults. As in
// every Testcontainers module, a container that started but failed later is returned with the error, so that the
// caller can terminate it (testcontainers.CleanupContainer).
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	request, err := containerRequest(img, opts...)
	if err != nil {
		return nil, err
	}
	started, err := testcontainers.GenericContainer(ctx, request)
	var c *Container
	if started != nil {
		c = &Container{Container: started, token: request.Env[smsemu.ContainerControlTokenEnv]}
	}
	if err != nil {
		return c, fmt.Errorf("%sthe container %s: %w", smsemu.ErrorPrefix, request.Image, err)
	}
	return c, nil
}

// containerRequest is what Run asks Testcontainers for: the image (imageName), the exposed port, a fresh control
// token, the wait on the health path within the kit's start timeout (smsemu.StartTimeout, SMS_EMULATOR_START_TIMEOUT),
// then the caller's customizers.
func containerRequest(img string, opts ...testcontainers.ContainerCustomizer) (testcontainers.GenericContainerRequest, error) {
	timeout, err := smsemu.StartTimeout()
	if err != nil {
		return testcontainers.GenericContainerRequest{}, err
	}
	request := testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        imageName(img),
			ExposedPorts: []string{port},
			Env:          map[string]string{smsemu.ContainerControlTokenEnv: freshToken()},
			WaitingFor: wait.ForHTTP(smsemu.ContainerHealthPath).WithPort(port).
				WithStatusCodeMatcher(func(status int) bool { return status == 200 }).
				WithStartupTimeout(timeout),
		},
		Started: true,
	}
	for _, opt := range opts {
		if err := opt.Customize(&request); err != nil {
			return request, fmt.Errorf("%s%w", smsemu.ErrorPrefix, err)
		}
	}
	token := request.Env[smsemu.ContainerControlTokenEnv]
	if strings.TrimSpace(token) == "" {
		return request, fmt.Errorf("%sthe container's control token (%s) is empty: its control API would be open to anyone who reaches the port; leave WithControlToken out for a fresh one, or name one", smsemu.ErrorPrefix, smsemu.ContainerControlTokenEnv)
	}
	if !headerSafe.MatchString(token) {
		return request, fmt.Errorf("%sa control token is one or more printable ASCII characters without spaces (it is sent as \"Authorization: Bearer <token>\"); the one given (%s) has characters that are not (the token is not shown)", smsemu.ErrorPrefix, smsemu.ContainerControlTokenEnv)
	}
	return request, nil
}

// imageName is img, else SMS_EMULATOR_IMAGE, else the kit contract's image.
func imageName(img string) string {
	if img != "" {
		return img
	}
	if named := strings.TrimSpace(os.Getenv(smsemu.ContainerImageEnv)); named != "" {
		return named
	}
	return smsemu.ContainerImage
}

// freshToken is a control token no other container has: 32 random bytes, hex.
func freshToken() string {
	bytes := make([]byte, 32)
	_, _ = rand.Read(bytes)
	return "tc_" + hex.EncodeToString(bytes)
}

// WithControlToken starts the container with token as its control token, in place of a fresh one.
func WithControlToken(token string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{smsemu.ContainerControlTokenEnv: token})
}

// WithAllowedHosts lets other containers reach the emulator by these names (a network alias, a compose service name):
// its Host check admits only loopback names and addresses otherwise (docs/security.md).
func WithAllowedHosts(names ...string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{smsemu.ContainerAllowedHostsEnv: strings.Join(names, ",")})
}

// ControlToken is the control token the container was started with.
func (c *Container) ControlToken() string { return c.token }

// Origin is the emulator's origin on the host: http://host:mapped-port.
func (c *Container) Origin(ctx context.Context) (string, error) {
	host, err := c.Host(ctx)
	if err != nil {
		return "", fmt.Errorf("%sthe container's host: %w", smsemu.ErrorPrefix, err)
	}
	mapped, err := c.MappedPort(ctx, port)
	if err != nil {
		return "", fmt.Errorf("%sthe container's port %s: %w", smsemu.ErrorPrefix, port, err)
	}
	return origin(host, mapped), nil
}

// origin is the URL of host and port, an IPv6 address in brackets.
func origin(host string, mapped network.Port) string {
	return "http://" + net.JoinHostPort(host, mapped.Port())
}

// APIURL is the live SMS API's base URL on the host (origin + /v1).
func (c *Container) APIURL(ctx context.Context) (string, error) { return c.under(ctx, smsemu.LivePath) }

// SandboxURL is the sandbox SMS API's base URL on the host (origin + /sandbox/v1).
func (c *Container) SandboxURL(ctx context.Context) (string, error) {
	return c.under(ctx, smsemu.SandboxPath)
}

// ControlURL is the control API's base URL on the host (origin + /_emulator); its requests carry ControlToken.
func (c *Container) ControlURL(ctx context.Context) (string, error) {
	return c.under(ctx, smsemu.ControlPath)
}

func (c *Container) under(ctx context.Context, path string) (string, error) {
	base, err := c.Origin(ctx)
	if err != nil {
		return "", err
	}
	return base + path, nil
}

// Emulator is the container as the Go kit's emulator (smsemu.Connect with the control token), which
// smsemu.OpenWorld makes worlds on: each world's catcher listens on this machine's address on the container's
// network, which the emulator posts the world's webhooks to. Terminating the container stays the caller's.
func (c *Container) Emulator(ctx context.Context) (*smsemu.Emulator, error) {
	base, err := c.Origin(ctx)
	if err != nil {
		return nil, err
	}
	inspect, err := c.Inspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("%sinspecting the container: %w", smsemu.ErrorPrefix, err)
	}
	emulator, err := smsemu.Connect(base, c.token)
	if err != nil {
		return nil, fmt.Errorf("%sthe container at %s: %w", smsemu.ErrorPrefix, base, err)
	}
	if inspect.NetworkSettings != nil {
		emulator.CatcherHost = gateway(inspect.NetworkSettings.Networks)
	}
	emulator.Source = fmt.Sprintf("the container %s (%s) at %s", inspect.Config.Image, shortID(c.GetContainerID()), base)
	return emulator, nil
}

// gateway is this machine's address on the container's network (the first network's gateway, by name), where a
// catcher listens for the emulator's webhooks; "" (loopback) when the container has none, as on the host network.
func gateway(networks map[string]*network.EndpointSettings) string {
	names := make([]string, 0, len(networks))
	for name := range networks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if settings := networks[name]; settings != nil && settings.Gateway.IsValid() {
			return settings.Gateway.String()
		}
	}
	return ""
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Emulator is smsemu.Main's option that makes a container the test binary's shared emulator (StartEmulator with opts,
// on the first smsemu.NewWorld), terminated by Main after the tests; it wins over a registered one. The one-line switch
// from the carried runtime is the blank import of package shared, which registers StartEmulator with the defaults;
// this option is for the package that wants its own choice, or customizers:
//
//	func TestMain(m *testing.M) { os.Exit(smsemu.Main(m, smsemucontainer.Emulator())) }
func Emulator(opts ...testcontainers.ContainerCustomizer) smsemu.MainOption {
	return smsemu.SharedEmulator(func() (*smsemu.Emulator, error) { return StartEmulator(opts...) })
}

// StartEmulator starts a container (Run with the default image and opts) and hands it back as the Go kit's emulator,
// whose Stop terminates it; its start and stop times are printed to stderr. It is what Emulator and package shared
// give smsemu.Main.
func StartEmulator(opts ...testcontainers.ContainerCustomizer) (*smsemu.Emulator, error) {
	ctx := context.Background()
	began := time.Now()
	c, err := Run(ctx, "", opts...)
	if err == nil {
		var emulator *smsemu.Emulator
		if emulator, err = c.Emulator(ctx); err == nil {
			emulator.Source += fmt.Sprintf(", started in %d ms", time.Since(began).Milliseconds())
			emulator.OnStop = func() { terminate(c) }
			return emulator, nil
		}
	}
	if c != nil {
		terminate(c)
	}
	return nil, err
}

// terminate stops and removes the container, saying how long it took, or why it could not.
func terminate(c *Container) {
	began := time.Now()
	if err := c.Terminate(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "%sterminating the container %s: %v\n", smsemu.ErrorPrefix, shortID(c.GetContainerID()), err)
		return
	}
	fmt.Fprintf(os.Stderr, "%sthe container %s stopped and removed in %d ms\n", smsemu.ErrorPrefix, shortID(c.GetContainerID()), time.Since(began).Milliseconds())
}
