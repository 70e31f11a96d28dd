package server

// Contract tests of the Go SDK v1.8.0 behaviours this server works around
// (the index is in CONTRIBUTING.md, "SDK workarounds"). Each pins the SDK's
// behaviour as it is, on a bare SDK server without any of ours: the day an
// upgrade changes it, its test fails, and the workaround it names can be
// deleted or rethought.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bareSDK is a plain SDK server, spoken to as raw JSON-RPC.
type bareSDK struct {
	t    *testing.T
	ss   *mcp.ServerSession
	conn mcp.Connection
	n    int
}

func newBareSDK(t *testing.T) *bareSDK {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	return &bareSDK{t: t, ss: ss, conn: conn}
}

// call sends one request and returns its response.
func (b *bareSDK) call(method string, params string) *jsonrpc.Response {
	b.t.Helper()
	b.n++
	id, err := jsonrpc.MakeID(float64(b.n))
	require.NoError(b.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	require.NoError(b.t, b.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}))
	for {
		m, err := b.conn.Read(ctx)
		require.NoError(b.t, err)
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == id {
			return r
		}
	}
}

func (b *bareSDK) initialize(version string) *jsonrpc.Response {
	b.t.Helper()
	r := b.call("initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
	require.NoError(b.t, b.conn.Write(context.Background(), &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return r
}

const modernMetaJSON = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// legacySessions (legacysessions.go): initialize asking for a modern
// version is answered with a legacy one, yet the session stores the one
// asked for.
func TestSDKInitializeStoresTheVersionAskedFor(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	r := b.initialize(ModernVersion)
	require.Nil(t, r.Error)
	assert.Contains(t, string(r.Result), `"protocolVersion":"2025-11-25"`, "answered with the newest legacy version")
	assert.Equal(t, ModernVersion, b.ss.InitializeParams().ProtocolVersion, "but stored the modern one")
}

// legacySessions (legacysessions.go): server/discover replaces a legacy
// session's initialize params with its own _meta.
func TestSDKDiscoverOverwritesALegacySession(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	require.Nil(t, b.initialize("2025-11-25").Error)
	require.Nil(t, b.call("server/discover", `{`+modernMetaJSON+`}`).Error)
	assert.Equal(t, ModernVersion, b.ss.InitializeParams().ProtocolVersion)
}

// screen (transport.go): a modern-only method without modern _meta is
// answered -32601, not -32602.
func TestSDKDiscoverWithoutModernMetaIsMethodNotFound(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	r := b.call("server/discover", `{}`)
	var we *jsonrpc.Error
	require.ErrorAs(t, r.Error, &we)
	assert.Equal(t, int64(jsonrpc.CodeMethodNotFound), we.Code)
}

// screenParams (transport.go): params that do not decode are refused
// with the whole params quoted back.
func TestSDKDecodeFailureQuotesTheParams(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	pad := strings.Repeat("q", 4096)
	r := b.call("tools/call", `{`+modernMetaJSON+`,"name":5,"arguments":{"pad":"`+pad+`"}}`)
	var we *jsonrpc.Error
	require.ErrorAs(t, r.Error, &we)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
	assert.Contains(t, we.Message, pad)
}

// notFoundCodes (notfound.go): the SDK's resource-not-found is -32602 for
// every generation.
func TestSDKResourceNotFoundIsInvalidParams(t *testing.T) {
	t.Parallel()
	var we *jsonrpc.Error
	require.ErrorAs(t, mcp.ResourceNotFoundError("x://y"), &we)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
}

// legacyShapes (legacyshapes.go): list and read results carry the modern
// cache fields whatever the client's generation.
func TestSDKCacheFieldsAreAlwaysEncoded(t *testing.T) {
	t.Parallel()
	for _, res := range []mcp.Result{&mcp.ListToolsResult{}, &mcp.ReadResourceResult{}} {
		b, err := json.Marshal(res)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"ttlMs"`, "%T", res)
		assert.Contains(t, string(b), `"cacheScope"`, "%T", res)
	}
}

// markComplete (events.go): a read result's resultType can only be set by
// decoding; a result built in Go has none.
func TestSDKReadResultTypeIsSetOnlyByDecoding(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(&mcp.ReadResourceResult{})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "resultType")
	res := &mcp.ReadResourceResult{}
	require.NoError(t, markComplete(res))
	b, err = json.Marshal(res)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"resultType":"complete"`)
}

// carryTaskIDs (wire.go) and listens.askTasks (listentasks.go): the SDK's
// listen filter has no taskIds; decoding drops them.
func TestSDKListenFilterDropsTaskIDs(t *testing.T) {
	t.Parallel()
	var p mcp.SubscriptionsListenParams
	require.NoError(t, json.Unmarshal([]byte(`{"notifications":{"taskIds":["t1"],"toolsListChanged":true}}`), &p))
	b, err := json.Marshal(&p)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "taskIds")
	assert.Contains(t, string(b), "toolsListChanged", "the fields it knows survive")
}

// taskTools and addTaskMethods (tasksgate.go, taskmethods.go): the SDK
// serves no tasks extension; tasks/get is an unknown method.
func TestSDKHasNoTaskMethods(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	r := b.call("tasks/get", `{`+modernMetaJSON+`,"taskId":"t"}`)
	var we *jsonrpc.Error
	require.ErrorAs(t, r.Error, &we)
	assert.Equal(t, int64(jsonrpc.CodeMethodNotFound), we.Code)
}
