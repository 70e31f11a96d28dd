package search

import (
	"strings"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// A request often names what it acts on by its id: a message, a group, a
// person, an album, a folder, a flash transfer. An action that takes an
// id of that kind (its params' roles or names say which) is likelier to
// be the one asked for than one that takes none, so the ranking adds a
// little for each kind a request names and an action reads: "消息8080的内容"
// is get_msg's, not the forward reader's.

// entity is a kind of id a request may name, as a bit.
type entity uint8

const (
	entityMessage entity = 1 << iota
	entityGroup
	entityUser
	entityAlbum
	entityFolder
	entityFileset
	entityShareCode
	entityPeople
)

// entityBonus is what each kind named and read adds to a score, and
// needsBonus what it adds more when the action cannot do without it: the
// message named by its id is get_msg's object, only a starting point of a
// history.
const entityBonus, needsBonus = 0.6, 1.0

// entityPatterns find each kind in a request.
var entityPatterns = []struct {
	kind  entity
	needs []string // one of these is in every match: without one, the pattern does not run
	re    *pattern
}{
	{entityMessage, []string{"message", "msg", "消息"}, lazy(`(?i)` + messageByID + `|message_id|msg_?id|消息\s*id`)},
	{entityGroup, []string{"group", "grp", "群"}, lazy(`(?i)(?:group|grp|群)\s*(?:号|id)?\s*[#:：]?\s*\d{4,}|group_id`)},
	{entityUser, []string{"qq", "user", "uid", "friend", "member", "好友", "用户", "成员", "@"}, lazy(`(?i)(?:\bqq|\buser|\buid|\bfriend|\bmember|好友|用户|成员)\s*(?:号|id)?\s*[#:：]?\s*\d{4,}|user_id|@\S`)},
	{entityAlbum, []string{"album", "相册"}, lazy(`(?i)(?:album|相册)\s*(?:id)?\s*[#:：]?\s*(?:["“「][^"”」]+|[\w\-]*\d[\w\-]*)|album_id`)},
	{entityFolder, []string{"folder", "文件夹", "目录"}, lazy(`(?i)(?:folder|文件夹|目录)\s*(?:id)?\s*[#:：]?\s*(?:["“「][^"”」]+|/[\w\-]+)|folder_id|[“「"][^”」"]+[”」"]\s*(?:那个|这个)?(?:文件夹|目录)`)},
	{entityFileset, []string{"fileset", "闪传", "flash"}, lazy(`(?i)(?:fileset|闪传|flash(?:\s+transfer)?)\s*(?:文件集|fileset)?\s*(?:id)?\s*[#:：]?\s*[\w\-]*\d[\w\-]*|fileset_id`)},
	// several people by their numbers (1001, 1002 and 1003): a list of them
	{entityPeople, []string{",", "，", "、", " and ", "和", "跟", "与", "/"}, lazy(`(?i)\d{4,}\s*(?:,|，|、|\band\b|和|跟|与|/)\s*(?:(?:qq|user|uid)\s*)?\d{4,}`)},
	// a flash transfer's share link or code, given: what it resolves to is asked
	{entityShareCode, []string{"qfile", "share code", "share_code", "分享码", "取件码"}, lazy(`(?i)qfile\.qq\.com/\S+|(?:share\s*code|分享码|取件码)\s*(?:是|is)?\s*[#:：]?\s*[A-Za-z0-9]{4,}`)},
}

// messageByID is a message named by its id ("message 12345", "msg id
// #-1559550018", "消息：8080"), for the entity and for the segment hints'
// one message (segments.go).
const messageByID = `(?:message|msg|消息)\s*(?:id\s*)?[#:：]?\s*-?\d{3,}`

// entitiesOf are the kinds of id a request names.
func entitiesOf(query string) entity {
	if !strings.ContainsAny(query, "0123456789@_/\"“「") {
		return 0 // every pattern needs an id, an @, a quoted name, a path or a param's name: most requests have none
	}
	var e entity
	lower := strings.ToLower(query)
	for _, p := range entityPatterns {
		if containsAny(lower, p.needs) && p.re.MatchString(query) {
			e |= p.kind
		}
	}
	return e
}

// readsOf are the kinds of id an action's params take; required, only
// those it cannot do without.
func readsOf(a *catalog.Action, required bool) entity {
	var e entity
	for _, p := range a.Params {
		if required && !p.Required {
			continue
		}
		switch p.Role {
		case "message_id":
			e |= entityMessage
		case "group_id":
			e |= entityGroup
		case "user_id", "member_id":
			e |= entityUser
		}
		if strings.HasSuffix(p.Type, "[]") && (strings.Contains(p.Name, "user") || strings.Contains(p.Name, "uin")) {
			e |= entityPeople // set_group_kick_members' user_id: several people at once
		}
		switch p.Name {
		case "album_id":
			e |= entityAlbum
		case "folder_id", "folder":
			e |= entityFolder
		case "fileset_id":
			e |= entityFileset
		case "share_code":
			e |= entityShareCode
		}
	}
	return e
}

// groupShare is what an action that acts in a group keeps of its score
// for a request that names no group: people asking about a group say so
// (群, group, join), so "show my chat history with 2854196310" is a
// friend's history and "打包转发聊天记录给10003" a private forward.
const groupShare = 0.9

// groupWords name a group, or joining one, in a request.
var groupWords = []string{"群", "group", "grp", "qun", "join"}

// namesGroup reports whether a request names a group.
func namesGroup(query string) bool {
	return containsAny(strings.ToLower(query), groupWords)
}

// personlessShare is what a read that cannot do without a person (a
// required user id) keeps of its score for a request that names or points
// at none (mentionsPerson): a status check is the bot's. A write keeps its
// score: 禁言 alone still means muting someone.
const personlessShare = 0.85

// mentionsPerson reports a request that names or points at a person: an
// id, an @, a pronoun, a user or a member.
func mentionsPerson(q string) bool {
	return strings.ContainsAny(q, "0123456789@") || containsAny(strings.ToLower(q), personWords)
}

// personWords point at a person in a request.
var personWords = []string{"他", "她", "him", "her", "someone", "this person", "这个人", "这人", "某人", "user", "friend", "好友", "member", "成员", "qq"}

// privateWords name a private chat in a request; privateShare is what a
// group action keeps of its score for a request that names one and no
// group (10006私聊我说了啥: the friend's history, not the group's).
var (
	privateWords = []string{"私聊", "私信", "私发", "private", " dm", " pm", "dms"}
	privateShare = 0.7
)

// namesPrivate reports whether a request names a private chat.
func namesPrivate(query string) bool {
	return containsAny(" "+strings.ToLower(query), privateWords)
}

// qzoneWords name the QQ space or what is posted there; qzoneShare is
// what an action on it keeps of its score for a request that names none
// (这条消息删掉 deletes a message, not a post).
var (
	qzoneWords = []string{"空间", "qzone", "zone", "space", "说说", "动态", "feed", "shuoshuo", "朋友圈", "tid"}
	qzoneShare = 0.9
)

// doubtWords name the friend requests QQ sets apart as risky; doubtShare
// is what an action on them keeps of its score for a request that names
// none (有人加我好友，同意吧: the plain request, which the risky ones share
// every other word with).
var (
	doubtWords = []string{"doubt", "dbt", "sus", "risk", "flagged", "filtered", "sketchy", "shady", "spam", "可疑", "风险", "风控", "拦", "折叠", "陌生", "骗"}
	doubtShare = 0.8
)

// namesDoubt reports whether a request names the risky friend requests.
func namesDoubt(query string) bool {
	return containsAny(strings.ToLower(query), doubtWords)
}

// namesQzone reports whether a request names the QQ space.
func namesQzone(query string) bool {
	return containsAny(strings.ToLower(query), qzoneWords)
}

// inGroup reports whether an action acts in a group: its name says so
// (send_group_msg, get_qun_album_list).
func inGroup(a *catalog.Action) bool {
	for _, w := range nameWords(strings.ToLower(a.Name)) {
		if w == "group" || w == "qun" {
			return true
		}
	}
	return false
}
