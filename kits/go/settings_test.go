package smsemu

import (
	"strings"
	"testing"
	"time"
)

// contractSettings is the kit contract's settings section: the defaults every front door shares and the one
// duration grammar, with the examples every kit reads.
type contractSettings struct {
	ErrorPrefix    string          `json:"errorPrefix"`
	StartTimeout   durationSetting `json:"startTimeout"`
	ControlTimeout durationSetting `json:"controlTimeout"`
	WaitWithin     durationSetting `json:"waitWithin"`
	WebhookBody    struct {
		Bytes int64 `json:"bytes"`
	} `json:"webhookBodyLimit"`
	DurationGrammar struct {
		Problem  string `json:"problem"`
		Examples []struct {
			Text string `json:"text"`
			Ms   *int64 `json:"ms"`
		} `json:"examples"`
	} `json:"durationGrammar"`
}

type durationSetting struct {
	Env string `json:"env"`
	Ms  int64  `json:"ms"`
}

func readSettings(t *testing.T) contractSettings {
	t.Helper()
	var contract struct {
		Settings contractSettings `json:"settings"`
	}
	readVectors(t, "kit-contract.json", &contract)
	return contract.Settings
}

func problem(settings contractSettings, name, text string) string {
	return strings.NewReplacer("{name}", name, "{text}", text).Replace(settings.DurationGrammar.Problem)
}

func TestTheStartTimeoutControlTimeoutWaitDefaultAndErrorPrefixAreTheContracts(t *testing.T) {
	settings := readSettings(t)
	t.Setenv(envStartTimeout, "")
	if start, err := StartTimeout(); err != nil || start.Milliseconds() != settings.StartTimeout.Ms {
		t.Errorf("the start timeout without %s is %v (%v), the contract's %d ms", envStartTimeout, start, err, settings.StartTimeout.Ms)
	}
	if settings.StartTimeout.Env != envStartTimeout {
		t.Errorf("the start timeout is read from %s, the contract's %s", envStartTimeout, settings.StartTimeout.Env)
	}
	if defaultControlHTTP.Timeout.Milliseconds() != settings.ControlTimeout.Ms {
		t.Errorf("a control request may take %v, the contract's %d ms", defaultControlHTTP.Timeout, settings.ControlTimeout.Ms)
	}
	if within := waitInput("delivered", nil).Within; within != time.Duration(settings.WaitWithin.Ms)*time.Millisecond {
		t.Errorf("a world's wait without within sends %v, the contract's default is %d ms", within, settings.WaitWithin.Ms)
	}
	if WebhookBodyLimit != settings.WebhookBody.Bytes {
		t.Errorf("the webhook body limit is %d, the contract's %d", WebhookBodyLimit, settings.WebhookBody.Bytes)
	}
	if ErrorPrefix != settings.ErrorPrefix {
		t.Errorf("the error prefix is %q, the contract's %q", ErrorPrefix, settings.ErrorPrefix)
	}
}

func TestEveryDurationExampleOfTheContractReadsAsTheContractSays(t *testing.T) {
	settings := readSettings(t)
	if len(settings.DurationGrammar.Examples) == 0 {
		t.Fatal("the contract has no duration examples")
	}
	for _, example := range settings.DurationGrammar.Examples {
		got, err := ParseDuration("SETTING", example.Text)
		switch {
		case example.Ms == nil && (err == nil || err.Error() != problem(settings, "SETTING", example.Text)):
			t.Errorf("%q: got %v, %v; want the contract's problem text", example.Text, got, err)
		case example.Ms != nil && (err != nil || got.Milliseconds() != *example.Ms):
			t.Errorf("%q: got %v, %v; want %d ms", example.Text, got, err, *example.Ms)
		}
	}
}

func TestSmsEmulatorStartTimeoutIsReadWithTheOneGrammar(t *testing.T) {
	settings := readSettings(t)
	for text, want := range map[string]time.Duration{"2m": 2 * time.Minute, "120": 120 * time.Second, " 90s ": 90 * time.Second} {
		t.Setenv(envStartTimeout, text)
		if got, err := StartTimeout(); err != nil || got != want {
			t.Errorf("%s=%q: %v, %v; want %v", envStartTimeout, text, got, err, want)
		}
	}
	t.Setenv(envStartTimeout, "2x")
	want := problem(settings, envStartTimeout, "2x")
	if _, err := StartTimeout(); err == nil || err.Error() != want {
		t.Errorf("%s=2x: %v; want %s", envStartTimeout, err, want)
	}
	// Start refuses it before it starts anything.
	if emulator, err := Start(); err == nil || err.Error() != want {
		if emulator != nil {
			emulator.Stop()
		}
		t.Errorf("Start with %s=2x: %v; want %s", envStartTimeout, err, want)
	}
}

func TestTheContainerSettingsAreTheContracts(t *testing.T) {
	var contract struct {
		Container struct {
			Image           string `json:"image"`
			Repository      string `json:"repository"`
			ImageEnv        string `json:"imageEnv"`
			Port            int    `json:"port"`
			HealthPath      string `json:"healthPath"`
			ControlTokenEnv string `json:"controlTokenEnv"`
			AllowedHostsEnv string `json:"allowedHostsEnv"`
		} `json:"container"`
	}
	readVectors(t, "kit-contract.json", &contract)
	wanted := contract.Container
	got := map[string][2]any{
		"image":           {ContainerImage, wanted.Image},
		"repository":      {ContainerRepository, wanted.Repository},
		"imageEnv":        {ContainerImageEnv, wanted.ImageEnv},
		"port":            {ContainerPort, wanted.Port},
		"healthPath":      {ContainerHealthPath, wanted.HealthPath},
		"controlTokenEnv": {ContainerControlTokenEnv, wanted.ControlTokenEnv},
		"allowedHostsEnv": {ContainerAllowedHostsEnv, wanted.AllowedHostsEnv},
	}
	for name, pair := range got {
		if pair[0] != pair[1] || pair[1] == "" || pair[1] == 0 {
			t.Errorf("the container's %s is %v, the contract's %v", name, pair[0], pair[1])
		}
	}
	if ContainerControlTokenEnv != envToken {
		t.Errorf("the container's control token variable %s is not the kit's %s", ContainerControlTokenEnv, envToken)
	}
}
