package search

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// TestClassesOfPhrasingFindTheirAction: each row is one class of phrasing
// the ranking reads by rule rather than by a word list (issue 49's second
// round), with a request of that class written for this test; the action
// it names is the first suggestion.
func TestClassesOfPhrasingFindTheirAction(t *testing.T) {
	t.Parallel()
	x := load(t)
	tests := []struct{ class, query, first string }{
		{"a command's verb beats a question word in its object", "change whether people can find group 4242 by searching", "set_group_search"},
		{"to post on a place is to send", "post in group 4242: lunch is ready", "send_group_msg"},
		{"a document in the request is uploaded", "给好友5151发一下这个 /home/me/plan.pdf", "upload_private_file"},
		{"all the X in a read is a list of X", "display all the groups", "get_group_list"},
		{"dm is a private message", "dm 5151 the meeting moved", "send_private_msg"},
		{"what an apostrophe leaves votes for nothing", "what's 5151's level in group 4242", "get_group_member_info"},
		{"link does not vote beside the URL", "把这个链接 https://example.com/x 发到群4242", "send_group_msg"},
		{"mark as featured sets essence", "mark message 777 as a highlight", "set_essence_msg"},
		{"an API's camelCase name is one term", "getChat 4242", "get_group_info"},
		{"a removal verb wins over what it describes", "5151一直发广告 踢了 群4242", "set_group_kick"},
		{"let X know is tell X", "let group 4242 know the stream starts at 9", "send_group_msg"},
		{"rename group is the group's name", "rename group 4242 to Night Owls", "set_group_name"},
		{"哪些 in a read asks for a list", "我的好友有哪些", "get_friend_list"},
		{"a message verb first is a send", "message group 4242 good night all", "send_group_msg"},
		{"who is N is a person, not the account", "who is 5151?", "get_stranger_info"},
		{"clearing the cache is a removal asked for", "清一下缓存", "clean_cache"},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			got := names(x.Suggest(context.Background(), tt.query, catalog.Filter{}))
			require.NotEmpty(t, got, tt.query)
			if tt.first == "send_group_msg" || tt.first == "send_private_msg" {
				assert.Contains(t, []string{tt.first, "send_msg"}, got[0], "%s: %v", tt.query, got) // send_msg serves any send
				return
			}
			assert.Equal(t, tt.first, got[0], "%s: %v", tt.query, got)
		})
	}
}

// TestReadingsOfIntent: the intent read from a request's shape.
func TestReadingsOfIntent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query string
		want  intent
	}{
		{"群4242禁言名单", intentRead},                          // ends in what it reads
		{"和5151的私聊记录", intentRead},                         // the same, after a noun that is also a verb
		{"在群4242新建一个文件夹叫资料", intentCreate},                 // a verb that makes what it names
		{"can you send stickers?", intentRead},             // what the bot can do
		{"can you send this to group 4242?", intentCreate}, // a polite request: it names where
		{"have the bot quit group 4242", intentRemove},
		{"5151老发广告 踢了吧", intentRemove},
		{"pull the recent chat of group 4242", intentRead},
		{"群4242的公告呢", intentRead},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, intentOf(tt.query), tt.query)
	}
	assert.False(t, abilityQuestion("can you send this to group 4242?", []string{"can", "you", "send", "this", "to", "group"}), "a target makes it a request")
}

// TestAReadRequestNeverGetsAChangeFirstFromCatalogOrder: when nothing
// ranks, the catalog-order list a read request is pointed to leads with
// a read.
func TestAReadRequestNeverGetsAChangeFirstFromCatalogOrder(t *testing.T) {
	t.Parallel()
	x := load(t)
	var changes, reads []*catalog.Action
	for _, a := range x.cat.Actions() {
		if a.ReadOnly && len(reads) < 2 {
			reads = append(reads, a)
		} else if !a.ReadOnly && len(changes) < 2 {
			changes = append(changes, a)
		}
	}
	got := readsFirst(append(append([]*catalog.Action{}, changes...), reads...))
	require.Len(t, got, 4)
	assert.True(t, got[0].ReadOnly && got[1].ReadOnly)
	assert.False(t, got[2].ReadOnly || got[3].ReadOnly)
}
