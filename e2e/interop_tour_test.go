package e2e

// The everyday round trip through @modelcontextprotocol/client 2.4.0, the
// official TypeScript client, in its three negotiation modes (script
// e2e/clients/tour.mjs): what the client lists, what its calls return,
// what reached SnowLuma, and the resources with the per-action template.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// tourReport is tour.mjs's report.
type tourReport struct {
	negotiatedReport
	Tools struct {
		Names      []string `json:"names"`
		TTLMs      *int     `json:"ttlMs"`
		CacheScope *string  `json:"cacheScope"`
	} `json:"tools"`
	Docs      clientResult `json:"docs"`
	Read      clientResult `json:"read"`
	Write     clientResult `json:"write"`
	Resources []string     `json:"resources"`
	Templates []string     `json:"templates"`
	Catalog   struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Bytes    int    `json:"bytes"`
	} `json:"catalog"`
	Action struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Name     string `json:"name"`
	} `json:"action"`
	Unknown *clientError `json:"unknown"`
}

func TestInteropClientRoundTrip(t *testing.T) {
	t.Parallel()
	forEachEra(t, func(t *testing.T, era string) {
		readID, readTP := newTrace(t)
		writeID, writeTP := newTrace(t)
		message := "interop " + era + " 你好"
		var got tourReport
		runClient(t, "tour.mjs", era, writeEnv(), map[string]any{
			"traceRead": readTP, "traceWrite": writeTP, "groupId": fake.GroupID, "message": message,
		}, &got)
		got.assertNegotiated(t, era)

		assert.ElementsMatch(t, listed(t, "write"), got.Tools.Names)
		if era != "legacy" {
			require.NotNil(t, got.Tools.TTLMs, "a 2026-07-28 tools/list carries cache hints")
			assert.Equal(t, 300000, *got.Tools.TTLMs)
			assert.Equal(t, "private", *got.Tools.CacheScope)
		}

		t.Run("a docs call returns the action's contract", func(t *testing.T) {
			require.False(t, got.Docs.IsError, "%+v", got.Docs)
			var contract struct {
				Name string `json:"name"`
			}
			got.Docs.decode(t, &contract)
			assert.Equal(t, "send_group_msg", contract.Name)
			assert.Equal(t, "success", got.Docs.StructuredContent.Diagnostics.Outcome)
			require.NotEmpty(t, got.Docs.Content)
			assert.Equal(t, "text", got.Docs.Content[0].Type)
		})

		t.Run("a read call returns SnowLuma's data and carries the client's trace", func(t *testing.T) {
			require.False(t, got.Read.IsError, "%+v", got.Read)
			var login struct {
				Status string `json:"status"`
				Data   struct {
					UserID   int64  `json:"user_id"`
					Nickname string `json:"nickname"`
				} `json:"data"`
			}
			got.Read.decode(t, &login)
			assert.Equal(t, "ok", login.Status)
			assert.Equal(t, int64(10001), login.Data.UserID)
			assert.Equal(t, "SnowBot", login.Data.Nickname)
			sent := snow.ByTrace(readID)
			require.Len(t, sent, 1, "one request under the traceparent the client put in _meta")
			assert.Equal(t, "get_login_info", sent[0].Action)
		})

		t.Run("a write call sends exactly the given params once", func(t *testing.T) {
			require.False(t, got.Write.IsError, "%+v", got.Write)
			assert.Equal(t, "success", got.Write.StructuredContent.Diagnostics.Outcome)
			var sentMsg struct {
				Data struct {
					MessageID int64 `json:"message_id"`
				} `json:"data"`
			}
			got.Write.decode(t, &sentMsg)
			assert.NotZero(t, sentMsg.Data.MessageID, "the client got SnowLuma's message_id")
			sent := snow.ByTrace(writeID)
			require.Len(t, sent, 1)
			assert.Equal(t, "send_group_msg", sent[0].Action)
			assert.JSONEq(t, string(mustJSON(t, map[string]any{"group_id": fake.GroupID, "message": message})), string(sent[0].Params))
		})

		t.Run("resources and the per-action template", func(t *testing.T) {
			assert.Contains(t, got.Resources, "snowluma://onebot/actions")
			assert.Contains(t, got.Templates, "snowluma://onebot/actions/{name}")
			assert.Equal(t, "snowluma://onebot/actions", got.Catalog.URI)
			assert.Equal(t, "application/json", got.Catalog.MIMEType)
			assert.Positive(t, got.Catalog.Bytes)
			assert.Equal(t, "snowluma://onebot/actions/send_group_msg", got.Action.URI)
			assert.Equal(t, "send_group_msg", got.Action.Name)
			require.NotNil(t, got.Unknown, "reading an unknown action must fail")
			assert.JSONEq(t, "-32602", string(got.Unknown.Code))
			assert.JSONEq(t, `{"uri":"snowluma://onebot/actions/no_such_action"}`, string(got.Unknown.Data), "the error's data names the URI")
		})
	})
}
