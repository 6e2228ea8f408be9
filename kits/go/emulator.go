package smsemu

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Emulator is the emulator a test binary drives: a running one (SMS_EMULATOR_URL), or one it started.
type Emulator struct {
	Origin  string
	Control *Control
	// Ready is what the ready file said (origin, live, sandbox, control, apiKey, ...) when this process started it.
	Ready map[string]any
	// Source says where the emulator came from: the step of the resolution order that gave it, and what it ran.
	Source string
	// CatcherHost is the address each world's catcher listens on and names in the webhook URL it gives the emulator:
	// "" for 127.0.0.1, an emulator on this machine's loopback; for an emulator in a container, this machine's address
	// on the container's network (the smsemucontainer module sets it), which the emulator can post to.
	CatcherHost string
	// OnStop, when set, is called by Stop: how an emulator this process did not start as a process (a container) ends.
	OnStop  func()
	process *exec.Cmd
	// exited is closed once the process this one started has ended.
	exited chan struct{}
	// bodyLimit is the emulator's maxBodySize, read once (webhookBodyLimit).
	bodyLimitOnce sync.Once
	bodyLimit     int64
	bodyLimitErr  error
}

// webhookBodyLimit is the largest webhook body a world's catcher reads: the emulator's own maxBodySize (its /limits,
// read once), the bound of every body it takes, so no message it posts is larger.
func (e *Emulator) webhookBodyLimit() (int64, error) {
	e.bodyLimitOnce.Do(func() {
		limits, err := e.Control.Limits()
		e.bodyLimit, e.bodyLimitErr = int64(limits.MaxBodySize), err
	})
	return e.bodyLimit, e.bodyLimitErr
}

// Stop ends the emulator when this process started it (its whole process group: a shell, npx, node), and calls
// OnStop once when it is set.
func (e *Emulator) Stop() {
	if stop := e.OnStop; stop != nil {
		e.OnStop = nil
		stop()
	}
	if e.process == nil || e.process.Process == nil {
		return
	}
	stopProcess(e.process, e.exited)
	e.process = nil
}

// StartTimeout bounds an emulator's start, the carried runtime's and a container's (package smsemucontainer):
// SMS_EMULATOR_START_TIMEOUT read by the contract's one duration grammar (ParseDuration: "2m", "90s", a bare "120"
// counting seconds), DefaultStartTimeout when it is not set; any other text is an error naming it, never another
// duration.
func StartTimeout() (time.Duration, error) {
	text := os.Getenv(envStartTimeout)
	if strings.TrimSpace(text) == "" {
		return DefaultStartTimeout, nil
	}
	return ParseDuration(envStartTimeout, text)
}

// outputTail keeps the last bytes a started emulator wrote, for the error when it ends before it is ready.
type outputTail struct {
	mu   sync.Mutex
	data []byte
}

const outputTailSize = 64 << 10

func (o *outputTail) Write(chunk []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.data = append(o.data, chunk...)
	if len(o.data) > outputTailSize {
		o.data = append([]byte(nil), o.data[len(o.data)-outputTailSize:]...)
	}
	return len(chunk), nil
}

func (o *outputTail) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return string(o.data)
}

// startArgs are the arguments a kit starts the emulator with (the kit contract's start.args): a free port, a manual
// clock, the ready file to write, and the process whose end stops it.
func startArgs(readyFile, parentPid string) []string {
	return []string{"--port", "0", "--clock", "manual", "--ready-file", readyFile, "--parent-pid", parentPid}
}

// startProcess runs words with the contract's start arguments (a free port, a manual clock, a ready file, and
// --parent-pid so a killed test binary leaves no emulator behind) and waits for the ready file. The ready file's
// folder is removed as soon as it was read, and the process's output is kept in memory: a run leaves no temp folder.
func startProcess(words []string, token, source string, timeout time.Duration) (*Emulator, error) {
	directory, err := os.MkdirTemp("", "sms-emulator-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(directory)
	readyFile := filepath.Join(directory, "ready.json")
	words = append(append([]string(nil), words...), startArgs(readyFile, strconv.Itoa(os.Getpid()))...)
	cmd := exec.Command(words[0], words[1:]...)
	output := &outputTail{}
	cmd.Stdout, cmd.Stderr = output, output
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %q: %w", strings.Join(words, " "), err)
	}
	exited := make(chan struct{})
	var exit error
	go func() { exit = cmd.Wait(); close(exited) }()
	deadline := time.After(timeout)
	for {
		if _, err := os.Stat(readyFile); err == nil {
			break
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("%s exited (%v) before it was ready:\n%s", strings.Join(words, " "), exit, output)
		case <-deadline:
			stopProcess(cmd, exited)
			return nil, fmt.Errorf("%s was not ready within %s (%s):\n%s", strings.Join(words, " "), timeout, envStartTimeout, output)
		case <-time.After(20 * time.Millisecond):
		}
	}
	raw, err := os.ReadFile(readyFile)
	if err != nil {
		stopProcess(cmd, exited)
		return nil, err
	}
	var ready map[string]any
	if err := json.Unmarshal(raw, &ready); err != nil {
		stopProcess(cmd, exited)
		return nil, fmt.Errorf("the ready file %s: %w", readyFile, err)
	}
	origin, _ := ready["origin"].(string)
	return &Emulator{Origin: origin, Control: &Control{Origin: origin, Token: token}, Ready: ready, Source: source,
		process: cmd, exited: exited}, nil
}

// Connect is the running emulator at origin, its control requests carrying token ("" when it needs none), checked by
// its health answer: what SMS_EMULATOR_URL gives, and what a container module hands back (OpenWorld takes it).
func Connect(origin, token string) (*Emulator, error) {
	control := &Control{Origin: strings.TrimRight(origin, "/"), Token: token}
	health, err := control.Health()
	if err != nil {
		return nil, err
	}
	if health.Status != "ok" {
		return nil, errors.New("/_emulator/health did not answer {\"status\": \"ok\"}: not an sms-emulator")
	}
	return &Emulator{Origin: control.Origin, Control: control, Source: "a running emulator at " + shownURL(control.Origin)}, nil
}

var (
	// sharedFrom gives the shared emulator in place of Start when Main was given SharedEmulator.
	sharedFrom func() (*Emulator, error)
	shared     *Emulator
	sharedErr  error
	sharedOnce sync.Once
)

// Shared is the test binary's one emulator, started on first use by Main's SharedEmulator option, else by the one a
// package registered (RegisterSharedEmulator), else found by Start; where it came from is printed once to stderr, the
// run's header line. Main stops it after the tests (the carried runtime also stops by itself when the test binary
// ends, --parent-pid).
func Shared() (*Emulator, error) {
	sharedOnce.Do(func() {
		start, said := sharedStart()
		shared, sharedErr = start()
		if sharedErr == nil {
			fmt.Fprintf(os.Stderr, "sms-emulator: %s%s\n", shared.Source, said)
		}
	})
	if sharedErr != nil {
		return nil, sharedErr
	}
	if shared == nil {
		return nil, errors.New(ErrorPrefix + "the shared emulator was stopped")
	}
	return shared, nil
}
