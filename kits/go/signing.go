// Package smsemu gives Go tests of an SMS API integration a world of their own on sms-emulator: an account on its own
// test clock, a signing client, a webhook catcher, the clock in the test's hands, assertions, and the emulator's
// timeline of a failing test in its log. Standard library only; the emulator's documented control API is its only door.
package smsemu

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Encode percent-encodes per RFC 3986: only A-Z a-z 0-9 - . _ ~ stay; a space is %20, never + (url.QueryEscape would
// write +, and sign another string than the API).
func Encode(value string) string {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// fieldText is a value as the API reads it for signing; ok is false for a blank one, which is left out.
func fieldText(value any) (string, bool) {
	var text string
	switch v := value.(type) {
	case nil:
		return "", false
	case string:
		text = v
	case bool:
		text = strconv.FormatBool(v)
	case float64:
		text = strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		text = strconv.Itoa(v)
	case json.Number:
		text = v.String()
	default:
		encoded, err := json.Marshal(v)
		if err != nil {
			return "", false
		}
		text = string(encoded)
	}
	return text, text != ""
}

// CanonicalString is the string that is signed: fields sorted by name, blank values dropped, name[]=value per list
// item in order, names and values RFC 3986 encoded, joined with &.
func CanonicalString(fields map[string]any) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	var pairs []string
	for _, name := range names {
		key := Encode(name)
		switch value := fields[name].(type) {
		case []any:
			for _, item := range value {
				if text, ok := fieldText(item); ok {
					pairs = append(pairs, key+"[]="+Encode(text))
				}
			}
		case []string:
			for _, item := range value {
				if item != "" {
					pairs = append(pairs, key+"[]="+Encode(item))
				}
			}
		default:
			if text, ok := fieldText(value); ok {
				pairs = append(pairs, key+"="+Encode(text))
			}
		}
	}
	return strings.Join(pairs, "&")
}

// VerifyWebhookSignature says whether signature (a Webhook-Signature header) is the lowercase hex HMAC-SHA256 of a
// webhook's raw body with secret, as the emulator signs its posts; an empty secret verifies nothing.
func VerifyWebhookSignature(body []byte, signature, secret string) bool {
	given, err := hex.DecodeString(signature)
	if err != nil || secret == "" || signature != strings.ToLower(signature) {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal(given, mac.Sum(nil))
}

// Sign is the Signature header of a request body: lowercase hex HMAC-SHA256 of its canonical string.
func Sign(fields map[string]any, secret string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(CanonicalString(fields)))
	return hex.EncodeToString(mac.Sum(nil))
}
