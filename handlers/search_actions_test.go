package handlers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog/search"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// searchArgsJSON is search_actions' arguments for query in mode.
func searchArgsJSON(t *testing.T, query, mode string) string {
	t.Helper()
	m := map[string]string{"query": query}
	if mode != "" {
		m["match"] = mode
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

func TestSearchRefusesAQueryBeyondItsLimit(t *testing.T) {
	t.Parallel()
	tool := SearchActions(deps(t, config.ModeDocs))
	for _, mode := range []string{"", "keywords"} {
		atLimit := strings.Repeat("群", search.MaxQueryBytes/len("群"))
		_, err := call(t, tool, searchArgsJSON(t, atLimit, mode), nil)
		require.NoError(t, err, "%s: a query of the limit is searched", mode)

		_, err = call(t, tool, searchArgsJSON(t, atLimit+"ab", mode), nil)
		require.Error(t, err)
		assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
		assert.Contains(t, err.Error(), "at most 4096 bytes")
		assert.Contains(t, fault.NextOf(err), "a few words")
	}
}

func TestSearchStopsWhenItsCallIsCancelled(t *testing.T) {
	t.Parallel()
	tool := SearchActions(deps(t, config.ModeDocs))
	for _, mode := range []string{"", "keywords"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		c := &pipeline.Call{}
		c.Tool, c.Arguments = tool, json.RawMessage(searchArgsJSON(t, "发送群消息", mode))
		_, err := handle(ctx, tool, c)
		assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err), mode)
	}
}

func TestGetActionSaysWhichNameASlipMeant(t *testing.T) {
	t.Parallel()
	_, err := call(t, GetAction(deps(t, config.ModeDocs)), `{"name":"send_group_notice"}`, nil)
	require.Error(t, err)
	assert.Equal(t, fault.CodeUnknownAction, fault.CodeOf(err))
	assert.Contains(t, err.Error(), "did you mean _send_group_notice")
	assert.Contains(t, fault.NextOf(err), "get_action _send_group_notice")
}

// searchResult runs search_actions and checks the result against the
// tool's output schema.
func searchResult(t *testing.T, query, mode string) map[string]any {
	t.Helper()
	tool := SearchActions(deps(t, config.ModeDocs))
	v, err := call(t, tool, searchArgsJSON(t, query, mode), nil)
	require.NoError(t, err)
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var out struct {
		Properties struct{ Result json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(tool.OutputSchema, &out))
	require.NoError(t, schema.MustCompile(string(out.Properties.Result)).Validate(raw, "result"), "the result fits its output schema")
	return v.(map[string]any)
}

func entryNames(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, e := range list {
		out = append(out, e.(map[string]any)["name"].(string))
	}
	return out
}

// TestEverySuggestionsListIsMarkedAsNearest: whenever a search gives
// suggestions, in either mode, they are marked as nearest matches in their
// own member and in the note, which names the best first.
func TestEverySuggestionsListIsMarkedAsNearest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query, mode string
		actions           bool   // whether actions is non-empty
		best              string // the first suggestion
		noteHas           string
	}{
		{"default mode, nothing holds the phrase", "发送群消息", "", false, "send_group_msg", "holds the query"},
		{"default mode, the first hit is a delete", "notice", "", true, "", "The first of actions, _del_group_notice, is not the best match"},
		{"keywords mode, nothing matches every word", "群 禁言 好友", "keywords", false, "", "try the default mode"},
		{"keywords mode, a phrase one word too many", "kick the member out of the group chat forever", "keywords", false, "", "nearest matches"},
		{"a segment, default mode", "send a picture", "", false, "send_group_msg", "nearest matches"},
		{"a segment, keywords mode", "发图片", "keywords", true, "send_group_msg", "message segment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := searchResult(t, tt.query, tt.mode)
			assert.Equal(t, tt.actions, len(entryNames(m["actions"])) > 0, "actions: %v", m["actions"])
			sugg := entryNames(m["suggestions"])
			require.NotEmpty(t, sugg)
			if tt.best != "" {
				assert.Equal(t, tt.best, sugg[0])
			}
			assert.Equal(t, "nearest", m["suggestions_match"])
			note, _ := m["note"].(string)
			assert.Contains(t, note, "suggestions are the nearest matches, not exact, the best first: "+sugg[0])
			assert.Contains(t, note, tt.noteHas)
		})
	}
}

func TestASearchWithoutSuggestionsSaysNothingBeside(t *testing.T) {
	t.Parallel()
	m := searchResult(t, "get_group_list", "")
	assert.Equal(t, "get_group_list", entryNames(m["actions"])[0])
	for _, k := range []string{"suggestions", "suggestions_match", "note", "hint"} {
		assert.NotContains(t, m, k)
	}
	m = searchResult(t, "frobnicate xyzzy", "keywords")
	assert.Empty(t, m["actions"])
	assert.NotContains(t, m, "suggestions")
	assert.Contains(t, m["note"], "try the default mode", "a keywords miss says what to try even with nothing to suggest")
}

// TestASegmentIsFoundWithItsSendActions: a request to send what is a
// message segment, in English or Chinese, leads with the actions that
// send it and gives the segment's JSON shape, never the can_send_image
// placeholder or text-to-speech.
func TestASegmentIsFoundWithItsSendActions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, first, shape string
	}{
		{"send a picture", "send_group_msg", `"type":"image"`},
		{"发图片到群里", "send_group_msg", `"type":"image"`},
		{"send a voice message to my friend", "send_private_msg", `"type":"record"`},
		{"发语音", "send_group_msg", `"type":"record"`},
		{"send a file", "send_group_msg", `"type":"file"`},
		{"发个表情", "send_group_msg", `"type":"face"`},
		{"send a face", "send_group_msg", `"type":"face"`},
		{"@某人", "send_group_msg", `"type":"at"`},
		{"at-mention a member", "send_group_msg", `"type":"at"`},
		{"艾特全体成员", "send_group_msg", `"type":"at"`},
		{"reply to a message", "send_group_msg", `"type":"reply"`},
		{"回复某条消息", "send_group_msg", `"type":"reply"`},
		{"forward messages to a group", "send_group_forward_msg", `"type":"node"`},
		{"转发聊天记录", "send_group_forward_msg", `"type":"node"`},
	}
	for _, tt := range tests {
		for _, mode := range []string{"", "keywords"} {
			t.Run(tt.query+" "+mode, func(t *testing.T) {
				t.Parallel()
				m := searchResult(t, tt.query, mode)
				hint, _ := m["hint"].(string)
				assert.Contains(t, hint, tt.shape)
				assert.Contains(t, hint, "not an action")
				sugg := entryNames(m["suggestions"])
				require.NotEmpty(t, sugg)
				assert.Equal(t, tt.first, sugg[0])
				for _, wrong := range []string{"can_send_image", "can_send_record", "send_group_ai_record", "get_ai_record"} {
					assert.NotEqual(t, wrong, sugg[0])
				}
			})
		}
	}
	for _, read := range []string{"查看图片", "get image info", "get forward message"} {
		assert.NotContains(t, searchResult(t, read, ""), "hint", "%s reads, and gets no hint", read)
	}
	for _, other := range []string{"发公告带图片", "post a group announcement with a picture"} {
		m := searchResult(t, other, "")
		assert.NotContains(t, m, "hint", "%s asks for an announcement, which has its own image", other)
		assert.Equal(t, "_send_group_notice", entryNames(m["suggestions"])[0], other)
	}
}

// TestKeywordsModeOffersReadsBesideOnlyChanges: a request that only reads
// whose every keywords hit changes something gets the ranked suggestions
// beside them, and the note says why.
func TestKeywordsModeOffersReadsBesideOnlyChanges(t *testing.T) {
	t.Parallel()
	m := searchResult(t, "which members can I kick", "keywords")
	actions := entryNames(m["actions"])
	require.NotEmpty(t, actions)
	sugg := entryNames(m["suggestions"])
	require.NotEmpty(t, sugg, "suggestions beside writes for a read request")
	note, _ := m["note"].(string)
	assert.Contains(t, note, "only reads")
}
