package server

// Contract tests of the Go SDK v1.8.0 behaviours this server works around
// (the index is docs/sdk-workarounds.md). Each pins the SDK's
// behaviour as it is, on a bare SDK server without any of ours: the day an
// upgrade changes it, its test fails, and the workaround it names can be
// deleted or rethought.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
)

// bareSDK is a plain SDK server, spoken to as raw JSON-RPC.
type bareSDK struct {
	t    *testing.T
	s    *mcp.Server
	ss   *mcp.ServerSession
	conn mcp.Connection
	n    int
}

func newBareSDK(t *testing.T) *bareSDK {
	t.Helper()
	return newBareSDKWith(t, nil, nil)
}

// newBareSDKWith is newBareSDK with server options and a last setup step
// (a middleware, a resource) before the session connects.
func newBareSDKWith(t *testing.T, opts *mcp.ServerOptions, setup func(*mcp.Server)) *bareSDK {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, opts)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	if setup != nil {
		setup(s)
	}
	return speak(t, s)
}

// speak connects a raw JSON-RPC peer to s.
func speak(t *testing.T, s *mcp.Server) *bareSDK {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	return &bareSDK{t: t, ss: ss, conn: conn, s: s}
}

// watch adds a receiving middleware that hands see the params of each
// request of the method as they come in, and what the SDK's own handling
// answered.
func watch(s *mcp.Server, method string, see func(params mcp.Params, res mcp.Result, err error)) {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			params := req.GetParams()
			res, err := next(ctx, m, req)
			if m == method {
				see(params, res, err)
			}
			return res, err
		}
	})
}

// call sends one request and returns its response; params "" sends none.
func (b *bareSDK) call(method string, params string) *jsonrpc.Response {
	b.t.Helper()
	b.n++
	id, err := jsonrpc.MakeID(float64(b.n))
	require.NoError(b.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	req := &jsonrpc.Request{ID: id, Method: method}
	if params != "" {
		req.Params = json.RawMessage(params)
	}
	require.NoError(b.t, b.conn.Write(ctx, req))
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
	r := b.initialize(generation.ModernVersion)
	require.Nil(t, r.Error)
	assert.Contains(t, string(r.Result), `"protocolVersion":"2025-11-25"`, "answered with the newest legacy version")
	assert.Equal(t, generation.ModernVersion, b.ss.InitializeParams().ProtocolVersion, "but stored the modern one")
}

// legacySessions (legacysessions.go): server/discover replaces a legacy
// session's initialize params with its own _meta.
func TestSDKDiscoverOverwritesALegacySession(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	require.Nil(t, b.initialize("2025-11-25").Error)
	require.Nil(t, b.call("server/discover", `{`+modernMetaJSON+`}`).Error)
	assert.Equal(t, generation.ModernVersion, b.ss.InitializeParams().ProtocolVersion)
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

// carryTaskIDs (wire.go) and tasks.Listens.Admit (tasks/listen.go): the SDK's
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

// tasks.Gate and tasks.AddMethods (tasks/gate.go, tasks/methods.go): the SDK
// serves no tasks extension; tasks/get is an unknown method.
func TestSDKHasNoTaskMethods(t *testing.T) {
	t.Parallel()
	b := newBareSDK(t)
	r := b.call("tasks/get", `{`+modernMetaJSON+`,"taskId":"t"}`)
	var we *jsonrpc.Error
	require.ErrorAs(t, r.Error, &we)
	assert.Equal(t, int64(jsonrpc.CodeMethodNotFound), we.Code)
}

// generation.Meta (generation/generation.go): a request sent without params reaches the
// middleware as a typed nil, an interface that is not nil holding a nil
// pointer, whose GetMeta would panic.
func TestSDKPassesOmittedParamsAsATypedNil(t *testing.T) {
	t.Parallel()
	var params mcp.Params
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		watch(s, "tools/list", func(p mcp.Params, _ mcp.Result, _ error) { params = p })
	})
	require.Nil(t, b.initialize("2025-11-25").Error)
	require.Nil(t, b.call("tools/list", "").Error)
	require.True(t, params != nil, "the interface is not nil")
	v := reflect.ValueOf(params)
	assert.True(t, v.Kind() == reflect.Pointer && v.IsNil(), "but the pointer in it is: %T", params)
}

// generation.ModernSession (generation/generation.go) and the cache's variants
// (resultcache.go): the SDK marks a read result complete by the session's
// version, the one its initialize stored, not by the request's _meta.
func TestSDKMarksAReadCompleteByTheSessionsVersion(t *testing.T) {
	t.Parallel()
	withResource := func(s *mcp.Server) {
		s.AddResource(&mcp.Resource{URI: "x://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "x://r", Text: "t"}}}, nil
		})
	}
	read := `{` + modernMetaJSON + `,"uri":"x://r"}`
	modern := newBareSDKWith(t, nil, withResource)
	r := modern.call("resources/read", read)
	require.Nil(t, r.Error)
	assert.Contains(t, string(r.Result), `"resultType":"complete"`, "a session without initialize counts as modern")
	legacy := newBareSDKWith(t, nil, withResource)
	require.Nil(t, legacy.initialize("2025-11-25").Error)
	r = legacy.call("resources/read", read)
	require.Nil(t, r.Error)
	assert.NotContains(t, string(r.Result), "resultType", "a legacy session's modern request is not marked")
}

// encodeAnswer (resultcache.go): after every middleware, the SDK names the
// server in a modern answer's _meta and marks a list complete; an answer
// encoded before that must do both itself.
func TestSDKAddsServerInfoAndResultTypeAfterTheMiddleware(t *testing.T) {
	t.Parallel()
	var seen string
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		watch(s, "tools/list", func(_ mcp.Params, res mcp.Result, _ error) {
			enc, _ := json.Marshal(res)
			seen = string(enc)
		})
	})
	r := b.call("tools/list", `{`+modernMetaJSON+`}`)
	require.Nil(t, r.Error)
	assert.NotContains(t, seen, mcp.MetaKeyServerInfo, "the middleware's answer names no server")
	assert.NotContains(t, seen, `"resultType"`, "and is not marked")
	assert.Contains(t, string(r.Result), `"`+mcp.MetaKeyServerInfo+`"`, "the client's is")
	assert.Contains(t, string(r.Result), `"resultType":"complete"`)
}

// notFoundOf (notfound.go): a read of a URI no resource or template
// matches fails with exactly the error mcp.ResourceNotFoundError makes,
// which is how it is recognised.
func TestSDKUnmatchedReadFailsWithResourceNotFoundError(t *testing.T) {
	t.Parallel()
	var got error
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		watch(s, "resources/read", func(_ mcp.Params, _ mcp.Result, err error) { got = err })
	})
	require.NotNil(t, b.call("resources/read", `{`+modernMetaJSON+`,"uri":"x://nothing"}`).Error)
	var je *jsonrpc.Error
	require.ErrorAs(t, got, &je)
	assert.True(t, reflect.DeepEqual(je, mcp.ResourceNotFoundError("x://nothing")), "%#v", je)
}

// withoutUI (apps.go): tools/list hands the middleware the registered
// tools themselves, so editing one would edit every later answer.
func TestSDKListsTheRegisteredToolsThemselves(t *testing.T) {
	t.Parallel()
	var lists [][]*mcp.Tool
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		watch(s, "tools/list", func(_ mcp.Params, res mcp.Result, _ error) {
			lists = append(lists, res.(*mcp.ListToolsResult).Tools)
		})
	})
	for range 2 {
		require.Nil(t, b.call("tools/list", `{`+modernMetaJSON+`}`).Error)
	}
	require.Len(t, lists, 2)
	assert.Same(t, lists[0][0], lists[1][0])
}

// layerPlaces (middleware.go): the first middleware added sees a
// request first, the order the list is written in.
func TestSDKRunsTheFirstMiddlewareAddedFirst(t *testing.T) {
	t.Parallel()
	var seen []string
	mark := func(name string) mcp.Middleware {
		return func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/list" {
					seen = append(seen, name)
				}
				return next(ctx, method, req)
			}
		}
	}
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		s.AddReceivingMiddleware(middlewares([]layer{{"a", mark("a")}, {"b", mark("b")}})...)
	})
	require.Nil(t, b.call("tools/list", `{`+modernMetaJSON+`}`).Error)
	assert.Equal(t, []string{"a", "b"}, seen)
}

// answerBook (resultcache.go): the SDK encodes every result again, and
// encoding/json re-reads (and compacts) whatever a MarshalJSON returns,
// so bytes encoded once are still read byte by byte on every answer; the
// Wire writes them in place of a short reference instead.
func TestSDKReencodesAResultsOwnEncoding(t *testing.T) {
	t.Parallel()
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/list" {
					return &encodedResult{wire: json.RawMessage(`{ "tools" : [ ] }`)}, nil
				}
				return next(ctx, method, req)
			}
		})
	})
	require.Nil(t, b.initialize("2025-11-25").Error)
	r := b.call("tools/list", `{}`)
	require.Nil(t, r.Error)
	assert.Equal(t, `{"tools":[]}`, string(r.Result), "the SDK compacted bytes it was handed ready-made")
}

// argumentBook (parked.go): the SDK carries a tool call's arguments to the
// receiving middleware as the raw bytes sent, never decoding and encoding
// them again (which would sort the keys and rewrite the numbers), so a
// reference parked in their place reaches parkedArguments as written. (The
// in-memory client compacts what it sends; the book writes its references
// compact.)
func TestSDKHandsTheMiddlewareAToolCallsArgumentsAsSent(t *testing.T) {
	t.Parallel()
	const args = `{"z":[1,2.50,1e3],"snowluma-mcp/parked":"0f-1"}`
	var seen json.RawMessage
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		watch(s, "tools/call", func(p mcp.Params, _ mcp.Result, _ error) {
			seen = p.(*mcp.CallToolParamsRaw).Arguments
		})
	})
	require.Nil(t, b.call("tools/call", `{`+modernMetaJSON+`,"name":"echo","arguments":`+args+`}`).Error)
	assert.Equal(t, args, string(seen))
}

// listens (listen.go, events.Watcher): the SDK keeps one resource
// subscription per session and URI, so a second listen on the session
// takes the first one's place.
func TestSDKKeysResourceSubscriptionsBySession(t *testing.T) {
	t.Parallel()
	b := newBareSDKWith(t, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	}, func(s *mcp.Server) {
		// A resource, so the SDK advertises (and allows) subscriptions.
		s.AddResource(&mcp.Resource{URI: "x://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for _, id := range []string{"listen-a", "listen-b"} {
		rid, err := jsonrpc.MakeID(id)
		require.NoError(t, err)
		require.NoError(t, b.conn.Write(ctx, &jsonrpc.Request{ID: rid, Method: "subscriptions/listen",
			Params: json.RawMessage(`{` + modernMetaJSON + `,"notifications":{"resourceSubscriptions":["x://r"]}}`)}))
		for acked := false; !acked; {
			m, err := b.conn.Read(ctx)
			require.NoError(t, err)
			n, ok := m.(*jsonrpc.Request)
			acked = ok && n.Method == "notifications/subscriptions/acknowledged"
		}
	}
	require.NoError(t, b.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "x://r"}))
	// The SDK writes the update before ResourceUpdated returns, so all of
	// them come before the answer of a ping sent now.
	pingID, err := jsonrpc.MakeID("ping")
	require.NoError(t, err)
	require.NoError(t, b.conn.Write(ctx, &jsonrpc.Request{ID: pingID, Method: "ping", Params: json.RawMessage(`{` + modernMetaJSON + `}`)}))
	var updates []string
	for {
		m, err := b.conn.Read(ctx)
		require.NoError(t, err)
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == pingID {
			break
		}
		if n, ok := m.(*jsonrpc.Request); ok && n.Method == "notifications/resources/updated" {
			var p struct {
				Meta map[string]any `json:"_meta"`
			}
			require.NoError(t, json.Unmarshal(n.Params, &p))
			sub, _ := p.Meta[mcp.MetaKeySubscriptionID].(string)
			updates = append(updates, sub)
		}
	}
	assert.Equal(t, []string{"listen-b"}, updates, "two listens, one update: the latest holds the session's subscription")
}

// listens (listen.go, events.Watcher): ResourceUpdated reports no error
// when the notification cannot be delivered, so a failed send could not
// be made visible on the resource.
func TestSDKResourceUpdatedDropsSendErrors(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddResource(&mcp.Resource{URI: "x://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "x://r"}))
	require.NoError(t, cs.Close())
	_ = ss.Wait()
	assert.NoError(t, s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "x://r"}), "the subscriber is gone, yet no error")
}

// internal/mcp/stdio: the SDK's own stdio transport ends the session at
// the first line that is not JSON-RPC, so a request after it is never
// answered.
func TestSDKStdioEndsTheSessionAtAMalformedLine(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	in := "this is not json\n" + `{"jsonrpc":"2.0","id":7,"method":"ping","params":{` + modernMetaJSON + `}}` + "\n"
	out := &syncBuffer{}
	ss, err := s.Connect(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(in)), Writer: out}, nil)
	require.NoError(t, err)
	assert.Error(t, ss.Wait(), "the session ends with the read error")
	assert.NotContains(t, out.String(), `"id":7`, "the request after the bad line is never answered")
}

// syncBuffer is an io.WriteCloser safe to read after concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Close() error { return nil }

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The recovery stage and recoverMethods (recover.go): a panic in a tool
// handler is not recovered by the SDK and ends the process. The test runs
// itself in a child process, which the panic kills.
func TestSDKPanicInAToolHandlerEndsTheProcess(t *testing.T) {
	t.Parallel()
	if os.Getenv("SNOWLUMA_SDK_CONTRACT_PANIC") == "1" {
		b := newBareSDKWith(t, nil, func(s *mcp.Server) {
			s.AddTool(&mcp.Tool{Name: "boom", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					panic("boom from the handler")
				})
		})
		b.call("tools/call", `{`+modernMetaJSON+`,"name":"boom","arguments":{}}`)
		return // reached only if the SDK recovered
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSDKPanicInAToolHandlerEndsTheProcess$")
	cmd.Env = append(os.Environ(), "SNOWLUMA_SDK_CONTRACT_PANIC=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the child process survived the panic:\n%s", out)
	assert.Contains(t, string(out), "panic: boom from the handler")
}

// The input stage (Client.FormElicitation): a modern tool result that
// asks for input goes out as input_required whether or not the client
// declared it can answer a form.
func TestSDKSendsInputRequiredWithoutCheckingElicitation(t *testing.T) {
	t.Parallel()
	b := newBareSDKWith(t, nil, func(s *mcp.Server) {
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{
					Message: "which one?", RequestedSchema: map[string]any{"type": "object"},
				}}}, nil
			})
	})
	r := b.call("tools/call", `{`+modernMetaJSON+`,"name":"ask","arguments":{}}`)
	require.Nil(t, r.Error)
	assert.Contains(t, string(r.Result), `"resultType":"input_required"`, "the client declared no elicitation (modernMetaJSON's capabilities are {})")
}

// TestTheWorkaroundIndexNamesEveryContractTest holds docs/sdk-workarounds.md's
// index of SDK workarounds to this file: every contract test here is
// indexed, and every one the index names exists.
func TestTheWorkaroundIndexNamesEveryContractTest(t *testing.T) {
	t.Parallel()
	name := regexp.MustCompile(`TestSDK\w+`)
	set := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, n := range name.FindAllString(text, -1) {
			out[n] = true
		}
		return out
	}
	src, err := os.ReadFile("sdkcontract_test.go")
	require.NoError(t, err)
	var defined []string
	for _, m := range regexp.MustCompile(`(?m)^func (TestSDK\w+)\(`).FindAllStringSubmatch(string(src), -1) {
		defined = append(defined, m[1])
	}
	doc, err := os.ReadFile("../../../../docs/sdk-workarounds.md")
	require.NoError(t, err)
	_, index, ok := strings.Cut(string(doc), "# SDK workarounds")
	require.True(t, ok, "docs/sdk-workarounds.md has the index")
	index, _, _ = strings.Cut(index, "\n## ")
	indexed := set(index)
	require.NotEmpty(t, defined)
	for _, n := range defined {
		assert.True(t, indexed[n], "%s is not in docs/sdk-workarounds.md's index", n)
		delete(indexed, n)
	}
	assert.Empty(t, indexed, "the index names contract tests that do not exist")
}
