package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// coined are words a native reader of the Chinese pages stumbled on:
// calques of the English, and one phrase that said the opposite of what
// was meant. Each is here with what the pages say instead, so that a new
// page does not bring one back.
var coined = map[string]string{
	"不会被动":         "不会被改动",
	"不让它做的事":       "没让它做的事",
	"一边写一边看":       "实时查看",
	"解释状态":         "配置错误状态",
	"言辞":           "他人写的内容、文字",
	"响应信封":         "完整响应",
	"条目":           "服务器配置、这一项",
	"发送节奏":         "发送限速",
	"发布版":          "正式版本",
	"取来":           "下载",
	"两百来个":         "约 200 个",
	"死掉":           "意外退出",
	"藏起":           "不显示、隐藏",
	"硬要":           "如果仍然",
	"以少于你所设置的功能运行": "无法提供你设置的全部功能",
	"写给终端前的你的":     "写给在终端里操作的你看的",
	"「":            "“",
	"」":            "”",
	"<SnowLuma's":  "<SnowLuma 的授权 Token>",
	// Issue 52's review: calques a native reader stumbled on.
	"契约":     "完整定义、参数定义",
	"那个句柄":   "任务信息 (a file handle stays 句柄)",
	"空的成功":   "返回一个空结果冒充成功",
	"只是一种声称": "只是自称的",
	"不会再回来":  "就不能再用",
	"匆忙的模型":  "模型常常不细看",
	"活得更久":   "不会在进程退出后继续运行",
	"存在得更久":  "会一直保留",
	"扣下":     "隐去",
}

// settled holds one word per concept (issue 52): each pattern is an old
// use of a word, with the word the pages settled on. Where the word is
// right in another sense (目录 for a folder, 会话 for an MCP session, 成员
// for a group member), the pattern is the phrase that used it wrongly, so
// a new page cannot bring the old use back.
var settled = map[*regexp.Regexp]string{
	regexp.MustCompile(`补全`): "补问参数 (输入补全 reads as autocomplete)",
	regexp.MustCompile(`(^|[^作])目录(版本|顺序|调用|中标记|中声明|中有声明|里没有|里某个|的 schema|中的 schema|中的契约)`): "动作目录 for the action catalog (目录 alone is a folder)",
	regexp.MustCompile(`内置目录|整个目录）|与目录的版本`):                                                 "动作目录 for the action catalog (目录 alone is a folder)",
	regexp.MustCompile(`(每个|同一个?|指明|那个|查看|发到)会话|会话里的|按聊天`):                                  "目标（群或私聊对象） for a QQ chat (会话 is an MCP session)",
	regexp.MustCompile(`一个成员|些成员`):                                                          "字段 for a JSON field (成员 is a group member)",
	regexp.MustCompile(`发送控速|发送预算|控制节奏|节奏控制`):                                               "发送限速, 发送额度",
	regexp.MustCompile(`受信任用户列表|受信任的 QQ 号|(^|[^受])信任名单`):                                    "受信任名单",
	regexp.MustCompile(`账户`): "其他用户, 所有者 (账号 is a QQ account)",
	regexp.MustCompile("以\\s*(kind )?`[a-z_]+` ?(被)?(拒绝|失败|结束)"): "返回 X 错误, 失败（kind 为 X）, 最终状态为 X",
	regexp.MustCompile(`2026-07-28 ?的?(客户端|请求|调用)`):              "使用 2026-07-28 版协议的客户端",
	regexp.MustCompile(`旧版(客户端|会话|请求)`):                          "使用旧版协议的客户端",
	regexp.MustCompile(`\[配置项\]`):                                "设置项 (the heading's own word)",
	regexp.MustCompile(`连通检查`):                                   "连接检查",
	regexp.MustCompile(`应答不是`):                                   "响应",
	regexp.MustCompile(`(MCP|宿主的?) ?主机`):                         "宿主",
}

var (
	// fencedBlock is a fenced code block; inlineCode, a code span.
	fencedBlock = regexp.MustCompile("(?s)```.*?```")
	inlineCode  = regexp.MustCompile("`[^`]*`")
)

// zhPages are the Chinese user pages.
func zhPages(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range userPages(t) {
		out = append(out, p.zh)
	}
	return out
}

// TestChinesePagesAvoidTheCoinedWords: none of the calques, 「」 quotes
// (the pages use “”), English placeholders, or 令牌 for the access token
// (SnowLuma's WebUI says Token; 令牌桶 is the standard term and stays).
func TestChinesePagesAvoidTheCoinedWords(t *testing.T) {
	t.Parallel()
	token := regexp.MustCompile(`令牌[^桶]`)
	for _, page := range zhPages(t) {
		text := readDoc(t, page)
		for word, instead := range coined {
			assert.NotContains(t, text, word, "%s: write %s", page, instead)
		}
		assert.False(t, token.MatchString(text), "%s: 令牌 for the access token; write Token, as SnowLuma's WebUI does", page)
		for word, instead := range settled {
			for _, m := range word.FindAllString(text, -1) {
				assert.Fail(t, "an old word for a settled concept", "%s: %q; write %s", page, m, instead)
			}
		}
		prose := inlineCode.ReplaceAllString(fencedBlock.ReplaceAllString(text, ""), "")
		for i, line := range strings.Split(prose, "\n") {
			assert.NotContains(t, line, `"`, "%s: a quotation in prose (line %d of the text without code) takes “”", page, i+1)
		}
	}
	// The diagram is the first code block of the README.
	diagram := fences(t, "README.zh-CN.md")[0]
	assert.Contains(t, diagram.text, "MCP 宿主")
	assert.NotContains(t, diagram.text, "node", "the diagram is in Chinese")
}

// TestChineseLinksToEnglishOnlyPagesSaySo: a Chinese page's link to a
// page in English (other than the language switcher) says so, either in
// its text or with （英文） after it, so that a reader knows before
// following it.
func TestChineseLinksToEnglishOnlyPagesSaySo(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)(（英文）)?`)
	found := 0
	for _, page := range zhPages(t) {
		text := fencedBlock.ReplaceAllString(readDoc(t, page), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			label, target, marked := m[1], m[2], m[3] != ""
			path, _, _ := strings.Cut(target, "#")
			if strings.Contains(target, "://") || !strings.HasSuffix(path, ".md") || label == "English" {
				continue
			}
			file := filepath.ToSlash(filepath.Join(filepath.Dir(page), path))
			if strings.HasPrefix(file, "docs/zh-CN/") || strings.HasSuffix(file, ".zh-CN.md") {
				continue
			}
			found++
			assert.True(t, marked || strings.Contains(label, "英文"), "%s links %s, an English page, without （英文）", page, target)
		}
	}
	assert.GreaterOrEqual(t, found, 5, "the links to English pages are found")
}

// TestTheEnglishQuickStartGlossesTheWebUIsWords: SnowLuma's WebUI shows
// its labels in Chinese, and the English pages quote them as shown; the
// README glosses each once, where the quick start first names it.
func TestTheEnglishQuickStartGlossesTheWebUIsWords(t *testing.T) {
	t.Parallel()
	text := strings.Join(strings.Fields(readDoc(t, "README.md")), " ")
	for word, gloss := range map[string]string{"节点配置": "node configuration", "端口": "port", "路径": "path", "授权 Token": "access token"} {
		first := strings.Index(text, "**"+word+"**")
		if assert.NotEqual(t, -1, first, "the quick start names %s", word) {
			assert.True(t, strings.HasPrefix(text[first+len("**"+word+"**"):], " ("+gloss), "%s is glossed %q where first named", word, gloss)
		}
	}
}

// wide is a character that takes no space beside another: a Chinese
// character or full-width punctuation.
var wide = regexp.MustCompile(`^[\p{Han}\x{3000}-\x{303f}\x{ff00}-\x{ffef}“”‘’…—]$`)

// TestChinesePagesBreakLinesOnlyBesideLatinText: a Markdown soft line
// break renders as a space, which a Chinese reader sees as a stray gap
// between two characters (X7 of issue 52's review). A prose line that ends
// in a wide character may not be followed by one that starts with one,
// unless the next line starts a list item, a table row, a heading, a
// quotation or a fence.
func TestChinesePagesBreakLinesOnlyBesideLatinText(t *testing.T) {
	t.Parallel()
	block := regexp.MustCompile(`^\s*([-*>|#]|\d+\.|` + "```" + `)`)
	for _, page := range zhPages(t) {
		lines := strings.Split(readDoc(t, page), "\n")
		fenced := false
		for i := 0; i+1 < len(lines); i++ {
			line, next := lines[i], strings.TrimLeft(lines[i+1], " ")
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if fenced || line == "" || next == "" || block.MatchString(next) || strings.HasPrefix(line, "|") {
				continue
			}
			last, _ := utf8.DecodeLastRuneInString(line)
			first, _ := utf8.DecodeRuneInString(next)
			assert.False(t, wide.MatchString(string(last)) && wide.MatchString(string(first)),
				"%s:%d breaks the line between %q and %q: join the lines, or break beside Latin text", page, i+1, string(last), string(first))
		}
	}
}
