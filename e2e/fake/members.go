package fake

// The group roster and the user profiles, in the shapes SnowLuma's
// contact actions write (formatGroupMember and getStrangerInfo in
// packages/onebot/src/modules/contact-actions.ts). Join stands for QQ's
// roster: who is in a group, and the names they chose.

import (
	"encoding/json"
	"slices"
)

// Member is someone in a group, with the names they (or a group admin or
// owner) chose.
type Member struct {
	UserID int64
	Nick   string
	Card   string
	Title  string
	// Role is owner, admin or member; "" reads as member.
	Role string
	// ShutUntil is when the member's mute ends, Unix seconds; 0 for none.
	ShutUntil int64
}

// groupMember is one entry as formatGroupMember writes it.
type groupMember struct {
	GroupID      int64  `json:"group_id"`
	UserID       int64  `json:"user_id"`
	Nickname     string `json:"nickname"`
	Card         string `json:"card"`
	Sex          string `json:"sex"`
	Age          int    `json:"age"`
	JoinTime     int64  `json:"join_time"`
	LastSentTime int64  `json:"last_sent_time"`
	Level        string `json:"level"`
	Role         string `json:"role"`
	Title        string `json:"title"`
	ShutUntil    int64  `json:"-"` // get_group_shut_list reads it; formatGroupMember writes none
}

// Join puts m on group's roster.
func (f *Fake) Join(group int64, m Member) {
	if m.Role == "" {
		m.Role = "member"
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	if f.rosters == nil {
		f.rosters, f.profiles = map[int64][]groupMember{}, map[int64]string{}
	}
	f.profiles[m.UserID] = m.Nick
	f.rosters[group] = append(f.rosters[group], groupMember{GroupID: group, UserID: m.UserID, Nickname: m.Nick, Card: m.Card,
		Sex: "unknown", JoinTime: 1764000000, LastSentTime: 1764600000, Level: "1", Role: m.Role, Title: m.Title, ShutUntil: m.ShutUntil})
}

func getGroupMemberList(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	return mustJSON(append([]groupMember{}, f.rosters[group]...)), nil
}

// getGroupMemberInfo answers, like SnowLuma, a member it does not know
// with zero values rather than an error.
func getGroupMemberInfo(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	user, _, fail := p.integer("user_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	roster := f.rosters[group]
	if i := slices.IndexFunc(roster, func(m groupMember) bool { return m.UserID == user }); i >= 0 {
		return mustJSON(roster[i]), nil
	}
	return mustJSON(groupMember{GroupID: group, UserID: user, Sex: "unknown", Level: "0", Role: "member"}), nil
}

// getStrangerInfo answers the profile of anyone who joined a group (the
// nickname of their latest Join), and SnowLuma's placeholder for anyone
// else.
func getStrangerInfo(f *Fake, p params) (json.RawMessage, *failure) {
	user, _, fail := p.integer("user_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	if nick, ok := f.profiles[user]; ok {
		return mustJSON(map[string]any{"user_id": user, "nickname": nick, "sex": "unknown", "age": 0, "qq_level": 1, "level": 1}), nil
	}
	return mustJSON(map[string]any{"user_id": user, "nickname": "", "sex": "unknown", "age": 0}), nil
}
