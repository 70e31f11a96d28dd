package server

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScreenRefusesModernOnlyMethodsWithoutModernMeta(t *testing.T) {
	t.Parallel()
	const caps = `"io.modelcontextprotocol/clientCapabilities":{}`
	tests := []struct {
		name    string
		method  string
		params  string
		call    bool
		refused bool
	}{
		{"refuses discover without params", "server/discover", ``, true, true},
		{"refuses discover without _meta", "server/discover", `{}`, true, true},
		{"refuses discover with _meta lacking the version", "server/discover", `{"_meta":{` + caps + `}}`, true, true},
		{"refuses discover with a null version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`, true, true},
		{"refuses discover with a numeric version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}`, true, true},
		{"refuses discover with a legacy version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`, true, true},
		{"refuses discover with params that are not an object", "server/discover", `[1]`, true, true},
		{"refuses listen without _meta", "subscriptions/listen", `{"notifications":{}}`, true, true},
		{"passes discover with a modern version", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` + caps + `}}`, true, false},
		{"passes discover with a newer version for the SDK to refuse with -32022", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}`, true, false},
		{"passes legacy methods without _meta", "tools/list", ``, true, false},
		{"passes notifications", "server/discover", ``, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := &jsonrpc.Request{Method: tt.method}
			if tt.params != "" {
				req.Params = json.RawMessage(tt.params)
			}
			if tt.call {
				id, err := jsonrpc.MakeID("r1")
				require.NoError(t, err)
				req.ID = id
			}
			e := Screen(req)
			if !tt.refused {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.Code)
			assert.Contains(t, e.Message, protocolVersionKey)
		})
	}
}

func TestNegotiatedKeepsInitializeLegacy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		requested string
		want      string
	}{
		{"keeps the newest legacy version", "2025-11-25", "2025-11-25"},
		{"keeps an older legacy version the SDK speaks", "2025-06-18", "2025-06-18"},
		{"keeps the oldest legacy version", "2024-11-05", "2024-11-05"},
		{"turns the modern version into the newest legacy one", ModernVersion, "2025-11-25"},
		{"turns an unknown future version into the newest legacy one", "2099-01-01", "2025-11-25"},
		{"turns an unknown past version into the newest legacy one", "2023-01-01", "2025-11-25"},
		{"turns an empty version into the newest legacy one", "", "2025-11-25"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, negotiated(tt.requested))
		})
	}
}
