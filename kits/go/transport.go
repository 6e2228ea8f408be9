package smsemu

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"time"
)

// emulatorIdleTimeout is how long the emulator keeps an idle connection open (its server's keepAliveTimeout).
const emulatorIdleTimeout = 5 * time.Second

// newTransport keeps idle connections for less time than the emulator does, so the kit rarely picks one the
// emulator is closing; doRetried covers the race that remains.
func newTransport() *http.Transport {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.IdleConnTimeout = emulatorIdleTimeout - time.Second
	transport.MaxIdleConnsPerHost = 32
	return transport
}

// sharedTransport is every Control's and Client's connection pool to the emulator: one per test binary.
var sharedTransport = newTransport()

// doRetried sends a request built by build, and builds and sends it once more when it went out on a reused
// connection and failed before any answer came: the emulator had closed that idle connection as the request left
// (a POST is not retried by net/http itself, and the emulator saw none of it). A request that got an answer, or that
// failed on a fresh connection, is never sent twice.
func doRetried(client *http.Client, build func() (*http.Request, error)) (*http.Response, error) {
	for attempt := 1; ; attempt++ {
		request, err := build()
		if err != nil {
			return nil, err
		}
		reused := false
		trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused }}
		request = request.WithContext(httptrace.WithClientTrace(request.Context(), trace))
		response, err := client.Do(request)
		if err == nil || !reused || attempt > 1 || isTimeout(err) {
			return response, err
		}
	}
}

func isTimeout(err error) bool {
	var timeout net.Error
	return errors.As(err, &timeout) && timeout.Timeout()
}
