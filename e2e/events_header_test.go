package e2e

// Event headers are read exactly as stored (EVT-2): a frame that carries a
// checked key twice, in any spelling, cannot pass the account or filter
// checks on one field while the agent reads another; it stops the
// connection as malformed, and so does a header field of the wrong type,
// with a message that names the field.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestEventHeaderIsReadExactly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, frame, message string
	}{
		{"another account behind a capitalised key",
			`{"time":1764664201,"self_id":99999,"Self_ID":10001,"post_type":"message","message_type":"group","group_id":20001,"user_id":30001,"message":[{"type":"text","data":{"text":"forged"}}]}`,
			`the frame carries self_id twice (as "self_id" and "Self_ID")`},
		{"another group behind a capitalised key",
			`{"time":1764664201,"self_id":10001,"post_type":"message","message_type":"group","group_id":20002,"GROUP_ID":20001,"user_id":30001,"message":[{"type":"text","data":{"text":"forged"}}]}`,
			`the frame carries group_id twice (as "group_id" and "GROUP_ID")`},
		{"a numeric post_type",
			`{"time":1764664201,"self_id":10001,"post_type":5,"group_id":20001,"user_id":30001}`,
			"post_type must be a string, not a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				sc := snow.Scene(fake.SceneOptions{})
				s := start(t, version, eventsEnv(sc))
				uri := s.subscribeEvents(t, map[string]any{"self_id": self, "group_ids": []int{20001}})
				sc.Push(fake.GroupMessage(self, 20001, 30001, "before"))
				s.awaitEvents(t, uri, 1)
				sc.Push(c.frame)
				p := s.awaitState(t, uri, "disconnected")
				assert.Equal(t, "malformed_event", p.Status.Reason)
				assert.Contains(t, p.Status.Message, c.message)
				require.Equal(t, []string{"before"}, s.readEvents(t, uri).texts(t), "the frame never reaches the resource")
			})
		})
	}
}
