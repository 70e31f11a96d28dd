package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// MaxTargetID is the largest target ID SnowLuma can read exactly: it reads
// IDs as JavaScript numbers, whose integers are exact up to 2^53-1.
const MaxTargetID = 1<<53 - 1

// Route is where SnowLuma sends a delivering call: a chat (ChatGroup or
// ChatUser) and its ID in decimal. The zero Route means the call names no
// target (an upload-only send_forward_msg, a message-only reaction, a
// Qzone post or a like or comment on the account's own space).
type Route struct {
	Chat string
	ID   string
}

// Route reads where a call of the declaring action goes, the way SnowLuma
// routes it: the chat param's "group" or "private" picks the kind of chat;
// otherwise the first target param the call gives does; a Required
// delivery that gives none is refused. Every target param the call gives
// must be an ID SnowLuma reads exactly as the server does: a JSON integer,
// a JSON number with a zero fraction, or a string of decimal digits alone
// (the params stage's rule), from 1 to 2^53-1. SnowLuma accepts
// more (it reads "0x4E21" as 20001 and truncates 20001.5), but those
// spellings are where a reader can be fooled about the destination, so a
// call that uses one is refused before anything is spent. A target that
// ZeroSkips and is given as 0 is read as not given, as SnowLuma reads it:
// the call goes to the other branch, or, when the chat param picks this
// one, is refused with SnowLuma's own reason.
func (d *Delivery) Route(params json.RawMessage) (Route, error) {
	if d == nil || len(d.Targets) == 0 {
		return Route{}, nil
	}
	var given map[string]json.RawMessage
	if len(strings.TrimSpace(string(params))) > 0 && json.Unmarshal(params, &given) != nil {
		return Route{}, fmt.Errorf("params must be a JSON object")
	}
	ids := map[string]string{}
	for _, t := range d.Targets {
		raw, ok := given[t.Param]
		if !ok || (t.ZeroSkips && isZero(raw)) {
			continue
		}
		id, err := TargetID(raw)
		if err != nil {
			return Route{}, fmt.Errorf("params.%s: %w", t.Param, err)
		}
		ids[t.Param] = id
	}
	kind := ""
	if d.ChatParam != "" {
		var s string
		if json.Unmarshal(given[d.ChatParam], &s) == nil {
			switch s {
			case "group":
				kind = ChatGroup
			case "private":
				kind = ChatUser
			}
		}
	}
	for _, t := range d.Targets {
		id, ok := ids[t.Param]
		if ok {
			return Route{Chat: t.Chat, ID: id}, nil
		}
		if t.Chat == kind {
			// SnowLuma's words ("group_id is required"), and why.
			return Route{}, fmt.Errorf("params.%s is required: %s %s sends to a %s, and SnowLuma refuses the call without one (%q)",
				t.Param, d.ChatParam, given[d.ChatParam], t.Chat, t.Param+" is required")
		}
	}
	if d.Required {
		return Route{}, &Unrouted{Target: d.Targets[0]}
	}
	return Route{}, nil
}

// Unrouted is the refusal of a Required delivery whose call names no
// target. Apart from the other refusals, since it is one only for pacing:
// SnowLuma accepts the call.
type Unrouted struct{ Target DeliveryTarget }

func (u *Unrouted) Error() string {
	return fmt.Sprintf("params.%s is required for pacing: without it SnowLuma finds the %s from the message, which the server cannot read; name %s so the %s's send budget is charged",
		u.Target.Param, u.Target.Chat, u.Target.Param, u.Target.Chat)
}

// isZero reports whether raw is a JSON 0 (0, 0.0, -0) or the string "0"
// in any number of zeros: the placeholder a ZeroSkips target skips. The
// params stage has already refused every other spelling SnowLuma would
// read as 0.
func isZero(raw json.RawMessage) bool {
	text := strings.TrimSpace(string(raw))
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s != "" && strings.Trim(s, "0") == ""
	}
	f, err := strconv.ParseFloat(text, 64)
	return err == nil && f == 0
}

// TargetID reads one target param (see Delivery.Route) and returns it in
// decimal, so that 20001, 20001.0 and "20001" name one chat.
func TargetID(raw json.RawMessage) (string, error) {
	text := strings.TrimSpace(string(raw))
	var n uint64
	switch {
	case strings.HasPrefix(text, `"`):
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", errTarget(text)
		}
		// The params stage has read a quoted id already
		// (schema.Validator.Normalize), and refused one with blanks; a
		// string here is read by the same rule, never trimmed, so no
		// spelling names one chat here and is refused there.
		if s == "" || strings.TrimLeft(s, "0123456789") != "" {
			return "", errTarget(text)
		}
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return "", errTarget(text)
		}
		n = v
	case text != "" && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')):
		// A JSON number is read into a float64, as JSON.parse does, so
		// the value is the one SnowLuma sees.
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || f != math.Trunc(f) || f < 1 || f > MaxTargetID {
			return "", errTarget(text)
		}
		n = uint64(f)
	default:
		return "", errTarget(text)
	}
	if n < 1 || n > MaxTargetID {
		return "", errTarget(text)
	}
	return strconv.FormatUint(n, 10), nil
}

// errTarget refuses a target, repeating the JSON value as given (compact,
// and cut when long).
func errTarget(text string) error {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(text)) == nil {
		text = buf.String()
	}
	shown, cut := fault.Prefix(text, fault.QuoteLimit)
	if cut {
		shown += "…"
	}
	return fmt.Errorf("a target must be a whole number from 1 to 2^53-1, given as a JSON integer or a string of decimal digits; %s is not", shown)
}
