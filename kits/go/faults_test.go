package smsemu

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// closingServer answers the first request of each connection and keeps the connection open, then reads the next
// request on it and closes the connection without a word: an emulator closing an idle connection as a request
// arrives. Requests on a fresh connection are always answered. It counts the requests it answered.
func closingServer(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { listener.Close() })
	var answered atomic.Int32
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			go func(conn net.Conn) {
				defer conn.Close()
				reader := bufio.NewReader(conn)
				for first := true; ; first = false {
					request, err := http.ReadRequest(reader)
					if err != nil {
						return
					}
					_, _ = reader.Discard(int(request.ContentLength))
					if !first {
						return
					}
					answered.Add(1)
					body := `{"status":"ok"}`
					_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
						itoa(len(body)) + "\r\n\r\n" + body))
				}
			}(conn)
		}
	}()
	return "http://" + listener.Addr().String(), &answered
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestAControlRequestThatFailsOnAReusedConnectionBeforeAnyAnswerIsSentOnceMore(t *testing.T) {
	origin, answered := closingServer(t)
	control := &Control{Origin: origin, HTTP: &http.Client{Transport: newTransport()}}
	if _, err := control.Reset(""); err != nil {
		t.Fatal(err)
	}
	// The second POST goes out on the kept connection, which the server closes unanswered.
	if _, err := control.Reset(""); err != nil {
		t.Fatalf("the request on the closed connection was not sent again: %v", err)
	}
	if got := answered.Load(); got != 2 {
		t.Fatalf("the server answered %d requests, want 2", got)
	}
}

func TestARequestThatFailsOnAFreshConnectionIsNotSentTwice(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	var requests atomic.Int32
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			if _, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
				requests.Add(1)
			}
			conn.Close()
		}
	}()
	control := &Control{Origin: "http://" + listener.Addr().String(), HTTP: &http.Client{Transport: newTransport()}}
	if _, err := control.Reset(""); err == nil {
		t.Fatal("a request answered by a hang-up succeeded")
	}
	if got := requests.Load(); got != 1 {
		t.Fatalf("the server saw %d requests, want 1", got)
	}
}

// The emulator closes a connection idle for 5 s; the kit's pool drops its own first, and a request caught in the
// race is sent again: a world made after an idle spell is made, not refused with a broken pipe.
func TestAWorldAfterIdlingPastTheEmulatorsKeepAliveIsMade(t *testing.T) {
	t.Parallel()
	emulator, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	first, err := OpenWorld(t, emulator)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	// Idling is what this test is about: past the emulator's keep-alive timeout, with the connection kept.
	time.Sleep(emulatorIdleTimeout + 500*time.Millisecond)
	second, err := OpenWorld(t, emulator)
	if err != nil {
		t.Fatalf("a world after %s idle: %v", emulatorIdleTimeout, err)
	}
	second.Close()
}

// 128 connections wait in a catcher's accept queue while nothing accepts them: a burst of webhooks is queued, not
// dropped (a backlog of 5 would hold 6 and leave the rest to SYN retries).
func TestACatchersListenBacklogHoldsAtLeast128Connections(t *testing.T) {
	listener, err := listenCatcher("")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	var conns []net.Conn
	defer func() {
		for _, conn := range conns {
			conn.Close()
		}
	}()
	for i := 0; i < 128; i++ {
		conn, err := net.DialTimeout("tcp", listener.Addr().String(), 3*time.Second)
		if err != nil {
			t.Fatalf("connection %d was not queued: %v", i+1, err)
		}
		conns = append(conns, conn)
	}
}

func TestAnEmulatorStartedAndStoppedLeavesNoTempFolder(t *testing.T) {
	temp := t.TempDir()
	t.Setenv("TMPDIR", temp)
	t.Setenv(envURL, "")
	command := os.Getenv(envCommand)
	if command == "" {
		t.Fatal("run with SMS_EMULATOR_COMMAND (see README.md)")
	}
	emulator, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	world, err := OpenWorld(t, emulator)
	if err != nil {
		emulator.Stop()
		t.Fatal(err)
	}
	world.Close()
	emulator.Stop()
	left, err := os.ReadDir(temp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, entry := range left {
		names = append(names, filepath.Join(temp, entry.Name()))
	}
	if len(names) > 0 {
		t.Fatalf("left behind: %v", names)
	}
}
