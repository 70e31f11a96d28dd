package search

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// TestARequestNamesTheIdsItActsOn: the kinds of id a request names, which
// add to the actions whose params take them.
func TestARequestNamesTheIdsItActsOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query string
		want  entity
	}{
		{"消息998877的详情", entityMessage},
		{"recall message -1559550018", entityMessage},
		{"mute 10001 in group 4455 for ten minutes", entityGroup},
		{"send hi to qq 1212", entityUser},
		{"kick @Bob from 群123456", entityGroup | entityUser},
		{"list my groups", 0},
		{"set the group name to 2024", 0},
		{"相册“春游”里有哪些照片", entityAlbum},
		{"list the photos in album a1b2 of group 5566", entityAlbum | entityGroup},
		{"open folder /abc123 in group 9090's files", entityFolder | entityGroup},
		{"群文件里“作业”那个文件夹", entityFolder},
		{"闪传 3f6c2a9e 里有什么", entityFileset},
		{"show my album list", 0},
		{"which fileset is https://qfile.qq.com/q/Zx9Yw8", entityShareCode},
		{"分享码 K7p2Qm 对应哪个闪传", entityShareCode},
		{"kick 10001, 10002 and 10003 from group 4455", entityGroup | entityPeople},
		{"踢掉 10001、10002，群 4455", entityGroup | entityPeople},
	} {
		t.Run(tc.query, func(t *testing.T) {
			assert.Equal(t, tc.want, entitiesOf(tc.query))
		})
	}
	c := load(t)
	a, ok := c.cat.Lookup("get_msg")
	if assert.True(t, ok) {
		assert.Equal(t, entityMessage, readsOf(a, false), "get_msg reads a message id")
	}
	a, ok = c.cat.Lookup("set_group_kick_members")
	if assert.True(t, ok) {
		assert.Equal(t, entityGroup|entityPeople, readsOf(a, false), "kicking members reads a group and a list of people")
	}
	a, ok = c.cat.Lookup("get_group_album_media_list")
	if assert.True(t, ok) {
		assert.Equal(t, entityGroup|entityAlbum, readsOf(a, false), "an album's media: a group and an album")
	}
	for q, want := range map[string]string{
		"看看群 5566 相册“春游”里的照片":                                       "get_group_album_media_list",
		"what's in folder /abc123 of group 9090":                    "get_group_files_by_folder",
		"my mate sent qfile.qq.com/q/Zx9Yw8, which fileset is that": "get_fileset_id",
		"remove 10001, 10002 and 10003 from group 4455 at once":     "set_group_kick_members",
	} {
		got := names(c.Suggest(context.Background(), q, catalog.Filter{}))
		if assert.NotEmpty(t, got, q) {
			assert.Equal(t, want, got[0], "%s: %v", q, got)
		}
	}
}

// TestARequestThatNamesNoGroupWantsNoGroupAction: without 群, group or
// join in it, a request about a chat is a friend's, so the group's
// action goes below the friend's; naming the group turns it round.
func TestARequestThatNamesNoGroupWantsNoGroupAction(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct {
		query string
		first []string
		below string
	}{
		{"看看我跟55667788的聊天记录", []string{"get_friend_msg_history"}, "get_group_msg_history"},
		{"给 10086 发一个合并转发，把消息 3344、5566 打包", []string{"send_forward_msg", "send_private_forward_msg"}, "send_group_forward_msg"},
		{"看看群55667788的聊天记录", []string{"get_group_msg_history"}, "get_friend_msg_history"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := names(c.Suggest(context.Background(), tc.query, catalog.Filter{}))
			require.Contains(t, got, tc.below)
			assert.Contains(t, tc.first, got[0], "%v", got)
		})
	}
	assert.True(t, namesGroup("show JOIN requests"))
	assert.False(t, namesGroup("show my friends"))
}

// TestTheRiskyFriendRequestsNeedTheirWord: a request to answer a friend
// request gets the plain action unless it names the risky ones QQ sets
// apart, whose actions share every other word with it (doubtShare).
func TestTheRiskyFriendRequestsNeedTheirWord(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct{ query, want string }{
		{"有人加我好友，同意吧 flag x1", "set_friend_add_request"},
		{"approve the friend request, flag x1", "set_friend_add_request"},
		{"同意那个可疑的好友申请 flag x1", "set_doubt_friends_add_request"},
		{"approve the suspicious friend request, flag x1", "set_doubt_friends_add_request"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := suggested(t, c, tc.query)
			assert.Equal(t, tc.want, got[0], "%v", got)
		})
	}
}
