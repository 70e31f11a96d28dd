package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Kind is the category a subscription filters on.
type Kind string

// The three categories a subscription can ask for, and the meta events
// (lifecycle, heartbeat) that are checked but never buffered.
const (
	KindMessage Kind = "message" // post_type message or message_sent
	KindNotice  Kind = "notice"
	KindRequest Kind = "request"
	KindMeta    Kind = "meta"
)

// Kinds are the categories a subscription may name, in documentation order.
var Kinds = []Kind{KindMessage, KindNotice, KindRequest}

// Event is one decoded frame: the fields routing needs, and the frame
// itself, untouched.
type Event struct {
	// Raw is the frame as received (valid JSON, valid UTF-8).
	Raw []byte
	// SelfID is the account the event belongs to.
	SelfID int64
	// Kind is the event's category.
	Kind Kind
	// PostType is OneBot's post_type as sent.
	PostType string
	// MetaType is meta_event_type for meta events ("lifecycle", "heartbeat").
	MetaType string
	// SubType is sub_type when present (a lifecycle's "connect", say).
	SubType string
	// GroupID and UserID are 0 when the event has none.
	GroupID, UserID int64
	HasGroup        bool
	HasUser         bool
}

// ErrMalformed is wrapped by every decoding error.
var ErrMalformed = errors.New("malformed event")

// header is the part of an event the hub reads. Numbers stay raw so that a
// fraction, an exponent or a string where an integer belongs is an error
// rather than a silent conversion.
type header struct {
	Time     json.RawMessage `json:"time"`
	SelfID   json.RawMessage `json:"self_id"`
	PostType *string         `json:"post_type"`
	MetaType *string         `json:"meta_event_type"`
	SubType  json.RawMessage `json:"sub_type"`
	GroupID  json.RawMessage `json:"group_id"`
	UserID   json.RawMessage `json:"user_id"`
}

// Decode checks one frame and reads its header. A frame is an event only
// if it is a UTF-8 JSON object with an integer time and a positive integer
// self_id, a known post_type, and integer group_id and user_id where
// present (null counts as absent); a meta event must name its
// meta_event_type.
func Decode(frame []byte) (*Event, error) {
	if !utf8.Valid(frame) {
		return nil, malformed("the frame is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(frame)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, malformed("the frame is not a JSON object")
	}
	var h header
	if err := json.Unmarshal(trimmed, &h); err != nil {
		return nil, malformed("the frame is not a valid JSON object")
	}
	e := &Event{Raw: frame}
	var err error
	if _, err = integer(h.Time, "time", true); err != nil {
		return nil, err
	}
	if e.SelfID, err = integer(h.SelfID, "self_id", true); err != nil {
		return nil, err
	}
	if e.SelfID <= 0 {
		return nil, malformed("self_id must be a positive integer")
	}
	if h.PostType == nil {
		return nil, malformed("post_type is missing or not a string")
	}
	e.PostType = *h.PostType
	switch e.PostType {
	case "message", "message_sent":
		e.Kind = KindMessage
	case "notice":
		e.Kind = KindNotice
	case "request":
		e.Kind = KindRequest
	case "meta_event":
		e.Kind = KindMeta
		if h.MetaType == nil || *h.MetaType == "" {
			return nil, malformed("a meta event must carry meta_event_type")
		}
		e.MetaType = *h.MetaType
	default:
		return nil, malformed(fmt.Sprintf("unknown post_type %.40q", e.PostType))
	}
	if len(h.SubType) > 0 && string(h.SubType) != "null" {
		if json.Unmarshal(h.SubType, &e.SubType) != nil {
			return nil, malformed("sub_type must be a string")
		}
	}
	if e.GroupID, err = integer(h.GroupID, "group_id", false); err != nil {
		return nil, err
	}
	e.HasGroup = present(h.GroupID)
	if e.UserID, err = integer(h.UserID, "user_id", false); err != nil {
		return nil, err
	}
	e.HasUser = present(h.UserID)
	return e, nil
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// integer reads a JSON integer that fits int64. Absent or null is an error
// only when required.
func integer(raw json.RawMessage, field string, required bool) (int64, error) {
	if !present(raw) {
		if required {
			return 0, malformed(field + " is missing")
		}
		return 0, nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, malformed(field + " must be an integer")
	}
	return n, nil
}

func malformed(why string) error { return fmt.Errorf("%w: %s", ErrMalformed, why) }
