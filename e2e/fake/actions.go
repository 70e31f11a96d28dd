package fake

// A realistic subset of SnowLuma's actions, with the data shapes of its
// source and the bundled catalog: signed message IDs
// (packages/onebot/src/message-id.ts), the info actions
// (packages/onebot/src/actions/info.ts), void actions answering data null
// (okResponse in packages/onebot/src/types.ts), set_group_sign answering {}
// and upload_forward_msg's message_id 0 sentinel
// (packages/onebot/src/actions/extended.ts), get_file's file_size as a
// decimal string (getImageInfo and getRecordInfo in
// packages/onebot/src/modules/media-actions.ts), and parameter errors as
// retcode 1400 "<field>: <reason>" (defineAction in
// packages/onebot/src/action-kit.ts).

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

type action func(f *Fake, p params) (json.RawMessage, *failure)

// aliases are the extra names SnowLuma registers (the name lists of
// fetch_ptt_text and set_group_sign in
// packages/onebot/src/actions/extended.ts).
var aliases = map[string]string{
	"get_ptt_text":    "fetch_ptt_text",
	"get_record_text": "fetch_ptt_text",
	"send_group_sign": "set_group_sign",
}

var actions map[string]action

func init() {
	actions = map[string]action{
		"get_login_info":               constant(`{"user_id":10001,"nickname":"SnowBot"}`),
		"get_status":                   constant(`{"online":true,"good":true}`),
		"get_version_info":             constant(`{"app_name":"SnowLuma","app_version":"1.11.1-node","protocol_version":"v11"}`),
		"can_send_image":               constant(`{"yes":true}`),
		"can_send_record":              constant(`{"yes":true}`),
		"get_group_list":               constant(groupList),
		"get_friend_list":              constant(friendList),
		"get_msg":                      getMsg,
		"delete_msg":                   deleteMsg,
		"send_group_msg":               sendGroupMsg,
		"send_private_msg":             sendPrivateMsg,
		"send_msg":                     sendMsg,
		"get_file":                     getFile,
		"set_group_sign":               setGroupSign,
		"set_group_ban":                setGroupBan,
		"upload_forward_msg":           uploadForwardMsg,
		"upload_foward_msg":            uploadForwardMsg,
		"fetch_ptt_text":               fetchPttText,
		"get_group_msg_history":        getGroupMsgHistory,
		"get_friend_msg_history":       getFriendMsgHistory,
		"get_forward_msg":              getForwardMsg,
		"get_group_system_msg":         getGroupSystemMsg,
		"get_group_ignored_notifies":   getGroupIgnoredNotifies,
		"get_group_ignore_add_request": getGroupIgnoreAddRequest,
		"get_group_member_list":        getGroupMemberList,
		"get_group_member_info":        getGroupMemberInfo,
		"get_stranger_info":            getStrangerInfo,
		"get_group_root_files":         getGroupRootFiles,
		"get_group_files_by_folder":    getGroupFilesByFolder,
		"get_group_shut_list":          getGroupShutList,
	}
	for name := range keyed {
		actions[name] = fromPages(name)
	}
}

// Canned list data.
const (
	groupList  = `[{"group_id":123456789,"group_name":"SnowLuma 测试群","member_count":42,"max_member_count":500},{"group_id":987654321,"group_name":"Bots","member_count":3,"max_member_count":200}]`
	friendList = `[{"user_id":10002,"nickname":"Alice","remark":""},{"user_id":10003,"nickname":"Bob","remark":"老同学"}]`
)

// KnownFile is a cached media file get_file knows; its size is sent as the
// decimal string KnownFileSize.
const (
	KnownFile     = "6B4DE3DFD1BD271E3297859D41C530F5.jpg"
	KnownFileSize = "1048576"
	knownFileURL  = "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhRkZmFrZQ&rkey=CAQSKAB6"
)

// handle runs an action by name or alias.
func (f *Fake) handle(name string, p params) (json.RawMessage, *failure) {
	if target, ok := aliases[name]; ok {
		name = target
	}
	a, ok := actions[name]
	if !ok {
		return nil, &failure{retcode: 1404, wording: "unknown action"}
	}
	return a(f, p)
}

func constant(data string) action {
	return func(*Fake, params) (json.RawMessage, *failure) { return json.RawMessage(data), nil }
}

// mustJSON encodes like JSON.stringify: compact and without HTML escaping.
func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func getMsg(f *Fake, p params) (json.RawMessage, *failure) {
	id, _, fail := p.integer("message_id", true, messageID)
	if fail != nil {
		return nil, fail
	}
	m, ok := f.store.get(int32(id))
	if !ok || !isInt32(id) {
		return nil, actionFailed("message not found")
	}
	return mustJSON(m), nil
}

// isInt32 reports whether a message_id f.messageId accepted (any non-zero
// integer) can name a stored message: stored ids are int32 hashes.
func isInt32(id int64) bool { return id == int64(int32(id)) }

func deleteMsg(f *Fake, p params) (json.RawMessage, *failure) {
	id, _, fail := p.integer("message_id", true, messageID)
	if fail != nil {
		return nil, fail
	}
	if !isInt32(id) || !f.store.remove(int32(id)) {
		return nil, actionFailed("message not found or not retractable")
	}
	return json.RawMessage("null"), nil
}

// message reads the required "message" param: a CQ string, a segment
// array or a single segment, returned as a segment array plus raw text.
func message(p params) (json.RawMessage, string, *failure) {
	v, ok := p.raw("message")
	if !ok {
		return nil, "", badParam("message", "is required")
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return textSegments(s), s, nil
	}
	var segs []struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if json.Unmarshal(v, &segs) != nil {
		var one struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if json.Unmarshal(v, &one) != nil || one.Type == "" {
			return nil, "", badParam("message", "expected a message")
		}
		segs = append(segs, one)
	}
	var raw strings.Builder
	for _, sg := range segs {
		if t, ok := sg.Data["text"].(string); ok && sg.Type == "text" {
			raw.WriteString(t)
		}
	}
	return mustJSON(segs), raw.String(), nil
}

// sendTo stores a self-sent copy and returns SnowLuma's send receipt. The
// copy is SnowLuma's cacheSelfSentMessage (modules/message-actions.ts):
// user_id and sender.user_id the account, an empty nickname, no card, role
// or anonymous, and target_id the peer of a private message.
func (f *Fake) sendTo(kind string, target int64, segs json.RawMessage, raw string) json.RawMessage {
	seq := f.store.nextSeq()
	m := storedMessage{
		Time: time.Now().Unix(), MessageType: kind, MessageSeq: seq, UserID: SelfID,
		Message: segs, RawMessage: raw, Sender: sender{UserID: SelfID, Sex: "unknown"},
	}
	if kind == "group" {
		m.SubType, m.GroupID = "normal", target
		m.MessageID = MessageID(seq, target, "group_message")
	} else {
		m.SubType, m.TargetID = "friend", target
		m.MessageID = MessageID(seq, target, "private_message")
	}
	m.RealID = m.MessageID
	f.store.put(m)
	return mustJSON(map[string]int32{"message_id": m.MessageID})
}

// The send actions read their params in the order message.ts declares
// them (send_group_msg: group_id, message, auto_escape; send_private_msg:
// user_id, message, auto_escape; send_msg: message, message_type, group_id,
// user_id, auto_escape), so the first invalid one is the one named.

func sendGroupMsg(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	segs, raw, fail := message(p)
	if fail != nil {
		return nil, fail
	}
	if _, _, fail := p.boolean("auto_escape"); fail != nil {
		return nil, fail
	}
	return f.sendTo("group", group, segs, raw), nil
}

func sendPrivateMsg(f *Fake, p params) (json.RawMessage, *failure) {
	user, _, fail := p.integer("user_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	segs, raw, fail := message(p)
	if fail != nil {
		return nil, fail
	}
	if _, _, fail := p.boolean("auto_escape"); fail != nil {
		return nil, fail
	}
	return f.sendTo("private", user, segs, raw), nil
}

// sendMsg: message_type "group" or a group_id means a group message, which
// then needs the group_id; anything else is private and needs user_id.
// Those two checks are run()'s own, worded without the field prefix.
func sendMsg(f *Fake, p params) (json.RawMessage, *failure) {
	segs, raw, fail := message(p)
	if fail != nil {
		return nil, fail
	}
	kind, _, fail := p.str("message_type")
	if fail != nil {
		return nil, fail
	}
	group, hasGroup, fail := p.integer("group_id", false, uintID)
	if fail != nil {
		return nil, fail
	}
	user, hasUser, fail := p.integer("user_id", false, uintID)
	if fail != nil {
		return nil, fail
	}
	if _, _, fail := p.boolean("auto_escape"); fail != nil {
		return nil, fail
	}
	switch {
	case kind == "group" || hasGroup:
		if !hasGroup {
			return nil, &failure{retcode: 1400, wording: "group_id is required"}
		}
		return f.sendTo("group", group, segs, raw), nil
	case !hasUser:
		return nil, &failure{retcode: 1400, wording: "user_id is required"}
	}
	return f.sendTo("private", user, segs, raw), nil
}

func getFile(f *Fake, p params) (json.RawMessage, *failure) {
	file, _, fail := p.str("file")
	if fail != nil {
		return nil, fail
	}
	if file == "" {
		if file, _, fail = p.str("file_id"); fail != nil {
			return nil, fail
		}
	}
	switch file {
	case "":
		return nil, badParam("file", "is required")
	case KnownFile:
		return mustJSON(struct {
			File     string `json:"file"`
			URL      string `json:"url"`
			FileSize string `json:"file_size"`
			FileName string `json:"file_name"`
		}{knownFileURL, knownFileURL, KnownFileSize, KnownFile}), nil
	}
	return nil, actionFailed("file not found")
}

func setGroupSign(f *Fake, p params) (json.RawMessage, *failure) {
	if _, _, fail := p.integer("group_id", true, uintID); fail != nil {
		return nil, fail
	}
	return json.RawMessage("{}"), nil
}

func setGroupBan(f *Fake, p params) (json.RawMessage, *failure) {
	if _, _, fail := p.integer("group_id", true, uintID); fail != nil {
		return nil, fail
	}
	if _, _, fail := p.integer("user_id", true, uintID); fail != nil {
		return nil, fail
	}
	if _, _, fail := p.integer("duration", false, naturalInt); fail != nil {
		return nil, fail
	}
	return json.RawMessage("null"), nil
}

// uploadForwardMsg uploads a forward resource without sending anything, so
// its message_id is the sentinel 0.
func uploadForwardMsg(f *Fake, p params) (json.RawMessage, *failure) {
	_, hasMessages := p.raw("messages")
	_, hasMessage := p.raw("message")
	group, hasGroup, fail := p.integer("group_id", false, uintID)
	if fail != nil {
		return nil, fail
	}
	if !hasMessages && !hasMessage {
		return nil, &failure{retcode: 1400, wording: "message/messages is required"}
	}
	messages, _ := p.raw("messages")
	resID := f.Forward(customNodes(messages))
	out := map[string]any{"res_id": resID, "forward_id": resID, "message_id": 0}
	if hasGroup {
		out["group_id"] = group
	}
	return mustJSON(out), nil
}

// customNodes reads the custom nodes of a forward being built, as
// SnowLuma's parseForwardNodes does: user_id (or uin) and nickname (or
// name) are whatever the caller wrote, and a text content becomes a text
// segment. Nodes that reference stored messages, and anything unreadable,
// are left out: the fake keeps only what get_forward_msg needs to hand
// the builder's claims back.
func customNodes(messages json.RawMessage) []Node {
	var segs []struct {
		Type string `json:"type"`
		Data struct {
			UserID   json.Number     `json:"user_id"`
			Uin      json.Number     `json:"uin"`
			Nickname *string         `json:"nickname"`
			Name     *string         `json:"name"`
			Content  json.RawMessage `json:"content"`
		} `json:"data"`
	}
	if json.Unmarshal(messages, &segs) != nil {
		return nil
	}
	var nodes []Node
	for _, sg := range segs {
		id := sg.Data.UserID
		if id == "" {
			id = sg.Data.Uin
		}
		uin, err := id.Int64()
		if sg.Type != "node" || err != nil || uin <= 0 || len(sg.Data.Content) == 0 {
			continue
		}
		n := Node{UserID: uin, Nick: id.String(), Content: sg.Data.Content}
		switch {
		case sg.Data.Nickname != nil:
			n.Nick = *sg.Data.Nickname
		case sg.Data.Name != nil:
			n.Nick = *sg.Data.Name
		}
		var text string
		if json.Unmarshal(sg.Data.Content, &text) == nil {
			n.Content = textSegments(text)
		}
		nodes = append(nodes, n)
	}
	return nodes
}

func fetchPttText(f *Fake, p params) (json.RawMessage, *failure) {
	id, _, fail := p.str("message_id")
	if fail != nil {
		return nil, fail
	}
	if strings.TrimSpace(id) == "" {
		return nil, badParam("message_id", "is required")
	}
	return json.RawMessage(`{"text":"你好，世界"}`), nil
}
