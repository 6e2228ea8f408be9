package smsemu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
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

// ControlPath is where the control API lives under the emulator's origin.
const ControlPath = "/_emulator"

// Control calls the emulator's control API, <origin>/_emulator<path>, as docs/control-api.md documents it: one method
// per operation (operations.go, generated from the kit contract), and Call for anything raw.
type Control struct {
	Origin string
	Token  string
	// HTTP is the client used (nil: the kit's own, whose idle connections end before the emulator's do).
	HTTP *http.Client
}

// defaultControlHTTP gives one control request the contract's control timeout.
var defaultControlHTTP = &http.Client{Timeout: DefaultControlTimeout, Transport: sharedTransport}

// Call sends one control request: a JSON body (or text when body is a string), a query; decodes the JSON answer into
// out (a *string takes the text as it came). A request that failed on a reused connection before any answer is sent
// once more (doRetried).
func (c *Control) Call(method, path string, query url.Values, body any, out any) error {
	target := strings.TrimRight(c.Origin, "/") + ControlPath + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var payload []byte
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		payload, contentType = []byte(b), "application/yaml"
	default:
		encoded, err := json.Marshal(b)
		if err != nil {
			return err
		}
		payload, contentType = encoded, "application/json"
	}
	client := c.HTTP
	if client == nil {
		client = defaultControlHTTP
	}
	response, err := doRetried(client, func() (*http.Request, error) {
		var reader io.Reader
		if payload != nil {
			reader = bytes.NewReader(payload)
		}
		request, err := http.NewRequest(method, target, reader)
		if err != nil {
			return nil, err
		}
		if contentType != "" {
			request.Header.Set("Content-Type", contentType)
		}
		if c.Token != "" {
			request.Header.Set("Authorization", "Bearer "+c.Token)
		}
		return request, nil
	})
	if err != nil {
		return &ControlError{Code: "NO_ANSWER", Description: fmt.Sprintf("%s %s: %v (is the emulator running there?)", method, shownURL(target), err)}
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
			return fmt.Errorf("%s %s answered %d with something other than the control API's JSON (%.80s): is this the emulator's address?", method, shownURL(target), response.StatusCode, raw)
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

// call is Call with the answer's type as a type parameter.
func call[T any](c *Control, method, path string, query url.Values, body any) (T, error) {
	var answer T
	err := c.Call(method, path, query, body, &answer)
	return answer, err
}

// fail is the answer of a call that failed before it was sent (a body or query that could not be built).
func fail[T any](err error) (T, error) {
	var zero T
	return zero, err
}

// Page is one page of a control list.
type Page[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
	Page  int `json:"page"`
	Limit int `json:"limit"`
}
