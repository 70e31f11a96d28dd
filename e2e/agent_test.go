package e2e

// What a model does with the server (issue 36): it quotes ids, reads only
// the text a host shows it, and searches in its own words. Each test runs
// the real binary on both protocol generations.

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// TestAQuotedIDReachesSnowLumaAsTheNumberItNames: SnowLuma reads "20001"
// as 20001, so the server does too, and sends the number.
func TestAQuotedIDReachesSnowLumaAsTheNumberItNames(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		quoted := strconv.Itoa(fake.GroupID)
		c := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": quoted, "message": "hi", "auto_escape": "false"}, "")
		require.False(t, c.res.IsError, "%s", c.res.Text)
		assert.Equal(t, "success", c.res.Diag.Outcome)
		sent := c.sent(t)
		require.Len(t, sent, 1)
		var p map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(sent[0].Params, &p))
		assert.Equal(t, quoted, string(p["group_id"]), "the id reaches SnowLuma as a JSON number")
		assert.Equal(t, "false", string(p["auto_escape"]), "a quoted boolean reaches SnowLuma as a boolean")
	})
}

// TestAMistypedIDIsRefusedAndNothingIsSent: a spelling that is no string of
// digits is refused before anything is sent, naming the param and the form
// it takes, with the next step in the text a host shows.
func TestAMistypedIDIsRefusedAndNothingIsSent(t *testing.T) {
	t.Parallel()
	for _, given := range []string{" 12", "0x10", "1e3", "12.7", "+12"} {
		t.Run(given, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				s := start(t, version, writeEnv())
				c := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": given, "message": "hi"}, "")
				require.True(t, c.res.IsError)
				assert.Equal(t, "invalid_argument", c.res.Diag.Kind)
				assert.Equal(t, "failed", c.res.Diag.Outcome)
				assert.Contains(t, c.res.Text, "params.group_id: want an integer, or a string of its decimal digits")
				assert.Contains(t, c.res.Text, "\noutcome: failed (not done)")
				assert.Contains(t, c.res.Text, "\nnext_step: Correct the call as the message says; nothing was sent")
				c.assertNothingSent(t)
			})
		})
	}
}

// TestTheTextAHostShowsIsEnough: a result's text is compact JSON; an
// envelope that confirms nothing keeps its JSON whole and is followed by
// its verdict, next step included.
func TestTheTextAHostShowsIsEnough(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, writeEnv())
		ok := s.run(t, "query_action", "get_login_info", nil, "")
		require.False(t, ok.res.IsError)
		assert.NotContains(t, ok.res.Text, "\n", "compact JSON")
		assert.Contains(t, ok.res.Text, `"user_id":`+strconv.Itoa(fake.SelfID))

		async := s.run(t, "invoke_action", "send_group_msg", map[string]any{"group_id": fake.GroupID, "message": "hi"}, "async")
		require.False(t, async.res.IsError)
		assert.Equal(t, "unknown", async.res.Diag.Outcome)
		require.Len(t, async.res.Raw.Content, 2)
		assert.JSONEq(t, string(async.res.Result), async.res.Text, "the first block is the envelope")
		assert.Contains(t, async.res.Verdict, "\noutcome: unknown (not confirmed: SnowLuma may have acted")
		assert.True(t, strings.HasSuffix(async.res.Verdict, "\nnext_step: "+async.res.Diag.NextStep))
	})
}

// TestASearchThatFindsNothingSuggests: a default search whose phrase no
// action contains keeps actions [] and suggests the closest actions by
// keywords, honouring the filters; keywords mode splits Chinese itself.
func TestASearchThatFindsNothingSuggests(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		s := start(t, version, docsEnv())
		type reply struct {
			Count       int               `json:"count"`
			Actions     []json.RawMessage `json:"actions"`
			Suggestions []struct {
				Name     string `json:"name"`
				ReadOnly bool   `json:"readOnly"`
			} `json:"suggestions"`
			SuggestionsMatch string `json:"suggestions_match"`
			Note             string `json:"note"`
		}
		var r reply
		s.call(t, "search_actions", map[string]any{"query": "把他踢出去"}, nil).decodeResult(t, &r)
		assert.Equal(t, 0, r.Count)
		assert.NotNil(t, r.Actions)
		assert.Empty(t, r.Actions)
		require.NotEmpty(t, r.Suggestions)
		assert.Equal(t, "set_group_kick", r.Suggestions[0].Name)
		assert.LessOrEqual(t, len(r.Suggestions), 10)
		assert.Equal(t, "nearest", r.SuggestionsMatch, "suggestions are marked as guesses")
		assert.Contains(t, r.Note, "nearest matches, not exact, the best first: set_group_kick")

		var ro reply
		s.call(t, "search_actions", map[string]any{"query": "who is in this group", "read_only": true}, nil).decodeResult(t, &ro)
		require.NotEmpty(t, ro.Suggestions)
		var top []string
		for _, a := range ro.Suggestions {
			assert.True(t, a.ReadOnly, a.Name)
			top = append(top, a.Name)
		}
		assert.Contains(t, top[:min(5, len(top))], "get_group_member_list")

		var hit reply
		s.call(t, "search_actions", map[string]any{"query": "get_msg"}, nil).decodeResult(t, &hit)
		assert.Positive(t, hit.Count)
		assert.Nil(t, hit.Suggestions, "a search whose first hit is the best suggests nothing")
		assert.Empty(t, hit.Note)

		var kw reply
		s.call(t, "search_actions", map[string]any{"query": "发送群消息", "match": "keywords"}, nil).decodeResult(t, &kw)
		require.NotEmpty(t, kw.Actions)
		var first struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal(kw.Actions[0], &first))
		assert.Equal(t, "send_group_msg", first.Name)
	})
}
