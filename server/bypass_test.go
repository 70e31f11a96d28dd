package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCarryTaskIDs(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"taskIds are copied into _meta",
			`{"_meta":{"a":1},"notifications":{"taskIds":["t1","t2"]}}`,
			`{"_meta":{"a":1,"snowluma-mcp/listen-taskIds":["t1","t2"]},"notifications":{"taskIds":["t1","t2"]}}`},
		{"a listen without _meta gets one",
			`{"notifications":{"taskIds":[]}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":[]},"notifications":{"taskIds":[]}}`},
		{"taskIds of the wrong type are carried for the server to refuse",
			`{"_meta":{},"notifications":{"taskIds":"x"}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":"x"},"notifications":{"taskIds":"x"}}`},
		{"a client cannot ask through the private key",
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t1"]},"notifications":{}}`,
			`{"_meta":{},"notifications":{}}`},
		{"the private key follows taskIds, not the client",
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t9"]},"notifications":{"taskIds":["t1"]}}`,
			`{"_meta":{"snowluma-mcp/listen-taskIds":["t1"]},"notifications":{"taskIds":["t1"]}}`},
		{"null taskIds are as if left out",
			`{"_meta":{},"notifications":{"taskIds":null}}`,
			`{"_meta":{},"notifications":{"taskIds":null}}`},
		{"a listen without taskIds is untouched",
			`{"_meta":{"a":1},"notifications":{"toolsListChanged":true}}`,
			`{"_meta":{"a":1},"notifications":{"toolsListChanged":true}}`},
		{"params that are not an object are left for the SDK to refuse",
			`[1,2]`, `[1,2]`},
		{"a _meta that is not an object is left for the SDK to refuse",
			`{"_meta":3,"notifications":{"taskIds":["t1"]}}`,
			`{"_meta":3,"notifications":{"taskIds":["t1"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := carryTaskIDs(json.RawMessage(tc.in))
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}
