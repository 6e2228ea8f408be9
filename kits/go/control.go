package smsemu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ControlError is an error answer of the control API: its catalogued code, HTTP status and description.
type ControlError struct {
	Code        string
	Status      int
	Description string
}

func (e *ControlError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Description)
}

// Control calls the emulator's control API, <origin>/_emulator<path>, as docs/control-api.md documents it.
type Control struct {
	Origin string
	Token  string
	HTTP   *http.Client
}

// Call sends one control request: a JSON body (or text when body is a string), a query; decodes the JSON answer into out.
func (c *Control) Call(method, path string, query url.Values, body any, out any) error {
	target := strings.TrimRight(c.Origin, "/") + "/_emulator" + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var reader io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		reader, contentType = strings.NewReader(b), "application/yaml"
	default:
		encoded, err := json.Marshal(b)
		if err != nil {
			return err
		}
		reader, contentType = bytes.NewReader(encoded), "application/json"
	}
	request, err := http.NewRequest(method, target, reader)
	if err != nil {
		return err
	}
	if contentType != "" {
		request.Header.Set("Content-Type", contentType)
	}
	if c.Token != "" {
		request.Header.Set("Authorization", "Bearer "+c.Token)
	}
	client := c.HTTP
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	response, err := client.Do(request)
	if err != nil {
		return &ControlError{Code: "NO_ANSWER", Description: fmt.Sprintf("%s %s: %v (is the emulator running there?)", method, target, err)}
	}
	defer response.Body.Close()
	raw, err := io.ReadAll(response.Body)
	if err != nil {
		return err
	}
	if response.StatusCode >= 200 && response.StatusCode < 300 {
		if out == nil || len(raw) == 0 {
			return nil
		}
		if text, ok := out.(*string); ok {
			*text = string(raw)
			return nil
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s answered %d with something other than the control API's JSON (%.80s): is this the emulator's address?", method, target, response.StatusCode, raw)
		}
		return nil
	}
	var failure struct {
		Message     string `json:"message"`
		Description string `json:"description"`
		Error       *struct {
			Message     string `json:"message"`
			Description string `json:"description"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &failure)
	if failure.Error != nil {
		failure.Message, failure.Description = failure.Error.Message, failure.Error.Description
	}
	if failure.Message == "" {
		failure.Message, failure.Description = "UNEXPECTED_RESPONSE", fmt.Sprintf("%s %s answered %d: %.200s", method, path, response.StatusCode, raw)
	}
	return &ControlError{Code: failure.Message, Status: response.StatusCode, Description: failure.Description}
}
