package content

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// readCase is one read whose result names people: an item as SnowLuma's
// source writes it, with OBEY planted wherever someone other than the
// account chose the text, and what lockdown must make of it.
type readCase struct {
	action, data string
	// mark is the third_party member expected on the first item
	// carrying OBEY, in lockdown with 10002 trusted.
	mark string
	// shown are the words lockdown shows there (a trusted author's).
	shown []string
}

// TestTheNamesAStrangerChoseAreWithheldFromEveryRead: the reads that list
// people, groups, albums and files by the text someone else chose carry
// it under the catalog's declaration, so lockdown withholds it unless its
// author is trusted, and marking shows it as it was with the marker. The
// honor list names its holder by a number, a numeric string or null.
func TestTheNamesAStrangerChoseAreWithheldFromEveryRead(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	marking, lockdown := New(nil), New([]int64{10002})
	honor := func(id string) string {
		return `{"group_id":5,"current_talkative":{"user_id":` + id + `,"nickname":"OBEY nick","avatar":"https://q1.qlogo.cn/g?b=qq&nk=1","description":"OBEY desc"},` +
			`"talkative_list":[],"performer_list":[],"legend_list":[],"emotion_list":[],"strong_newbie_list":[]}`
	}
	for _, tt := range []readCase{
		{"get_group_shut_list", `[{"user_id":10009,"nickname":"OBEY","shut_up_time":1764700000}]`,
			`{"author":10009,"withheld":"untrusted_author"}`, nil},
		{"get_group_shut_list", `[{"user_id":10002,"nickname":"OBEY-trusted","shut_up_time":1764700000}]`,
			`{"author":10002,"trusted":true}`, []string{"OBEY-trusted"}},
		{"get_group_honor_info", honor("10009"), `{"author":10009,"field_authors":{"nickname":null},"withheld":"untrusted_author"}`, nil},
		{"get_group_honor_info", honor(`"10009"`), `{"author":10009,"field_authors":{"nickname":null},"withheld":"untrusted_author"}`, nil},
		{"get_group_honor_info", honor("null"), `{"author":null,"field_authors":{"nickname":null},"withheld":"unknown_author"}`, nil},
		{"get_group_honor_info", honor(`"10002"`), `{"author":10002,"field_authors":{"nickname":null},"trusted":true,"withheld":"unknown_author"}`, []string{"OBEY desc"}},
		{"get_group_honor_info", `{"group_id":5,"current_talkative":null,"talkative_list":[],"performer_list":[{"user_id":10009,"nickname":"OBEY","avatar":"","description":"OBEY"}],"legend_list":[],"emotion_list":[],"strong_newbie_list":[]}`,
			`{"author":10009,"field_authors":{"nickname":null},"withheld":"untrusted_author"}`, nil},
		{"get_group_signed_list", `[{"user_id":10002,"nick":"OBEY","time":1764700000,"rank":1}]`,
			`{"author":10002,"field_authors":{"nick":null},"trusted":true,"withheld":"unknown_author"}`, nil},
		{"get_group_list", `[{"group_id":5,"group_name":"OBEY","member_count":3,"max_member_count":200}]`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_group_info", `{"group_id":5,"group_name":"OBEY","member_count":3,"max_member_count":200}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_group_info_ex", `{"group_id":5,"group_name":"OBEY","member_count":3,"max_member_count":200}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_group_detail_info", `{"group_id":5,"group_name":"OBEY","member_count":3,"max_member_count":200}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_unidirectional_friend_list", `[{"uin":10009,"nick":"OBEY","source":"OBEY"}]`,
			`{"author":10009,"withheld":"untrusted_author"}`, nil},
		{"get_unidirectional_friend_list", `[{"uin":"10002","nick":"OBEY-trusted"}]`,
			`{"author":10002,"trusted":true}`, []string{"OBEY-trusted"}},
		{"get_group_album_list", `[{"id":"a1","name":"OBEY","picNum":2,"createTime":1764000000,"desc":"OBEY"}]`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_qun_album_list", `{"album_list":[{"album_id":"a1","album_name":"OBEY","create_time":1764000000,"pic_num":2}],"attach_info":"","has_more":false}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_group_album_media_list", `{"mediaList":[{"lloc":"l1","batch_id":"b1","url":"https://example.invalid/p.jpg","desc":"OBEY"}],"nextAttachInfo":""}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_image", `{"file":"OBEY.jpg","url":"","file_size":"12","file_name":"OBEY.jpg"}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_record", `{"file":"OBEY.amr","url":"","file_size":"12","file_name":"OBEY.amr","out_format":"mp3"}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_file", `{"file":"OBEY.jpg","url":"https://multimedia.nt.qq.com.cn/download?x","file_size":"12","file_name":"OBEY.jpg"}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"get_fileset_info", `{"fileset_id":"fs","file_list":[{"fileset_id":"fs","file_name":"OBEY","orig_name":"OBEY","size":1,"share_url":"","file_id":"f","download_url":""}]}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"download_fileset", `{"url":"https://example.invalid/f","file_name":"OBEY","file_size":1}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"share_peer", `{"arkMsg":"{\"prompt\":\"OBEY\"}"}`, `{"author":null,"withheld":"unknown_author"}`, nil},
		{"click_inline_keyboard_button", `{"result":0,"errMsg":"","status":0,"promptText":"OBEY","promptType":0,"promptIcon":0}`,
			`{"author":null,"withheld":"unknown_author"}`, nil},
		{"set_group_album_media_like", `{"likers":[{"nick":"OBEY"}]}`, `{"author":null,"withheld":"unknown_author"}`, nil},
	} {
		t.Run(tt.action+" "+tt.data[:min(len(tt.data), 40)], func(t *testing.T) {
			t.Parallel()
			a, ok := cat.Lookup(tt.action)
			require.True(t, ok)
			envelope := `{"status":"ok","retcode":0,"data":` + tt.data + `}`
			out, err := lockdown.Result([]byte(envelope), a.ThirdParty, func() int64 { return 10001 })
			require.NoError(t, err)
			withoutShown := string(out)
			for _, w := range tt.shown {
				assert.Contains(t, withoutShown, w, "a trusted author's words are shown")
				withoutShown = strings.ReplaceAll(withoutShown, w, "")
			}
			assert.NotContains(t, withoutShown, "OBEY", "lockdown withholds every word no trusted author wrote")
			assert.JSONEq(t, tt.mark, firstMark(t, out))

			shown, err := marking.Result([]byte(envelope), a.ThirdParty, func() int64 { return 10001 })
			require.NoError(t, err)
			assert.Equal(t, strings.Count(envelope, "OBEY"), strings.Count(string(shown), "OBEY"), "marking shows every word")
			assert.NotContains(t, firstMark(t, shown), "withheld")
		})
	}
}

// TestABareStringNamingNoOneIsWithheldInLockdown: a result that is one
// string (a group's contact card, a raw packet) has no member to name
// anyone nor to carry a marker, so lockdown withholds it and marking
// leaves it as it is.
func TestABareStringNamingNoOneIsWithheldInLockdown(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	for _, action := range []string{"send_group_ark_share", "share_group_ex", "send_packet"} {
		a, ok := cat.Lookup(action)
		require.True(t, ok)
		envelope := `{"status":"ok","retcode":0,"data":"{\"prompt\":\"OBEY\"}"}`
		out, err := New([]int64{10002}).Result([]byte(envelope), a.ThirdParty, func() int64 { return 10001 })
		require.NoError(t, err)
		assert.Equal(t, `{"status":"ok","retcode":0,"data":"[withheld by lockdown: the author could not be identified]"}`, string(out), action)
		out, err = New(nil).Result([]byte(envelope), a.ThirdParty, func() int64 { return 10001 })
		require.NoError(t, err)
		assert.Equal(t, envelope, string(out), action)
	}
}

// firstMark is the first third_party member in a result, as JSON.
func firstMark(t *testing.T, out []byte) string {
	t.Helper()
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			if m, ok := x[markerKey]; ok {
				return m
			}
			for _, k := range []string{"data", "current_talkative", "talkative_list", "performer_list", "album_list", "mediaList", "file_list"} {
				if c, ok := x[k]; ok {
					if m := walk(c); m != nil {
						return m
					}
				}
			}
		case []any:
			for _, e := range x {
				if m := walk(e); m != nil {
					return m
				}
			}
		}
		return nil
	}
	var doc any
	require.NoError(t, json.Unmarshal(out, &doc), string(out))
	m := walk(doc)
	require.NotNil(t, m, "a marker is found in %s", out)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}
