package fake

// forward_group_single_msg and forward_friend_single_msg, as SnowLuma
// 1.11.1 runs them: packages/onebot/src/actions/extended.ts declares the
// params (message_id a non-zero message id, then group_id or user_id a
// positive integer, each refused as retcode 1400 "<field>: <reason>"), and
// forwardSingleMessage in packages/onebot/src/modules/message-actions.ts
// does the work: it finds the stored event (ctx.getMessage's store, the
// one get_msg reads), takes its message (else its raw_message), refuses a
// file segment and media whose fingerprints are not cached, sends the
// segments again to the target and answers {message_id} of the new send,
// which finalizeSend stores as the account's own (cacheSelfSentMessage).
// A thrown error becomes retcode 100 with the error's message as wording
// (api-handler.ts). The fake keeps no media store, so no image, voice or
// video fingerprint is ever cached here.

import (
	"encoding/json"
	"strconv"
	"strings"
)

func init() {
	actions["forward_group_single_msg"] = forwardSingle("group", "group_id")
	actions["forward_friend_single_msg"] = forwardSingle("private", "user_id")
}

// passedOn are the segment types forwardSingleMessage sends again as they
// are (enrichForForward).
var passedOn = map[string]bool{"text": true, "face": true, "at": true, "reply": true, "json": true,
	"xml": true, "poke": true, "forward": true, "mface": true}

// forwardSingle sends a stored message again, as the account, to a chat of
// kind named by the target param.
func forwardSingle(kind, target string) action {
	return func(f *Fake, p params) (json.RawMessage, *failure) {
		id, _, fail := p.integer("message_id", true, messageID)
		if fail != nil {
			return nil, fail
		}
		to, _, fail := p.integer(target, true, uintID)
		if fail != nil {
			return nil, fail
		}
		m, ok := f.store.get(int32(id))
		if !ok || !isInt32(id) {
			return nil, actionFailed("message not found: " + strconv.Itoa(int(id)))
		}
		segs, fail := forwardable(m)
		if fail != nil {
			return nil, fail
		}
		var raw strings.Builder
		for _, sg := range segs {
			if t, ok := sg.Data["text"].(string); ok && sg.Type == "text" {
				raw.WriteString(t)
			}
		}
		return f.sendTo(kind, to, mustJSON(segs), raw.String()), nil
	}
}

// forwardable is the stored message's body as forwardSingleMessage sends it
// again: its segments (a CQ-code string counts as text, as the fake's sends
// read one), or the failure SnowLuma throws.
func forwardable(m storedMessage) ([]anySegment, *failure) {
	var segs []anySegment
	var s string
	switch {
	case json.Unmarshal(m.Message, &s) == nil:
		if s != "" {
			segs = []anySegment{{Type: "text", Data: map[string]any{"text": s}}}
		}
	case json.Unmarshal(m.Message, &segs) == nil:
	default:
		if m.RawMessage != "" {
			segs = []anySegment{{Type: "text", Data: map[string]any{"text": m.RawMessage}}}
		}
	}
	if len(segs) == 0 {
		return nil, actionFailed("message has no content")
	}
	for _, sg := range segs {
		switch {
		case passedOn[sg.Type]:
		case sg.Type == "file":
			return nil, actionFailed("forward of file segment is not supported")
		case sg.Type == "image" || sg.Type == "record" || sg.Type == "video":
			// parseMessage puts data.file where the lookup reads it.
			if key, _ := sg.Data["file"].(string); key == "" {
				return nil, actionFailed("forward " + sg.Type + " missing cache key")
			}
			if sg.Type == "image" {
				return nil, actionFailed("forward image fingerprint not cached (legacy image or expired)")
			}
			return nil, actionFailed("forward " + sg.Type + " fingerprint not cached")
		}
	}
	return segs, nil
}

// anySegment is a segment whose data may hold any JSON values.
type anySegment struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}
