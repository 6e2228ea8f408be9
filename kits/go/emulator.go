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
	"syscall"
	"time"
)

// DefaultCommand starts the emulator when SMS_EMULATOR_COMMAND is not set.
const DefaultCommand = "npx --yes sms-emulator"

// Emulator is the emulator a test binary drives: a running one (SMS_EMULATOR_URL), or one it started.
type Emulator struct {
	Origin  string
	Control *Control
	// Ready is what the ready file said (origin, live, sandbox, control, apiKey, ...) when this process started it.
	Ready   map[string]any
	process *exec.Cmd
	// exited is closed once the process this one started has ended.
	exited chan struct{}
}

// Stop ends the emulator when this process started it (its whole process group: npx, its shell and node).
func (e *Emulator) Stop() {
	if e.process == nil || e.process.Process == nil {
		return
	}
	pid := e.process.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-e.exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-e.exited
	}
	e.process = nil
}

// Start finds the emulator: SMS_EMULATOR_URL (with SMS_EMULATOR_CONTROL_TOKEN) names a running one; else
// SMS_EMULATOR_COMMAND (default `npx --yes sms-emulator`, split on spaces) starts one on a free port with a manual
// clock and --parent-pid, so a killed test run leaves no emulator behind, and Start waits for its ready file.
func Start() (*Emulator, error) {
	token := os.Getenv("SMS_EMULATOR_CONTROL_TOKEN")
	if origin := os.Getenv("SMS_EMULATOR_URL"); origin != "" {
		control := &Control{Origin: origin, Token: token}
		var health struct {
			Status string `json:"status"`
		}
		if err := control.Call("GET", "/health", nil, nil, &health); err != nil {
			return nil, fmt.Errorf("smsemu: SMS_EMULATOR_URL=%s: %w", origin, err)
		}
		if health.Status != "ok" {
			return nil, fmt.Errorf("smsemu: SMS_EMULATOR_URL=%s is not an sms-emulator: /_emulator/health did not answer {\"status\": \"ok\"}", origin)
		}
		return &Emulator{Origin: strings.TrimRight(origin, "/"), Control: control}, nil
	}
	directory, err := os.MkdirTemp("", "sms-emulator-")
	if err != nil {
		return nil, err
	}
	readyFile := filepath.Join(directory, "ready.json")
	logFile, err := os.Create(filepath.Join(directory, "output.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	command := os.Getenv("SMS_EMULATOR_COMMAND")
	if command == "" {
		command = DefaultCommand
	}
	words := append(strings.Fields(command),
		"--port", "0", "--clock", "manual", "--ready-file", readyFile, "--parent-pid", strconv.Itoa(os.Getpid()))
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("smsemu: cannot start %q: %w", command, err)
	}
	exited := make(chan struct{})
	var exit error
	go func() { exit = cmd.Wait(); close(exited) }()
	timeout := 120 * time.Second
	if given, err := time.ParseDuration(os.Getenv("SMS_EMULATOR_START_TIMEOUT")); err == nil {
		timeout = given
	}
	deadline := time.Now().Add(timeout)
	for {
		if _, err := os.Stat(readyFile); err == nil {
			break
		}
		select {
		case <-exited:
			output, _ := os.ReadFile(logFile.Name())
			return nil, fmt.Errorf("smsemu: %s exited (%v) before it was ready:\n%s", strings.Join(words, " "), exit, output)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			output, _ := os.ReadFile(logFile.Name())
			return nil, fmt.Errorf("smsemu: %s was not ready within %s:\n%s", strings.Join(words, " "), timeout, output)
		}
	}
	raw, err := os.ReadFile(readyFile)
	if err != nil {
		return nil, err
	}
	var ready map[string]any
	if err := json.Unmarshal(raw, &ready); err != nil {
		return nil, fmt.Errorf("smsemu: the ready file %s: %w", readyFile, err)
	}
	origin, _ := ready["origin"].(string)
	return &Emulator{Origin: origin, Control: &Control{Origin: origin, Token: token}, Ready: ready, process: cmd, exited: exited}, nil
}

var (
	shared     *Emulator
	sharedErr  error
	sharedOnce sync.Once
)

// Shared is the test binary's one emulator, started on first use. It stops by itself when the test binary ends
// (--parent-pid); Main stops it at once.
func Shared() (*Emulator, error) {
	sharedOnce.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		return nil, sharedErr
	}
	if shared == nil {
		return nil, errors.New("smsemu: the shared emulator was stopped")
	}
	return shared, nil
}
