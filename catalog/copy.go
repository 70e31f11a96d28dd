package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Copy marks an action that sends an existing message again, from the
// account, to a chat the call names (forward_group_single_msg,
// forward_friend_single_msg): SnowLuma copies the stored message's
// segments into a new send, stores the copy as the account's own and QQ
// echoes it as a message_sent. Whoever wrote the original, the copy then
// reads as the account's words, so the stage that owns third-party
// content reads the source first (with Read) and decides whether its words
// may be repeated.
type Copy struct {
	// Param is the OneBot param naming the message to copy.
	Param string `json:"param"`
	// Read is the action that returns that message exactly as SnowLuma
	// stores it, the one the copy is made from; it takes the same
	// param under the same name and declares where its result holds
	// someone's words (thirdParty).
	Read string `json:"read"`
}

// Source returns the params of a Read of the message a call of the
// declaring action would copy: the call's own value of Param, byte for
// byte, so that both calls name the same message.
func (c *Copy) Source(params json.RawMessage) (json.RawMessage, error) {
	var given map[string]json.RawMessage
	if len(strings.TrimSpace(string(params))) > 0 && json.Unmarshal(params, &given) != nil {
		return nil, fmt.Errorf("params must be a JSON object")
	}
	v, ok := given[c.Param]
	if !ok {
		return nil, fmt.Errorf("params.%s is required: it names the message to send again", c.Param)
	}
	key, _ := json.Marshal(c.Param)
	return json.RawMessage(`{` + string(key) + `:` + string(v) + `}`), nil
}

// checkCopies refuses a declaration that could not be followed: a param
// the action does not take, or a Read that is no action of the catalog,
// does not take the param, or declares no place for anyone's words.
func checkCopies(actions []*Action) error {
	byName := map[string]*Action{}
	for _, a := range actions {
		byName[a.Name] = a
	}
	takes := func(a *Action, param string) bool {
		for _, p := range a.Params {
			if p.Name == param {
				return true
			}
		}
		return false
	}
	for _, a := range actions {
		c := a.Copies
		if c == nil {
			continue
		}
		if !takes(a, c.Param) {
			return fmt.Errorf("%s: copies: param %q is not one of its params", a.Name, c.Param)
		}
		read, ok := byName[c.Read]
		switch {
		case !ok:
			return fmt.Errorf("%s: copies: read %q is no action of the catalog", a.Name, c.Read)
		case !read.ReadOnly || len(read.ThirdParty) == 0:
			return fmt.Errorf("%s: copies: read %q must be a read that declares where its result holds someone's words", a.Name, c.Read)
		case !takes(read, c.Param):
			return fmt.Errorf("%s: copies: read %q takes no param %q", a.Name, c.Read, c.Param)
		}
	}
	return nil
}
