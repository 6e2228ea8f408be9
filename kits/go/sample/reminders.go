// Package reminders is the Go kit's sample app: a service that sends appointment reminders through the SMS API,
// signing each request with its own secret, and takes the delivery webhooks on its own handler. Its test suite
// (reminders_test.go) uses the kit the way a team's would; .ci/run copies both into a new module outside the
// checkout and runs them against the kit installed from the built module proxy.
package reminders

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// App is the reminder service: where the SMS API is, its key and signing secret, and what the webhooks told it.
type App struct {
	BaseURL string
	APIKey  string
	Secret  string
	mu      sync.Mutex
	status  map[string]string
}

// New is an app that talks to the API at baseURL (its API is at baseURL + "/v1").
func New(baseURL, apiKey, secret string) *App {
	return &App{BaseURL: baseURL, APIKey: apiKey, Secret: secret, status: map[string]string{}}
}

// signature is the API's Signature header: HMAC-SHA256 of the fields sorted by name, RFC 3986 encoded.
func (a *App) signature(to, text string) string {
	escape := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	canonical := "message=" + escape(text) + "&recipient[]=" + escape(to)
	mac := hmac.New(sha256.New, []byte(a.Secret))
	mac.Write([]byte(canonical))
	return hex.EncodeToString(mac.Sum(nil))
}

// Remind sends a reminder and answers the message's id.
func (a *App) Remind(to, text string) (string, error) {
	body, _ := json.Marshal(map[string]any{"recipient": []string{to}, "message": text})
	request, err := http.NewRequest("POST", a.BaseURL+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(a.APIKey+":")))
	request.Header.Set("Signature", a.signature(to, text))
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return "", err
	}
	defer response.Body.Close()
	answer, _ := io.ReadAll(response.Body)
	var message struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(answer, &message)
	if response.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("the SMS API refused the reminder: %d %s", response.StatusCode, message.Message)
	}
	return message.ID, nil
}

// Webhooks is the app's webhook handler: it records each message's latest status.
func (a *App) Webhooks() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var notification struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&notification) != nil || notification.ID == "" {
			http.Error(w, "not a delivery notification", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.status[notification.ID] = notification.Status
		a.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
}

// Status is what the webhooks last said about a message ("" when none came).
func (a *App) Status(id string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status[id]
}
