package checkup

import (
	"strings"
	"unicode"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// pasting is what is wrong with a token SnowLuma refused, as it holds
// what came along when it was pasted: what says so (appended to the
// refusal), fix names the exact change. Neither repeats the value.
type pasting struct {
	what, fix lang.Text
}

// quotes are the pairs a token is found wrapped in: a config format's own
// quotes typed once more, and the typographic ones a chat or a document
// turns them into.
var quotes = [][2]string{{`"`, `"`}, {"'", "'"}, {"`", "`"}, {"“", "”"}, {"‘", "’"}, {"「", "」"}, {"『", "』"}}

// pasted reads the token of variable for the wrapping a paste leaves: the
// guide's placeholder itself, its <…> around a token, quotes, a "Bearer "
// prefix (the server adds that itself) or whitespace inside. SnowLuma's
// generated tokens have none of them; a token set by hand might, so this
// is said only after SnowLuma refused the value. nil when none is found.
func pasted(variable, token string) *pasting {
	var en, zh, fixEN, fixZH []string
	add := func(what, fix lang.Text) {
		en, zh = append(en, what.EN), append(zh, what.ZH)
		fixEN, fixZH = append(fixEN, fix.EN), append(fixZH, fix.ZH)
	}
	v := token
	// The wrappings nest in any order ("Bearer <…>", "\"Bearer …\""):
	// each is peeled once, until none is left.
	var bearer, quoted, bracketed bool
	for peeled := true; peeled; {
		peeled = false
		if !bearer && len(v) >= 7 && strings.EqualFold(v[:7], "bearer ") {
			add(lang.Text{EN: `it starts with "Bearer ", which the server adds itself`, ZH: "它以“Bearer ”开头，而这是服务器自己会加上的"},
				lang.Text{EN: `delete "Bearer " from its start`, ZH: "删掉开头的“Bearer ”"})
			v, bearer, peeled = strings.TrimSpace(v[7:]), true, true
		}
		for _, q := range quotes {
			if !quoted && len(v) > len(q[0])+len(q[1]) && strings.HasPrefix(v, q[0]) && strings.HasSuffix(v, q[1]) {
				add(lang.Text{EN: "it is wrapped in quotes (" + q[0] + "…" + q[1] + ")", ZH: "它被引号（" + q[0] + "…" + q[1] + "）包着"},
					lang.Text{EN: "delete the quotes around it (the host's file quotes the value already)", ZH: "删掉它两边的引号（宿主的配置文件本身已经给值加了引号）"})
				v, quoted, peeled = v[len(q[0]):len(v)-len(q[1])], true, true
				break
			}
		}
		if !bracketed && strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") && len(v) > 2 {
			inner := v[1 : len(v)-1]
			if placeholder(inner) {
				add(lang.Text{EN: "it is still the guide's placeholder (<…>), not a token", ZH: "它还是指南里的占位符（<…>），不是 Token"},
					lang.Text{EN: "replace the whole placeholder, < and > included, with the token", ZH: "把整个占位符（连同 < 和 >）换成 Token 本身"})
				return done(variable, en, zh, fixEN, fixZH)
			}
			add(lang.Text{EN: "it is wrapped in < and >, the placeholder's brackets", ZH: "它被占位符的尖括号 < > 包着"},
				lang.Text{EN: "delete the < and > around it", ZH: "删掉它两边的 < 和 >"})
			v, bracketed, peeled = inner, true, true
		}
	}
	if strings.ContainsFunc(v, unicode.IsSpace) {
		add(lang.Text{EN: "it contains a space", ZH: "它中间有空格"},
			lang.Text{EN: "delete the space (a token copied from the WebUI has none, unless you typed one into it)", ZH: "删掉空格（从 WebUI 复制的 Token 不带空格，除非你自己在里面输入过）"})
	}
	return done(variable, en, zh, fixEN, fixZH)
}

// placeholder tells a placeholder's text (words, Chinese, a bare name
// such as <accessToken>) from a token someone kept the brackets around.
func placeholder(inner string) bool {
	if strings.ContainsFunc(inner, func(r rune) bool { return unicode.IsSpace(r) || r > unicode.MaxASCII }) {
		return true
	}
	_, named := placeholderNames[strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(inner))]
	return named
}

// placeholderNames are the one-word placeholders guides write for a token.
var placeholderNames = map[string]struct{}{"token": {}, "accesstoken": {}, "yourtoken": {}, "httptoken": {}, "wstoken": {}, "secret": {}}

// done words what pasted found; nil when nothing.
func done(variable string, en, zh, fixEN, fixZH []string) *pasting {
	if len(en) == 0 {
		return nil
	}
	return &pasting{
		what: lang.Text{EN: "; the value of " + variable + " looks pasted with its wrapping: " + strings.Join(en, ", and "),
			ZH: "；" + variable + " 的值看起来连同外面的包装一起粘贴了：" + strings.Join(zh, "，并且")},
		fix: lang.Text{EN: "in " + variable + " in this server's entry in the MCP host, " + strings.Join(fixEN, ", and ") + again.EN,
			ZH: "在 MCP 宿主里本服务器条目的 " + variable + " 中，" + strings.Join(fixZH, "，并") + again.ZH},
	}
}
