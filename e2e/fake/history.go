package fake

// Received messages, history and forwards, as SnowLuma keeps them: a
// message that arrives is stored (so get_msg and the history actions find
// it) and pushed as an event; a forwarded chat is a resource of nodes, each
// with its own sender, that get_forward_msg returns by res_id. The
// test-facing hooks (Receive, Forward, JoinRequest) stand for things other
// people do to the account; the actions answer in the shapes of the
// bundled catalog and SnowLuma's per-action facts.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"time"
)

// Incoming is a message someone sends to the account (or the account's own,
// echoed back when From is SelfID).
type Incoming struct {
	// Group is the group it was sent in; 0 for a private message.
	Group int64
	From  int64
	Nick  string
	// Card is the sender's group card (a group message only).
	Card string
	// Message is its body as SnowLuma stores it: a segment array, or a
	// CQ-code string (a JSON string).
	Message json.RawMessage
	// Raw is the CQ-code rendering (raw_message).
	Raw string
}

// eventMessage is a message event: the stored message with the event header
// in front (message in packages/onebot/src/event-converter/envelope.ts).
type eventMessage struct {
	Time        int64           `json:"time"`
	SelfID      int64           `json:"self_id"`
	PostType    string          `json:"post_type"`
	MessageType string          `json:"message_type"`
	SubType     string          `json:"sub_type"`
	MessageID   int32           `json:"message_id"`
	MessageSeq  int64           `json:"message_seq"`
	GroupID     int64           `json:"group_id,omitempty"`
	UserID      int64           `json:"user_id"`
	Message     json.RawMessage `json:"message"`
	RawMessage  string          `json:"raw_message"`
	Font        int             `json:"font"`
	Sender      sender          `json:"sender"`
	Anonymous   json.RawMessage `json:"anonymous,omitempty"`
}

// Receive stores an arriving message the way SnowLuma's message store does
// and returns its id and the event frame to push to a scene.
func (f *Fake) Receive(in Incoming) (int32, string) {
	seq := f.store.nextSeq()
	m := storedMessage{
		Time: time.Now().Unix(), MessageSeq: seq, UserID: in.From,
		Message: in.Message, RawMessage: in.Raw, Sender: sender{UserID: in.From, Nickname: in.Nick, Sex: "unknown"},
	}
	if in.Group != 0 {
		m.MessageType, m.SubType, m.GroupID = "group", "normal", in.Group
		m.MessageID = MessageID(seq, in.Group, "group_message")
		m.Sender.Role, m.Sender.Card = "member", in.Card
		m.Anonymous = json.RawMessage("null")
	} else {
		m.MessageType, m.SubType = "private", "friend"
		m.MessageID = MessageID(seq, in.From, "private_message")
	}
	m.RealID = m.MessageID
	f.store.put(m)
	post := "message"
	if in.From == SelfID {
		post = "message_sent"
	}
	return m.MessageID, string(mustJSON(eventMessage{
		Time: m.Time, SelfID: SelfID, PostType: post, MessageType: m.MessageType, SubType: m.SubType,
		MessageID: m.MessageID, MessageSeq: seq, GroupID: m.GroupID, UserID: m.UserID, Message: m.Message,
		RawMessage: m.RawMessage, Sender: m.Sender, Anonymous: m.Anonymous,
	}))
}

// history returns the stored messages of one conversation, oldest first:
// the count ending at the anchor (0 = the latest), as SnowLuma's history
// actions fall back to the local store. An anchor outside the
// conversation finds nothing.
func (s *store) history(in func(storedMessage) bool, anchor int32, count int64) []storedMessage {
	s.mu.Lock()
	var conv []storedMessage
	for _, m := range s.msgs {
		if in(m) {
			conv = append(conv, m)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(conv, func(a, b storedMessage) int { return int(a.MessageSeq - b.MessageSeq) })
	if anchor != 0 {
		i := slices.IndexFunc(conv, func(m storedMessage) bool { return m.MessageID == anchor })
		if i < 0 {
			return []storedMessage{}
		}
		conv = conv[:i+1]
	}
	if count <= 0 {
		count = 20
	}
	count = min(count, 200)
	if int64(len(conv)) > count {
		conv = conv[int64(len(conv))-count:]
	}
	if conv == nil {
		conv = []storedMessage{}
	}
	return conv
}

// historyParams reads the anchor and count every history action takes.
func historyParams(p params) (int32, int64, *failure) {
	anchor, _, fail := p.integer("message_id", false, anyInt)
	if fail != nil {
		return 0, 0, fail
	}
	count, _, fail := p.integer("count", false, naturalInt)
	if fail != nil {
		return 0, 0, fail
	}
	return int32(anchor), count, nil
}

func getGroupMsgHistory(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	anchor, count, fail := historyParams(p)
	if fail != nil {
		return nil, fail
	}
	msgs := f.store.history(func(m storedMessage) bool { return m.MessageType == "group" && m.GroupID == group }, anchor, count)
	return mustJSON(map[string]any{"messages": msgs}), nil
}

func getFriendMsgHistory(f *Fake, p params) (json.RawMessage, *failure) {
	peer, _, fail := p.integer("user_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	anchor, count, fail := historyParams(p)
	if fail != nil {
		return nil, fail
	}
	msgs := f.store.history(func(m storedMessage) bool {
		return m.MessageType == "private" && (m.TargetID == peer || (m.TargetID == 0 && m.UserID == peer))
	}, anchor, count)
	return mustJSON(map[string]any{"messages": msgs}), nil
}

// Node is one message of a forwarded chat. Whoever builds a forward
// chooses its UserID and Nick (SnowLuma's send_forward_msg takes any for a
// custom node), so a test can forge them as a stranger would.
type Node struct {
	UserID int64
	Nick   string
	// Group is the group the node claims to come from; 0 for a private
	// node.
	Group int64
	// Content is the node's segment array; a nested forward is a segment
	// {"type":"forward","data":{"id":<res_id of another Forward>}}.
	Content json.RawMessage
}

// forwardNode is one message of get_forward_msg's answer, member for
// member as SnowLuma's getForwardMessage writes it
// (modules/message-actions.ts): a sender of user_id and nickname (and
// card for a group node), raw_message always empty, font 14, and
// group_id last, for a group node only.
type forwardNode struct {
	SelfID        int64           `json:"self_id"`
	UserID        int64           `json:"user_id"`
	Time          int64           `json:"time"`
	MessageID     int32           `json:"message_id"`
	MessageSeq    int64           `json:"message_seq"`
	RealID        int32           `json:"real_id"`
	MessageType   string          `json:"message_type"`
	Sender        forwardSender   `json:"sender"`
	RawMessage    string          `json:"raw_message"`
	Font          int             `json:"font"`
	SubType       string          `json:"sub_type"`
	Message       json.RawMessage `json:"message"`
	MessageFormat string          `json:"message_format"`
	PostType      string          `json:"post_type"`
	GroupID       int64           `json:"group_id,omitempty"`
}

// forwardSender is a forward node's sender: the builder's claim.
type forwardSender struct {
	UserID   int64   `json:"user_id"`
	Nickname string  `json:"nickname"`
	Card     *string `json:"card,omitempty"`
}

// forwards are the forward resources by res_id.
type forwards struct {
	mu  sync.Mutex
	res map[string][]forwardNode
}

// Forward stores a forwarded chat as a resource and returns its res_id,
// the id a forward segment carries.
func (f *Fake) Forward(nodes []Node) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	out := make([]forwardNode, len(nodes))
	for i, n := range nodes {
		out[i] = forwardNode{
			SelfID: SelfID, UserID: n.UserID, Time: time.Now().Unix(), MessageType: "private",
			Sender: forwardSender{UserID: n.UserID, Nickname: n.Nick}, Font: 14, SubType: "friend",
			Message: n.Content, MessageFormat: "array", PostType: "message",
		}
		if n.Group != 0 {
			card := ""
			out[i].MessageType, out[i].SubType, out[i].GroupID, out[i].Sender.Card = "group", "normal", n.Group, &card
		}
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	f.forwards.res[id] = out
	return id
}

// getForwardMsg answers by res_id. (SnowLuma also looks a forward up by a
// positive message_id; the fake needs only the res_id path.)
func getForwardMsg(f *Fake, p params) (json.RawMessage, *failure) {
	id, _, fail := p.str("id")
	if fail != nil {
		return nil, fail
	}
	if id == "" {
		return nil, badParam("id", "is required")
	}
	f.forwards.mu.Lock()
	nodes, ok := f.forwards.res[id]
	f.forwards.mu.Unlock()
	if !ok {
		return nil, actionFailed("forward message not found")
	}
	return mustJSON(map[string]any{"messages": nodes}), nil
}

// joinRequest is one entry of get_group_system_msg's flat array.
type joinRequest struct {
	GroupID       int64  `json:"group_id"`
	GroupName     string `json:"group_name"`
	RequestID     int64  `json:"request_id"`
	RequesterUin  int64  `json:"requester_uin"`
	RequesterNick string `json:"requester_nick"`
	Message       string `json:"message"`
	Flag          string `json:"flag"`
}

// JoinRequest records someone asking to join a group, with their comment,
// as get_group_system_msg lists it.
func (f *Fake) JoinRequest(group, user int64, nick, comment string) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	f.joins = append(f.joins, joinRequest{GroupID: group, GroupName: "Group", RequestID: int64(len(f.joins) + 1),
		RequesterUin: user, RequesterNick: nick, Message: comment, Flag: "1:" + itoa(group) + ":u_" + itoa(user)})
}

func getGroupSystemMsg(f *Fake, _ params) (json.RawMessage, *failure) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	return mustJSON(append([]joinRequest{}, f.joins...)), nil
}

func itoa(n int64) string { return string(mustJSON(n)) }

// FilteredRequest is a join request QQ filtered as suspicious: Requester
// asks to join Group, with Comment, invited by Inviter (0 when nobody
// invited them).
type FilteredRequest struct {
	Group         int64
	Requester     int64
	RequesterNick string
	Inviter       int64
	InviterNick   string
	Comment       string
}

// FilterJoinRequest records a filtered join request. SnowLuma lists the
// same filtered requests in two shapes (actions/extended.ts):
// get_group_ignored_notifies names the requester, while
// get_group_ignore_add_request (NapCat's naming) names only the inviter.
func (f *Fake) FilterJoinRequest(r FilteredRequest) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	f.filtered = append(f.filtered, r)
}

// ignoredNotify is one entry of get_group_ignored_notifies.
type ignoredNotify struct {
	GroupID       int64  `json:"group_id"`
	GroupName     string `json:"group_name"`
	RequestID     int64  `json:"request_id"`
	RequesterUin  int64  `json:"requester_uin"`
	RequesterNick string `json:"requester_nick"`
	Message       string `json:"message"`
	Checked       bool   `json:"checked"`
	Actor         int64  `json:"actor"`
	InvitorUin    int64  `json:"invitor_uin"`
	InvitorNick   string `json:"invitor_nick"`
	Flag          string `json:"flag"`
}

// ignoreAddRequest is one entry of get_group_ignore_add_request: the same
// request without requester_uin or flag.
type ignoreAddRequest struct {
	RequestID     int64  `json:"request_id"`
	InvitorUin    int64  `json:"invitor_uin"`
	InvitorNick   string `json:"invitor_nick"`
	GroupID       int64  `json:"group_id"`
	Message       string `json:"message"`
	GroupName     string `json:"group_name"`
	Checked       bool   `json:"checked"`
	Actor         int64  `json:"actor"`
	RequesterNick string `json:"requester_nick"`
}

func getGroupIgnoredNotifies(f *Fake, _ params) (json.RawMessage, *failure) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	out := []ignoredNotify{}
	for i, r := range f.filtered {
		out = append(out, ignoredNotify{GroupID: r.Group, GroupName: "Group", RequestID: int64(i + 1), RequesterUin: r.Requester,
			RequesterNick: r.RequesterNick, Message: r.Comment, InvitorUin: r.Inviter, InvitorNick: r.InviterNick,
			Flag: "1:" + itoa(r.Group) + ":u_" + itoa(r.Requester) + ":filtered"})
	}
	return mustJSON(out), nil
}

func getGroupIgnoreAddRequest(f *Fake, _ params) (json.RawMessage, *failure) {
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	out := []ignoreAddRequest{}
	for i, r := range f.filtered {
		out = append(out, ignoreAddRequest{RequestID: int64(i + 1), InvitorUin: r.Inviter, InvitorNick: r.InviterNick, GroupID: r.Group,
			Message: r.Comment, GroupName: "Group", RequesterNick: r.RequesterNick})
	}
	return mustJSON(out), nil
}
