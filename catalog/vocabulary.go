package catalog

import (
	"strings"
	"sync"
)

// meaning is one thing SnowLuma has a parameter for, and the names other
// bot APIs (go-cqhttp, NapCat, Lagrange, mirai, oicq/Yunzai, the Telegram
// and Discord bot APIs) and models give it. A slip is matched to a meaning
// by these names, then offered only the parameters of that meaning the
// action reads: "name" is card for set_group_card and group_name for
// set_group_name, and neither elsewhere.
type meaning struct {
	// params are SnowLuma's names that carry the meaning, and roles the
	// catalog roles that do (a param of any of those roles has it, so a
	// new action's target_uin with role user_id needs no row of its own).
	params, roles string
	// words are what others call it, in any case and spelling: they are
	// folded (case, "_", "-", "." and blanks aside) once, so qqNumber,
	// qq_number and QQ-Number are one word.
	words string
	// flip says, for a bool param with a default, what passing the other
	// value does; keep says what its default does, for other params.
	// Either is named when the next step would have a model leave a key
	// out (omitting applies the default).
	flip, keep string
}

// meanings is the vocabulary, one row per meaning. A word may name
// several meanings (id, name, type): the action's own params decide.
var meanings = []meaning{
	// Who: a QQ account, as a user, member, friend or target.
	{params: "user_id target_uin target_id", roles: "user_id member_id",
		words: "qq uin uid user userid userqq useruin qqid qqnumber qqnum qqno qq_account account accountid who person people " +
			"member memberid memberuin memberqq memberqqid friend friendid frienduin friendqq friendqqid target targetqq targetuser " +
			"targetuserid targetuin targetid touser touserid touin toqq recipient recipientid peer peerid peeruin sender senderid " +
			"senderuin author authorid fromid fromuser fromuin qqacc id users userids uids uins qqs members memberids targets friends " +
			"at atqq atuser mention mentionid to touid qq号 用户 用户id 用户qq 成员 成员qq 好友 好友qq 对方 目标 目标qq 账号"},
	{params: "target_uins", words: "users userids uids uins qqs members memberids targets friends userlist uidlist qqlist memberlist targetlist visibleto allowlist"},
	// Which group (or chat) it happens in.
	{params: "group_id", roles: "group_id",
		words: "group gid groupid groupuin groupcode groupnumber groupno groupnum groupqq qqgroup qqgroupid qun qunid qunhao " +
			"chat chatid chatroom room roomid guild guildid channel channelid targetgroup togroup groupaccount grouptarget peer peerid id " +
			"discussid discuss clusterid troop troopuin troopid fromchatid tochatid to 群 群号 群聊 群id 群号码 qq群"},
	// Which message.
	{params: "message_id msg_seq", roles: "message_id",
		words: "msgid messageid msg mid id seq msgseq messageseq sequence replyid replyto replytomessageid reply quote quoteid " +
			"source sourceid sourcemsgid realid realseq targetmessageid targetmsgid target messageids msgids messages_id originmsgid " +
			"anchor anchorid startid startseq beforeid before lastid 消息id 消息号"},
	{params: "id", words: "forwardid resid res_id forward_msg_id forwardmessageid msgid messageid"},
	// What to send.
	{params: "message", words: "text content msg body messagetext msgtext messagecontent chain messagechain segments segment " +
		"cq cqcode rawmessage raw caption words say reply contents payload messagebody msgbody data string str value 消息 内容 文本 文字"},
	{params: "messages", words: "nodes node forward forwardmsg forwardmessage forwardmessages forwardnodes msgs messagelist msglist " +
		"chain messagechain content contents items list records history"},
	{params: "content text wording", words: "text content msg message body notice noticecontent announcement words say comment " +
		"contents status statustext desc description value string str"},
	// How long.
	{params: "duration", roles: "duration",
		words: "time seconds second sec secs mutetime bantime banduration muteduration durationseconds durationsec length period " +
			"timeout timeoutseconds muteseconds banseconds mute ban shutup shutuptime forbidtime mutefor banfor minutes mins untildate " +
			"communicationdisableduntil 时长 时间 秒 秒数 禁言时长 禁言时间 " +
			"until expire expires expiry ttl lifetime timespan", keep: "1800 seconds is 30 minutes, and 0 lifts the mute"},
	// Names and labels.
	{params: "card", words: "nickname nick name groupcard membercard cardname groupnickname groupnick groupname displayname " +
		"display alias newcard newname newnick title label inname 群名片 名片 群昵称 昵称", keep: "an empty card clears the member's card"},
	{params: "remark", words: "remarkname alias note notes memo friendremark comment label nickname nick name newremark newname markname"},
	{params: "nickname", words: "nick name username displayname screenname qqnick qqname newnick newnickname newname"},
	{params: "personal_note long_nick longNick", words: "signature sign bio about motto personalsignature personalnote longnick " +
		"longnickname selfsign status statustext note intro description desc"},
	{params: "special_title", words: "title specialtitle badge honor tag grouptitle exclusivetitle membertitle headtitle rank newtitle label customtitle 头衔 专属头衔", keep: "an empty title clears it"},
	{params: "group_name", words: "name groupname title newname newgroupname subject topic chatname chattitle", keep: "SnowLuma would set an empty name"},
	{params: "new_name new_folder_name name file_name filename album_name", words: "name newname filename newfilename rename to " +
		"title displayname foldername newfoldername dirname albumname targetname savename saveas"},
	// Counts and pages.
	{params: "times", words: "count num number liketimes likes likecount amount repeat n cnt total howmany quantity"},
	{params: "count num", words: "limit size num number pagesize perpage max maxcount maxnum total n cnt amount top length howmany quantity pagecount"},
	{params: "start pos", words: "offset skip begin from startindex index position cursor page"},
	{params: "page_num", words: "page pageno pageindex pagenumber pagenum p"},
	{params: "cookie attach_info", words: "cursor nextcursor pagetoken nexttoken next continuation nextattachinfo attachinfo token pagecursor"},
	// Switches.
	{params: "enable", words: "enabled on switch open set value state status active turnon isenable isenabled toggle flag admin isadmin setadmin " +
		"makeadmin mute muteall wholeban allmute ban", flip: "turn it off"},
	{params: "approve", words: "agree accept accepted allow allowed approved pass permit ok confirm isagree isapprove isaccept result " +
		"decision operate action accepting agreed reject refuse deny decline yes 同意 通过 拒绝", flip: "reject"},
	{params: "reason", words: "message msg remark note comment rejectreason refusereason denyreason declinereason why text explanation auditlogreason 理由 原因"},
	{params: "flag", words: "requestid request requestflag req reqid seq eventid token id ticket requestseq invitationid"},
	{params: "no_cache", words: "nocache refresh force forcerefresh cache reload fresh update usecache cached", flip: "refresh from the server"},
	{params: "auto_escape", words: "escape plaintext plain raw autoescape astext notcq nocq textonly", flip: "send a string message as plain text, without CQ codes"},
	{params: "reject_add_request", words: "reject block ban blacklist rejectadd refuse rejectfuture forbid rejectrequest blockrejoin noreadd permanent forever",
		flip: "also refuse their later join requests"},
	{params: "block", words: "blacklist ban reject blocked addblacklist blocklist", flip: "block them too"},
	{params: "is_set set", words: "add on enable enabled set isadd active toggle state value remove cancel unset undo delete", flip: "remove it"},
	{params: "upload_file", words: "send post notify sendmessage posttochat sendmsg announce", flip: "only upload, posting no message"},
	{params: "rsp", words: "wait waitresponse response reply needresponse", flip: "not wait for the reply"},
	{params: "error", words: "fail failure simulateerror", flip: "simulate a failure"},
	{params: "pinned", words: "pin top sticky istop ispinned"},
	// Files, media and links.
	{params: "file image", roles: "file image record", words: "path filepath image img pic picture photo url fileurl src source uri " +
		"audio voice record recording sound base64 localpath upload document attachment media imageurl imgurl picurl avatar portrait video " +
		"file files 文件 图片 路径"},
	{params: "file_id", roles: "file_id", words: "fileid id fid uuid fileuuid busid fileidx filekey key"},
	{params: "images", words: "pics pictures photos imgs image img pic picture photo imageurls medias media attachments"},
	{params: "url", words: "link href uri address src source downloadurl fileurl"},
	{params: "headers", words: "header httpheaders requestheaders"},
	{params: "base64", words: "b64 data content bytes"},
	{params: "folder folder_id parent_id target_directory",
		words: "folder dir directory folderid dirid parent parentid targetfolder destination dest to path targetdir todir id " +
			"targetparentdirectory targetpath topath newparent newfolder 文件夹 目录"},
	{params: "parent_directory current_parent_directory", words: "from fromdir srcdir sourcedir currentdir currentfolder source " +
		"parent parentid folder dir directory oldparent frompath sourcepath"},
	{params: "face_id emoji_id emojiId code", roles: "face_id", words: "emoji emojiid face faceid reaction reactionid emoticon sticker " +
		"icon like likeid code emojicode"},
	{params: "domain", words: "host site website hostname"},
	{params: "message_type", words: "type chattype detailtype msgtype messagetype targettype chat kind"},
	{params: "chat_type", words: "type chattype kind"},
	{params: "character", words: "voice speaker charactername characterid role tone model timbre"},
	{params: "summary", words: "description digest preview brief"},
	{params: "desc", words: "description remark note comment memo", keep: "an empty description clears it"},
	{params: "title", words: "subject headline name"},
	{params: "phone_number", words: "phone mobile tel phoneno cellphone telephone"},
	{params: "status ext_status battery_status", words: "state onlinestatus online battery power presence"},
	{params: "abstime", roles: "timestamp", words: "time timestamp posttime createtime ts"},
	{params: "tid", words: "postid feedid topicid id"},
	{params: "ugc_right", words: "visibility privacy right scope visible"},
	{params: "notice_id fid", words: "noticeid announcementid id"},
	{params: "event_type", words: "type status typing"},
	{params: "cmd", words: "command"},
	{params: "sub_type type", words: "requesttype subtype kind category"},
	{params: "add_type", words: "type jointype addoption option mode joinmode"},
	{params: "source", words: "title header heading"},
	{params: "words", words: "text content input query sentence sentences strings list"},
	{params: "chunk_data", words: "chunk data content base64 bytes"},
	{params: "chunk_index", words: "index chunkno seq part partindex partno"},
	{params: "total_chunks", words: "total count chunks numchunks chunkcount parts partcount"},
	{params: "file_size", words: "size filesize length bytes totalsize"},
	{params: "expected_sha256", words: "sha256 hash checksum digest sha"},
	{params: "stream_id", words: "id streamid uploadid sessionid"},
	{params: "is_complete", words: "complete done finish finished final last end"},
	{params: "file_hash", words: "hash md5 sha filehash"},
	{params: "fileset_id", words: "filesetid id fileset flashid shareid setid"},
	{params: "share_code", words: "code sharecode link url shareurl"},
	{params: "album_id", words: "album albumid"},
	{params: "lloc", words: "mediaid photoid picid media"},
	{params: "batch_id", words: "batch batchid"},
	{params: "confirm_required", words: "confirm needconfirm requireconfirm confirmation"},
	{params: "bot_appid", words: "appid botid app"},
	{params: "callback_data", words: "data callback payload"},
	{params: "jump_url jumpUrl", words: "url link href"},
	{params: "pic_url picUrl", words: "image img pic picture cover imageurl"},
	{params: "db_path", words: "path dbpath database db file"},
	{params: "files", words: "paths file filelist path"},
	{params: "thumb_path", words: "thumb thumbnail cover thumbnailpath"},
	{params: "model", words: "device devicename phonemodel"},
	{params: "chunk_size", words: "chunk blocksize block size buffersize"},
	{params: "data", words: "body payload hex"},
	{params: "out_format return_type", words: "format outputformat type returntype"},
}

// foldWord spells a name without case, "_", "-", "." or blanks, without a
// replacer per call (the refusal runs on keys an attacker writes).
func foldWord(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// keyWords splits a key into its words: at "_", "-", "." and blanks, and
// where a lower-case letter or digit meets an upper-case one (groupId).
// At most maxKey bytes are read.
func keyWords(s string) []string {
	if len(s) > maxKey {
		s = s[:maxKey]
	}
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		cut := i == len(s) || s[i] == '_' || s[i] == '-' || s[i] == '.' || s[i] == ' '
		upper := i < len(s) && i > start && 'A' <= s[i] && s[i] <= 'Z' && !('A' <= s[i-1] && s[i-1] <= 'Z')
		if cut || upper {
			if i > start {
				out = append(out, foldWord(s[start:i]))
			}
			start = i
			if cut {
				start = i + 1
			}
		}
	}
	return out
}

// slipWords indexes meanings by their folded words, once, on the first
// slip (start-up does not pay for it).
var slipWords = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	add := func(w string, i int) {
		for _, j := range m[w] {
			if j == i {
				return
			}
		}
		m[w] = append(m[w], i)
	}
	for i, row := range meanings {
		for _, w := range strings.Fields(row.words) {
			add(foldWord(w), i)
		}
	}
	return m
})

// has reports whether the param carries the meaning: by its name or its
// catalog role.
func (m *meaning) has(p *Param) bool {
	return fieldOf(m.params, p.Name) || (p.Role != "" && fieldOf(m.roles, p.Role))
}

// meaningOf is the row for the param, nil when the vocabulary has none.
func meaningOf(p *Param) *meaning {
	for i := range meanings {
		if meanings[i].has(p) {
			return &meanings[i]
		}
	}
	return nil
}

// fieldOf reports whether the space-separated list holds name.
func fieldOf(list, name string) bool {
	for _, f := range strings.Fields(list) {
		if f == name {
			return true
		}
	}
	return false
}
