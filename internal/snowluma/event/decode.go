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

// Decode checks one frame and reads its header. A frame is an event only
// if it is a UTF-8 JSON object with an integer time and a positive integer
// self_id, a known post_type, and integer group_id and user_id where
// present (null counts as absent); a meta event must name its
// meta_event_type. The header's keys match exactly (see readHeader), and a
// field of the wrong type is named in the error.
func Decode(frame []byte) (*Event, error) {
	if !utf8.Valid(frame) {
		return nil, malformed("the frame is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(frame)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, malformed("the frame is not a JSON object")
	}
	if !json.Valid(trimmed) {
		return nil, malformed("the frame is not a valid JSON object")
	}
	h, err := readHeader(trimmed)
	if err != nil {
		return nil, err
	}
	e := &Event{Raw: frame}
	if _, err = integer(h[fieldTime], "time", true); err != nil {
		return nil, err
	}
	if e.SelfID, err = integer(h[fieldSelfID], "self_id", true); err != nil {
		return nil, err
	}
	if e.SelfID <= 0 {
		return nil, malformed("self_id must be a positive integer")
	}
	if !present(h[fieldPostType]) {
		return nil, malformed("post_type is missing")
	}
	if e.PostType, err = text(h[fieldPostType], "post_type"); err != nil {
		return nil, err
	}
	switch e.PostType {
	case "message", "message_sent":
		e.Kind = KindMessage
	case "notice":
		e.Kind = KindNotice
	case "request":
		e.Kind = KindRequest
	case "meta_event":
		e.Kind = KindMeta
		if present(h[fieldMetaType]) {
			if e.MetaType, err = text(h[fieldMetaType], "meta_event_type"); err != nil {
				return nil, err
			}
		}
		if e.MetaType == "" {
			return nil, malformed("a meta event must carry meta_event_type")
		}
	default:
		return nil, malformed(fmt.Sprintf("unknown post_type %.40q", e.PostType))
	}
	if present(h[fieldSubType]) {
		if e.SubType, err = text(h[fieldSubType], "sub_type"); err != nil {
			return nil, err
		}
	}
	if e.GroupID, err = integer(h[fieldGroupID], "group_id", false); err != nil {
		return nil, err
	}
	e.HasGroup = present(h[fieldGroupID])
	if e.UserID, err = integer(h[fieldUserID], "user_id", false); err != nil {
		return nil, err
	}
	e.HasUser = present(h[fieldUserID])
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
		if what := jsonType(raw); what != "a number" {
			return 0, malformed(field + " must be an integer, not " + what)
		}
		return 0, malformed(field + " must be an integer that fits 64 bits, without a fraction or exponent")
	}
	return n, nil
}

// text reads a JSON string.
func text(raw json.RawMessage, field string) (string, error) {
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", malformed(field + " must be a string, not " + jsonType(raw))
	}
	return s, nil
}

// jsonType names the type of a valid JSON value, for errors that say what
// arrived instead of what was expected.
func jsonType(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func malformed(why string) error { return fmt.Errorf("%w: %s", ErrMalformed, why) }
