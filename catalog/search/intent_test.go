package search

import (
	"context"
	"strings"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// intentQueries are natural requests that read, create or remove, in
// both languages, written as a model or a QQ user asks.
var intentQueries = []struct {
	query string
	in    intent
}{
	{"list my groups", intentRead},
	{"show the group members", intentRead},
	{"get the group notice", intentRead},
	{"how many members are in the group", intentRead},
	{"which friends do I have", intentRead},
	{"list group files", intentRead},
	{"show the essence messages", intentRead},
	{"who is the admin of the group", intentRead},
	{"查群公告", intentRead},
	{"看看群文件", intentRead},
	{"我加了哪些群", intentRead},
	{"群里有多少人", intentRead},
	{"群成员列表", intentRead},
	{"查看精华消息", intentRead},
	{"群相册列表", intentRead},
	{"查询好友信息", intentRead},
	{"is the bot online", intentRead},
	{"post a group announcement", intentCreate},
	{"send a message to the group", intentCreate},
	{"add a group album", intentCreate},
	{"upload a file to the group", intentCreate},
	{"create a group folder", intentCreate},
	{"send a picture to my friend", intentCreate},
	{"发群公告", intentCreate},
	{"发送群消息", intentCreate},
	{"上传群文件", intentCreate},
	{"新建群文件夹", intentCreate},
	{"发说说", intentCreate},
	{"添加收藏表情", intentCreate},
	{"check in to the group", intentChange},
	{"delete a group file", intentRemove},
	{"recall a message", intentRemove},
	{"kick someone out of the group", intentRemove},
	{"删除群公告", intentRemove},
	{"撤回我刚发的那条", intentRemove},
	{"踢人", intentRemove},
	{"把一直发言刷屏的那个人禁言", intentChange},
	{"那几条好友验证给我拉一下", intentRead},
}

// assertRankedFor checks the head of one ranked list against the
// request's intent.
func assertRankedFor(t *testing.T, in intent, list []*catalog.Action, what string) {
	t.Helper()
	if len(list) == 0 {
		return
	}
	switch in {
	case intentRead:
		if list[0].ReadOnly {
			return
		}
		for _, a := range list {
			assert.False(t, a.ReadOnly, "%s: the write %s is first while the read %s is in the list", what, list[0].Name, a.Name)
		}
	case intentCreate:
		assert.False(t, removes(list[0]), "%s: a create request gets the removal %s first", what, list[0].Name)
		if list[0].ReadOnly {
			for _, a := range list {
				assert.True(t, a.ReadOnly, "%s: the read %s is first while the write %s is in the list", what, list[0].Name, a.Name)
			}
		}
	}
}

// TestARequestsIntentDecidesWhatComesFirst: in keywords mode and in every
// suggestions list, a read request never gets a write above a read, a
// create request never gets a removal first (nor a read while a write is
// listed); default mode's actions stay the substring hits in catalog
// order.
func TestARequestsIntentDecidesWhatComesFirst(t *testing.T) {
	t.Parallel()
	c := load(t)
	ctx := context.Background()
	for _, q := range intentQueries {
		t.Run(q.query, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, q.in, intentOf(q.query), "the request's intent")
			assertRankedFor(t, q.in, c.SearchKeywords(ctx, q.query, catalog.Filter{}), "keywords")
			assertRankedFor(t, q.in, c.Suggest(ctx, q.query, catalog.Filter{}), "suggestions")
			found, suggested := c.Find(ctx, q.query, catalog.Filter{})
			assertRankedFor(t, q.in, suggested, "default-mode suggestions")
			assert.Equal(t, names(catalogOrderHits(c, q.query)), names(found), "default-mode actions are the substring hits in catalog order")
			if len(found) > 0 && len(suggested) == 0 {
				assertRankedFor(t, q.in, found, "default-mode actions with no suggestions beside them")
			}
		})
	}
}

// catalogOrderHits is the seed's default search, written out again.
func catalogOrderHits(c *Index, q string) []*catalog.Action {
	q = strings.ToLower(strings.TrimSpace(q))
	var out []*catalog.Action
	for _, a := range c.cat.Actions() {
		if strings.Contains(strings.ToLower(strings.Join(append(append([]string{a.Name}, a.Aliases...), a.Summary, a.Category), "\n")), q) {
			out = append(out, a)
		}
	}
	return out
}

func TestDefaultModeRanksBesideHitsWhoseFirstIsNotTheBest(t *testing.T) {
	t.Parallel()
	c := load(t)
	ctx := context.Background()
	found, suggested := c.Find(ctx, "群公告", catalog.Filter{})
	require.NotEmpty(t, found)
	require.NotEmpty(t, suggested)
	assert.NotEqual(t, found[0], suggested[0], "suggestions come only when the best differs from the first hit")

	found, suggested = c.Find(ctx, "get_group_list", catalog.Filter{})
	assert.Equal(t, "get_group_list", found[0].Name)
	assert.Empty(t, suggested, "the first hit is the best: nothing beside it")
}

// TestPlaceholdersGoBelowRealActions: a placeholder keeps only part of
// its score, so a request to send a picture gets a real send first, while
// the question whether pictures can be sent still finds can_send_image.
func TestPlaceholdersGoBelowRealActions(t *testing.T) {
	t.Parallel()
	c := load(t)
	got := names(c.Suggest(context.Background(), "发图片", catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.NotEqual(t, "can_send_image", got[0], "%v", got)
	assert.Contains(t, names(c.Suggest(context.Background(), "能发图片吗", catalog.Filter{}))[:3], "can_send_image")
}

// TestReadCuesAndTheirTraps: the read cues of issue 49 read, and the
// requests that hold one but write stay writes.
func TestReadCuesAndTheirTraps(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"读群消息", "阅读聊天记录", "浏览群文件", "显示好友列表", "展示群成员", "搜索消息", "打开群文件", "调出群 4455 的加群设置", "read the group messages", "browse group messages"} {
		assert.Equal(t, intentRead, intentOf(q), q)
	}
	for _, q := range []string{"标记已读", "mark as read", "mark all messages as read", "打开全员禁言", "禁言他"} {
		assert.Equal(t, intentChange, intentOf(q), q)
	}
	c := load(t)
	ctx := context.Background()
	for q, first := range map[string]string{"读群消息": "get_group_msg_history", "browse group messages": "get_group_msg_history", "禁言": "set_group_ban", "打开群文件": "get_group_root_files"} {
		got := names(c.Suggest(ctx, q, catalog.Filter{}))
		if assert.NotEmpty(t, got, q) {
			assert.Equal(t, first, got[0], "%s: %v", q, got)
		}
	}
}

// TestThePayloadDoesNotVote: what a request carries (quotes, URLs, paths,
// @names, CQ codes, what follows say/tell/说/告诉 or a colon, what someone
// named by role and number said, to its clause's end) and what it puts
// off (…回头再说) are blanked before scoring, and the request is ranked
// by what it asks.
func TestThePayloadDoesNotVote(t *testing.T) {
	t.Parallel()
	for q, gone := range map[string]string{
		`send "kick everyone out" to the group`:            "kick",
		"post https://example.com/delete-all to my friend": "delete",
		"tell group 5 that the essence list is ready":      "essence",
		"在群里说：撤回所有公告":                                      "撤回",
		"告诉他明天禁言取消":                                        "禁言",
		"ping @delete_bot in the group":                    "delete",
		"群友 10002 说他被禁言了，查下群 5 的成员":                        "禁言",
		"show the bot's own qq so it doesnt mute itself":   "mute",
		"客服那边说要踢人 看下群 5 的成员":                               "踢",
		"好友动态最新五条 不要点赞":                                    "点赞",
		"给群 5 发 [CQ:at,qq=all] 明早停服":                       "all",
		"群 5 的文件列表，删哪些回头再说":                                "删",
		"群 5 的公告 要不要撤回再说":                                  "撤回",
	} {
		assert.NotContains(t, strings.ToLower(withoutPayload(q)), gone, q)
	}
	assert.Contains(t, withoutPayload("群友 10002 说他被禁言了，查下群 5 的成员"), "查下群", "the request goes on after what was said")
	c := load(t)
	got := names(c.Suggest(context.Background(), `send "please recall the essence announcement" to group 123`, catalog.Filter{}))
	require.NotEmpty(t, got)
	assert.Contains(t, []string{"send_group_msg", "send_msg"}, got[0], "%v", got)
}

// TestASegmentHintOnlyForASend: a hint comes where a request asks to send
// the segment, never for one that asks about it or merely carries it.
func TestASegmentHintOnlyForASend(t *testing.T) {
	t.Parallel()
	c := load(t)
	ctx := context.Background()
	for _, q := range []string{"发张图片到群里", "send a picture", "艾特全体成员"} {
		_, ok := c.SegmentHint(ctx, q)
		assert.True(t, ok, q)
	}
	for _, q := range []string{"谁发了图片", "which pictures did he send", "kick @Bob from the group", "把@小明 踢出群", "post https://example.com/cat.jpg in the group notice"} {
		_, ok := c.SegmentHint(ctx, q)
		assert.False(t, ok, q)
	}
}

// TestPhrasingsReadForWhatTheyAsk: phrasings the ranking once misread, by
// the rule that reads each (a causative or "make a new", a question about
// what was said, a passive 被…搜到, a QQ number, a card a read-only action
// builds, a can-you question in Chinese, the product's own name).
func TestPhrasingsReadForWhatTheyAsk(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct {
		query string
		in    intent
		first []string
	}{
		{"make a new folder 'homework' in group 9090's files", intentCreate, []string{"create_group_file_folder"}},
		{"before i remove him from 8080 check his join date, qq 10009", intentRead, []string{"get_group_member_info"}},
		{"签到快截止了，要把不活跃的踢掉之前先看下群 8080 谁签过到", intentRead, []string{"get_group_signed_list"}},
		{"她说要删群相册 先列一下群 8080 的相册", intentRead, []string{"get_qun_album_list", "get_group_album_list"}},
		{"群主发语音说要全员禁言 把那条语音转成文字 消息 4433", intentRead, []string{"fetch_ptt_text"}},
		{"听说 10001 退群了 查下群 8080 的成员名单", intentRead, []string{"get_group_member_list"}},
		{"my friend said the bot kicked him. list the members of 8080", intentRead, []string{"get_group_member_list"}},
		{"suspicious add-friend requests, first 3", intentRead, []string{"get_doubt_friends_add_request"}},
		{"msg 99887766 details, who the sender was", intentNone, []string{"get_msg"}},
		{"合并转发内容 编号 QwErTy", intentNone, []string{"get_forward_msg"}},
		{"他说的那条消息撤回 消息 4433", intentRemove, []string{"delete_msg"}},
		{"撤回他说的那条消息 4433", intentRemove, []string{"delete_msg"}},
		{"show the photo albums of group 8080", intentRead, []string{"get_qun_album_list", "get_group_album_list"}},
		{"who r my friends", intentRead, []string{"get_friend_list", "get_friends_with_category"}},
		{"give me everyone in group 8080, the members", intentRead, []string{"get_group_member_list"}},
		{"rename file /a1 in folder /f9 of group 8080 to notes.docx", intentChange, []string{"rename_group_file"}},
		{"delete file /a1 inside folder /f9 of group 8080", intentRemove, []string{"delete_group_file"}},
		{"remove message 4433 from the featured list of group 8080", intentRemove, []string{"delete_essence_msg"}},
		{"group 8080's members with levels", intentRead, []string{"get_group_member_list"}},
		{"群 8080 里现在谁被禁言了 想解禁之前先看一眼", intentRead, []string{"get_group_shut_list"}},
		{"想把机型改成 Galaxy S24 Ultra 之前先查一下它的展示信息", intentRead, []string{"_get_model_show"}},
		{"客服那边说 cookie 失效了 看下 qun.qq.com 的 cookies", intentRead, []string{"get_cookies", "get_credentials"}},
		{"好友空间的动态 最新五条 不要点赞", intentRead, []string{"get_qzone_feeds"}},
		{"老外在群里发了句 \"don't ban me, I'll behave\" 翻译成中文", intentRead, []string{"translate_en2zh"}},
		{"take down the old group notice in 9090", intentRemove, []string{"_del_group_notice"}},
		{"nuke the folder /a1 in group 9090's files", intentRemove, []string{"delete_group_file_folder", "delete_group_folder"}},
		{"what did 10002 say in group 9090 today?", intentRead, []string{"get_group_msg_history"}},
		{"what were they saying in group 9090 this morning?", intentRead, []string{"get_group_msg_history"}},
		{"让群9090可以被别人搜到", intentNone, []string{"set_group_search"}},
		{"send hi to qq 1212", intentCreate, []string{"send_private_msg", "send_msg"}},
		{"share the contact card of 10001", intentCreate, []string{"share_peer", "send_ark_share"}},
		{"能不能发图片", intentRead, []string{"can_send_image"}},
		{"能发图片吗？帮我查下", intentRead, []string{"can_send_image"}},
		{"把这个闪传分享链接解析成文件集 ID https://qfile.qq.com/q/Zz11", intentRead, []string{"get_fileset_id"}},
		{"被风控的加好友请求都有哪些", intentRead, []string{"get_doubt_friends_add_request"}},
		{"could I send pictures with this bot? just curious", intentRead, []string{"can_send_image"}},
		{"expand the merged forward in message 5566", intentRead, []string{"get_forward_msg"}},
		{"check in to group 4455 today", intentChange, []string{"set_group_sign"}},
		{"feature message 7788 in group 4455's essence list", intentChange, []string{"set_essence_msg"}},
		{"shut up 10001 in group 4455 for ten minutes", intentChange, []string{"set_group_ban"}},
		{"群文件 /abc-123，把它挪到 /f-2024 文件夹，群 5566", intentChange, []string{"move_group_file"}},
		{"看看群 5566 的资料，不要用缓存", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex"}},
		{"clean the cache", intentRemove, []string{"clean_cache"}},
		{"show every member of group 4455 with their titles and cards", intentRead, []string{"get_group_member_list"}},
		{"给 10001 传个文件 /tmp/a.pdf，文件名改成 报告.pdf", intentNone, []string{"upload_private_file"}},
		{"把群 5566 的文件 /a1 的文件名改成 x.pdf", intentChange, []string{"rename_group_file"}},
		{"有个人想加我为好友，flag abc123，同意吧", intentChange, []string{"set_friend_add_request"}},
		{"synthesize 'good night' with an AI voice and give me the audio url", intentCreate, []string{"get_ai_record"}},
		{"用 AI 声音合成一段“晚安”，把语音链接给我", intentCreate, []string{"get_ai_record"}},
		{"whats the like count on my profile", intentRead, []string{"get_profile_like"}},
		{"download url of the file 10001 sent me in dm, file_id ab12", intentRead, []string{"get_private_file_url"}},
		{"who is muted in group 4455 now? the muted ones only", intentRead, []string{"get_group_shut_list"}},
		{"给 QQ 10001 刷点名片赞", intentChange, []string{"send_like"}},
		{"把 7788 这条消息从精华里移掉", intentRemove, []string{"delete_essence_msg"}},
		{"ack everything in group 4455 as seen", intentChange, []string{"mark_group_msg_as_read", "mark_msg_as_read"}},
		{"require approval before a bot is brought into group 4455", intentChange, []string{"set_group_robot_add_option"}},
		{"unlike photo b1 in album a2 of group 4455", intentRemove, []string{"cancel_group_album_media_like"}},
		{"这条语音 v9.amr 的下载链接", intentRead, []string{"get_record", "get_file"}},
		{"用 AI 声音在群 4455 念一句“早上好”", intentCreate, []string{"send_group_ai_record", "get_ai_record"}},
		{"have an AI voice read out 'good luck' in group 4455", intentCreate, []string{"send_group_ai_record", "get_ai_record"}},
		{"let 10001 see 'typing…'", intentChange, []string{"set_input_status"}},
		{"对 10001 显示“输入中”", intentChange, []string{"set_input_status"}},
		{"tell 10001 'stop typing in caps'", intentCreate, []string{"send_private_msg", "send_msg"}},
		{"show my recent conversations", intentRead, []string{"get_recent_contact"}},
		{"10007私聊我说了啥", intentRead, []string{"get_friend_msg_history"}},
		{"给我发一下群列表", intentRead, []string{"get_group_list"}},
		{"还能不能@全体了，群号 4455", intentRead, []string{"get_group_at_all_remain"}},
		{"page through the photos of album a1 in group 4455", intentRead, []string{"get_group_album_media_list"}},
		{"turn share code Ab12 into a fileset id", intentRead, []string{"get_fileset_id"}},
		{"bump 10001's profile likes", intentChange, []string{"send_like"}},
		{"在群 4455 里叫他明天交作业", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"给好友 10001 改个备注，只有我看得见", intentChange, []string{"set_friend_remark"}},
		{"stream https://e.example/a.pdf back to me in chunks", intentNone, []string{"download_file_stream"}},
		{"open a dm with 10001 and say hi", intentCreate, []string{"send_private_msg", "send_msg"}},
		{"在他空间那条说说底下回一句 好看", intentCreate, []string{"comment_qzone"}},
		{"what does the announcement of group 4455 say?", intentRead, []string{"_get_group_notice"}},
		{"what did 10003 say in the group? it was message 998877", intentRead, []string{"get_msg"}},
		{"what does the voice message 7788 say?", intentRead, []string{"fetch_ptt_text"}},
		{"存个表情 https://e.example/cat.png", intentChange, []string{"add_custom_face"}},
		{"zap message 7788 from group 4455's essence", intentRemove, []string{"delete_essence_msg"}},
		{"缓存里那张图 a1.jpg 的信息", intentRead, []string{"get_image", "get_file"}},
		{"change the bot's own nickname in group 4455 to Helper", intentChange, []string{"set_group_card"}},
		{"群 4455 有人邀请机器人进群，接受吧", intentChange, []string{"set_group_add_request"}},
		{"有人加我好友，flag f1，拒了", intentChange, []string{"set_friend_add_request"}},
		{"把 7788 这条消息删掉，发错群了", intentRemove, []string{"delete_msg"}},
		{"这条精华 msg 7788 撤下来", intentRemove, []string{"delete_essence_msg"}},
		{"群 4455 待处理的加群申请列一下", intentRead, []string{"get_group_system_msg"}},
		{"private file url for file_id f1 from user 10001", intentRead, []string{"get_private_file_url"}},
		{"relay message 7788 into group 4455", intentCreate, []string{"forward_group_single_msg"}},
		{"mkdir docs in group 4455's files", intentCreate, []string{"create_group_file_folder"}},
		{"群 4455 那个“旧资料”文件夹不要了", intentRemove, []string{"delete_group_file_folder", "delete_group_folder"}},
		{"the url to download file /f1 of group 4455's files", intentRead, []string{"get_group_file_url"}},
		{"把这个链接下载到服务器上 https://e.example/a.zip", intentChange, []string{"download_file"}},
		{"forward message 7788 to my friend 10001, not as a chat record", intentCreate, []string{"forward_friend_single_msg"}},
		{"看看我的QQ收藏（不是表情）", intentRead, []string{"get_collection_list"}},
		{"poke 10001 in private, not in a group", intentChange, []string{"friend_poke", "send_poke"}},
		{"open the chat log of group 4455", intentRead, []string{"get_group_msg_history"}},
		{"这条合并转发 id Ab12 里都说了啥", intentRead, []string{"get_forward_msg"}},
		{"群 4455 的群文件一共有几个文件", intentRead, []string{"get_group_file_system_info"}},
		{"can the bot send voice clips at the moment?", intentRead, []string{"can_send_record"}},
		{"can this bot account send pictures now?", intentRead, []string{"can_send_image"}},
		{"list my qzone posts so I can delete the old one", intentRead, []string{"get_qzone_msg_list"}},
		{"他现在是在线还是离开？qq 10001", intentRead, []string{"nc_get_user_status"}},
		{"pat 10001 in group 4455", intentChange, []string{"group_poke", "send_poke"}},
		{"群 4455 的公告里是怎么说的", intentRead, []string{"_get_group_notice"}},
		{"算一下 bkn，调网页接口用", intentRead, []string{"get_csrf_token", "get_credentials"}},
		{"speech-to-text for voice message 7788", intentRead, []string{"fetch_ptt_text"}},
		{"list the members of group 4455 incl. their titles", intentRead, []string{"get_group_member_list"}},
		{"群 4455 把这几个号踢了：10001 10002 10003", intentRemove, []string{"set_group_kick_members"}},
		{"群 4455 那个叫旧照片的文件夹 /f1 删了", intentRemove, []string{"delete_group_file_folder", "delete_group_folder"}},
		{"群 4455 的文件 /a1 从文件夹 /f1 移回根目录", intentChange, []string{"move_group_file"}},
		{"double-tap 10001's avatar in group 4455", intentNone, []string{"group_poke", "send_poke"}},
		{"群 4455 里 10001 的群名片", intentRead, []string{"get_group_member_info"}},
		{"给消息 7788 贴个 66 的表情", intentNone, []string{"set_msg_emoji_like", "set_group_reaction"}},
		{"the checkin roster of group 4455 today", intentRead, []string{"get_group_signed_list"}},
		{"好友列表给我，我要挑几个人私聊", intentRead, []string{"get_friend_list", "get_friends_with_category"}},
		{"我要批量踢人，先给我 qun.qq.com 的 cookies 和 csrf", intentRead, []string{"get_credentials"}},
		{"今天有人给我点赞没", intentRead, []string{"get_profile_like"}},
		{"群 4455 加精的都列出来", intentRead, []string{"get_essence_msg_list"}},
		{"file /a1 in group 4455's files should be called b.pdf", intentChange, []string{"rename_group_file"}},
		{"把在线机型显示改成 Pixel 8", intentChange, []string{"_set_model_show"}},
		{"pin message 7788 as a group to-do in 4455 so everyone sees it", intentChange, []string{"set_group_todo"}},
		{"能发图片吗？确认一下我再发", intentRead, []string{"can_send_image"}},
		{"群 4455 那条公告多少人已读了", intentRead, []string{"_get_group_notice"}},
		{"yo bot, send 'hi' to group 4455", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"群 4455 全员闭麦", intentChange, []string{"set_group_whole_ban"}},
		{"look up member 10001 in group 4455", intentRead, []string{"get_group_member_info"}},
		{"heartbeat check", intentRead, []string{"get_status"}},
		{"bot status check", intentRead, []string{"get_status"}},
		{"私聊里收到的文件 /ab12 怎么下载？发件人 QQ 10001", intentRead, []string{"get_private_file_url"}},
		{"群 4455 的公告里报名截止是哪天", intentRead, []string{"_get_group_notice"}},
		{"帮我确认下能不能发语音", intentRead, []string{"can_send_record"}},
		{"有人说想进群 4455，查下被过滤的入群请求", intentRead, []string{"get_group_ignore_add_request", "get_group_ignored_notifies"}},
		{"need the rkeys to sign image links", intentRead, []string{"get_rkey", "get_rkey_server"}},
		{"generate a voice clip of 'hi' with AI character c1 in group 4455 and give me its url", intentCreate, []string{"get_ai_record"}},
		{"the ai voice characters of group 4455, to pass one to send_group_ai_record", intentRead, []string{"get_ai_characters"}},
		{"make a recommendation card json for group 4455", intentRead, []string{"share_group_ex", "send_group_ark_share", "share_peer", "send_ark_share"}},
		{"好友 10086 私聊发来的文件 /a-1 给我个下载链接", intentRead, []string{"get_private_file_url"}},
		{"label my friend 10086 as 'Uncle Wang'", intentChange, []string{"set_friend_remark"}},
		{"给 10086 显示我正在说话", intentChange, []string{"set_input_status"}},
		{"群 4455 的 10086 给他一张飞机票", intentRemove, []string{"set_group_kick", "set_group_kick_members"}},
		{"把消息 9988 从精华里拿掉", intentRemove, []string{"delete_essence_msg"}},
		{"unset essence on message 9988", intentRemove, []string{"delete_essence_msg"}},
		{"把这句话切成词：今天天气不错", intentRead, []string{".get_word_slices"}},
		{"图片转文字 把 a1b2.png 上的内容读出来", intentRead, []string{"ocr_image"}},
		{"shut the bot process down for good", intentRemove, []string{"bot_exit"}},
		{"群 5566 的文件 /x9 改个名叫 作业.pdf", intentChange, []string{"rename_group_file"}},
		{"把 QQ 7001 和 7002 都移出群 8002", intentRemove, []string{"set_group_kick_members"}},
		{"刚收到那张 7F3E2D.jpg 的链接查一下", intentRead, []string{"get_image", "get_file"}},
		{"take message 4455 off the group's essence list", intentRemove, []string{"delete_essence_msg"}},
		{"trash flash transfer fileset ab12-cd", intentRemove, []string{"delete_flash_file"}},
		{"群 5566 改个名字叫 读书会", intentChange, []string{"set_group_name"}},
		{"把群文件里的 新建文本.txt 改名成 周报.txt，群 5566", intentChange, []string{"rename_group_file"}},
		{"群 5566 那个发广告的 10086，给他一张飞机票", intentRemove, []string{"set_group_kick", "set_group_kick_members"}},
		{"消息 778899 是谁发的", intentRead, []string{"get_msg"}},
		{"who sent message 778899?", intentRead, []string{"get_msg"}},
		{"send_msg message_type=private user_id=10001 message='hi'", intentCreate, []string{"send_msg"}},
		{"turn the whole-group mute off in group 4455", intentChange, []string{"set_group_whole_ban"}},
		{"能不能帮我把图片发到群里", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"别人空间的说说", intentRead, []string{"get_qzone_feeds", "get_qzone_msg_list"}},
		{"把语音 r1.amr 转成 wav 取回来", intentRead, []string{"get_record"}},
		{"消息998877的详情", intentRead, []string{"get_msg"}},
		{"这个群满员没 群 556677", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex"}},
		{"make a weibo mini-app share card json", intentRead, []string{"get_mini_app_ark"}},
		{"un-essence message 1559550018", intentRemove, []string{"delete_essence_msg"}},
		{"kick 10005, 10006 and 10007 out of group 123456789", intentRemove, []string{"set_group_kick_members"}},
		{"rename group file /f4c9 in 123456789 to 'notes.pdf'", intentChange, []string{"rename_group_file"}},
		{"set the group card of member 44556677 in 556677889 to [Mod] Alice", intentChange, []string{"set_group_card"}},
		{"change my nickname in group 60412388 to Duty Bot", intentChange, []string{"set_group_card"}},
		{"take message 99123 out of the group's essence list", intentRemove, []string{"delete_essence_msg"}},
		{"shut the bot down, kill the process", intentRemove, []string{"bot_exit"}},
		{"群文件/a1b2c3d4的下载地址发我一下，群60412388", intentRead, []string{"get_group_file_url"}},
		{"帮我发我的照片到群123456", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"send me the pinned announcements of group 121314", intentRead, []string{"_get_group_notice"}},
		{"unsend message 12345", intentRemove, []string{"delete_msg"}},
		{"set the bot to busy", intentChange, []string{"set_online_status"}},
		{"lift the all-member mute in 445566", intentChange, []string{"set_group_whole_ban"}},
		{"how many people are in group 4455", intentRead, []string{"get_group_info", "get_group_info_ex", "get_group_detail_info"}},
		{"群 123456789 叫啥名字，有多少人", intentRead, []string{"get_group_info", "get_group_info_ex", "get_group_detail_info"}},
		{"how many friends do I have", intentRead, []string{"get_friend_list", "get_friends_with_category"}},
		{"现在这个号能不能发语音？查一下", intentRead, []string{"can_send_record"}},
		{"目前能发图片吗，看一下", intentRead, []string{"can_send_image"}},
		{"转一下这条语音的文字 消息id 88990", intentRead, []string{"fetch_ptt_text"}},
		{"打开全员禁言前先看看群 5566 谁已经在小黑屋里了", intentRead, []string{"get_group_shut_list"}},
		{"把这段文字转成语音发群里", intentCreate, []string{"send_group_ai_record", "get_ai_record"}},
		{"打开群123456789的全员禁言", intentChange, []string{"set_group_whole_ban"}},
		{"打开群 7788 的匿名聊天", intentChange, []string{"set_group_anonymous"}},
		{"打开群 7788 的加群验证", intentChange, []string{"set_group_add_option"}},
		{"把群相册里那张照片的赞取消掉，群号 778899", intentRemove, []string{"cancel_group_album_media_like"}},
		{"cancel my like on album photo m1 in group 5566", intentRemove, []string{"cancel_group_album_media_like"}},
		{"把“我爱北京天安门”分一下词", intentRead, []string{".get_word_slices"}},
		{"把“明天去爬山”切个词", intentRead, []string{".get_word_slices"}},
		{"把这条通知（消息 7788）设成群待办，群 9090", intentChange, []string{"set_group_todo"}},
		{"群7008009里那个广告号T了 10001", intentRemove, []string{"set_group_kick", "set_group_kick_members"}},
		{"what did 3344556677 say to me in DMs yesterday?", intentRead, []string{"get_friend_msg_history"}},
		{"换个群头像，用主机上/home/bot/logo.png，群556677", intentChange, []string{"set_group_portrait"}},
		{"把群12345的未读清掉", intentRemove, []string{"mark_group_msg_as_read"}},
		{"the bot needs to leave group 9090", intentRemove, []string{"set_group_leave"}},
		{"forward that image message 12345 to group 678", intentCreate, []string{"forward_group_single_msg"}},
		{"show group 4455 this link: https://x.example/a", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"grab every member of group 4455 with their roles", intentRead, []string{"get_group_member_list"}},
		{"dm 10001 a merged forward of messages 1122 and 3344", intentCreate, []string{"send_private_forward_msg", "send_forward_msg"}},
		{"send 10001 the meeting moved to friday", intentCreate, []string{"send_private_msg", "send_msg"}},
		{"把群 5566 改名叫 读书会", intentChange, []string{"set_group_name"}},
		{"群 5566 清人：10086、10087 全部移出去", intentRemove, []string{"set_group_kick_members"}},
		{"look up the details of group 4455", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex"}},
		{"look up qq 10001", intentRead, []string{"get_stranger_info"}},
		{"把群 5566 里的文件 /a1 改名叫 x.pdf", intentChange, []string{"rename_group_file"}},
		{"刷屏那个直接 T 了，群 5566 QQ 77889", intentRemove, []string{"set_group_kick", "set_group_kick_members"}},
		{"which files does flash transfer 9e9e-77 hold?", intentRead, []string{"get_flash_file_list", "get_fileset_info"}},
		{"闪传 ab12-cd34 的分享链接是啥", intentRead, []string{"get_share_link"}},
		{"闪传文件集 9f9f 改名 期末资料", intentChange, []string{"rename_flash_file"}},
		{"闪传 ab12-cd34 生成个分享链接", intentCreate, []string{"get_share_link"}},
		{"踢人之前先看看群 4455 的禁言名单", intentRead, []string{"get_group_shut_list"}},
		{"the reply quotes message 7788, fetch it", intentRead, []string{"get_msg"}},
		{"someone answered me with reply id 7788, pull up the quoted message", intentRead, []string{"get_msg"}},
		{"get the bot out of group 4455 today", intentRemove, []string{"set_group_leave"}},
		{"对 10001 显示“对方正在讲话…”", intentChange, []string{"set_input_status"}},
		{"把机器人从群 4455 退掉", intentRemove, []string{"set_group_leave"}},
		{"有人问群规是啥，你去群 4455 回一句：看公告", intentCreate, []string{"send_group_msg", "send_msg"}},
		{"给群 4455 弄个只有我能看到的备注：老家", intentNone, []string{"set_group_remark"}},
		{"QQ 10001 私聊发我的那张图，给我下载链接", intentRead, []string{"get_image", "get_file", "get_private_file_url"}},
		{"她私聊里跟我说啥了？QQ 10001，翻翻记录", intentRead, []string{"get_friend_msg_history"}},
		{"translate the voice message 5566 into text", intentRead, []string{"fetch_ptt_text"}},
		{"把 good night 翻译成中文", intentRead, []string{"translate_en2zh"}},
		{"dm log w/ 10001 pls, last 10", intentRead, []string{"get_friend_msg_history"}},
		{"image sending supported here?", intentRead, []string{"can_send_image"}},
		{"相册 a1 第二页 attach_info=x1 群 4455", intentRead, []string{"get_group_album_media_list"}},
		{"我收到的文件 file_id=z1.amr 存哪了", intentRead, []string{"get_file", "get_record"}},
		{"好友发我的那个文件 file_id=f1 的链接", intentRead, []string{"get_private_file_url"}},
		{"grp 4455 album list pls, I wanna upload a pic", intentRead, []string{"get_group_album_list", "get_qun_album_list"}},
		{"can the bot still @all in 4455? want to post a notice", intentRead, []string{"get_group_at_all_remain"}},
		{"有人邀请我进群 invite:4455:u_q1，同意", intentChange, []string{"set_group_add_request"}},
		{"flush the bot's cache", intentRemove, []string{"clean_cache"}},
		{"drag file /a1 into folder /b2 in group 4455", intentChange, []string{"move_group_file"}},
		{"把在线状态调成隐身", intentChange, []string{"set_online_status"}},
		{"那个加群申请 flag f9 给他过", intentChange, []string{"set_group_add_request"}},
		{"download https://e.example/b.zip to the bot host", intentChange, []string{"download_file"}},
		{"did anyone ask to join group 4455? list the requests", intentRead, []string{"get_group_system_msg"}},
		{"看看群 4455 最新公告的已读人数", intentRead, []string{"_get_group_notice"}},
		{"有人发了个合并转发，帮我打开看看，id 是 f9", intentRead, []string{"get_forward_msg", "get_msg"}},
		{"这个闪传链接 https://qfile.qq.com/q/Ab12 的 fileset id 是多少", intentRead, []string{"get_fileset_id"}},
		{"把那条放假通知 id 7712 设成群待办，群 3030", intentCreate, []string{"set_group_todo"}},
		{"他这条说得好，设精华，消息 id 6677", intentCreate, []string{"set_essence_msg"}},
		{"群 4455 里那个没用的文件夹干掉，folder id /x9", intentRemove, []string{"delete_group_folder", "delete_group_file_folder"}},
		{"could you change group 4455's name to Night Owls for everyone", intentChange, []string{"set_group_name"}},
		{"label group 4455 as 'family' just for me, don't rename it", intentChange, []string{"set_group_remark"}},
		{`send "lunch at noon, don't be late" to group 4455`, intentCreate, []string{"send_group_msg", "send_msg"}},
		{"群 4455 的禁言名单，待会挨个解禁", intentRead, []string{"get_group_shut_list"}},
		{"before I kick 10001, his join date in group 4455", intentRead, []string{"get_group_member_info"}},
		{"muted members of group 4455 — planning to unmute them all", intentRead, []string{"get_group_shut_list"}},
		{"pending join requests for group 4455, I'll approve the ones I know", intentRead, []string{"get_group_system_msg"}},
		{"群 4455 的成员名单，准备把潜水的都踢了", intentRead, []string{"get_group_member_list"}},
		{"资料卡赞数调出来看看", intentRead, []string{"get_profile_like"}},
		{"先检测一下能不能发语音", intentRead, []string{"can_send_record"}},
		{"group 4455 info, null if it doesnt exist", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex"}},
		{"voice sending capability of this account", intentRead, []string{"can_send_record"}},
		{"device model label for iPhone 15, paid or not", intentRead, []string{"_get_model_show"}},
		{"Lagrange 里叫 get_group_list，把我加入的群列出来", intentRead, []string{"get_group_list"}},
		{"b4 kicking spammers pull the member list of group 4455", intentRead, []string{"get_group_member_list"}},
		{"bot, say 'good morning' to group 4455 in AI voice c1", intentCreate, []string{"send_group_ai_record"}},
		{"Lagrange-style: kick 10001 from group 4455", intentRemove, []string{"set_group_kick", "set_group_kick_members"}},
		{"disable 'searchable by group number' for group 4455", intentChange, []string{"set_group_search"}},
		{"开启群 4455 的「允许通过群号搜到」", intentChange, []string{"set_group_search"}},
		{"群 4455 的相册，我待会往里传几张", intentRead, []string{"get_group_album_list", "get_qun_album_list"}},
		{"群 4455 的消息我都看完了，帮我清掉未读", intentRemove, []string{"mark_group_msg_as_read", "mark_msg_as_read"}},
		{"turn on anon chat in group 4455", intentChange, []string{"set_group_anonymous"}},
		{"the special title of 10001 in group 4455", intentRead, []string{"get_group_member_info"}},
		{"group 4455 history, the bot deleted things there", intentRead, []string{"get_group_msg_history"}},
		{"online and ext status of qq 10001", intentRead, []string{"nc_get_user_status"}},
		{"好友 10001 私发了个文件 /f1，给我它的链接", intentRead, []string{"get_private_file_url"}},
		{"那条合并转发我先看下内容再决定要不要删 id f9", intentRead, []string{"get_forward_msg"}},
		{"群 4455 文件好乱，想清掉一些，先把根目录列出来", intentRead, []string{"get_group_root_files", "get_group_files_by_folder"}},
		{"好像有人把我删了，单向好友列一下", intentRead, []string{"get_unidirectional_friend_list"}},
		{"给我 cookies，批量踢人的脚本要用", intentRead, []string{"get_cookies", "get_credentials"}},
		{"status check, the auto-delete job hangs", intentRead, []string{"get_status"}},
		{"like counter of my profile", intentRead, []string{"get_profile_like"}},
		{"有人在群里发了个链接 https://x.example 说是福利，先查下安不安全", intentRead, []string{"check_url_safely"}},
		{"status of qq 10001 — he set a custom one", intentRead, []string{"nc_get_user_status"}},
		{"群名到底改没改成 夜猫子，群 4455", intentRead, []string{"get_group_info", "get_group_info_ex", "get_group_detail_info"}},
		{"那条邀请通知给我看看", intentRead, []string{"get_group_system_msg"}},
		{"msg 7788's sender and content", intentNone, []string{"get_msg"}},
		{"msg 7788 was flagged, its sender and time", intentNone, []string{"get_msg"}},
		{"打开全员禁言，群号 4455，谁都别说话", intentChange, []string{"set_group_whole_ban"}},
		{"打开群搜索，群号 4455", intentChange, []string{"set_group_search"}},
		{"relocate a.pdf into the Archive folder in group 4455", intentChange, []string{"move_group_file"}},
		{"group file stats for 4455", intentRead, []string{"get_group_file_system_info"}},
		{"group 4455 msg history, checking for ads", intentRead, []string{"get_group_msg_history"}},
		{"想发个提醒，先查下这个号能不能发语音", intentRead, []string{"can_send_record"}},
		{"list group 4455's notices, i need the notice_id of the old one to delete later", intentRead, []string{"_get_group_notice"}},
		{"download link for the file he dm'd me, file id f1", intentRead, []string{"get_private_file_url"}},
		{"group 4455's member count after the mass kick", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex", "get_group_member_list"}},
		{"like Telegram deleteMessage — unsend message 7788", intentRemove, []string{"delete_msg"}},
		{"make group 4455 discoverable in search", intentChange, []string{"set_group_search"}},
		{"群号搜索那个打开，群 4455", intentChange, []string{"set_group_search"}},
		{"can the bot send voice right now or is it blocked?", intentRead, []string{"can_send_record"}},
		{"before the bot send the notice, member count of group 4455", intentRead, []string{"get_group_info", "get_group_detail_info", "get_group_info_ex", "get_group_member_list"}},
		{"qq 10001's status, did he set it to busy?", intentRead, []string{"nc_get_user_status"}},
		{"群 4455 的群文件列表，删文件的事回头再说", intentRead, []string{"get_group_root_files", "get_group_files_by_folder"}},
		{"管理员说要清群文件 我先拿 /a1 的下载链接 群 4455", intentRead, []string{"get_group_file_url"}},
		{"把群 4455 设为精华的消息列一下", intentRead, []string{"get_essence_msg_list"}},
		{"群友 10001 说我把他踢了，翻一下群 4455 的群聊记录", intentRead, []string{"get_group_msg_history"}},
		{"给好友 10001 说一声晚安", intentCreate, []string{"send_private_msg", "send_msg"}},
		{"合并转发 id: f9x 的内容读一下", intentRead, []string{"get_forward_msg"}},
		{"群 4455 里管理员刚上传了 a.pdf，file id /a1，给我下载链接", intentRead, []string{"get_group_file_url"}},
		{"10001 in group 4455, did the admin change his title? show his info", intentRead, []string{"get_group_member_info"}},
		{"group join requests that got filtered, no approve or reject yet", intentRead, []string{"get_group_ignore_add_request", "get_group_ignored_notifies"}},
		{"been sending likes all week; profile likes for my account", intentRead, []string{"get_profile_like"}},
		{"can the bot send pics? about to post a meme in group 4455", intentRead, []string{"can_send_image"}},
		{"set my account to invisible mode pls", intentChange, []string{"set_online_status"}},
		{"have the AI voice read 'dinner is ready' in group 4455", intentCreate, []string{"send_group_ai_record", "get_ai_record"}},
		{"群 4455 里用AI语音读一下：晚饭好了", intentCreate, []string{"send_group_ai_record", "get_ai_record"}},
		{"which groups is the bot in, and their member counts", intentRead, []string{"get_group_list"}},
		{"挂个忙碌，电量显示 60", intentNone, []string{"set_online_status"}},
		{"group 4455 files: how much space is left, i may upload a big one", intentRead, []string{"get_group_file_system_info"}},
		{"the fileset id behind this share link https://qfile.qq.com/q/x1", intentRead, []string{"get_fileset_id"}},
		{"fileset id from the share link qfile.qq.com/q/x1", intentRead, []string{"get_fileset_id"}},
		{"parse qfile.qq.com/q/Ab9 for me and give me its fileset", intentRead, []string{"get_fileset_id"}},
		{"my friend 10005 set his status to busy, check his status", intentRead, []string{"nc_get_user_status"}},
		{"群 4455 的公告列表 删不删再说", intentRead, []string{"_get_group_notice"}},
		{"先把群 4455 全员禁言了再说", intentChange, []string{"set_group_whole_ban"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			assert.Equal(t, tc.in, intentOf(tc.query))
			got := names(c.Suggest(context.Background(), tc.query, catalog.Filter{}))
			if assert.NotEmpty(t, got) {
				assert.Contains(t, tc.first, got[0], "%v", got)
			}
		})
	}
	terms := c.parsed().bm25.requestTerms("leave group 9090 now, the bot needs to go")
	assert.NotContains(t, terms, "snow", `"now" is no typo of the product's name`)
	assert.NotContains(t, terms, englishTerm("feeds"), `a typo keeps its first letter: "needs" is no "feeds"`)
	terms = c.parsed().bm25.requestTerms("mute him till noon, it's real spam too")
	for _, w := range []string{"tell", "read", "todo"} {
		assert.NotContains(t, terms, englishTerm(w), "a plain English word is no typo of %q", w)
	}
	assert.Contains(t, c.parsed().bm25.requestTerms("delte msg 4455"), englishTerm("delete"), "a typo is still read as the word")
	assert.Contains(t, c.parsed().bm25.requestTerms("这会儿登着的是哪个QQ"), englishTerm("登录"), "登 alone is logging in")
	assert.Contains(t, c.parsed().bm25.requestTerms("a recommendation card"), englishTerm("recommend"), "recommendation is recommend")
	for _, w := range c.parsed().bm25.requestTerms("NapCat-style friend list, go-cqhttp or mirai") {
		assert.NotContains(t, []string{englishTerm("napcat"), englishTerm("nap"), englishTerm("cat"), englishTerm("style"), englishTerm("cqhttp"), englishTerm("mirai")}, w, "another bot API's name tells no action apart")
	}
	assert.Contains(t, c.parsed().bm25.requestTerms("its searchability"), englishTerm("search"), "searchability is search")
	assert.NotContains(t, c.parsed().bm25.requestTerms("make a card"), englishTerm("set"), "make is no set")
	assert.Equal(t, intentNone, readIntent("the newest 20 of my qzone posts"), "posts is a noun, no post")
	assert.Equal(t, intentRead, readIntent("有人改了群名，群 4455 的资料调出来"), "what someone did is context, not the request")
	assert.Contains(t, withoutPayload(`send "lunch at noon, don't be late" to group 4455`), "to group 4455", "a negation inside a quote is said, not unwanted")
	assert.Contains(t, withoutPayload("people asking to join group 4455, list them"), "join group", "asking to: what the asker wants, no words said")
	terms = c.parsed().bm25.requestTerms("give me a shareable link for fileset 0a1b2c3d")
	assert.Contains(t, terms, englishTerm("share"), "shareable is share")
	assert.NotContains(t, terms, "b", "a lone letter an id leaves is no term")
	assert.Equal(t, []string{englishTerm("登录")}, c.parsed().bm25.requestTerms("我现在登录的是哪个QQ号？"), "a question word names nothing")
	assert.NotEmpty(t, c.Suggest(context.Background(), "问一下群 8080 明天谁值班", catalog.Filter{}), "a request that is all payload is still answered")
}

// TestARequestSeesWhatItsIntentDemotesWhenItMatchesFarBetter: a read
// request's first suggestion stays a read, and below it a write that
// matches far better than the reads is in sight rather than cut off by
// every read that shares a word (the group's to-dos have no reader).
func TestARequestSeesWhatItsIntentDemotesWhenItMatchesFarBetter(t *testing.T) {
	t.Parallel()
	c := load(t)
	got := c.Suggest(context.Background(), "群待办有哪些", catalog.Filter{})
	require.NotEmpty(t, got)
	assert.True(t, got[0].ReadOnly, "the first stays a read: %v", names(got))
	assert.Contains(t, names(got[:min(5, len(got))]), "set_group_todo")
}

// TestAReadNamingItsFamilyGetsALookup: the lookups the catalog marks as
// writes (flash transfer's, the stream downloads) rank as the reads they
// are for a read request that names their family, and only for one.
func TestAReadNamingItsFamilyGetsALookup(t *testing.T) {
	t.Parallel()
	c := load(t)
	for q, want := range map[string]string{
		"列出我所有的闪传":                                      "list_filesets",
		"闪传fs2里有几个文件":                                   "get_flash_file_list",
		"show all my flash transfers":                   "list_filesets",
		"分块拉取 https://example.com/a.bin 的内容":            "download_file_stream",
		"fetch voice v7.amr in chunks":                  "download_file_record_stream",
		"show me the key that decrypts /root/nt_msg.db": "request_decrypt_key",
		"这个数据库 /data/nt_msg.db 的解密密钥是多少":                "request_decrypt_key",
	} {
		got := c.Suggest(context.Background(), q, catalog.Filter{})
		require.NotEmpty(t, got, q)
		assert.NotNil(t, lookups[got[0].Name], "%s: a lookup first: %v", q, names(got))
		assert.Contains(t, names(got[:2]), want, q)
	}
	for _, q := range []string{"那张图 file=x9.jpg 的链接和大小查一下", "how big is the file behind this link", "fetch voice v7.amr"} {
		got := c.Suggest(context.Background(), q, catalog.Filter{})
		require.NotEmpty(t, got, q)
		assert.True(t, got[0].ReadOnly, "%s: no family named, a read first: %v", q, names(got))
	}
}

// TestAPhraseMatchesWholeWords: the phrase table rewrites an English
// phrase only where it stands as words, Chinese anywhere.
func TestAPhraseMatchesWholeWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ s, old, new, want string }{
		{"give me the list", "give me", "show me", "show me the list"},
		{"give member 1 a title", "give me", "show me", "give member 1 a title"},
		{"Give Me it", "give me", "show me", "show me it"},
		{"forgive me", "give me", "show me", "forgive me"},
		{"群昵称改一下", "群昵称", "群名片", "群名片改一下"},
	} {
		assert.Equal(t, tc.want, replaceFold(tc.s, tc.old, tc.new), tc.s)
	}
}

// TestLookupsAreCataloguedAsWrites holds the lookups list to the catalog:
// each is an action SnowLuma's catalog marks as a write, so that the day
// its flag is fixed the list loses the entry instead of hiding it.
func TestLookupsAreCataloguedAsWrites(t *testing.T) {
	t.Parallel()
	c := load(t).parsed()
	for name := range lookups {
		a, ok := c.cat.Lookup(name)
		require.True(t, ok, name)
		assert.False(t, a.ReadOnly, "%s: the catalog marks it read-only now; drop it from lookups", name)
		assert.NotNil(t, c.index[a].looksUp, name)
	}
}
