package content

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
)

// shape is a kind of item that carries third-party content: where its
// author is named, which members are metadata, and which member holds a
// message body that may nest other people's messages. Every member that is
// not metadata is content.
type shape struct {
	name string
	// authors are the members naming the author; a dotted name reaches
	// into an object ("sender.user_id"). Everyone those present name must
	// be a trusted user or the account for the content to be shown in
	// lockdown; when they name several people the item has no one author,
	// and with none present the author is unknown.
	authors []string
	// keep are the metadata members, shown whoever wrote the item: ids,
	// times, types and fixed vocabularies. A dotted name ("sender.user_id")
	// keeps one member of an object member: that object is metadata only
	// in the members named so, and its others (a nickname, a card, a file
	// name: text whoever the object describes chose) are content.
	keep []string
	// body is the member that holds a message body (a segment array or a
	// CQ-code string) whose forward nodes can carry other people's
	// messages; "" when the shape has none.
	body string
	// claims marks a shape whose author members are whatever its builder
	// wrote, not a writer anyone established: a forward node. SnowLuma's
	// send_forward_msg takes any user_id and nickname for a custom node and
	// get_forward_msg hands them back as the sender, so the node's author
	// is unknown whoever it names, the account included.
	claims bool
	// fields are the members whose words are not the item's author's:
	// each with the members naming its own author, none where no one
	// person's are (a card any group admin may set, a group's name), so
	// lockdown withholds it whoever the item names. A dotted name
	// ("sender.card") is an inner member of a member kept in part.
	fields map[string][]string

	keepSet  map[string]bool                // the whole members in keep, for lookups; made on first use
	partSet  map[string]map[string]bool     // an object member kept in part: the inner members it keeps
	innerSet map[string]map[string][]string // fields named dotted, by member and inner member
	innerKey map[string][][]byte            // the same inner members' names, quoted, by member
	once     sync.Once
}

// index makes the lookups from keep.
func (s *shape) index() {
	s.once.Do(func() {
		s.keepSet = make(map[string]bool, len(s.keep))
		for _, k := range s.keep {
			head, rest, part := strings.Cut(k, ".")
			if !part {
				s.keepSet[k] = true
				continue
			}
			if s.partSet == nil {
				s.partSet = map[string]map[string]bool{}
			}
			if s.partSet[head] == nil {
				s.partSet[head] = map[string]bool{}
			}
			s.partSet[head][rest] = true
		}
		for f, paths := range s.fields {
			head, rest, dotted := strings.Cut(f, ".")
			if !dotted {
				continue
			}
			if s.innerSet == nil {
				s.innerSet = map[string]map[string][]string{}
			}
			if s.innerSet[head] == nil {
				s.innerSet[head] = map[string][]string{}
			}
			s.innerSet[head][rest] = paths
			if s.innerKey == nil {
				s.innerKey = map[string][][]byte{}
			}
			s.innerKey[head] = append(s.innerKey[head], []byte(strconv.Quote(rest)))
		}
	})
}

// mayNameField reports whether v, the value of the member key kept in
// part, may hold an inner member fields names: a cheap look for its
// quoted name, so that a value without one is not taken apart.
func (s *shape) mayNameField(key, v []byte) bool {
	s.index()
	for _, q := range s.innerKey[string(key)] {
		if bytes.Contains(v, q) {
			return true
		}
	}
	return false
}

// fieldOf is the author members of the member key, or of its member
// inner when inner is set, and whether fields names it at all.
func (s *shape) fieldOf(key, inner []byte) ([]string, bool) {
	if inner == nil {
		paths, ok := s.fields[string(key)]
		return paths, ok
	}
	s.index()
	paths, ok := s.innerSet[string(key)][string(inner)]
	return paths, ok
}

// keeps reports whether a member is metadata whole.
func (s *shape) keeps(key []byte) bool {
	s.index()
	return s.keepSet[string(key)]
}

// part is the inner members a member keeps when it is an object kept in
// part; nil when it is not.
func (s *shape) part(key []byte) map[string]bool {
	s.index()
	return s.partSet[string(key)]
}

// The shapes. Event shapes follow the event's post_type; the catalog names
// the others per action (thirdParty in catalog/actions/**).
var shapes = map[string]*shape{
	// A message: an event, or a stored copy of one (get_msg, the history
	// actions). SnowLuma fills sender.user_id with the uin QQ names as the
	// sender, in every message it writes; user_id is the conversation's
	// key and, in a private message the account sent, may name the peer,
	// so it is metadata here. Of the sender (to-message.ts writes user_id,
	// nickname, card in a group, role, sex and age) only the uin and the
	// fixed vocabularies are metadata: the nickname and the card are
	// whatever the sender chose, and any other member (OneBot's area,
	// level) is content too. A card and a title are not the sender's
	// alone: any admin may set a card, the owner sets a title, so they
	// are words of no one author.
	"message": {name: "message", body: "message",
		authors: []string{"sender.user_id"},
		fields:  map[string][]string{"sender.card": nil, "sender.title": nil},
		keep: []string{"time", "self_id", "post_type", "message_type", "sub_type", "message_id", "real_id", "message_seq",
			"user_id", "group_id", "target_id", "peer_id", "temp_source", "font", "anonymous", "message_format",
			"sender.user_id", "sender.role", "sender.sex", "sender.age"}},
	// A node of a forwarded chat as get_forward_msg lists it, or a message
	// carried inline in a forward segment. Its sender (and so its
	// nickname and card) is the forward builder's claim: words, not a
	// name QQ vouches for.
	"forward_node": {name: "forward_node", body: "message", claims: true,
		authors: []string{"user_id", "sender.user_id"},
		keep: []string{"self_id", "user_id", "time", "message_id", "message_seq", "real_id", "message_type", "sub_type",
			"group_id", "font", "message_format", "post_type"}},
	// A forward node written inline: the data of a node segment. Its
	// user_id (or uin) and nickname (or name) are the builder's claim.
	"node": {name: "node", body: "content", claims: true,
		authors: []string{"user_id", "uin"},
		keep:    []string{"id", "user_id", "uin", "time", "seq"}},
	// A friend request or a request to join a group (sub_type "add"):
	// user_id is the person asking, and comment their words.
	"request": {name: "request",
		authors: []string{"user_id"},
		keep:    requestKeep},
	// A group invite (sub_type "invite"): user_id is the inviter, and
	// SnowLuma fills comment from the first pending request of the group
	// that inviter is on (core's resolveGroupJoinRequest), which the person
	// invited or asking wrote and the event does not name. So it has no
	// author, whoever invited.
	"invite": {name: "invite",
		keep: requestKeep},
	// A notice event. Most notices carry no text at all. A poke names the
	// poker (user_id) and the poked (target_id), and QQ's text for it
	// carries what either may have set (the suffix is the poked person's
	// own), so its words are no one person's unless both are the same: in
	// lockdown they are shown only when everyone named is trusted. A group
	// upload's file (to-notice.ts writes id, name, size and busid) carries
	// the name the uploader (user_id) gave it: words. OneBot's card change
	// (card_new, card_old) and title notices carry a card or a title, which
	// an admin or the owner may have set: words of no one author.
	// A reaction (group_msg_emoji_like; to-notice.ts writes likes as
	// [{emoji_id, count}]) carries as emoji_id the code the reactor
	// (user_id) sent: SnowLuma's set_msg_emoji_like takes any non-empty
	// string (extended.ts) and sends it as written (SetReaction's code),
	// and the 0x2dc decoder hands QQ's code back unchecked, so nothing in
	// SnowLuma holds it to a face id or a code point. Decided (issue 43):
	// likes is the reactor's words, not metadata; an array is judged
	// whole, so in lockdown a stranger's reaction keeps who, where and
	// which message, and withholds likes.
	"notice": {name: "notice",
		authors: []string{"user_id", "target_id"},
		fields:  map[string][]string{"card_new": nil, "card_old": nil, "title": nil},
		keep: []string{"time", "self_id", "post_type", "notice_type", "sub_type", "group_id", "user_id", "operator_id",
			"target_id", "sender_id", "message_id", "message_seq", "real_id", "random", "duration",
			"honor_type", "file.id", "file.size", "file.busid"}},
	// A pending or filtered group join request listed by an action; its
	// message is the requester's comment, so requester_uin is its author.
	// The names beside it are each their own person's: requester_nick the
	// requester's, invitor_nick the inviter's, and group_name, which the
	// group's owner or any admin set, no one person's.
	// get_group_ignore_add_request lists the same requests without
	// requester_uin: its comments have no author.
	"group_request": {name: "group_request",
		authors: []string{"requester_uin"},
		fields: map[string][]string{"requester_nick": {"requester_uin"}, "invitor_nick": {"invitor_uin"},
			"group_name": nil},
		keep: []string{"group_id", "request_id", "requester_uin", "invitor_uin", "checked", "actor", "flag"}},
	// A suspicious friend request: its author is a uid string, not a QQ
	// number, so it can never be matched against the trusted list. Its
	// source is QQ's text for where the request came from, which may name
	// a group by the name someone gave it: words too.
	"friend_request": {name: "friend_request",
		keep: []string{"uid", "reqTime", "flag"}},
	// A group notice (announcement).
	"group_notice": {name: "group_notice",
		authors: []string{"sender_id"},
		keep:    []string{"notice_id", "sender_id", "publish_time", "read_num"}},
	// An essence message as qun.qq.com lists it (not normalised by
	// SnowLuma, so anything unexpected is content).
	"essence": {name: "essence",
		authors: []string{"sender_uin"},
		keep: []string{"group_code", "msg_seq", "msg_random", "sender_uin", "sender_time",
			"add_digest_uin", "add_digest_time", "can_be_removed"}},
	// A Qzone feed entry: uin is the feed's owner, but its html is the
	// pre-rendered blob Qzone's feeds3_html_more returns, passed on
	// verbatim, which holds other people's comments beside the owner's
	// post. No one wrote all of it, so it has no author, the account's own
	// feed included.
	"qzone_feed": {name: "qzone_feed",
		keep: []string{"uin", "time", "appid", "key"}},
	// A Qzone post of the account named in the request; the result does
	// not say whose, so its author is unknown.
	"qzone_post": {name: "qzone_post",
		keep: []string{"tid", "time", "comment_num", "is_private"}},
	// A group member as SnowLuma's formatGroupMember writes it
	// (get_group_member_list, get_group_member_info). The nickname is the
	// name the member chose, words by user_id, as is anything else, such
	// as OneBot's area. The card may be the member's or any admin's, and
	// the special title is the owner's: words of no one author, withheld
	// in lockdown whoever the member is.
	"group_member": {name: "group_member",
		authors: []string{"user_id"},
		fields:  map[string][]string{"card": nil, "title": nil},
		keep: []string{"group_id", "user_id", "sex", "age", "join_time", "last_sent_time", "level", "role",
			"unfriendly", "title_expire_time", "card_changeable", "shut_up_timestamp"}},
	// A friend as getFriendList writes it: the nickname is the friend's
	// own choice, words by user_id; the remark is the account's own note
	// on them.
	"friend": {name: "friend",
		authors: []string{"user_id"},
		keep:    []string{"user_id", "remark"}},
	// A user's profile as getStrangerInfo writes it: the nickname is
	// theirs, words by user_id; sex, age and QQ level are fixed
	// vocabularies and numbers.
	"profile": {name: "profile",
		authors: []string{"user_id"},
		keep:    []string{"user_id", "sex", "age", "qq_level", "level"}},
	// A file of a group's file listing as SnowLuma's getGroupFiles writes
	// it (get_group_root_files, get_group_files_by_folder): its name is
	// whatever the uploader called it, and uploader_name the uploader's
	// own nickname or card, so both are words by uploader. GroupFileApi.list
	// writes 0 for an uploader QQ did not name: then no author.
	"group_file": {name: "group_file",
		authors: []string{"uploader"},
		keep: []string{"group_id", "file_id", "busid", "file_size", "upload_time", "dead_time", "modify_time",
			"download_times", "uploader"}},
	// A folder of the same listing: its name is whatever its creator
	// called it, and create_name the creator's own nickname or card, words
	// by creator (0, and so no author, when QQ did not name one).
	"group_folder": {name: "group_folder",
		authors: []string{"creator"},
		keep:    []string{"group_id", "folder_id", "create_time", "creator", "total_file_count"}},
	// Text recognised from someone's voice message or image; the result
	// does not say whose.
	"transcript": {name: "transcript",
		keep: []string{"language"}},
	// A group as the group info actions write it. Its name is whatever the
	// owner or any admin last set, and the result names neither: words of
	// no one author, so lockdown withholds it and the agent finds a group
	// by its number.
	"group": {name: "group",
		keep: []string{"group_id", "member_count", "max_member_count"}},
	// A muted member as get_group_shut_list writes it from the roster:
	// the nickname is the member's own, words by user_id.
	"muted": {name: "muted",
		authors: []string{"user_id"},
		keep:    []string{"user_id", "shut_up_time"}},
	// A holder of a group honor as qun.qq.com lists it (getHonorListWebAPI:
	// user_id is the page's uin, a number, a numeric string or null). The
	// description is the page's, words by user_id like anything unknown;
	// the name the page shows may be the member's card, so it is words of
	// no one author.
	"honor": {name: "honor",
		authors: []string{"user_id"},
		fields:  map[string][]string{"nickname": nil},
		keep:    []string{"user_id", "avatar"}},
	// A sign-in of get_group_signed_list (mapDaySignedList): nick is the
	// member's name in the group, their card when one is set, so it is
	// words of no one author.
	"signin": {name: "signin",
		authors: []string{"user_id"},
		fields:  map[string][]string{"nick": nil},
		keep:    []string{"user_id", "time", "rank"}},
	// An entry of get_unidirectional_friend_list: QQ's raw record of one
	// person, named by uin, with whatever QQ sends of them.
	"one_way_friend": {name: "one_way_friend",
		authors: []string{"uin"},
		keep:    []string{"uin"}},
	// A group album or one of its media, raw from Qzone's web API with
	// the names, descriptions and whatever else it sends; the result does
	// not establish who made or uploaded it.
	"album": {name: "album",
		keep: []string{"id", "picNum", "createTime", "album_id", "create_time", "pic_num"}},
	"album_media": {name: "album_media",
		keep: []string{"lloc", "batch_id", "batchId", "photoId", "uploadTime", "url"}},
	// A cached image or voice file (get_image, get_record, get_file): its
	// name is the one the message that carried it gave, and the result
	// does not say whose message that was. file is that name, or the
	// re-signed URL.
	"media_file": {name: "media_file",
		keep: []string{"url", "file_size", "out_format"}},
	// A flash-transfer file: its names are whoever shared the set chose,
	// and the result does not say who.
	"flash_file": {name: "flash_file",
		keep: []string{"fileset_id", "file_id", "size", "file_size", "share_url", "download_url", "url"}},
	// A contact card QQ renders: it carries the nickname, the signature
	// or the group name of whoever it recommends, and says not whose.
	"ark": {name: "ark"},
	// What a bot's inline keyboard button answered when clicked: its
	// prompt is the bot's, and the result does not name the bot.
	"button_reply": {name: "button_reply",
		keep: []string{"result", "status", "promptType", "promptIcon"}},
	// A raw protocol reply, hex-encoded: it carries whatever the packet
	// asked for, anyone's words included, with no one named.
	"packet": {name: "packet"},
	// QQ's like record of an album medium, passed on raw: it may list the
	// likers' names, none of whom the result establishes.
	"album_like": {name: "album_like"},
}

// requestKeep are a request event's metadata.
var requestKeep = []string{"time", "self_id", "post_type", "request_type", "sub_type", "group_id", "user_id", "flag"}

// eventShape is the shape of an event by its post_type, and a request's
// by its request_type and sub_type: only a friend request or a group
// join request ("add") names who wrote its comment; any other request is
// read as an invite, which SnowLuma writes when sub_type is missing. A
// post_type this package does not know gets a shape that keeps only the
// common header, so all of it that is not header counts as content. A
// sub_type written more than once says "add" only if every copy does.
func eventShape(frame []byte, ms []member) *shape {
	var postType, requestType string
	add, subTypes := true, 0
	for _, m := range ms {
		v := frame[m.start:m.end]
		switch string(m.key) {
		case "post_type":
			_ = json.Unmarshal(v, &postType)
		case "request_type":
			_ = json.Unmarshal(v, &requestType)
		case "sub_type":
			var sub string
			_ = json.Unmarshal(v, &sub)
			add, subTypes = add && sub == "add", subTypes+1
		}
	}
	switch postType {
	case "message", "message_sent":
		return shapes["message"]
	case "request":
		if requestType == "friend" || (requestType == "group" && add && subTypes > 0) {
			return shapes["request"]
		}
		return shapes["invite"]
	case "notice":
		return shapes["notice"]
	case "meta_event":
		return metaEvent
	}
	return unknownEvent
}

// metaEvent is a lifecycle or heartbeat: only SnowLuma's own fields, so
// anything else in one has no known author.
var metaEvent = &shape{name: "meta", keep: []string{"time", "self_id", "post_type", "meta_event_type", "sub_type", "status", "interval"}}

var unknownEvent = &shape{name: "event", authors: []string{"user_id"}, keep: []string{"time", "self_id", "post_type"}}
