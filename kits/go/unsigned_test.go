package smsemu

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A nullable text of a control input has three states: nil is not sent, a pointer to "" is the contract's null, a
// pointer to a text is that text.
func TestANullableTextIsLeftOutWhenNilAndSentAsNullWhenEmpty(t *testing.T) {
	secret := "whsec_x"
	for _, c := range []struct {
		value    *string
		sent     bool
		expected any
	}{{nil, false, nil}, {new(string), true, nil}, {&secret, true, "whsec_x"}} {
		body, err := AccountPatch{WebhookSigningSecret: c.value}.body()
		if err != nil {
			t.Fatal(err)
		}
		value, sent := body["webhookSigningSecret"]
		if sent != c.sent || value != c.expected {
			t.Errorf("%v: sent %v as %#v", c.value, sent, value)
		}
	}
}

// An account with unsigned webhooks (webhookSigningSecret null) is asked for through the control client's inputs;
// the emulator then posts its webhooks without a Webhook-Signature.
func TestAWorldMadeUnsignedThroughTheControlClientGetsWebhooksWithoutASignature(t *testing.T) {
	t.Parallel()
	emulator, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var signatures []string
	receiver := httptest.NewServer(http.HandlerFunc(func(writer http.ResponseWriter, request *http.Request) {
		mu.Lock()
		signatures = append(signatures, request.Header.Get("Webhook-Signature"))
		mu.Unlock()
	}))
	defer receiver.Close()
	key, secret := "pk_test_"+randomHex(), "sk_test_"+randomHex()
	created, err := emulator.Control.WorldsCreate(WorldRequest{Name: t.Name(), Account: &WorldAccount{
		APIKey: key, SigningSecret: secret, WebhookSigningSecret: new(string), WebhookURL: &receiver.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emulator.Control.ClocksDelete(created.Clock.ID) })
	if created.Account.WebhookSigningSecret != "" {
		t.Fatalf("the world's webhook secret is %q, want none", created.Account.WebhookSigningSecret)
	}
	sent, err := NewEnvironmentClient(emulator.Origin, Live, key, secret).Send([]string{"27831234567"}, "Unsigned")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emulator.Control.MessagesWait(sent.ID, waitInput("delivered", nil)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(signatures) == 0 || strings.Join(signatures, "") != "" {
		t.Fatalf("the posts' Webhook-Signature headers: %q", signatures)
	}
}

// A kit's world keeps only signed posts, so it refuses to be made unsigned rather than refuse every webhook.
func TestAKitWorldRefusesAnEmptyWebhookSigningSecret(t *testing.T) {
	t.Parallel()
	emulator, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	world, err := OpenWorld(t, emulator, WithWebhookSigningSecret(""))
	if err == nil {
		world.Close()
		t.Fatal("a world with an empty webhook secret was made")
	}
	if !strings.Contains(err.Error(), "unsigned") {
		t.Fatalf("the refusal: %v", err)
	}
}
