package search

import (
	"context"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
)

// naturalQueries are requests phrased the way people phrase them, in both
// languages, each with an action that answers it. They were written from
// how QQ users and agents ask, not from the catalog's wording.
var naturalQueries = []struct{ query, action string }{
	{"给群里发消息", "send_group_msg"},
	{"发送群消息", "send_group_msg"},
	{"私聊发消息", "send_private_msg"},
	{"给好友发一条私信", "send_private_msg"},
	{"撤回消息", "delete_msg"},
	{"撤回我刚发的那条", "delete_msg"},
	{"把他踢出去", "set_group_kick"},
	{"踢人", "set_group_kick"},
	{"群列表", "get_group_list"},
	{"我加了哪些群", "get_group_list"},
	{"群成员列表", "get_group_member_list"},
	{"群里有谁", "get_group_member_list"},
	{"禁言某人", "set_group_ban"},
	{"全员禁言", "set_group_whole_ban"},
	{"戳一戳他", "send_poke"},
	{"在群里拍一拍", "group_poke"},
	{"发群公告", "_send_group_notice"},
	{"查看群公告", "_get_group_notice"},
	{"群聊天记录", "get_group_msg_history"},
	{"和好友的聊天记录", "get_friend_msg_history"},
	{"发说说", "send_qzone_msg"},
	{"给成员设置头衔", "set_group_special_title"},
	{"退群", "set_group_leave"},
	{"同意好友申请", "set_friend_add_request"},
	{"处理加群申请", "set_group_add_request"},
	{"群签到", "set_group_sign"},
	{"每日打卡", "set_group_sign"},
	{"上传群文件", "upload_group_file"},
	{"我的好友有哪些", "get_friend_list"},
	{"我是谁", "get_login_info"},
	{"改群名", "set_group_name"},
	{"设置管理员", "set_group_admin"},
	{"改群名片", "set_group_card"},
	{"给他点赞", "send_like"},
	{"设为精华消息", "set_essence_msg"},
	{"合并转发", "send_forward_msg"},
	{"send a message to the group", "send_group_msg"},
	{"list my groups", "get_group_list"},
	{"who is in this group", "get_group_member_list"},
	{"who am I logged in as", "get_login_info"},
	{"recall a message", "delete_msg"},
	{"kick someone out of the group", "set_group_kick"},
	{"mute a member", "set_group_ban"},
	{"upload a file to the group", "upload_group_file"},
	{"poke my friend", "friend_poke"},
	{"post on qzone", "send_qzone_msg"},
	{"read the group chat history", "get_group_msg_history"},
	{"approve a friend request", "set_friend_add_request"},
	{"leave the group", "set_group_leave"},
	{"make someone an admin", "set_group_admin"},
	{"is the bot online", "get_status"},
	{"post a group announcement", "_send_group_notice"},
	{"daily sign-in", "set_group_sign"},
	{"send a private message", "send_private_msg"},
	{"give a member a special title", "set_group_special_title"},
	{"rename the group", "set_group_name"},
	{"what version is running", "get_version_info"},
	{"download link of a group file", "get_group_file_url"},
}

// firstCall is what one default search_actions call shows a model: the
// matches, or when there are none, the suggestions.
func firstCall(c *Index, q string) []string {
	found, suggested := c.Find(context.Background(), q, catalog.Filter{})
	if len(found) > 0 {
		return names(found)
	}
	return names(suggested)
}

// TestNaturalQueriesFindTheirAction: one default call ranks the action in
// its first five, and so does keywords mode wherever it finds anything.
func TestNaturalQueriesFindTheirAction(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, q := range naturalQueries {
		t.Run(q.query, func(t *testing.T) {
			t.Parallel()
			got := firstCall(c, q.query)
			assert.Contains(t, got[:min(5, len(got))], q.action, "first call: %v", got)
		})
	}
}

// TestNaturalQueryHitRates reports the share of natural queries whose
// action is in the first five: of the first call, and of keywords mode.
// It is a measurement for the report (go test -run HitRates -v), checked
// only against the floor the table test already holds.
func TestNaturalQueryHitRates(t *testing.T) {
	t.Parallel()
	c := load(t)
	first, keywords := 0, 0
	for _, q := range naturalQueries {
		if got := firstCall(c, q.query); assert.NotEmpty(t, got, q.query) && contains(got[:min(5, len(got))], q.action) {
			first++
		}
		if got := names(c.SearchKeywords(context.Background(), q.query, catalog.Filter{})); contains(got[:min(5, len(got))], q.action) {
			keywords++
		}
	}
	t.Logf("natural queries: %d; action in the first five: first call %d, keywords mode %d", len(naturalQueries), first, keywords)
	assert.GreaterOrEqual(t, len(naturalQueries), 40)
}
