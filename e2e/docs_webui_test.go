package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The WebUI's labels, as SnowLuma v1.11.1 shows them
// (packages/webui/src/components): the account column's empty state and
// the 新建 button are in pages/config-page.tsx (the button is "新建" and
// the tab's title with no space between), the dialog's 鉴权 section, its
// 上报自身消息 row under 行为, and its 创建节点 / 保存修改 buttons in
// config/node-edit-dialog.tsx; the card's pencil is aria-label 编辑 in
// config/node-summary-card.tsx. reportSelfMessage is false in every
// default of config/defaults.ts.
var webUISteps = []string{"节点配置", "新建HTTP API", "编辑", "鉴权", "授权 Token", "创建节点", "保存修改"}

// The pages that walk a newcomer through the WebUI, each with how it says
// "choose the account in the left column first".
var webUIWalkthroughs = map[string]string{
	"README.md":                   "account in the left column",
	"README.zh-CN.md":             "左栏选中",
	"docs/configuration.md":       "account in the left column",
	"docs/zh-CN/configuration.md": "左栏选中",
}

// TestTheWebUIStepsAreTheOnesTheWebUIMakesYouDo: the quick start and the
// configuration page, in both languages, say to choose the account in the
// left column first (the page shows nothing else until then), name the
// button as SnowLuma labels it, say that the Token is under 编辑 → 鉴权
// (the card shows only whether one is set), and that the dialog keeps a
// node only on 创建节点 or 保存修改. "Add one" names no button.
func TestTheWebUIStepsAreTheOnesTheWebUIMakesYouDo(t *testing.T) {
	t.Parallel()
	for page, account := range webUIWalkthroughs {
		text := strings.Join(strings.Fields(readDoc(t, page)), " ")
		assert.Contains(t, text, account, "%s: choose the account in the left column first", page)
		for _, label := range webUISteps {
			assert.Contains(t, text, "**"+label+"**", "%s names the WebUI's %s, in bold, as shown", page, label)
		}
		for _, vague := range []string{"add one", "添加一个", "新建 HTTP API"} {
			assert.NotContains(t, text, vague, "%s: name the button as the WebUI shows it, 新建HTTP API", page)
		}
	}
}

// TestTheAccountsOwnSendsNameTheSwitchTheyNeed: SnowLuma reports the
// account's own messages as message_sent only with the WS 服务端 node's
// 上报自身消息 on, and it is off by default; every user page, in either
// language, that names message_sent says so.
func TestTheAccountsOwnSendsNameTheSwitchTheyNeed(t *testing.T) {
	t.Parallel()
	found := 0
	for _, p := range userPages(t) {
		for _, page := range []string{p.en, p.zh} {
			text := readDoc(t, page)
			if !strings.Contains(text, "message_sent") {
				continue
			}
			found++
			assert.Contains(t, text, "上报自身消息", "%s promises message_sent without naming the WS 服务端 node's switch", page)
		}
	}
	assert.GreaterOrEqual(t, found, 4, "events and trust-boundary, in both languages, name message_sent")
	for _, page := range []string{"docs/configuration.md", "docs/zh-CN/configuration.md"} {
		text := strings.Join(strings.Fields(readDoc(t, page)), " ")
		assert.Contains(t, text, "**行为**", "%s: where the switch is (编辑 → 行为)", page)
	}
	assert.Contains(t, readDoc(t, "docs/configuration.md"), "off by")
	assert.Contains(t, readDoc(t, "docs/zh-CN/configuration.md"), "默认是关的")
}
