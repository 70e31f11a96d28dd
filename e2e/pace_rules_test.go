package e2e

// The pacing rules a reader of SnowLuma's source could otherwise get
// around (issue 27): every delivering action spends, a target is charged
// where SnowLuma sends it or the call is refused, a waiting send costs the
// account one send when it goes, and a send that never went out spends
// nothing.

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// TestEveryDeliveringActionSpends: with a budget of one send, only the
// first of three calls of get_ai_record (which posts the voice clip to the
// group), send_qzone_msg (a Qzone post) or send_packet (charged to the
// account) reaches SnowLuma.
func TestEveryDeliveringActionSpends(t *testing.T) {
	t.Parallel()
	calls := []struct {
		action, pace, budget string
		params               map[string]any
	}{
		{"get_ai_record", "target=1+1/1h,account=50+1/10ms", "group 20001's send budget", map[string]any{"group_id": 20001, "character": "lucy-voice-female1", "text": "晚上好"}},
		{"send_qzone_msg", "target=50+1/10ms,account=1+1/1h", "the account's send budget", map[string]any{"content": "今天天气不错"}},
		{"send_packet", "target=50+1/10ms,account=1+1/1h", "the account's send budget", map[string]any{"cmd": "OidbSvcTrpcTcp.0x1234_1", "data": "0801"}},
	}
	forEachVersion(t, func(t *testing.T, version string) {
		for _, c := range calls {
			s := start(t, version, paceEnv(c.pace, "0"))
			for i := range 3 {
				r, tag := s.sendNow(t, c.action, c.params, nil)
				if i == 0 {
					require.False(t, r.IsError, "%s: %s", c.action, r.Text)
					assert.Len(t, snow.ByTag(tag), 1)
					continue
				}
				require.True(t, r.IsError, "%s call %d went", c.action, i+1)
				assert.Equal(t, "rate_limited", r.Diag.Kind, c.action)
				assert.Contains(t, r.Diag.Message, c.budget+" is spent")
				assert.Empty(t, snow.ByTag(tag), "%s call %d reached SnowLuma", c.action, i+1)
			}
		}
	})
}

// TestATargetIsChargedWhereSnowLumaSendsIt: spellings SnowLuma reads as
// another chat (or none) are refused before anything is spent; the others
// are charged to the chat SnowLuma sends to, whatever the spelling and
// whichever param won SnowLuma's routing.
func TestATargetIsChargedWhereSnowLumaSendsIt(t *testing.T) {
	t.Parallel()
	nodes := []any{map[string]any{"type": "node", "data": map[string]any{"user_id": "10002", "nickname": "Alice", "content": "hi"}}}
	forward := func(route map[string]any) map[string]any {
		route["messages"] = nodes
		return route
	}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("target=1+1/1h,account=50+1/10ms", "0"))
		for _, bad := range []map[string]any{
			{"group_id": "0x4E21"}, {"group_id": "0b100111000100001"}, {"group_id": "0o47041"},
			{"group_id": 20001.5}, {"group_id": "20001.7"}, {"group_id": "0x4E22p0", "user_id": 30003},
		} {
			r, tag := s.sendNow(t, "send_forward_msg", forward(bad), nil)
			require.True(t, r.IsError, "%v went", bad)
			assert.Equal(t, "invalid_argument", r.Diag.Kind, "%v", bad)
			assert.Equal(t, "failed", r.Diag.Outcome)
			// group_id is a key send_forward_msg reads beside its
			// declaration, so the params stage reads it as every id is read.
			assert.Contains(t, r.Diag.Message, "params.group_id: want")
			assert.Contains(t, r.Diag.NextStep, "nothing was sent")
			assert.Empty(t, snow.ByTag(tag), "%v reached SnowLuma", bad)
		}
		// A declared target param quoted as its digits is read as the
		// number, once, before pacing: it goes to that group and spends its
		// budget, which the same group given as an integer then finds spent.
		r, tag := s.sendNow(t, "send_group_msg", map[string]any{"group_id": "20003", "message": "hi"}, nil)
		require.False(t, r.IsError, r.Text)
		require.Len(t, snow.ByTag(tag), 1)
		var sent struct {
			GroupID json.RawMessage `json:"group_id"`
		}
		require.NoError(t, json.Unmarshal(snow.ByTag(tag)[0].Params, &sent))
		assert.Equal(t, "20003", string(sent.GroupID), "SnowLuma got the number")
		r, tag = s.sendNow(t, "send_group_msg", map[string]any{"group_id": 20003, "message": "hi"}, nil)
		require.True(t, r.IsError, "the quoted and the integer spelling are one chat")
		assert.Contains(t, r.Diag.Message, "group 20003's send budget is spent")
		assert.Empty(t, snow.ByTag(tag))
		sentTo := func(r toolResult) (string, int64) {
			t.Helper()
			var res struct {
				Data struct {
					MessageID int32 `json:"message_id"`
				} `json:"data"`
			}
			r.decodeResult(t, &res)
			kind, target, ok := snow.SentTo(res.Data.MessageID)
			require.True(t, ok, "the fake sent no message %d: %s", res.Data.MessageID, r.Result)
			return kind, target
		}
		r, _ = s.sendNow(t, "send_forward_msg", forward(map[string]any{"group_id": "20001"}), nil)
		require.False(t, r.IsError, r.Text)
		kind, target := sentTo(r)
		assert.Equal(t, "group", kind)
		assert.Equal(t, int64(20001), target)
		r, tag = s.sendNow(t, "send_group_msg", map[string]any{"group_id": 20001.0, "message": "hi"}, nil)
		require.True(t, r.IsError, "group 20001 was charged for the forward")
		assert.Contains(t, r.Diag.Message, "group 20001's send budget is spent")
		assert.Empty(t, snow.ByTag(tag))
		// SnowLuma sends to the group when a group_id is given, whatever
		// message_type says; the group pays, the user does not.
		r, _ = s.sendNow(t, "send_forward_msg", forward(map[string]any{"message_type": "private", "group_id": "20002", "user_id": 30003}), nil)
		require.False(t, r.IsError, r.Text)
		kind, target = sentTo(r)
		assert.Equal(t, "group", kind)
		assert.Equal(t, int64(20002), target)
		r, _ = s.sendNow(t, "send_private_msg", map[string]any{"user_id": 30003, "message": "hi"}, nil)
		require.False(t, r.IsError, "user 30003 was charged for a forward that went to a group: %s", r.Text)
		r, _ = s.sendNow(t, "send_group_msg", map[string]any{"group_id": 20002, "message": "hi"}, nil)
		require.True(t, r.IsError)
		assert.Contains(t, r.Diag.Message, "group 20002's send budget is spent")
	})
}

// TestAReactionIsChargedToItsGroup: SnowLuma reacts in the group of the
// message set_group_reaction names, which the server cannot read, so a
// reaction without group_id is refused before anything is spent (a loop of
// them would otherwise never meet the group's budget), and one with it is
// charged to that group. With pacing off it goes as SnowLuma takes it.
func TestAReactionIsChargedToItsGroup(t *testing.T) {
	t.Parallel()
	react := func(route map[string]any) map[string]any {
		route["message_id"] = -1559550018
		route["code"] = "76"
		return route
	}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("target=1+1/1h,account=50+1/10ms", "0"))
		r, tag := s.sendNow(t, "set_group_reaction", react(map[string]any{}), nil)
		require.True(t, r.IsError, "a reaction without group_id went")
		assert.Equal(t, "invalid_argument", r.Diag.Kind)
		assert.Equal(t, "failed", r.Diag.Outcome)
		assert.Contains(t, r.Diag.Message, "params.group_id is required for pacing")
		assert.Contains(t, r.Diag.Message, "so the group's send budget is charged")
		assert.Contains(t, r.Diag.Message, "nothing was sent")
		assert.Empty(t, snow.ByTag(tag))
		// Named, it reaches SnowLuma and is the group's send.
		_, tag = s.sendNow(t, "set_group_reaction", react(map[string]any{"group_id": 20001}), nil)
		assert.Len(t, snow.ByTag(tag), 1)
		r, tag = s.sendNow(t, "send_group_msg", map[string]any{"group_id": 20001, "message": "hi"}, nil)
		require.True(t, r.IsError, "the reaction was not charged to group 20001")
		assert.Contains(t, r.Diag.Message, "group 20001's send budget is spent")
		assert.Empty(t, snow.ByTag(tag))

		off := start(t, version, paceEnv("off", "0"))
		_, tag = off.sendNow(t, "set_group_reaction", react(map[string]any{}), nil)
		assert.Len(t, snow.ByTag(tag), 1, "with pacing off the call goes as SnowLuma takes it")
	})
}

// TestAWaitingSendCostsTheAccountOneSend: while a send waits for its
// group, the account keeps the send it has not yet spent: other groups
// send at once, and get_runtime_info shows it.
func TestAWaitingSendCostsTheAccountOneSend(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s, log := startWithProgress(t, version, paceEnv("target=1+1/3s,account=3+1/1m", "5000"))
		first, _ := s.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, first.IsError, first.Text)
		token := "pace-" + newTag(t)
		args, tag := sendArgs(t, "send_group_msg", group(20001))
		done := make(chan toolResult, 1)
		go func() { done <- s.call(t, "invoke_action", args, mcp.Meta{"progressToken": token}) }()
		require.Eventually(t, func() bool { return len(log.of(token)) > 0 }, safety, 5*time.Millisecond, "the send never said it waits")
		var info struct {
			SendPace struct {
				Account struct {
					Available int `json:"available"`
				} `json:"account"`
			} `json:"send_pace"`
		}
		s.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
		assert.Equal(t, 2, info.SendPace.Account.Available, "the waiting send has not spent the account yet")
		other, _ := s.sendNow(t, "send_group_msg", group(20002), nil)
		require.False(t, other.IsError, other.Text)
		assert.Zero(t, other.Diag.HeldMS, "another group's send is not held by the one waiting")
		r := <-done
		require.False(t, r.IsError, r.Text)
		assert.Greater(t, r.Diag.HeldMS, int64(1500))
		assert.Len(t, snow.ByTag(tag), 1)
		s.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
		assert.Equal(t, 0, info.SendPace.Account.Available, "three sends, each charged once")
	})
}

// TestASendThatNeverWentOutSpendsNothing: refusals before the request was
// written, and attempts while SnowLuma refuses connections, give their
// budget back and say so; a send whose connection broke after the request
// was written keeps it spent and says so.
func TestASendThatNeverWentOutSpendsNothing(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, with(paceEnv("target=1+1/1h,account=50+1/10ms", "0"), "SNOWLUMA_MCP_UPLOAD_ROOT", t.TempDir()))
		for range 2 {
			r := s.call(t, "invoke_action", map[string]any{"action": "send_group_msg", "params": group(20001), "execution": map[string]any{"input_file": "/nowhere"}}, nil)
			require.True(t, r.IsError)
			assert.Equal(t, "invalid_argument", r.Diag.Kind)
			assert.Equal(t, "failed", r.Diag.Outcome)
			assert.Contains(t, r.Diag.Message, "nothing reached SnowLuma, so the send budget it was charged was given back")
		}
		r, tag := s.sendNow(t, "send_group_msg", group(20001), nil)
		require.False(t, r.IsError, "the refusals spent the budget: %s", r.Text)
		assert.Len(t, snow.ByTag(tag), 1)

		r, _ = s.sendNow(t, "send_group_msg", map[string]any{"group_id": 20002, "message": "hi", fake.Marker: "hangup"}, nil)
		require.True(t, r.IsError)
		assert.Equal(t, "unknown", r.Diag.Outcome)
		assert.Contains(t, r.Diag.Message, "the request may have reached SnowLuma, so its send budget stays spent")
		r, _ = s.sendNow(t, "send_group_msg", group(20002), nil)
		require.True(t, r.IsError, "a send whose outcome is unknown keeps its budget spent")
		assert.Equal(t, "rate_limited", r.Diag.Kind)

		down := start(t, version, with(paceEnv("target=1+1/1h,account=50+1/10ms", "0"), "SNOWLUMA_MCP_ENDPOINT", "http://127.0.0.1:1/"))
		for range 2 {
			r, _ := down.sendNow(t, "send_group_msg", group(20001), nil)
			require.True(t, r.IsError)
			assert.Equal(t, "transport", r.Diag.Kind)
			assert.Equal(t, "failed", r.Diag.Outcome)
			assert.Contains(t, r.Diag.Message, "given back")
		}
		var info struct {
			SendPace struct {
				Account struct {
					Available int `json:"available"`
				} `json:"account"`
				RecentTargets []any `json:"recent_targets"`
			} `json:"send_pace"`
		}
		down.call(t, "get_runtime_info", nil, nil).decodeResult(t, &info)
		assert.Equal(t, 50, info.SendPace.Account.Available, "nothing was spent while SnowLuma was down")
		assert.Empty(t, info.SendPace.RecentTargets)
	})
}

// TestFetchPttTextTakesANumericMessageID: its description and SnowLuma
// accept a number as well as a string.
func TestFetchPttTextTakesANumericMessageID(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		for _, id := range []any{-1264852461, "-1264852461"} {
			r := s.call(t, "query_action", map[string]any{"action": "fetch_ptt_text", "params": map[string]any{"message_id": id}}, nil)
			require.False(t, r.IsError, "%v: %s", id, r.Text)
		}
	})
}

// TestAForwardsPlaceholderZeroIsSkippedAsSnowLumaSkipsIt (issue 51 §4):
// send_forward_msg reads group_id and user_id raw and takes 0 for "this
// branch does not apply" (its contract says so). A call that names the
// user with a group_id of 0 is paced for the private chat and sent there;
// one whose message_type picks the group with a group_id of 0 is refused
// before sending with SnowLuma's reason, and spends nothing.
func TestAForwardsPlaceholderZeroIsSkippedAsSnowLumaSkipsIt(t *testing.T) {
	t.Parallel()
	nodes := []any{map[string]any{"type": "node", "data": map[string]any{"user_id": "10002", "nickname": "Alice", "content": "hi"}}}
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, paceEnv("target=1+1/1h,account=50+1/10ms", "0"))

		r, tag := s.sendNow(t, "send_forward_msg", map[string]any{"message_type": "private", "user_id": 10002, "group_id": 0, "messages": nodes}, nil)
		require.False(t, r.IsError, r.Text)
		require.Len(t, snow.ByTag(tag), 1, "sent")
		var res struct {
			Data struct {
				MessageID int32 `json:"message_id"`
			} `json:"data"`
		}
		r.decodeResult(t, &res)
		kind, target, ok := snow.SentTo(res.Data.MessageID)
		require.True(t, ok)
		assert.Equal(t, "private", kind)
		assert.Equal(t, int64(10002), target)
		r, tag = s.sendNow(t, "send_private_msg", map[string]any{"user_id": 10002, "message": "hi"}, nil)
		require.True(t, r.IsError, "the forward was paced for the private chat")
		assert.Contains(t, r.Diag.Message, "user 10002's send budget is spent")
		assert.Empty(t, snow.ByTag(tag))

		r, tag = s.sendNow(t, "send_forward_msg", map[string]any{"message_type": "group", "group_id": 0, "messages": nodes}, nil)
		require.True(t, r.IsError, r.Text)
		assert.Equal(t, "invalid_argument", r.Diag.Kind)
		assert.Equal(t, "failed", r.Diag.Outcome)
		assert.Contains(t, r.Diag.Message, `"group_id is required"`, "SnowLuma's reason")
		assert.Empty(t, snow.ByTag(tag), "nothing reached SnowLuma")
	})
}
