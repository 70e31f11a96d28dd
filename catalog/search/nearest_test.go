package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearestNamesTheActionASlipMeant(t *testing.T) {
	t.Parallel()
	c := load(t)
	tests := []struct {
		name  string
		slip  string
		first string
	}{
		{"adds a missing leading underscore", "send_group_notice", "_send_group_notice"},
		{"drops an extra leading underscore", "_send_group_msg", "send_group_msg"},
		{"reads a plural as its singular", "get_group_lists", "get_group_list"},
		{"reads a plural anywhere in the name", "get_groups_info", "get_group_info"},
		{"swaps get_ for set_", "get_group_card", "set_group_card"},
		{"swaps set_ for get_", "set_group_member_list", "get_group_member_list"},
		{"forgives a typo", "send_grup_msg", "send_group_msg"},
		{"forgives two", "sned_grop_msg", "send_group_msg"},
		{"ignores case and spaces", " Send_Group_Notice ", "_send_group_notice"},
		{"names an alias when the slip is nearest to it", "nc_get_rkeys", "nc_get_rkey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := c.Nearest(tt.slip)
			if assert.NotEmpty(t, got) {
				assert.Equal(t, tt.first, got[0], "%v", got)
			}
			assert.LessOrEqual(t, len(got), maxNearest)
		})
	}
}

func TestNearestOffersNothingForAFarName(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, n := range []string{"", "frobnicate", "definitely_not_an_action", "no_such_action", string(make([]byte, 10000))} {
		assert.Empty(t, c.Nearest(n), "%q", n)
	}
}

// TestACaseOrBlankSlipIsOfferedTheExactActionFirst: a real name off only
// in case or blanks is offered that name first, by Nearest and by Offer.
func TestACaseOrBlankSlipIsOfferedTheExactActionFirst(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, slip := range []string{"SEND_GROUP_MSG", "send_group_msg ", " Send_Group_Msg\t"} {
		got := c.Nearest(slip)
		if assert.NotEmpty(t, got, "%q", slip) {
			assert.Equal(t, "send_group_msg", got[0], "%q: %v", slip, got)
		}
		offer := c.Offer(slip)
		if assert.NotEmpty(t, offer, "%q", slip) {
			assert.Equal(t, "send_group_msg", offer[0], "%q: %v", slip, offer)
		}
	}
}

// TestAnInventedNameIsOfferedWhatItsWordsFind: a name made of a request's
// words, none a slip of a real name, is offered the action its words find
// through the search; a name whose words mostly mean nothing is offered
// nothing.
func TestAnInventedNameIsOfferedWhatItsWordsFind(t *testing.T) {
	t.Parallel()
	c := load(t)
	for invented, meant := range map[string]string{
		"send_private_text": "send_private_msg", "ban_group_user": "set_group_ban", "withdraw_msg": "delete_msg",
		"get_friends": "get_friend_list", "getGroupMemberList": "get_group_member_list", "kickMember": "set_group_kick",
	} {
		assert.Contains(t, c.Offer(invented), meant, invented)
		assert.LessOrEqual(t, len(c.Offer(invented)), maxOffer)
	}
	assert.Empty(t, c.Offer("no_such_action"))
	assert.Empty(t, c.Offer("frobnicate_the_xyzzy"))
}
