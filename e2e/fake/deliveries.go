package fake

// The delivering actions beyond plain messages, routed as SnowLuma's
// packages/onebot/src/actions/extended.ts and qzone.ts route them.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

func init() {
	actions["send_forward_msg"] = sendForwardMsg
	actions["get_ai_record"] = getAIRecord
	actions["send_group_ai_record"] = sendGroupAIRecord
	actions["send_qzone_msg"] = sendQzoneMsg
	actions["send_packet"] = sendPacket
}

// asNumber is SnowLuma's asNumber (api-handler.ts): a finite number
// truncated, a non-blank string through JavaScript's Number() and then
// truncated, anything else 0.
func asNumber(raw json.RawMessage) int64 {
	var num json.Number
	if json.Unmarshal(raw, &num) == nil {
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) {
			return 0
		}
		return int64(math.Trunc(f))
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" {
		return 0
	}
	f, ok := jsNumber(strings.TrimSpace(s))
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	return int64(math.Trunc(f))
}

// jsNumber reads a trimmed string as JavaScript's Number() does: 0x, 0b
// and 0o integers, or a decimal literal (Go's ParseFloat would also take
// hex floats and underscores, which Number() does not).
func jsNumber(s string) (float64, bool) {
	lower := strings.ToLower(s)
	for prefix, base := range map[string]int{"0x": 16, "0b": 2, "0o": 8} {
		if strings.HasPrefix(lower, prefix) {
			n, err := strconv.ParseUint(lower[2:], base, 64)
			return float64(n), err == nil
		}
	}
	if strings.ContainsAny(lower, "_xp") || strings.HasPrefix(lower, "inf") || strings.HasPrefix(lower, "+inf") || strings.HasPrefix(lower, "-inf") || strings.Contains(lower, "nan") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// sendForwardMsg routes as SnowLuma does: message_type "group" or a
// group_id > 0 sends to the group (refused without one); then "private" or
// a user_id > 0 sends to the user; otherwise it only uploads (message_id 0).
func sendForwardMsg(f *Fake, p params) (json.RawMessage, *failure) {
	kind, _, _ := p.str("message_type")
	group, user := asNumber(p["group_id"]), asNumber(p["user_id"])
	_, hasMessages := p.raw("messages")
	_, hasMessage := p.raw("message")
	if !hasMessages && !hasMessage {
		return nil, &failure{retcode: 1400, wording: "message/messages is required"}
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	resID := hex.EncodeToString(b[:])
	segs := mustJSON([]map[string]any{{"type": "forward", "data": map[string]string{"id": resID}}})
	receipt := func(sent json.RawMessage) json.RawMessage {
		var r struct {
			MessageID int32 `json:"message_id"`
		}
		_ = json.Unmarshal(sent, &r)
		return mustJSON(map[string]any{"message_id": r.MessageID, "res_id": resID, "forward_id": resID})
	}
	switch {
	case kind == "group" || group > 0:
		if group == 0 {
			return nil, &failure{retcode: 1400, wording: "group_id is required"}
		}
		return receipt(f.sendTo("group", group, segs, "[合并转发]")), nil
	case kind == "private" || user > 0:
		if user == 0 {
			return nil, &failure{retcode: 1400, wording: "user_id is required"}
		}
		return receipt(f.sendTo("private", user, segs, "[合并转发]")), nil
	}
	return mustJSON(map[string]any{"message_id": 0, "res_id": resID, "forward_id": resID}), nil
}

// aiVoice checks get_ai_record's and send_group_ai_record's params.
func aiVoice(p params) *failure {
	if _, _, fail := p.integer("group_id", true, uintID); fail != nil {
		return fail
	}
	for _, name := range []string{"character", "text"} {
		s, ok, fail := p.str(name)
		if fail != nil {
			return fail
		}
		if !ok {
			return badParam(name, "is required")
		}
		if s == "" {
			return badParam(name, "must not be empty")
		}
	}
	return nil
}

// getAIRecord posts the clip (fetchAiVoice) and answers its URL.
func getAIRecord(f *Fake, p params) (json.RawMessage, *failure) {
	if fail := aiVoice(p); fail != nil {
		return nil, fail
	}
	return json.RawMessage(`"https://grouptalk.c2c.qq.com/fake-ai-voice.silk"`), nil
}

func sendGroupAIRecord(f *Fake, p params) (json.RawMessage, *failure) {
	if fail := aiVoice(p); fail != nil {
		return nil, fail
	}
	return json.RawMessage(`{"message_id":0}`), nil
}

// sendQzoneMsg publishes a post on the account's own space.
func sendQzoneMsg(f *Fake, p params) (json.RawMessage, *failure) {
	content, ok, fail := p.str("content")
	if fail != nil {
		return nil, fail
	}
	if !ok || content == "" {
		return nil, badParam("content", "must not be empty")
	}
	return json.RawMessage(`{"tid":"b8ac1d3f0000000000000000","time":1785240000}`), nil
}

// sendPacket answers a raw packet with an empty response body.
func sendPacket(f *Fake, p params) (json.RawMessage, *failure) {
	cmd, ok, fail := p.str("cmd")
	if fail != nil {
		return nil, fail
	}
	if !ok || cmd == "" {
		return nil, badParam("cmd", "must not be empty")
	}
	data, _, _ := p.str("data")
	if _, err := hex.DecodeString(data); err != nil {
		return nil, &failure{retcode: 1400, wording: "data must be a hex string of even length"}
	}
	if reply, ok := f.answered("send_packet", cmd); ok {
		return reply, nil
	}
	return json.RawMessage(`""`), nil
}
