package fake_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// TestWebReadsAnswerWhatWasPutThere: a web or cache read answers what the
// test put there for its key, in a shape the catalog's returnsSchema
// accepts, and fails as SnowLuma's web reads do (retcode 100) when there is
// nothing; the shut list is the roster's members whose mute is ahead.
func TestWebReadsAnswerWhatWasPutThere(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	srv.Answer("get_group_honor_info", "55501", json.RawMessage(`{"group_id":55501,"current_talkative":{"user_id":"10009","nickname":"n","avatar":"","description":"d"},`+
		`"talkative_list":[{"user_id":null,"nickname":"n","avatar":"","description":"d"}],"performer_list":[],"legend_list":[],"emotion_list":[],"strong_newbie_list":[]}`))
	srv.Answer("get_group_signed_list", "55501", json.RawMessage(`[{"user_id":10009,"nick":"n","time":1764700000,"rank":1}]`))
	srv.Answer("get_image", "x.jpg", json.RawMessage(`{"file":"x.jpg","url":"","file_size":"1","file_name":"x.jpg"}`))
	srv.Join(55501, fake.Member{UserID: 10009, Nick: "muted", ShutUntil: time.Now().Add(time.Hour).Unix()})
	srv.Join(55501, fake.Member{UserID: 10008, Nick: "was muted", ShutUntil: 1})
	for _, tt := range []struct{ action, params, want string }{
		{"get_group_honor_info", `{"group_id":55501,"type":"all"}`, ""},
		{"get_group_signed_list", `{"group_id":"55501"}`, `[{"user_id":10009,"nick":"n","time":1764700000,"rank":1}]`},
		{"get_image", `{"file":"x.jpg"}`, ""},
		{"get_group_shut_list", `{"group_id":55501}`, ""},
	} {
		t.Run(tt.action, func(t *testing.T) {
			t.Parallel()
			r := post(t, `{"action":"`+tt.action+`","params":`+tt.params+`}`, nil)
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.body), &env))
			require.Equal(t, "ok", env.Status, r.body)
			a, ok := cat.Lookup(tt.action)
			require.True(t, ok)
			v, err := schema.Compile(a.ReturnsSchema)
			require.NoError(t, err)
			assert.NoError(t, v.Validate(env.Data, "data"))
			if tt.want != "" {
				assert.JSONEq(t, tt.want, string(env.Data))
			}
			if tt.action == "get_group_shut_list" {
				var muted []map[string]any
				require.NoError(t, json.Unmarshal(env.Data, &muted))
				require.Len(t, muted, 1, "only a mute still ahead is listed")
				assert.Equal(t, "muted", muted[0]["nickname"])
			}
		})
	}
	t.Run("nothing there fails as a web read does", func(t *testing.T) {
		t.Parallel()
		r := post(t, `{"action":"get_group_signed_list","params":{"group_id":55502}}`, nil)
		assert.Contains(t, r.body, `"retcode":100`)
	})
}
