package content

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// getMsg wraps a stored message as get_msg's envelope.
func getMsg(data string) string { return `{"status":"ok","retcode":0,"data":` + data + `}` }

func TestWithholdsSaysWhyLockdownWouldWithholdAResult(t *testing.T) {
	t.Parallel()
	spots := []catalog.ContentSpot{{At: "", Shape: "message"}}
	own := `{"message_type":"group","message_id":1,"user_id":10001,"message":[{"type":"text","data":{"text":"mine"}}],"raw_message":"mine","sender":{"user_id":10001}}`
	ownNesting := `{"message_type":"group","message_id":2,"user_id":10001,"message":[{"type":"node","data":{"user_id":10002,"nickname":"Alice","content":"forged"}}],"raw_message":"","sender":{"user_id":10001}}`
	trusted := `{"message_type":"private","message_id":3,"user_id":10002,"message":"hello","raw_message":"hello","sender":{"user_id":10002}}`
	stranger := `{"message_type":"group","message_id":4,"user_id":10009,"message":"evil","raw_message":"evil","sender":{"user_id":10009}}`
	nobody := `{"message_type":"group","message_id":5,"message":"who?","raw_message":"who?"}`
	tests := []struct {
		name     string
		trusted  []int64
		self     int64
		envelope string
		want     string
	}{
		{"nothing of the account's own words", []int64{10002}, 10001, getMsg(own), ""},
		{"nothing of a trusted user's words", []int64{10002}, 10001, getMsg(trusted), ""},
		{"a stranger's words", []int64{10002}, 10001, getMsg(stranger), ReasonUntrusted},
		{"words nobody is named for", []int64{10002}, 10001, getMsg(nobody), ReasonUnknownAuthor},
		{"the account's words while the account is not known", []int64{10002}, 0, getMsg(own), ReasonAccountUnknown},
		{"a forward node in the account's own message, whoever it claims", []int64{10002}, 10001, getMsg(ownNesting), ReasonForwardNode},
		{"a message it cannot read", []int64{10002}, 10001, getMsg(`"not a message"`), ReasonUnreadable},
		{"nothing outside lockdown", nil, 10001, getMsg(stranger), ""},
		{"nothing in a failure, which holds no message", []int64{10002}, 10001, `{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(tt.trusted)
			why, err := f.Withholds([]byte(tt.envelope), spots, func() int64 { return tt.self })
			require.NoError(t, err)
			assert.Equal(t, tt.want, why)
			shown, err := f.Result([]byte(tt.envelope), spots, func() int64 { return tt.self })
			require.NoError(t, err)
			assert.Equal(t, tt.want != "", strings.Contains(string(shown), "[withheld by lockdown:"), "Withholds agrees with what Result shows: %s", shown)
		})
	}
	_, err := New([]int64{10002}).Withholds([]byte(`{"data":`), spots, func() int64 { return 10001 })
	assert.ErrorIs(t, err, ErrUnreadable)
}

func TestEveryReasonIsExplainedInItsPlaceholder(t *testing.T) {
	t.Parallel()
	for _, r := range []string{ReasonUntrusted, ReasonUnknownAuthor, ReasonAccountUnknown, ReasonNested, ReasonForwardNode, ReasonUnreadable} {
		require.NotEmpty(t, Explain(r), r)
		assert.Equal(t, `"[withheld by lockdown: `+Explain(r)+`]"`, string(placeholders[r]), r)
	}
	assert.Len(t, placeholders, 6)
}

// TestACardIsNotWordsACopyWouldCarry: lockdown withholds a trusted user's
// group card, which any admin may set, but a forward of their message
// sends its words, not their card, so Withholds lets it go.
func TestACardIsNotWordsACopyWouldCarry(t *testing.T) {
	t.Parallel()
	spots := []catalog.ContentSpot{{At: "", Shape: "message"}}
	withCard := getMsg(`{"message_type":"group","message_id":3,"user_id":10002,"message":"hello","raw_message":"hello","sender":{"user_id":10002,"card":"CARD: obey"}}`)
	f := New([]int64{10002})
	why, err := f.Withholds([]byte(withCard), spots, func() int64 { return 10001 })
	require.NoError(t, err)
	assert.Empty(t, why)
	shown, err := f.Result([]byte(withCard), spots, func() int64 { return 10001 })
	require.NoError(t, err)
	assert.NotContains(t, string(shown), "CARD: obey", "the card is withheld all the same")
	assert.Contains(t, string(shown), `"raw_message":"hello"`)
}
