package fake

// The message store mirrors SnowLuma's: IDs are the signed int32 hash of
// hashMessageIdInt32 (packages/onebot/src/message-id.ts), about half of
// them negative, never 0; get_msg and delete_msg only know stored messages
// (packages/onebot/src/message-store.ts); self-sent messages are stored at
// once so get_msg works right after a send (finalizeSend in
// packages/onebot/src/modules/message-actions.ts).

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"
)

// MessageID is SnowLuma's hashMessageIdInt32: SHA-1 of "<seq>:<session>:<event>",
// the first four digest bytes as a big-endian signed int32, 0 bumped to 1.
// event is "group_message" (session = group ID) or "private_message"
// (session = peer uin).
func MessageID(seq, session int64, event string) int32 {
	d := sha1.Sum([]byte(fmt.Sprintf("%d:%d:%s", seq, session, event)))
	id := int32(binary.BigEndian.Uint32(d[:4]))
	if id == 0 {
		id = 1
	}
	return id
}

// Self account and the seeded conversation partners.
const (
	SelfID  = 10001
	AliceID = 10002
	GroupID = 123456789
)

// Seeded message IDs: MessageID of the sequence noted beside each, so one
// is positive and two are negative.
const (
	SeedGroupPositive   int32 = 2137770485  // seq 12345 in GroupID
	SeedGroupNegative   int32 = -1559550018 // seq 12340 in GroupID
	SeedPrivateNegative int32 = -1264852461 // seq 678 from AliceID
)

// segment is one message segment.
type segment struct {
	Type string            `json:"type"`
	Data map[string]string `json:"data"`
}

type sender struct {
	UserID   int64  `json:"user_id"`
	Nickname string `json:"nickname"`
	Card     string `json:"card,omitempty"`
	Role     string `json:"role,omitempty"`
	Sex      string `json:"sex"`
	Age      int    `json:"age"`
}

// storedMessage is the get_msg data shape: the message event without
// post_type and self_id, plus real_id.
type storedMessage struct {
	Time        int64           `json:"time"`
	MessageType string          `json:"message_type"`
	SubType     string          `json:"sub_type"`
	MessageID   int32           `json:"message_id"`
	RealID      int32           `json:"real_id"`
	MessageSeq  int64           `json:"message_seq"`
	UserID      int64           `json:"user_id"`
	GroupID     int64           `json:"group_id,omitempty"`
	TargetID    int64           `json:"target_id,omitempty"`
	Message     json.RawMessage `json:"message"`
	RawMessage  string          `json:"raw_message"`
	Font        int             `json:"font"`
	Sender      sender          `json:"sender"`
	Anonymous   json.RawMessage `json:"anonymous,omitempty"`
}

type store struct {
	mu   sync.Mutex
	seq  int64
	msgs map[int32]storedMessage
}

func newStore() *store {
	s := &store{seq: 30000, msgs: map[int32]storedMessage{}}
	s.put(groupMessage(12345, AliceID, "Alice", "hi", 1764664201))
	s.put(groupMessage(12340, AliceID, "Alice", "earlier message", 1764664100))
	priv := storedMessage{
		Time: 1764664202, MessageType: "private", SubType: "friend",
		MessageID: MessageID(678, AliceID, "private_message"), MessageSeq: 678, UserID: AliceID,
		Message:    textSegments("hello"),
		RawMessage: "hello", Sender: sender{UserID: AliceID, Nickname: "Alice", Sex: "unknown"},
	}
	priv.RealID = priv.MessageID
	s.put(priv)
	return s
}

func groupMessage(seq, from int64, nick, text string, at int64) storedMessage {
	m := storedMessage{
		Time: at, MessageType: "group", SubType: "normal",
		MessageID: MessageID(seq, GroupID, "group_message"), MessageSeq: seq,
		UserID: from, GroupID: GroupID,
		Message:    textSegments(text),
		RawMessage: text,
		Sender:     sender{UserID: from, Nickname: nick, Card: "", Role: "member", Sex: "unknown"},
		Anonymous:  json.RawMessage("null"),
	}
	m.RealID = m.MessageID
	return m
}

// textSegments is the segment array of a plain-text message.
func textSegments(text string) json.RawMessage {
	return mustJSON([]segment{{Type: "text", Data: map[string]string{"text": text}}})
}

func (s *store) put(m storedMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs[m.MessageID] = m
}

func (s *store) get(id int32) (storedMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.msgs[id]
	return m, ok
}

func (s *store) remove(id int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.msgs[id]
	delete(s.msgs, id)
	return ok
}

// nextSeq hands out the sequence of a self-sent message.
func (s *store) nextSeq() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// Stored reports whether a message with id is in the fake's store.
func (f *Fake) Stored(id int32) bool {
	_, ok := f.store.get(id)
	return ok
}

// SentTo says where the fake sent the message with id: "group" or
// "private" and the group or user it went to; ok is false when it has no
// such message.
func (f *Fake) SentTo(id int32) (kind string, target int64, ok bool) {
	m, ok := f.store.get(id)
	if !ok {
		return "", 0, false
	}
	if m.MessageType == "group" {
		return "group", m.GroupID, true
	}
	return "private", m.TargetID, true
}
