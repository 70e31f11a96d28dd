package e2e

// Resource-not-found by generation (issue 20 item 10): a legacy request
// (2025-11-25 and earlier) that reads a URI naming nothing gets -32002, as
// its specification recommends and clients test for (mcp-go's
// ErrResourceNotFound); a 2026-07-28 request gets -32602. Either way the
// URI is in data, and a malformed URI stays -32602 on both.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// notFoundCode is the resources/read code for a URI that names nothing.
func notFoundCode(version string) int64 {
	if version >= modern {
		return -32602
	}
	return -32002
}

func TestResourceNotFoundByGeneration(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := snow.Scene(fake.SceneOptions{})
		r := rawSession(t, version, eventsEnv(sc))
		live := rawSubscribe(t, r)
		tests := []struct {
			name string
			uri  string
			code int64
			says string
		}{
			{"an action the catalog does not have", catalogURI + "/no_such_action", notFoundCode(version), "list_actions"},
			{"a URI no resource or template matches", "snowluma://elsewhere/x", notFoundCode(version), "Resource not found"},
			{"an event resource that never existed", "snowluma://onebot/events/nope", notFoundCode(version), "subscribe_events creates one"},
			{"a malformed event URI is invalid, not missing", live + "?after=x", -32602, "next_cursor"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				m := r.request("resources/read", r.params(map[string]any{"uri": tt.uri}, nil))
				require.NotNil(t, m.Error, "%s", m)
				assert.Equal(t, tt.code, int64(m.Error.Code), "%s", m)
				assert.Contains(t, m.Error.Message, tt.says)
				var data struct {
					URI string `json:"uri"`
				}
				require.NoError(t, json.Unmarshal(m.Error.Data, &data), "%s", m)
				assert.Equal(t, tt.uri, data.URI)
			})
		}
		after := r.request("resources/read", r.params(map[string]any{"uri": live}, nil))
		require.Nil(t, after.Error, "the session keeps serving: %s", after)
	})
}
