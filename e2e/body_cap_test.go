package e2e

// A request body SnowLuma would drop unread (issue 51 §3, Q-3): SnowLuma's
// HTTP adapter reads at most 2 MiB of body and then tears the socket down
// without a response (notes/snowluma-wire.md §1.3), so such a call used to
// be sent, and reported as maybe sent ("unknown", "check that SnowLuma is
// running") with its send budget spent. Now it is refused before sending,
// as limit, failed, naming the size, the cap and what to do, and it costs
// no budget.

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

func TestABodyOverSnowLumasCapIsRefusedBeforeItIsSentOrCharged(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		// One send per chat, then none for an hour: a charged refusal
		// would leave the next send to the chat nothing.
		s := start(t, version, paceEnv("target=1+1/1h,account=50+1/10ms", "0"))
		text := strings.Repeat("a", 2_200_000)
		big := map[string]any{"group_id": 20001, "message": []any{map[string]any{"type": "text", "data": map[string]any{"text": text}}}}
		r, tag := s.sendNow(t, "send_group_msg", big, nil)
		require.True(t, r.IsError, r.Text)
		assert.Equal(t, "limit", r.Diag.Kind, r.Text)
		assert.Equal(t, "failed", r.Diag.Outcome, "SnowLuma never saw it")
		assert.Contains(t, r.Diag.Message, strconv.Itoa(onebot.BodyCap), "it names the cap")
		assert.Regexp(t, `would be 2\d{6} bytes`, r.Diag.Message, "it names the size")
		assert.Contains(t, r.Diag.NextStep, "Split the message")
		assert.Contains(t, r.Diag.NextStep, "upload_file_stream")
		assert.NotContains(t, r.Text, "Check that SnowLuma is running")
		assert.Empty(t, snow.ByTag(tag), "nothing reached SnowLuma")

		ok, tag := s.sendNow(t, "send_group_msg", group(20001), nil)
		assert.False(t, ok.IsError, "the refused send spent nothing of the chat's one send: %s", ok.Text)
		assert.Len(t, snow.ByTag(tag), 1)
	})
}
