package e2e

// The message preview panel in real headless Chromium, hosted by ext-apps'
// AppBridge and connected to the real binary against the shared fake, on
// both protocol generations (UI-2..UI-4, issue 12 items 4-5). What the
// panel shows comes from the harness; what was sent comes from the fake.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

// hostile is message text that would run script if it were ever parsed as
// HTML, with a CQ code look-alike for good measure.
const hostile = `Hello <img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> [CQ:at,qq=all]`

// scenario is a panel render with a fresh trace, so the fake's records of
// it can be told apart from every other test's.
func scenario(t *testing.T, name, theme, action string, serverTools bool, args map[string]any) panelScenario {
	t.Helper()
	id, tp := newTrace(t)
	return panelScenario{Name: name, Theme: theme, Action: action, ServerTools: serverTools, Args: args, Traceparent: tp, traceID: id}
}

func groupDraft(text string, replyTo any) map[string]any {
	a := map[string]any{"message_type": "group", "target_id": fake.GroupID, "text": text}
	if replyTo != nil {
		a["reply_to"] = replyTo
	}
	return a
}

// sends returns the send_group_msg requests the fake got for a scenario.
func sends(sc panelScenario) []fake.Request {
	var out []fake.Request
	for _, r := range snow.ByTrace(sc.traceID) {
		if r.Action == "send_group_msg" {
			out = append(out, r)
		}
	}
	return out
}

func TestPanelSendsOnceAfterAClickInWriteMode(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		click := scenario(t, "click", "light", "click", true, groupDraft(hostile, int64(fake.SeedGroupNegative)))
		click.Screenshot = artifact(t, "panel-"+version+"-light-sent.png")
		double := scenario(t, "double click", "dark", "dblclick", true, groupDraft("双击也只发一次 (double click sends once)", nil))
		double.Screenshot = artifact(t, "panel-"+version+"-dark-sent.png")
		noTools := scenario(t, "host without server tools", "light", "force", true, groupDraft("x", nil))
		noTools.ServerTools = false
		run := runPanel(t, version, writeEnv(), []panelScenario{click, double, noTools})

		assert.Equal(t, map[string]string{modern: "modern", legacy: "legacy"}[version], run.Era)
		assert.Equal(t, version, run.ProtocolVersion)
		assert.Empty(t, run.Requests, "the page makes no network request")

		c := run.render(t, "click")
		assert.Equal(t, hostile, c.Text, "the text is shown as text")
		assert.Zero(t, c.TextElements, "no element was made from the text")
		assert.Zero(t, c.ForeignElements, "nothing was injected into the panel")
		assert.Empty(t, c.ResourceLoads, "the panel's document loaded nothing")
		assert.False(t, c.Pwned, "the payload never ran")
		assert.Equal(t, "Group chat 123456789", c.To)
		require.NotNil(t, c.Reply)
		assert.Contains(t, *c.Reply, "-1559550018")
		assert.False(t, c.DisabledBeforeClick, "write mode with host tool calls may send")
		assert.Equal(t, "acknowledged", c.Badge)
		assert.Equal(t, "ok", c.StatusKind)
		assert.Contains(t, c.Status, "SnowLuma acknowledged the message")
		assert.Contains(t, c.Status, "not proof that QQ delivered", "success claims SnowLuma's acknowledgement only")
		assert.True(t, c.ButtonDisabled, "a used draft cannot be sent again")
		assert.Equal(t, "light", c.Theme)
		assert.Equal(t, 1, run.callsFrom("click"), "one click, one invoke_action; a click on the used draft adds none")
		got := sends(click)
		require.Len(t, got, 1, "exactly one send_group_msg reached SnowLuma")
		assert.JSONEq(t, `{"group_id":123456789,"message":[{"type":"reply","data":{"id":"-1559550018"}},{"type":"text","data":{"text":`+string(mustJSON(t, hostile))+`}}]}`,
			string(got[0].Params), "the panel sent the draft's exact arguments")

		d := run.render(t, "double click")
		assert.Equal(t, "dark", d.Theme)
		assert.Equal(t, "rgb(22, 24, 29)", d.Background, "the dark theme applies")
		assert.Equal(t, "acknowledged", d.Badge)
		assert.Equal(t, 1, run.callsFrom("double click"), "a double click sends once")
		assert.Len(t, sends(double), 1)

		n := run.render(t, "host without server tools")
		assert.True(t, n.DisabledBeforeClick)
		assert.Contains(t, n.Reason, "does not let the panel call server tools")
		assert.Zero(t, run.callsFrom("host without server tools"))
		assert.Empty(t, sends(noTools))
	})
}

func TestPanelCannotSendInReadOrDocsMode(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name string
		env  func() map[string]string
	}{{"read", readEnv}, {"docs", docsEnv}}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			forEachVersion(t, func(t *testing.T, version string) {
				sc := scenario(t, "forced click", "light", "force", true, groupDraft("hi", nil))
				run := runPanel(t, version, m.env(), []panelScenario{sc})
				r := run.render(t, "forced click")
				assert.True(t, r.DisabledBeforeClick)
				assert.True(t, r.ButtonDisabled)
				assert.Contains(t, r.Reason, "runs in "+m.name+" mode, and sending needs write mode")
				assert.Equal(t, "not sent", r.Badge)
				assert.Zero(t, run.callsFrom("forced click"), "a disabled button calls nothing")
				assert.Empty(t, snow.ByTrace(sc.traceID), "nothing reached SnowLuma")
				assert.Empty(t, run.Requests, "the page makes no network request")
			})
		})
	}
}

func TestPanelShowsAFailedSendAndDoesNotRetry(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		sc := scenario(t, "refused", "dark", "click", true, groupDraft("this send is refused", nil))
		sc.Screenshot = artifact(t, "panel-"+version+"-dark-failed.png")
		run := runPanel(t, version, with(writeEnv(), "SNOWLUMA_MCP_TOKEN", wrongToken), []panelScenario{sc})
		r := run.render(t, "refused")
		assert.Equal(t, "bad", r.StatusKind)
		assert.Equal(t, "not sent", r.Badge)
		assert.Contains(t, r.Status, "The send failed")
		assert.Contains(t, r.Status, "kind: upstream_auth", "the diagnostics are shown")
		assert.Contains(t, r.Status, "Nothing is retried")
		assert.True(t, r.ButtonDisabled, "a failed draft is not offered again")
		assert.Equal(t, 1, run.callsFrom("refused"), "one click, one call, no retry")
		assert.Len(t, snow.ByTrace(sc.traceID), 1, "SnowLuma saw exactly one request")
		assert.Empty(t, run.Requests)
	})
}

func TestPanelResourceForAnAppsHost(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		run := runPanel(t, version, docsEnv(), []panelScenario{scenario(t, "look", "light", "none", true, groupDraft("x", nil))})
		assert.Equal(t, "ui://snowluma-mcp/message-preview.html", run.Tool.ResourceURI)
		assert.Equal(t, run.Tool.ResourceURI, run.Tool.LegacyResourceURI)
		assert.True(t, run.ResourceListed)
		assert.Equal(t, "text/html;profile=mcp-app", run.Resource.MIMEType)
		assert.Positive(t, run.Resource.Bytes)
		if version == modern {
			require.NotNil(t, run.Resource.TTLMs)
			assert.Equal(t, 300000, *run.Resource.TTLMs)
			assert.Equal(t, "public", *run.Resource.CacheScope)
		}
	})
}

// TestPanelShowsAnUncertainSendAndDoesNotRetry: SnowLuma answering "async"
// (accepted, result unknown) and a host that fails the call both leave the
// outcome unknown; the panel says so, shows why, and offers no second try.
func TestPanelShowsAnUncertainSendAndDoesNotRetry(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	got := 0
	async := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only sends count: the server also asks get_login_info which
		// account's shared send budgets to use (and, answered "async",
		// asks again at the next send).
		var req struct {
			Action string `json:"action"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Action == "send_group_msg" {
			mu.Lock()
			got++
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"async","retcode":1,"data":null}`)
	}))
	t.Cleanup(async.Close)
	t.Cleanup(func() {
		// Runs after both generations' subtests: one request each, from
		// the async scenario; the failing host never reached the server.
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, 2, got, "SnowLuma got exactly one request per generation")
	})
	forEachVersion(t, func(t *testing.T, version string) {
		acked := scenario(t, "async", "light", "click", true, groupDraft("maybe sent", nil))
		acked.Screenshot = artifact(t, "panel-"+version+"-light-unknown.png")
		broken := scenario(t, "host fails", "dark", "click", true, groupDraft("host fails", nil))
		broken.HostFails = true
		run := runPanel(t, version, with(writeEnv(), "SNOWLUMA_MCP_ENDPOINT", async.URL), []panelScenario{acked, broken})
		for _, name := range []string{"async", "host fails"} {
			r := run.render(t, name)
			assert.Equal(t, "unknown", r.StatusKind, name)
			assert.Equal(t, "outcome unknown", r.Badge, name)
			assert.Contains(t, r.Status, "Outcome unknown", name)
			assert.Contains(t, r.Status, "does not retry", name)
			assert.True(t, r.ButtonDisabled, "%s: no second try", name)
			assert.Equal(t, 1, run.callsFrom(name), "%s: one call, no retry", name)
		}
		assert.Contains(t, run.render(t, "async").Status, "message: ", "SnowLuma's async answer is shown with its diagnostics")
		assert.Contains(t, run.render(t, "host fails").Status, "the test host failed this call")
		assert.Empty(t, run.Requests)
	})
}

// TestPanelShowsAPacedAndARefusedSend: with one send per group at once and
// a long refill, a second draft to the same group either waits and says
// how long it was held, or is refused and says when it could go; a refused
// send never reaches SnowLuma and is not retried.
func TestPanelShowsAPacedAndARefusedSend(t *testing.T) {
	t.Parallel()
	forEachVersion(t, func(t *testing.T, version string) {
		first := scenario(t, "first", "light", "click", true, groupDraft("first", nil))
		refused := scenario(t, "too fast", "dark", "click", true, groupDraft("too fast", nil))
		refused.Screenshot = artifact(t, "panel-"+version+"-dark-rate-limited.png")
		run := runPanel(t, version, paceEnv("target=1+1/10m,account=50+1/10ms", "0"), []panelScenario{first, refused})
		assert.Equal(t, "acknowledged", run.render(t, "first").Badge)
		r := run.render(t, "too fast")
		assert.Equal(t, "bad", r.StatusKind)
		assert.Equal(t, "not sent: too fast", r.Badge)
		assert.Contains(t, r.Status, "Not sent: the send budget is spent")
		assert.Contains(t, r.Status, "group 123456789's send budget is spent")
		assert.Regexp(t, `could go again in \d+\.\d s`, r.Status)
		assert.Contains(t, r.Status, "nothing is retried")
		assert.True(t, r.ButtonDisabled, "a refused draft is not offered again")
		assert.Equal(t, 1, run.callsFrom("too fast"), "one click, one call, no retry")
		assert.Empty(t, sends(refused), "a refused send never reaches SnowLuma")

		paced := scenario(t, "paced", "light", "click", true, groupDraft("paced", nil))
		paced.Screenshot = artifact(t, "panel-"+version+"-light-paced.png")
		// The host sends to the same group just before the panel's send,
		// which then waits most of the 5 s refill (the bound is 20 s).
		paced.SendFirst = map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, "message": "just before"}}
		run = runPanel(t, version, paceEnv("target=1+1/5s,account=50+1/10ms", "20000"), []panelScenario{paced})
		p := run.render(t, "paced")
		assert.Equal(t, "ok", p.StatusKind)
		assert.Equal(t, "acknowledged after a wait", p.Badge)
		assert.Regexp(t, `acknowledged the message after a \d+\.\d s wait`, p.Status)
		assert.Contains(t, p.Status, "for its send budget")
		assert.Len(t, sends(paced), 2, "the host's send and the panel's")
	})
}
