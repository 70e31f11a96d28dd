package catalog

import "fmt"

// Delivery marks an action that puts something in front of another person
// or into a chat (a message, a forward, a file message, a voice clip, a
// poke, a profile like, a reaction, a share, a notice, a sign-in): the kind
// of call QQ's risk control counts, and so the kind the pacing stage
// charges against the account's send budgets. Actions that only change
// settings, read, upload without posting, or take something away (recall,
// unlike, delete) carry none.
type Delivery struct {
	// Targets are the params that name where the delivery goes, in
	// SnowLuma's routing order: the first one a call gives (as a positive
	// number) is the chat or person it reaches. Empty when the action's
	// params do not name it (a reaction names only the message); such a
	// call is charged to the account alone.
	Targets []DeliveryTarget `json:"targets"`
	// ChatParam, when set, is the param whose value "group" or "private"
	// picks the kind of chat before any target param is read (send_msg's
	// and send_forward_msg's message_type): a call that names the kind
	// goes to that kind's target, and SnowLuma refuses it when that target
	// is missing.
	ChatParam string `json:"chat_param,omitempty"`
	// Required, when set, means a call must give a target param to be
	// paced. Without one SnowLuma finds the chat from the stored message
	// the call names, which the server cannot read (set_group_reaction
	// reacts in that message's group), so the call could not be charged
	// to its chat: it is refused before anything is spent rather than
	// charged to the account alone.
	Required bool `json:"required,omitempty"`
}

// DeliveryTarget is one param that can name a delivery's destination.
type DeliveryTarget struct {
	// Param is the OneBot param's name.
	Param string `json:"param"`
	// Chat is what its value identifies: a group or a user.
	Chat string `json:"chat"`
	// ZeroSkips, when set, means 0 is this param's placeholder for "this
	// branch does not apply": SnowLuma reads it raw and routes only on a
	// value above 0 (send_forward_msg, whose contract allows 0 and says
	// so), so a 0 is read as if the param were not given.
	ZeroSkips bool `json:"zero_skips,omitempty"`
}

// The two kinds of destination a delivery can have.
const (
	ChatGroup = "group"
	ChatUser  = "user"
)

// check refuses a declaration that could not route a call: an unknown kind
// of chat, or a param named twice. A target param need not be declared in
// params: send_forward_msg reads its targets raw.
func (d *Delivery) check() error {
	if d == nil {
		return nil
	}
	if d.Targets == nil {
		d.Targets = []DeliveryTarget{}
	}
	if d.Required && len(d.Targets) == 0 {
		return fmt.Errorf("delivers: required without a target param")
	}
	seen := map[string]bool{d.ChatParam: d.ChatParam != ""}
	for _, t := range d.Targets {
		if t.Chat != ChatGroup && t.Chat != ChatUser {
			return fmt.Errorf("delivers: target %q: chat must be %q or %q", t.Param, ChatGroup, ChatUser)
		}
		if t.Param == "" || seen[t.Param] {
			return fmt.Errorf("delivers: target param %q is empty or named twice", t.Param)
		}
		seen[t.Param] = true
	}
	return nil
}
