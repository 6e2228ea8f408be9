package smsemu

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func webhookSignature(body []byte, secret string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// postToCatcher posts body to the world's catcher with a Webhook-Signature (none when empty); answers the status.
func postToCatcher(t *testing.T, w *World, body io.Reader, signature string) int {
	t.Helper()
	request, err := http.NewRequest("POST", w.Catcher.URL, body)
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("Content-Type", "application/json")
	if signature != "" {
		request.Header.Set("Webhook-Signature", signature)
	}
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	_, _ = io.Copy(io.Discard, response.Body)
	return response.StatusCode
}

func TestAForgedPostToTheCatcherIsRefusedNotCountedAndReported(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	if w.Account.WebhookSigningSecret == "" {
		t.Fatal("the world has no webhook signing secret")
	}
	forged := []byte(`{"id":"forged","type":"sms","status":"delivered","recipient":["27831234567"]}`)
	unsigned := postToCatcher(t, w, bytes.NewReader(forged), "")
	wrongly := postToCatcher(t, w, bytes.NewReader(forged), webhookSignature(forged, "not the world's secret"))
	if unsigned != http.StatusUnauthorized || wrongly != http.StatusUnauthorized {
		t.Fatalf("unsigned: %d, wrongly signed: %d; want 401 each", unsigned, wrongly)
	}
	if got := w.Webhooks(); len(got) != 0 {
		t.Fatalf("the forged posts were counted: %v", got)
	}
	refused := w.ForgedWebhooks()
	if len(refused) != 2 || refused[0].Status != 401 || refused[1].Status != 401 || w.Catcher.RefusedCount() != 2 {
		t.Fatalf("refused: %+v", refused)
	}
	// A real delivery is kept.
	sent, err := w.Client.Send([]string{"27831234567"}, "Your parcel is on its way")
	if err != nil {
		t.Fatal(err)
	}
	w.WaitFor(sent.ID, "delivered", nil)
	w.AssertWebhook(sent.ID, "delivered")
	if len(w.ForgedWebhooks()) != 2 {
		t.Fatalf("a real delivery was refused: %+v", w.ForgedWebhooks())
	}
	for _, caught := range w.Catcher.Received() {
		if caught.Status != http.StatusOK {
			t.Fatalf("the emulator's post was answered %d", caught.Status)
		}
	}
}

func TestAPostSignedWithTheWorldsOwnWebhookSecretIsKept(t *testing.T) {
	t.Parallel()
	w := NewWorld(t, WithWebhookSigningSecret("whsec_the_apps_own"))
	if w.Account.WebhookSigningSecret != "whsec_the_apps_own" {
		t.Fatalf("the world's webhook secret is %q", w.Account.WebhookSigningSecret)
	}
	body := []byte(`{"id":"m1","type":"sms","status":"delivered","recipient":["27831234567"]}`)
	if status := postToCatcher(t, w, bytes.NewReader(body), webhookSignature(body, "whsec_the_apps_own")); status != 200 {
		t.Fatalf("a post signed with the world's secret was answered %d", status)
	}
	if got := w.Webhooks(); len(got) != 1 || got[0].ID != "m1" {
		t.Fatalf("kept: %v", got)
	}
}

// countingReader is an endless body that counts what was read of it.
type countingReader struct{ read atomic.Int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	c.read.Add(int64(len(p)))
	return len(p), nil
}

func TestAPostLargerThanTheEmulatorsBodyBoundIsRefusedWithoutBeingReadWhole(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	limits, err := w.Control.Limits()
	if err != nil {
		t.Fatal(err)
	}
	// Declared too large: refused before a byte of it is read.
	declared := bytes.Repeat([]byte("x"), limits.MaxBodySize+1)
	if status := postToCatcher(t, w, bytes.NewReader(declared), webhookSignature(declared, w.Account.WebhookSigningSecret)); status != http.StatusRequestEntityTooLarge {
		t.Fatalf("a body of %d bytes was answered %d", len(declared), status)
	}
	// Streamed without a length: the catcher stops at the bound, and the sender is cut off long before it is done.
	endless := &countingReader{}
	request, err := http.NewRequest("POST", w.Catcher.URL, io.LimitReader(endless, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("Webhook-Signature", strings.Repeat("0", 64))
	client := &http.Client{Timeout: time.Minute}
	if response, err := client.Do(request); err == nil {
		if response.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("a streamed body was answered %d", response.StatusCode)
		}
		response.Body.Close()
	}
	// What the sender got out is the bound plus what the sockets' buffers held (a few MiB), not the 1 GiB.
	if sent := endless.read.Load(); sent >= 64<<20 {
		t.Fatalf("the sender wrote %d bytes before the catcher stopped it", sent)
	}
	if got := w.Webhooks(); len(got) != 0 {
		t.Fatalf("an oversized post was kept: %d", len(got))
	}
	refused := w.ForgedWebhooks()
	if len(refused) != 2 || refused[0].Status != 413 || refused[1].Status != 413 {
		t.Fatalf("refused: %+v", refused)
	}
}

func TestAWorldsCatcherReadsUpToTheEmulatorsOwnBodyBound(t *testing.T) {
	t.Parallel()
	w := NewWorld(t)
	limits, err := w.Control.Limits()
	if err != nil {
		t.Fatal(err)
	}
	if w.Catcher.maxBody != int64(limits.MaxBodySize) {
		t.Fatalf("the catcher reads %d bytes, the emulator's maxBodySize is %d", w.Catcher.maxBody, limits.MaxBodySize)
	}
}
