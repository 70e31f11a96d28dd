package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/internal/mcp/stdio"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/task"
	"github.com/snowluma/snowluma-mcp/uiasset"
)

// lineSession serves o over the stdio transport and returns a function that
// sends one line and returns the reply line (or "" for a notification).
func lineSession(t *testing.T, o Options) func(line string) string {
	t.Helper()
	s := New(o)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := Transport(o.Wire, stdio.Transport{In: inR, Out: outW})
	go func() { _ = s.Run(context.Background(), tr) }()
	t.Cleanup(func() { _ = inW.Close() })
	out := bufio.NewReaderSize(outR, 1<<20)
	return func(line string) string {
		_, err := io.WriteString(inW, line+"\n")
		require.NoError(t, err)
		if !strings.Contains(line, `"id"`) {
			return ""
		}
		reply, err := out.ReadString('\n')
		require.NoError(t, err)
		return reply
	}
}

// listOptions is a write-mode server with background tasks and, when
// events is set, live events: every feature that adds tools.
func listOptions(t *testing.T, events bool) Options {
	u, _ := url.Parse("http://127.0.0.1:1/")
	cfg := &config.Config{Mode: config.ModeWrite, Endpoint: u, Timeout: 5 * time.Second, MaxStreams: 1,
		StreamConnectTimeout: time.Second, DownloadDir: t.TempDir(), TaskDir: filepath.Join(t.TempDir(), "tasks")} // made private by the store
	o := options(t, cfg)
	store, _, err := task.Open(cfg.TaskDir, task.Scope{Mode: string(cfg.Mode), Endpoint: u.String()}, time.Now, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	o.Tasks = store
	if events {
		o.Events = hub.New(hub.Options{Dial: func(context.Context) (hub.Conn, error) { return nil, io.EOF }})
		t.Cleanup(o.Events.Close)
	}
	o.Panel = "<!doctype html><p class=\"x\">预览 & <b>panel</b> \u2028 \\ </p>"
	o.Tools = handlers.All(&handlers.Deps{Catalog: o.Catalog, Config: cfg, Tasks: o.Tasks, Events: o.Events,
		Quota: download.NewQuota(cfg.DownloadDir, cfg.DownloadQuotaBytes)})
	return o
}

const (
	noCaps    = `{}`
	appsCaps  = `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`
	tasksCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	bothCaps  = `{"extensions":{"io.modelcontextprotocol/tasks":{},"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`
)

func modernList(id, caps string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
}

func modernRead(id, uri string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"` + uri + `","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
}

func legacyInit(caps string) []string {
	return []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
}

func TestCachedAnswersAreByteForByteTheAnswersBuiltAfresh(t *testing.T) {
	t.Parallel()
	for _, events := range []bool{false, true} {
		name := "without events"
		if events {
			name = "with events"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tests := []struct {
				name  string
				setup []string
				lists []string // sent in turn on one session, so variants share a cache
				tool  []string // tools each answer must name
				not   []string // and must not
			}{
				{"modern requests of every capability mix, interleaved", nil, []string{
					modernList("1", noCaps), modernList("2", tasksCaps), modernList(`"s"`, appsCaps), modernList("4", bothCaps),
					modernList("5", noCaps), modernList("6", tasksCaps), modernList("7", appsCaps), modernList("8", bothCaps),
				}, []string{"query_action"}, nil},
				{"a legacy session without MCP Apps", legacyInit(noCaps), []string{
					`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
					modernList("3", tasksCaps), `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"progressToken":"p"}}}`,
				}, nil, nil},
				{"a legacy session with MCP Apps", legacyInit(appsCaps), []string{
					`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
				}, []string{`"ui"`}, []string{"invoke_action_background"}},
				{"modern reads of the catalog and the panel, beside reads that are not cached", nil, []string{
					modernRead("1", "snowluma://onebot/actions"), modernRead("2", uiasset.URI), modernRead("3", "snowluma://onebot/actions/send_group_msg"),
					modernRead("4", "snowluma://onebot/actions"), modernRead("5", uiasset.URI),
				}, []string{`"contents"`, `"resultType":"complete"`}, nil},
				{"legacy reads of the catalog and the panel", legacyInit(noCaps), []string{
					`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"snowluma://onebot/actions"}}`,
					`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"` + uiasset.URI + `"}}`,
					modernRead("3", "snowluma://onebot/actions"),
					`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"snowluma://onebot/actions"}}`,
				}, []string{`"contents"`}, nil},
				{"a list with a cursor, and a read of nothing, are answered the ordinary way", nil, []string{
					modernRead("6", "snowluma://nothing"),
					`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"bogus","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
				}, []string{`"error"`}, nil},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					t.Parallel()
					ref := listOptions(t, events)
					ref.uncached = true
					byRef := listOptions(t, events)
					byRef.Wire = NewWire()
					fresh := lineSession(t, ref)
					servers := map[string]func(string) string{
						"cached": lineSession(t, listOptions(t, events)), "cached, sent by reference": lineSession(t, byRef),
					}
					for _, l := range tt.setup {
						want := fresh(l)
						for _, cached := range servers {
							require.Equal(t, want, cached(l))
						}
					}
					for _, l := range tt.lists {
						want := fresh(l)
						for name, cached := range servers {
							got := cached(l)
							require.Equal(t, want, got, "%s: request %s; %s", name, l, firstDifference(want, got))
							for _, s := range tt.tool {
								assert.Contains(t, got, s)
							}
							for _, s := range tt.not {
								assert.NotContains(t, got, s)
							}
							again := cached(l)
							require.Equal(t, want, again, "%s: request %s, answered again", name, l)
						}
					}
				})
			}
		})
	}
}

// firstDifference shows where two long answers part, which a failure
// message of two whole 500 KB catalogs would not.
func firstDifference(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	return fmt.Sprintf("first difference at byte %d: want %q, got %q", i, want[max(0, i-80):min(len(want), i+80)], got[max(0, i-80):min(len(got), i+80)])
}

func TestToolListVariantsDiffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		events  bool
		caps    string
		has     []string
		hasNone []string
	}{
		{"without capabilities no task tool and no UI metadata", false, noCaps, []string{`"resultType":"complete"`, `"ttlMs":300000`, `"cacheScope":"private"`, `"io.modelcontextprotocol/serverInfo"`}, []string{"invoke_action_background", `"resourceUri"`, "subscribe_events"}},
		{"the tasks extension adds the task tools", false, tasksCaps, []string{"invoke_action_background"}, []string{`"resourceUri"`}},
		{"MCP Apps adds UI metadata", false, appsCaps, []string{`"resourceUri"`}, []string{"invoke_action_background"}},
		{"the events feature adds its tools", true, noCaps, []string{"subscribe_events"}, []string{"invoke_action_background"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := listOptions(t, tt.events)
			o.Wire = NewWire()
			send := lineSession(t, o)
			send(modernList("1", noCaps)) // fills the cache with another variant first
			got := send(modernList("2", tt.caps))
			for _, s := range tt.has {
				assert.Contains(t, got, s)
			}
			for _, s := range tt.hasNone {
				assert.NotContains(t, got, s)
			}
		})
	}
}

func TestCachedResultsBuildEachVariantOnce(t *testing.T) {
	t.Parallel()
	modernMeta := mcp.Meta{generation.ProtocolVersionKey: generation.ModernVersion, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}
	tests := []struct {
		name   string
		method string
		reqs   []mcp.Request
		builds int
	}{
		{"the catalog read is built once", "resources/read", []mcp.Request{
			&mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: catalogURI, Meta: modernMeta}},
			&mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: catalogURI, Meta: modernMeta}},
		}, 1},
		{"a read of another resource is never cached", "resources/read", []mcp.Request{
			&mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: actionPrefix + "get_status", Meta: modernMeta}},
			&mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: actionPrefix + "get_status", Meta: modernMeta}},
		}, 2},
		{"the tool list is built once per generation", "tools/list", []mcp.Request{
			&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: modernMeta}},
			&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: modernMeta}},
			&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}},
			&mcp.ListToolsRequest{},
		}, 2},
		{"a list with a cursor is never cached", "tools/list", []mcp.Request{
			&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: modernMeta, Cursor: "c"}},
			&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: modernMeta, Cursor: "c"}},
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			builds := 0
			next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				builds++
				if method == "tools/list" {
					if generation.Modern(req) {
						return &mcp.ListToolsResult{Tools: []*mcp.Tool{}}, nil
					}
					return &legacyResult{raw: json.RawMessage(`{"tools":[]}`)}, nil
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "u", Text: "t"}}}, nil
			}
			h := cachedResults(&mcp.Implementation{Name: "n", Version: "v"}, nil, map[string]bool{catalogURI: true})(next)
			for _, r := range tt.reqs {
				_, err := h(context.Background(), tt.method, r)
				require.NoError(t, err)
			}
			assert.Equal(t, tt.builds, builds)
		})
	}
}

func TestExpandReplacesOnlyItsOwnReferences(t *testing.T) {
	t.Parallel()
	b := newAnswerBook()
	raw := json.RawMessage(`{"tools":[]}`)
	ref := b.ref(raw)
	other := newAnswerBook().ref(json.RawMessage(`{"x":1}`))
	near := append(append(json.RawMessage{}, ref[:len(ref)-2]...), `9"}`...)
	tests := []struct {
		name   string
		result json.RawMessage
		want   json.RawMessage
	}{
		{"a reference it made becomes the bytes it stands for", ref, raw},
		{"a reference made with another nonce is left alone", other, other},
		{"an ordinary result is left alone", json.RawMessage(`{"content":[]}`), json.RawMessage(`{"content":[]}`)},
		{"a result that only starts like a reference is left alone", near, near},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, string(tt.want), string(b.expand(tt.result)))
		})
	}
}

func TestANilWireRefersToNothing(t *testing.T) {
	var w *Wire
	raw := json.RawMessage(`{"tools":[]}`)
	assert.Equal(t, string(raw), string(w.answerBook().ref(raw)), "without a wire an answer marshals in full")
	tr := &recordingTransport{}
	assert.Same(t, tr, w.wrap(tr), "and the transport is left as it is")
}
