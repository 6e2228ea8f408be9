package smsemu

import (
	"regexp"
	"strings"
)

// authority is a scheme, "//", then the authority up to the first "/", "?", "#", white space or a character no URL
// holds unencoded.
var authority = regexp.MustCompile("(?i)\\b([a-z][a-z0-9+.-]*:[/\\\\]{2})([^\\s/\\\\?#\"<>`{}|^]*)")

// shownURL is text with the password of every URL in it masked as "***", the user name kept: the emulator's rule for
// what is shown (docs/security.md#credentials-in-what-it-shows), for the kit's own printed lines and errors. The
// userinfo ends at the authority's last "@", the password starts after its first ":".
func shownURL(text string) string {
	if !strings.Contains(text, "@") {
		return text
	}
	return authority.ReplaceAllStringFunc(text, func(found string) string {
		parts := authority.FindStringSubmatch(found)
		scheme, rest := parts[1], parts[2]
		at, colon := strings.LastIndexByte(rest, '@'), strings.IndexByte(rest, ':')
		if at < 0 || colon < 0 || colon >= at-1 {
			return found
		}
		return scheme + rest[:colon+1] + "***" + rest[at:]
	})
}
