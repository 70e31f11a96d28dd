package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
