package e2e

// The panel in the host's language (issue 31): every state (draft, sent,
// held, refused, failed, unknown) rendered with a Chinese and an English
// host context, in light and dark, and a host that switches its locale
// while the panel is open. What a person reads is checked as the browser
// shows it; screenshots of the Chinese states go to e2e/artifacts.

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// requireCJKFont fails the test when no font can draw Chinese: the
// screenshots of the Chinese panel would show boxes.
func requireCJKFont(t *testing.T) {
	t.Helper()
	out, err := exec.Command("fc-list", ":lang=zh", "family").Output()
	require.NoError(t, err, "fc-list (fontconfig, which chromium depends on) is missing")
	require.NotEmpty(t, strings.TrimSpace(string(out)), "no font for Chinese: apt-get install -y fonts-noto-cjk (.ci/run does)")
}

// localeScenario is a render in a host with locale and theme; a Chinese
// one leaves a screenshot named for its state.
func localeScenario(t *testing.T, version, name, locale, theme, action, state string, args map[string]any) panelScenario {
	t.Helper()
	sc := scenario(t, name, theme, action, true, args)
	sc.Locale = locale
	if strings.HasPrefix(locale, "zh") {
		sc.Screenshot = artifact(t, "panel-"+version+"-zh-"+theme+"-"+state+".png")
	}
	return sc
}

// The words the panel's own Chinese may contain in Latin letters: names
// and the tool's name, which are never translated.
var latinAllowed = regexp.MustCompile(`SnowLuma|QQ|invoke_action|\bid\b|\bwrite\b`)

// latinWord is a run of Latin letters: in the panel's own Chinese words it
// would be English left untranslated.
var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

// ownWords are the parts of a render the panel writes itself (not the
// draft, nor the server's or the host's words).
func ownWords(r panelRender) []string {
	out := []string{r.Title, r.Heading, r.Summary, r.To, r.ButtonText, r.Reason, r.Badge, r.Count, r.TextLabel, r.StatusTitle}
	out = append(out, r.Labels...)
	if r.Reply != nil {
		out = append(out, *r.Reply)
	}
	return out
}

// serverLabels start the status lines that carry the server's (or the
// host's) own words after a label in the panel's language.
var serverLabels = map[string][]string{
	"zh": {"结果：", "类型：", "说明：", "下一步：", "the test host failed this call"},
	"en": {"outcome: ", "kind: ", "message: ", "next step: ", "the test host failed this call"},
}

// statusLines are the status box's lines after its title that are the
// panel's own, and the server's words keyed by their label.
func statusLines(r panelRender, lang string) (own []string, server map[string]string) {
	server = map[string]string{}
	body := strings.TrimPrefix(r.Status, r.StatusTitle)
	for _, line := range strings.Split(body, "\n") {
		if line == "" {
			continue
		}
		labelled := false
		for _, label := range serverLabels[lang] {
			if strings.HasPrefix(line, label) {
				server[label] = strings.TrimPrefix(line, label)
				labelled = true
			}
		}
		if !labelled {
			own = append(own, line)
		}
	}
	return own, server
}

// assertChinese checks that a render is entirely in Chinese where the
// panel speaks for itself: the page's language, every word of its own
// without English left in it, and every explanation in the status box.
func assertChinese(t *testing.T, r panelRender) {
	t.Helper()
	assert.Equal(t, "zh-CN", r.Lang, "%s: <html lang>", r.Name)
	assert.Equal(t, "SnowLuma 消息预览", r.Title, r.Name)
	assert.Equal(t, "消息草稿", r.Heading, r.Name)
	assert.Equal(t, "点击后原样发出的 invoke_action 调用", r.Summary, r.Name)
	assert.Equal(t, "消息内容", r.TextLabel, r.Name)
	assert.Equal(t, "群聊 123456789", r.To, "%s: the group id verbatim", r.Name)
	for _, w := range ownWords(r) {
		assert.Empty(t, latinWord.FindAllString(latinAllowed.ReplaceAllString(w, ""), -1), "%s: English left in %q", r.Name, w)
	}
	own, _ := statusLines(r, "zh")
	for _, line := range own {
		assert.True(t, strings.ContainsFunc(line, func(c rune) bool { return unicode.Is(unicode.Han, c) }), "%s: the status line %q is not in Chinese", r.Name, line)
	}
	assert.Contains(t, r.Visible, "消息草稿", "%s: the heading is visible", r.Name)
	assert.NotContains(t, r.Visible, "Message draft", r.Name)
}

// assertEnglish checks that a render is in English throughout its own
// words: no Han character outside the draft's text.
func assertEnglish(t *testing.T, r panelRender, tag string) {
	t.Helper()
	assert.Equal(t, tag, r.Lang, "%s: <html lang>", r.Name)
	assert.Equal(t, "SnowLuma message preview", r.Title, r.Name)
	assert.Equal(t, "Message draft", r.Heading, r.Name)
	assert.Equal(t, "The exact invoke_action call a click sends", r.Summary, r.Name)
	assert.Equal(t, "Group chat 123456789", r.To, r.Name)
	han := func(c rune) bool { return unicode.Is(unicode.Han, c) }
	for _, w := range ownWords(r) {
		assert.False(t, strings.ContainsFunc(w, han), "%s: Chinese in the English panel: %q", r.Name, w)
	}
	visible := strings.ReplaceAll(r.Visible, r.Text, "")
	// SnowLuma's WebUI is in Chinese: the server's words name its page,
	// nodes and fields as it shows them, in any language.
	for _, name := range []string{webui.PageNodes, webui.NodeWS, webui.FieldPort, webui.FieldPath, webui.FieldToken} {
		visible = strings.ReplaceAll(visible, name, "")
	}
	assert.False(t, strings.ContainsFunc(visible, han), "%s: Chinese visible in the English panel:\n%s", r.Name, r.Visible)
}

// assertTheme checks the theme the host asked for.
func assertTheme(t *testing.T, r panelRender, theme string) {
	t.Helper()
	assert.Equal(t, theme, r.Theme, r.Name)
	if theme == "dark" {
		assert.Equal(t, "rgb(22, 24, 29)", r.Background, "%s: the dark theme applies", r.Name)
	}
}

// longText has 1234 characters, so the count is grouped for the locale.
var longText = strings.Repeat("雪", 1000) + strings.Repeat("x", 234)

func TestPanelSpeaksTheHostLanguageInItsDraftAndSentStates(t *testing.T) {
	t.Parallel()
	requireCJKFont(t)
	forEachVersion(t, func(t *testing.T, version string) {
		reply := int64(fake.SeedGroupNegative)
		zhDraft := localeScenario(t, version, "zh draft", "zh-CN", "light", "none", "draft", groupDraft("今晚八点开会，请准时参加。", reply))
		enDraft := localeScenario(t, version, "en draft", "en-US", "dark", "none", "draft", groupDraft(longText, reply))
		zhLong := localeScenario(t, version, "zh long", "zh", "dark", "none", "", groupDraft(longText, nil))
		zhLong.Screenshot = ""
		zhSent := localeScenario(t, version, "zh sent", "zh-TW", "dark", "click", "sent", groupDraft("已收到，谢谢！", nil))
		enSent := localeScenario(t, version, "en sent", "en-GB", "light", "click", "sent", groupDraft("Got it, thanks!", nil))
		zhToEn := localeScenario(t, version, "zh to en", "zh-CN", "light", "click", "", groupDraft("切换语言", nil))
		zhToEn.Screenshot, zhToEn.SwitchLocale = "", "en-US"
		enToZh := localeScenario(t, version, "en to zh", "en", "dark", "none", "", groupDraft("switch language", reply))
		enToZh.SwitchLocale = "zh-Hant-HK"
		// A draft the server refuses (a blank text): nothing to send.
		zhBad := localeScenario(t, version, "zh refused draft", "zh-CN", "light", "force", "refused-draft", groupDraft(" ", nil))
		enBad := localeScenario(t, version, "en refused draft", "en-US", "dark", "force", "", groupDraft(" ", nil))
		run := runPanel(t, version, writeEnv(), []panelScenario{zhDraft, enDraft, zhLong, zhSent, enSent, zhToEn, enToZh, zhBad, enBad})
		assert.Empty(t, run.Requests, "the page makes no network request")

		d := run.render(t, "zh draft")
		assertChinese(t, d)
		assertTheme(t, d, "light")
		assert.Equal(t, []string{"目标", "回复", "消息内容"}, d.Labels)
		require.NotNil(t, d.Reply)
		assert.Equal(t, "消息 id -1559550018（作为引用显示在正文上方）", *d.Reply, "the negative message id verbatim")
		assert.Equal(t, "13 个字符，按所示原样发送", d.Count)
		assert.Equal(t, "发送到群 123456789", d.ButtonText)
		assert.False(t, d.ButtonDisabled)
		assert.Equal(t, "点击之前不会发送任何内容，且只会发送一次。", d.Reason)
		assert.Equal(t, "未发送", d.Badge)
		assert.Empty(t, d.Status, "a draft has no outcome yet")

		e := run.render(t, "en draft")
		assertEnglish(t, e, "en-US")
		assertTheme(t, e, "dark")
		assert.Equal(t, []string{"To", "Replying to", "Text"}, e.Labels)
		assert.Equal(t, "message -1559550018 (shown as a quote above the text)", *e.Reply)
		assert.Equal(t, "1,234 characters, sent exactly as shown", e.Count, "the count grouped for en-US")
		assert.Equal(t, "Send to group 123456789", e.ButtonText, "the id is never grouped")
		assert.Equal(t, "Nothing is sent until you click, and a send is never repeated.", e.Reason)
		assert.Equal(t, "not sent", e.Badge)
		assert.Equal(t, "1,234 个字符，按所示原样发送", run.render(t, "zh long").Count, "the count grouped for zh-CN")

		s := run.render(t, "zh sent")
		assertChinese(t, s)
		assertTheme(t, s, "dark")
		assert.Equal(t, "已确认", s.Badge)
		assert.Equal(t, "ok", s.StatusKind)
		assert.Equal(t, "SnowLuma 已确认收到消息", s.StatusTitle)
		sOwn, _ := statusLines(s, "zh")
		require.NotEmpty(t, sOwn)
		assert.Regexp(t, `^消息 id -?\d+$`, sOwn[0], "the message id verbatim, never grouped")
		assert.Contains(t, s.Status, "这表示 SnowLuma 已接受该消息，并不证明 QQ 已送达或显示。")
		assert.Equal(t, "此草稿已点过发送。请查看结果；如需再次发送，请重新生成草稿。", s.Reason)
		assert.True(t, s.ButtonDisabled)
		assert.Len(t, sends(zhSent), 1, "the Chinese panel sent once")

		es := run.render(t, "en sent")
		assertEnglish(t, es, "en-GB")
		assertTheme(t, es, "light")
		assert.Equal(t, "acknowledged", es.Badge)
		assert.Equal(t, "SnowLuma acknowledged the message", es.StatusTitle)
		esOwn, _ := statusLines(es, "en")
		require.NotEmpty(t, esOwn)
		assert.Regexp(t, `^message_id -?\d+$`, esOwn[0])
		assert.Contains(t, es.Status, "it is not proof that QQ delivered or displayed it")
		assert.Len(t, sends(enSent), 1)

		// A host that switches from Chinese to English after the send: the
		// whole panel, the outcome included, is drawn again in English.
		z := run.render(t, "zh to en")
		require.NotNil(t, z.BeforeSwitch)
		assertChinese(t, *z.BeforeSwitch)
		assert.Equal(t, "已确认", z.BeforeSwitch.Badge)
		assertEnglish(t, z, "en-US")
		assert.Equal(t, "acknowledged", z.Badge)
		assert.Equal(t, "SnowLuma acknowledged the message", z.StatusTitle)
		assert.Equal(t, "This draft has been used. Check the outcome, then preview a new draft to send again.", z.Reason)
		assert.Equal(t, 1, run.callsFrom("zh to en"), "switching the language sends nothing")
		assert.Len(t, sends(zhToEn), 1)

		// From English to a traditional-Chinese tag: Simplified Chinese.
		c := run.render(t, "en to zh")
		require.NotNil(t, c.BeforeSwitch)
		assertEnglish(t, *c.BeforeSwitch, "en")
		assertChinese(t, c)
		assert.Equal(t, "发送到群 123456789", c.ButtonText)
		assert.False(t, c.ButtonDisabled, "the draft can still be sent after the switch")
		assert.Zero(t, run.callsFrom("en to zh"))

		b := run.render(t, "zh refused draft")
		assert.True(t, b.PreviewIsError)
		assertChinese(t, b)
		assert.Equal(t, "bad", b.StatusKind)
		assert.Equal(t, "服务器拒绝了此草稿", b.StatusTitle)
		assert.Equal(t, "此草稿无法发送；请修正后重新预览。", b.Reason)
		assert.Equal(t, "发送", b.ButtonText)
		assert.True(t, b.DisabledBeforeClick)
		eb := run.render(t, "en refused draft")
		assertEnglish(t, eb, "en-US")
		assert.Equal(t, "The server refused this draft", eb.StatusTitle)
		assert.Equal(t, "This draft cannot be sent; fix it and preview again.", eb.Reason)
		assertSameServerWords(t, b, eb)
		assert.Equal(t, "invalid_argument", eb.statusServerWord("kind: "))
		for _, name := range []string{"zh refused draft", "en refused draft"} {
			assert.Zero(t, run.callsFrom(name), "%s: a refused draft calls nothing", name)
		}
	})
}

// retryZH and retryEN are the refusal's "could go again" line: a
// duration in seconds and the time of day, formatted for the locale (the
// host gives no time zone, so the browser's own).
var (
	retryZH = regexp.MustCompile(`(?m)^\d+\.\d 秒后（\d{2}:\d{2}:\d{2}）可以再次发送。$`)
	retryEN = regexp.MustCompile(`(?m)^A send could go again in \d+\.\d s \(at \d{1,2}:\d{2}:\d{2}[\s\x{202f}][AP]M\)\.$`)
)

func TestPanelSpeaksTheHostLanguageWhenASendIsHeldOrRefused(t *testing.T) {
	t.Parallel()
	requireCJKFont(t)
	forEachVersion(t, func(t *testing.T, version string) {
		first := scenario(t, "first", "light", "click", true, groupDraft("first", nil))
		zh := localeScenario(t, version, "zh refused", "zh-CN", "light", "click", "refused", groupDraft("发得太快了", nil))
		en := localeScenario(t, version, "en refused", "en-US", "dark", "click", "refused", groupDraft("too fast", nil))
		run := runPanel(t, version, paceEnv("target=1+1/10m,account=50+1/10ms", "0"), []panelScenario{first, zh, en})
		r := run.render(t, "zh refused")
		assertChinese(t, r)
		assertTheme(t, r, "light")
		assert.Equal(t, "bad", r.StatusKind)
		assert.Equal(t, "未发送：发送过快", r.Badge)
		assert.Equal(t, "未发送：发送额度已用完", r.StatusTitle)
		_, server := statusLines(r, "zh")
		assert.Contains(t, server["说明："], "group 123456789's send budget is spent", "the server's message as the server wrote it")
		assert.Regexp(t, retryZH, r.Status)
		assert.Contains(t, r.Status, "没有发送任何内容，也不会重试")
		assert.Empty(t, sends(zh), "a refused send never reaches SnowLuma")

		e := run.render(t, "en refused")
		assertEnglish(t, e, "en-US")
		assertTheme(t, e, "dark")
		assert.Equal(t, "not sent: too fast", e.Badge)
		assert.Equal(t, "Not sent: the send budget is spent", e.StatusTitle)
		assert.Regexp(t, retryEN, e.Status)
		assert.Empty(t, sends(en))

		// Held: the host sends to the same group just before each panel
		// send, which then waits most of the 5 s refill for its budget.
		before := map[string]any{"action": "send_group_msg", "params": map[string]any{"group_id": fake.GroupID, "message": "just before"}}
		zhHeld := localeScenario(t, version, "zh held", "zh-CN", "dark", "click", "held", groupDraft("稍等一下再发", nil))
		enHeld := localeScenario(t, version, "en held", "en-US", "light", "click", "held", groupDraft("paced", nil))
		zhHeld.SendFirst, enHeld.SendFirst = before, before
		run = runPanel(t, version, paceEnv("target=1+1/5s,account=50+1/10ms", "20000"), []panelScenario{zhHeld, enHeld})
		h := run.render(t, "zh held")
		assertChinese(t, h)
		assertTheme(t, h, "dark")
		assert.Equal(t, "ok", h.StatusKind)
		assert.Equal(t, "等待后已确认", h.Badge)
		assert.Regexp(t, `^等待 \d+\.\d 秒后，SnowLuma 已确认收到消息$`, h.StatusTitle)
		assert.Regexp(t, `(?m)^为等待发送额度，发送前暂缓了 \d+\.\d 秒。本服务器会限制发送速度，以免账号被 QQ 风控。$`, h.Status)
		assert.Len(t, sends(zhHeld), 2, "the host's send and the panel's")

		eh := run.render(t, "en held")
		assertEnglish(t, eh, "en-US")
		assert.Equal(t, "acknowledged after a wait", eh.Badge)
		assert.Regexp(t, `^SnowLuma acknowledged the message after a \d+\.\d s wait$`, eh.StatusTitle)
		assert.Len(t, sends(enHeld), 2)
	})
}

func TestPanelSpeaksTheHostLanguageWhenASendFailsOrIsUncertain(t *testing.T) {
	t.Parallel()
	requireCJKFont(t)
	// SnowLuma answering "async": accepted, result unknown.
	async := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"async","retcode":1,"data":null}`)
	}))
	t.Cleanup(async.Close)
	forEachVersion(t, func(t *testing.T, version string) {
		zhFailed := localeScenario(t, version, "zh failed", "zh-CN", "light", "click", "failed", groupDraft("这条会失败", nil))
		enFailed := localeScenario(t, version, "en failed", "en-US", "dark", "click", "failed", groupDraft("this fails", nil))
		run := runPanel(t, version, with(writeEnv(), "SNOWLUMA_MCP_TOKEN", wrongToken), []panelScenario{zhFailed, enFailed})
		f := run.render(t, "zh failed")
		assertChinese(t, f)
		assertTheme(t, f, "light")
		assert.Equal(t, "bad", f.StatusKind)
		assert.Equal(t, "发送失败", f.Badge)
		assert.Equal(t, "发送失败", f.StatusTitle)
		own, server := statusLines(f, "zh")
		assert.Equal(t, "failed", server["结果："], "the outcome's name as the server gave it")
		assert.Equal(t, "upstream_auth", server["类型："], "the kind's name as the server gave it")
		assert.Equal(t, []string{"不会重试。请先排除原因，再重新生成草稿。"}, own)
		assert.Contains(t, f.Status, "不会重试。请先排除原因，再重新生成草稿。")
		ef := run.render(t, "en failed")
		assertEnglish(t, ef, "en-US")
		assertTheme(t, ef, "dark")
		assert.Equal(t, "The send failed", ef.StatusTitle)
		assertSameServerWords(t, f, ef)

		zhUnknown := localeScenario(t, version, "zh unknown", "zh-CN", "dark", "click", "unknown", groupDraft("也许已发送", nil))
		enUnknown := localeScenario(t, version, "en unknown", "en-US", "light", "click", "unknown", groupDraft("maybe sent", nil))
		zhHost := localeScenario(t, version, "zh host fails", "zh", "light", "click", "unknown-host", groupDraft("宿主出错", nil))
		zhHost.HostFails = true
		run = runPanel(t, version, with(writeEnv(), "SNOWLUMA_MCP_ENDPOINT", async.URL), []panelScenario{zhUnknown, enUnknown, zhHost})
		u := run.render(t, "zh unknown")
		assertChinese(t, u)
		assertTheme(t, u, "dark")
		assert.Equal(t, "unknown", u.StatusKind)
		assert.Equal(t, "结果未知", u.Badge)
		assert.Equal(t, "结果未知：可能已经发送", u.StatusTitle)
		assert.Contains(t, u.Status, "重新起草前请先在 QQ 里查看这个聊天；此面板不会重试。")
		eu := run.render(t, "en unknown")
		assertEnglish(t, eu, "en-US")
		assert.Equal(t, "Outcome unknown: it may have been sent", eu.StatusTitle)
		assertSameServerWords(t, u, eu)

		hf := run.render(t, "zh host fails")
		assertChinese(t, hf)
		assert.Equal(t, "结果未知：宿主报告了错误", hf.StatusTitle)
		assert.Contains(t, hf.Status, "the test host failed this call", "the host's own words, as it wrote them")
		assert.Contains(t, hf.Status, "消息可能已发送，也可能没有。")
		for _, name := range []string{"zh unknown", "en unknown", "zh host fails"} {
			assert.Equal(t, 1, run.callsFrom(name), "%s: one call, no retry", name)
		}
	})
}

// statusServerWord is the server's words after label in the status box.
func (r panelRender) statusServerWord(label string) string {
	_, server := statusLines(r, "en")
	return server[label]
}

// assertSameServerWords checks that the server's diagnostics read the same
// in the Chinese and the English panel: the panel labels them in its
// language and leaves the server's words as the server wrote them.
func assertSameServerWords(t *testing.T, zh, en panelRender) {
	t.Helper()
	_, z := statusLines(zh, "zh")
	_, e := statusLines(en, "en")
	require.NotEmpty(t, e["message: "], "%s: the server gave a message", en.Name)
	require.NotEmpty(t, e["next step: "], "%s: the server gave a next step", en.Name)
	assert.Equal(t, e["message: "], z["说明："], "the server's message is not translated")
	assert.Equal(t, e["next step: "], z["下一步："], "the server's next step is not translated")
	assert.Equal(t, e["kind: "], z["类型："])
}
