package e2e

// How a model reads events (issue 50): a model cannot call resources/read;
// its host gives it a resource reader (Claude Code's ReadMcpResourceTool,
// Gemini CLI's and Codex's read_mcp_resource), and none of these hosts
// passes update notifications on to the model. The instructions and
// subscribe_events' how_to_read say both.

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestEventsSayHowAModelReadsThem(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		s := start(t, version, eventsEnv(sc))
		instructions := s.session.InitializeResult().Instructions
		r := s.call(t, "subscribe_events", map[string]any{"self_id": self}, nil)
		var out struct {
			HowToRead string `json:"how_to_read"`
		}
		r.decodeResult(t, &out)
		for where, text := range map[string]string{"instructions": instructions, "how_to_read": out.HowToRead} {
			assert.Contains(t, text, "ReadMcpResourceTool", where)
			assert.Contains(t, text, "read_mcp_resource", where)
			assert.Contains(t, text, "?after=<next_cursor>", where)
			assert.Regexp(t, `[Nn]one of (them|these hosts) tells`, text, "%s: re-reading is how new events are seen", where)
			assert.NotContains(t, text, "with resources/read", "%s: a model has no resources/read", where)
		}
		assert.Less(t, len(out.HowToRead), 420, "how_to_read stays short: every subscription pays for it")
	})
}
