package hub

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The states of the event connection, as every resource reports them.
const (
	StateConnecting   = "connecting"
	StateConnected    = "connected"
	StateDisconnected = "disconnected"
)

// Why a connection ended.
const (
	ReasonConnectFailed  = "connect_failed"
	ReasonAuthRefused    = "auth_refused"
	ReasonNoHandshake    = "no_handshake"
	ReasonClosedByServer = "closed_by_server"
	ReasonConnectionLost = "connection_lost"
	ReasonProtocol       = "protocol_violation"
	ReasonFrameTooLarge  = "frame_too_large"
	ReasonMalformed      = "malformed_event"
	ReasonAccount        = "account_mismatch"
)

// ReleaseAdvice ends every failure's next step: nothing reconnects behind
// the agent's back.
const ReleaseAdvice = " Events after this point were not received. Release every event resource with unsubscribe_events, then subscribe_events again to open a fresh connection."

// Failure is why the event connection ended, in terms an agent can act on.
// It is also the error a first subscription returns when the connection
// never worked.
type Failure struct {
	Reason   string `json:"reason"`
	Message  string `json:"message"`
	NextStep string `json:"next_step"`
}

func (f *Failure) Error() string { return f.Message }

// Text is the message and the next step as one paragraph: each part a
// sentence of its own, ended by a full stop where its words end without one.
func (f *Failure) Text() string {
	return sentence(f.Message) + " " + sentence(f.NextStep)
}

// sentence capitalises s and ends it with a full stop unless it already
// ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if r, n := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// Status is the connection's state as one resource reports it.
type Status struct {
	State string `json:"state"`
	// Since is when the connection entered State.
	Since time.Time `json:"since"`
	// LastHeartbeat is when SnowLuma's last heartbeat arrived.
	LastHeartbeat *time.Time `json:"last_heartbeat,omitempty"`
	// Failure says why a disconnected connection ended.
	*Failure
}
