package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func deps(t testing.TB, mode config.Mode) *Deps {
	t.Helper()
	cat, err := catalog.Load()
	require.NoError(t, err)
	return &Deps{Catalog: cat, Config: &config.Config{Mode: mode, Timeout: time.Second, DownloadDir: "/cache/dl", MaxStreams: 4}}
}

// handle runs a tool's handler directly, its arguments decoded first as
// the arguments stage decodes them.
func handle(ctx context.Context, tool *pipeline.Tool, c *pipeline.Call) (*pipeline.Result, error) {
	args, err := tool.Decode(c.Arguments)
	if err != nil {
		return nil, err
	}
	c.Args = args
	return tool.Handle(ctx, c)
}

// call runs a handler directly and returns its payload as generic JSON.
func call(t *testing.T, tool *pipeline.Tool, args string, c *pipeline.Call) (any, error) {
	t.Helper()
	if c == nil {
		c = &pipeline.Call{}
	}
	c.Tool, c.Arguments = tool, json.RawMessage(args)
	r, err := handle(context.Background(), tool, c)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(r.Payload)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v, nil
}

func TestListActionsPaging(t *testing.T) {
	t.Parallel()
	tool := ListActions(deps(t, config.ModeDocs))
	tests := []struct {
		name  string
		args  string
		count int
		total any // nil: unpaged
		next  any
		err   bool
	}{
		{"keeps the unpaged shape without limit or offset", `{}`, 177, nil, nil, false},
		{"pages from the start", `{"limit":50}`, 50, 177.0, 50.0, false},
		{"pages from an offset", `{"limit":50,"offset":150}`, 27, 177.0, nil, false},
		{"returns an empty last page past the end", `{"offset":500}`, 0, 177.0, nil, false},
		{"pages a filtered list", `{"category":"流式接口","limit":4}`, 4, 6.0, 4.0, false},
		{"ends exactly at the total", `{"category":"流式接口","limit":6}`, 6, 6.0, nil, false},
		{"refuses an unknown category", `{"category":"魔法"}`, 0, nil, nil, true},
		{"takes an integral float as an integer limit", `{"limit":5.0}`, 5, 177.0, 5.0, false},
		{"takes an exponent as an integer offset", `{"limit":1,"offset":1.76e2}`, 1, 177.0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := call(t, tool, tt.args, nil)
			if tt.err {
				assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
				return
			}
			require.NoError(t, err)
			m := v.(map[string]any)
			assert.Equal(t, float64(tt.count), m["count"])
			assert.Len(t, m["actions"], tt.count)
			if tt.total == nil {
				assert.NotContains(t, m, "total")
				assert.NotContains(t, m, "next_offset")
				return
			}
			assert.Equal(t, tt.total, m["total"])
			assert.Contains(t, m, "next_offset")
			assert.Equal(t, tt.next, m["next_offset"])
		})
	}
}

func TestToolSchemasRefuseBadPaging(t *testing.T) {
	t.Parallel()
	tool := ListActions(deps(t, config.ModeDocs))
	v, err := schema.Compile(tool.InputSchema)
	require.NoError(t, err)
	for _, args := range []string{`{"limit":0}`, `{"limit":201}`, `{"offset":-1}`, `{"limit":"5"}`, `{"read_only":"yes"}`, `{"bogus":1}`, `{"limit":null}`, `{"limit":5.5}`} {
		assert.Error(t, v.Validate(json.RawMessage(args), "arguments"), args)
	}
	for _, args := range []string{`{"limit":1}`, `{"limit":200,"offset":0}`, `{"read_only":false,"stream":true}`, `{"limit":5.0}`} {
		assert.NoError(t, v.Validate(json.RawMessage(args), "arguments"), args)
	}
}

func TestGetAction(t *testing.T) {
	t.Parallel()
	tool := GetAction(deps(t, config.ModeDocs))
	v, err := call(t, tool, `{"name":"get_record_text"}`, nil)
	require.NoError(t, err)
	m := v.(map[string]any)
	assert.Equal(t, "fetch_ptt_text", m["name"])
	for _, k := range []string{"inputSchema", "returnsSchema", "examples"} {
		assert.Contains(t, m, k)
	}
	assert.NotContains(t, m, "params", "each param once: in inputSchema")

	v, err = call(t, tool, `{"name":"send_group_msg"}`, nil)
	require.NoError(t, err)
	m = v.(map[string]any)
	assert.Equal(t, quotedIDs, m["ids"], "an action with integer params says once that ids may be quoted")
	assert.NotContains(t, m, "aliases", "empty defaults are left out")
	assert.NotContains(t, m, "stream")
	assert.NotContains(t, m["inputSchema"], "additionalProperties")
	assert.Equal(t, []any{"group_id", "message"}, m["inputSchema"].(map[string]any)["required"])
	v, err = call(t, tool, `{"name":"get_status"}`, nil)
	require.NoError(t, err)
	assert.NotContains(t, v.(map[string]any), "ids", "an action without integer params says nothing of them")
	assert.NotContains(t, v.(map[string]any), "rawParams")

	v, err = call(t, tool, `{"name":"get_mini_app_ark"}`, nil)
	require.NoError(t, err)
	raw := v.(map[string]any)["rawParams"].(map[string]any)
	assert.ElementsMatch(t, []string{"type", "title", "desc", "picUrl", "pic_url", "jumpUrl", "jump_url"}, keys(raw), "the keys SnowLuma reads beside its declaration are shown")
	v, err = call(t, tool, `{"name":"send_forward_msg"}`, nil)
	require.NoError(t, err)
	assert.Equal(t, quotedIDs, v.(map[string]any)["ids"], "ids among the raw-read keys are read as quoted too")

	_, err = call(t, tool, `{"name":"nope"}`, nil)
	assert.Equal(t, fault.CodeUnknownAction, fault.CodeOf(err))
}

// TestGetActionShowsTheUploadRouteFirst: upload_file_stream's contract
// leads with the automatic route and shows no required member that route
// refuses, as the deviation table's route row says; the manual route keeps
// its result schema and examples, and the params stage still requires
// stream_id there (stages/params).
func TestGetActionShowsTheUploadRouteFirst(t *testing.T) {
	t.Parallel()
	var rows []struct {
		Route, Drops string
	}
	data, err := os.ReadFile("../catalog/testdata/schema-deviations.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rows))
	drops := map[string]string{}
	for _, r := range rows {
		if r.Route != "" {
			drops[r.Route] = r.Drops
		}
	}
	require.Equal(t, map[string]string{"upload_file_stream": "required"}, drops, "the one route row")

	text := getActionText(t, "upload_file_stream")
	route, in := strings.Index(text, `"route":`), strings.Index(text, `"inputSchema":`)
	require.Positive(t, route)
	assert.Less(t, route, in, "the route comes before the params")
	assert.Contains(t, text, `execution`)
	assert.Contains(t, text, `input_file`)
	v, err := call(t, GetAction(deps(t, config.ModeDocs)), `{"name":"upload_file_stream"}`, nil)
	require.NoError(t, err)
	m := v.(map[string]any)
	assert.NotContains(t, m["inputSchema"], "required", "no required member the automatic route refuses")
	assert.Contains(t, m, "returnsSchema")
	assert.Len(t, m["examples"], 4, "first chunk, next chunk, complete, verify only (reset is its param's line)")
	v, err = call(t, GetAction(deps(t, config.ModeDocs)), `{"name":"download_file_stream"}`, nil)
	require.NoError(t, err)
	assert.NotContains(t, v.(map[string]any), "route", "only the upload has a route of the server's own")
}

func TestSearchStaysCompact(t *testing.T) {
	t.Parallel()
	v, err := call(t, SearchActions(deps(t, config.ModeDocs)), `{"query":"group_msg","read_only":false}`, nil)
	require.NoError(t, err)
	m := v.(map[string]any)
	require.NotEmpty(t, m["actions"])
	for _, a := range m["actions"].([]any) {
		e := a.(map[string]any)
		assert.ElementsMatch(t, []string{"name", "category", "summary", "aliases", "readOnly", "stream"}, keys(e))
		assert.Equal(t, false, e["readOnly"])
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reply    onebot.Reply
		readOnly bool
		outcome  pipeline.Outcome
		kind     string
		next     string // in the next step
		notNext  string // never in the next step
	}{
		{"confirms ok with retcode 0", onebot.Reply{Status: "ok", Retcode: "0"}, false, "success", "", "", ""},
		{"reports a failed envelope as a business failure", onebot.Reply{Status: "failed", Retcode: "100", Wording: "message not found"}, false, "failed", "business_failure", "Do not repeat a write", ""},
		{"says nothing of writes when a query failed", onebot.Reply{Status: "failed", Retcode: "100", Wording: "message not found"}, true, "failed", "business_failure", "can be asked again", "write"},
		{"calls an async acknowledgement unknown", onebot.Reply{Status: "async", Retcode: "1"}, false, "unknown", "async_accepted", "", ""},
		{"calls ok with a non-zero retcode unknown", onebot.Reply{Status: "ok", Retcode: "5"}, false, "unknown", "unconfirmed", "", ""},
		{"calls a reply without status unknown", onebot.Reply{}, false, "unknown", "unconfirmed", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := verdict(&tt.reply, tt.readOnly)
			assert.Equal(t, tt.outcome, d.Outcome)
			assert.Equal(t, tt.kind, d.Kind)
			assert.Contains(t, d.NextStep, tt.next)
			if tt.notNext != "" {
				assert.NotContains(t, d.NextStep, tt.notNext)
			}
			if tt.kind == "business_failure" {
				assert.Equal(t, tt.reply.Wording, d.Message)
				assert.NotEmpty(t, d.NextStep)
			}
		})
	}
}

func TestRuntimeInfo(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(readAll(r), "get_status") {
			w.WriteHeader(500)
			_, _ = w.Write([]byte(`{"status":"failed","retcode":1200,"data":null,"wording":"down"}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{"user_id":10001}}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)

	docs, err := call(t, GetRuntimeInfo(deps(t, config.ModeDocs)), `{}`, nil)
	require.NoError(t, err)
	m := docs.(map[string]any)
	assert.Nil(t, m["transport"])
	assert.Equal(t, false, m["connection_checked"])
	assert.Equal(t, "unknown", m["server_support"])
	assert.Equal(t, map[string]any{"version": "1.11.1", "action_count": 177.0}, m["catalog"])

	_, err = call(t, GetRuntimeInfo(deps(t, config.ModeDocs)), `{"check_connection":true}`, nil)
	assert.Equal(t, fault.CodeModeDenied, fault.CodeOf(err))

	d := deps(t, config.ModeRead)
	d.Config.Endpoint, d.Config.Token = u, "tok-secret"
	v, err := call(t, GetRuntimeInfo(d), `{"check_connection":true}`, &pipeline.Call{Resolved: pipeline.Resolved{OneBot: onebot.New(u, "tok-secret", onebot.StreamTimeouts{}).With(nil)}})
	require.NoError(t, err)
	raw, _ := json.Marshal(v)
	assert.NotContains(t, string(raw), "tok-secret")
	assert.NotContains(t, string(raw), u.Host)
	m = v.(map[string]any)
	assert.Equal(t, true, m["connection_checked"])
	transport := m["transport"].(map[string]any)
	assert.Equal(t, 1000.0, transport["timeout_ms"])
	assert.Equal(t, false, transport["upload_enabled"])
	checks := m["checks"].(map[string]any)
	require.Len(t, checks, 3)
	assert.Equal(t, "success", checks["get_login_info"].(map[string]any)["diagnostics"].(map[string]any)["outcome"])
	status := checks["get_status"].(map[string]any)
	assert.Nil(t, status["result"])
	assert.Equal(t, "upstream_http", status["diagnostics"].(map[string]any)["kind"], "a partial failure stays visible")
}

func TestConnectionCheckVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   map[string]int // HTTP status per action; 200 when absent
		outcome  pipeline.Outcome
		kind     string
		message  string
		nextStep string
	}{
		{"succeeds when every check succeeds", nil, "success", "", "", ""},
		{"fails with the shared kind when every check is refused alike", map[string]int{"get_login_info": 401, "get_status": 401, "get_version_info": 401},
			"failed", "upstream_auth", "3 of 3 connection checks failed", "SNOWLUMA_MCP_TOKEN"},
		{"names the failed checks when some fail", map[string]int{"get_status": 500},
			"failed", "connection_check_failed", "1 of 3 connection checks failed: get_status (upstream_http)", "checks.<name>.diagnostics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body := readAll(r)
				for action, code := range tt.status {
					if strings.Contains(r.URL.Path+body, action) {
						w.WriteHeader(code)
						_, _ = w.Write([]byte(`{"status":"failed","retcode":1403,"data":null,"wording":"no"}`))
						return
					}
				}
				_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{}}`))
			}))
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			d := deps(t, config.ModeRead)
			d.Config.Endpoint = u
			tool := GetRuntimeInfo(d)
			r, err := handle(context.Background(), tool, &pipeline.Call{Request: pipeline.Request{Tool: tool, Arguments: json.RawMessage(`{"check_connection":true}`)}, Resolved: pipeline.Resolved{OneBot: onebot.New(u, "", onebot.StreamTimeouts{}).With(nil)}})
			require.NoError(t, err)
			diag := r.Diagnostics
			assert.Equal(t, tt.outcome, diag.Outcome, "the handler states its verdict itself")
			assert.Equal(t, tt.kind, diag.Kind)
			for _, f := range []struct{ got, want string }{{diag.Message, tt.message}, {diag.NextStep, tt.nextStep}} {
				if f.want == "" {
					assert.Empty(t, f.got)
				} else {
					assert.Contains(t, f.got, f.want)
				}
			}
		})
	}
}

func TestEchoedArgumentsAreCapped(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 5<<20)
	tests := []struct {
		name string
		tool *pipeline.Tool
		args string
	}{
		{"get_action caps an unknown name", GetAction(deps(t, config.ModeDocs)), `{"name":"` + huge + `"}`},
		{"list_actions caps an unknown category", ListActions(deps(t, config.ModeDocs)), `{"category":"` + huge + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := call(t, tt.tool, tt.args, nil)
			require.Error(t, err)
			assert.Less(t, len(err.Error()), 400, "the message repeats at most a couple of hundred characters")
			assert.Contains(t, err.Error(), "(5242880 bytes)")
		})
	}
}

func readAll(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	return string(b)
}

func TestRuntimeInfoSaysWhetherLockdownIsOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		trusted []int64
		want    map[string]any
	}{
		{"reports lockdown off without a trusted list", nil, map[string]any{"enabled": false, "trusted_users": 0.0}},
		{"reports lockdown on and how many users are trusted, never who", []int64{10002, 31415926}, map[string]any{"enabled": true, "trusted_users": 2.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := deps(t, config.ModeRead)
			d.Config.TrustedUsers = tt.trusted
			v, err := call(t, GetRuntimeInfo(d), `{}`, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.(map[string]any)["lockdown"])
			raw, _ := json.Marshal(v)
			assert.NotContains(t, string(raw), "31415926")
		})
	}
}

// TestRuntimeInfoListsIgnoredVariables: the agent does not see stderr,
// so the variables named like settings that the server does not read are
// in the runtime report too, each with what it likely meant, never with
// its value; and beside a refused setting, in the failure that reports it.
func TestRuntimeInfoListsIgnoredVariables(t *testing.T) {
	t.Parallel()
	const secret = "tok-secret-value"
	tests := []struct {
		name    string
		environ []string
		want    []map[string]any // ignored_variables; nil when absent
		fix     []string         // what each one's fix says
	}{
		{"leaves the member out when none is ignored", []string{"SNOWLUMA_MCP_MODE=read", "PATH=/bin"}, nil, nil},
		{"names a misspelt setting with the one it likely meant",
			[]string{"SNOWLUMA_MCP_TRUSTED_USER=" + secret},
			[]map[string]any{{"name": "SNOWLUMA_MCP_TRUSTED_USER", "likely_meant": config.TrustedUsersVar}},
			[]string{"did you mean " + config.TrustedUsersVar + "?"}},
		{"points lockdown by its README name at the trusted users",
			[]string{"SNOWLUMA_MCP_LOCKDOWN=" + secret},
			[]map[string]any{{"name": "SNOWLUMA_MCP_LOCKDOWN", "likely_meant": config.TrustedUsersVar}},
			[]string{"lockdown is turned on by " + config.TrustedUsersVar}},
		{"names a variable like no setting without a guess",
			[]string{"SNOWLUMA_MCP_FROM_A_NEWER_HOST=" + secret},
			[]map[string]any{{"name": "SNOWLUMA_MCP_FROM_A_NEWER_HOST"}},
			[]string{"Configuration table"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := deps(t, config.ModeRead)
			d.Config.Strays = config.Strays(tt.environ)
			v, err := call(t, GetRuntimeInfo(d), `{}`, nil)
			require.NoError(t, err)
			raw, _ := json.Marshal(v)
			assert.NotContains(t, string(raw), secret, "a value is never shown")
			got, present := v.(map[string]any)["ignored_variables"]
			if tt.want == nil {
				assert.False(t, present, "omitted when empty: %s", raw)
				return
			}
			list, _ := got.([]any)
			require.Len(t, list, len(tt.want), "%s", raw)
			for i, item := range list {
				m := item.(map[string]any)
				assert.Contains(t, m["fix"], tt.fix[i])
				delete(m, "fix")
				assert.Equal(t, tt.want[i], m)
			}

			d.Config.Broken = &config.Problem{Var: "SNOWLUMA_MCP_TIMEOUT_MS", Why: "must be a whole number"}
			_, err = call(t, GetRuntimeInfo(d), `{}`, nil)
			assert.Equal(t, fault.CodeConfiguration, fault.CodeOf(err))
			assert.Contains(t, err.Error(), "SNOWLUMA_MCP_TIMEOUT_MS must be a whole number")
			assert.Contains(t, err.Error(), tt.want[0]["name"].(string), "a refused setting hides no ignored one")
			assert.NotContains(t, err.Error(), secret)
		})
	}
}

// TestAConnectionCheckAnsweredUnknownEverywhereBlamesThePath: SnowLuma
// answers "unknown action" to all three checks when it reads the endpoint's
// path as the action name; the verdict names that path and where SnowLuma
// sets its own, not an old SnowLuma. One unknown action alone is not that.
func TestAConnectionCheckAnsweredUnknownEverywhereBlamesThePath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		unknown func(action string) bool
		kind    string
	}{
		{"every check unknown", func(string) bool { return true }, "wrong_endpoint"},
		{"one check unknown", func(a string) bool { return a == "get_version_info" }, "connection_check_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct{ Action string }
				_ = json.Unmarshal([]byte(readAll(r)), &req)
				if tt.unknown(req.Action) {
					_, _ = w.Write([]byte(`{"status":"failed","retcode":1404,"data":null,"wording":"unknown action"}`))
					return
				}
				_, _ = w.Write([]byte(`{"status":"ok","retcode":0,"data":{}}`))
			}))
			defer srv.Close()
			u, _ := url.Parse(srv.URL + "/onebot?access_token=tok-secret")
			d := deps(t, config.ModeRead)
			d.Config.Endpoint = u
			tool := GetRuntimeInfo(d)
			r, err := handle(context.Background(), tool, &pipeline.Call{Request: pipeline.Request{Tool: tool, Arguments: json.RawMessage(`{"check_connection":true}`)}, Resolved: pipeline.Resolved{OneBot: onebot.New(u, "", onebot.StreamTimeouts{}).With(nil)}})
			require.NoError(t, err)
			assert.Equal(t, pipeline.OutcomeFailed, r.Diagnostics.Outcome)
			assert.Equal(t, tt.kind, r.Diagnostics.Kind)
			if tt.kind == "wrong_endpoint" {
				assert.Contains(t, r.Diagnostics.Message, `path "/onebot"`)
				assert.Contains(t, r.Diagnostics.Message, "路径")
				assert.NotContains(t, r.Diagnostics.Message, "catalog")
			}
			assert.NotContains(t, r.Diagnostics.Message, "tok-secret")
			assert.NotContains(t, r.Diagnostics.Message, u.Host)
		})
	}
}

// TestListActionsSteersModelsToPage: Codex cuts a result past about 12 KB
// (its tool_output_token_limit), so the whole list reaches a Codex model
// broken; list_actions' description tells a model to page, and a page of
// the size the Codex guide suggests fits under that cut.
func TestListActionsSteersModelsToPage(t *testing.T) {
	t.Parallel()
	tool := ListActions(deps(t, config.ModeDocs))
	def := tool.Def()
	assert.Contains(t, def.Description, "limit/offset")
	assert.Contains(t, def.Description, "分页")
	// codexPage is the limit docs/hosts/codex.md suggests.
	const codexCut, codexPage = 12 * 1024, 40
	size := func(args string) int {
		c := &pipeline.Call{}
		c.Tool, c.Arguments = tool, json.RawMessage(args)
		r, err := handle(context.Background(), tool, c)
		require.NoError(t, err)
		raw, err := payload.Encode(r.Payload)
		require.NoError(t, err)
		return len(pipeline.Render(&pipeline.Result{Payload: raw, Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}}).Content[0].(*mcp.TextContent).Text)
	}
	assert.Greater(t, size(`{}`), codexCut, "the whole list is past Codex's cut, so paging is needed")
	assert.Less(t, size(`{"limit":`+strconv.Itoa(codexPage)+`}`), codexCut, "the page the Codex guide suggests fits")
}
