package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// A hasty model calls the first name a search gives it, so the ranking
// weighs what the request asks for (issues 41 and 49), read from cue words
// in both languages outside the request's payload: a request that reads
// (a question, or list, show, read, browse, search, open, 查, 读, 浏览,
// 搜索, 打开 …) never gets an action that changes something above one that
// reads; a request that creates, sends or changes something (mute, rename,
// approve, 禁言, 标记已读, 打开全员禁言) gets the writes before the reads; and
// a request that does not remove, whether it creates, sends or says
// nothing of what it does ("群公告"), never gets a delete first. The rule is
// one-sided on purpose: where a request reads and writes in one breath
// ("which messages did I send"), reading wins, because a read put first by
// mistake does no harm and a write put first by mistake may.

// intent is what a request asks for, as far as ranking cares.
type intent int

const (
	intentNone   intent = iota
	intentRead          // list, show, how many, 查, 哪些, 读, 打开 …
	intentCreate        // send, post, add, 发, 上传 …
	intentRemove        // delete, recall, kick, 删, 撤回 …: nothing to demote
	intentChange        // mute, rename, approve, 禁言, 改, 同意 …: a write without creating or removing
)

// The cue words of each intent: English words whole, Chinese as pieces of
// the request. A question word anywhere makes a request one that reads;
// otherwise the first cue decides ("查看我发的消息" reads, "发消息给他" sends).
// changePhrases are read first: they hold a read cue but write (标记已读,
// "mark as read", 打开全员禁言, turning a setting on or off as 打开匿名聊天 and
// 关闭加群验证 do, "show that I am typing", 刷名片赞 sends likes).
var (
	changePhrases = markedPatterns{
		mark([]string{"赞"}, `刷[^，。,]{0,4}赞`),
		mark([]string{"mark"}, `\bmark\b.*\bread\b`),
		mark([]string{"已读"}, `已读`),
		mark([]string{"打开", "开启", "关闭", "关掉", "关了", "解除", "取消"}, `(打开|开启|关闭|关掉|关了|解除|取消)[^，。,]{0,16}?((全员|全体)禁言|匿名|验证|审核|开关|功能|权限|提醒|免打扰|允许|群搜索)`),
		mark([]string{"全员禁言", "匿名", "验证", "审核", "开关", "搜索"}, `(全员禁言|匿名|验证|审核|开关|群搜索|号搜索)[^，。,]{0,6}(打开|开启|关闭|关掉|关了)`),
		mark([]string{"make"}, `\bmake\b[^,.]{1,30}\b(discoverable|searchable|unsearchable|hidden|visible)\b`),
		mark([]string{"turn", "switch", "able"}, `\bturn (on|off)\b|\bswitch (on|off)\b|\b(enable|disable)\b`),
		mark([]string{"正在", "输入", "typing"}, `正在输入|正在说话|正在讲话|输入状态|\btyping\b`),
		mark([]string{"download", "下载到"}, `\bdownload\b.*\bto\s+(?:the\s+|our\s+)?(?:bot|server|disk|host|machine|local)|下载到`),
	}
	questionEN = words("what", "which", "who", "whose", "whom", "whether", "where", "when", "how", "whats", "wheres", "hows")
	questionZH = []string{"谁", "啥", "哪些", "哪个", "哪位", "哪里", "哪儿", "多少", "几个", "几条", "几位", "几人", "几次", "有几", "什么", "是否", "有没有", "是不是", "了没", "在不在", "告诉我", "给我看", "怎么说的", "哪天", "几号", "几点", "多久", "在哪", "存哪", "放哪", "哪了"}
	// questionStart, first in an English request, make it a question
	// ("is the bot online", "do I have friend requests").
	questionStart = words("is", "are", "was", "were", "am", "any", "whos", "does", "did")
	doQuestion    = words("i", "you", "we", "they", "he", "she", "anyone", "someone", "anybody", "somebody", "my", "it")
	cueWords      = []struct {
		in intent
		en map[string]bool
		zh []string
	}{
		{intentRemove, words("delete", "remove", "recall", "unsend", "retract", "withdraw", "kick", "erase", "undo", "cancel", "clear", "leave", "quit", "revoke", "drop", "unpin", "unfriend", "unset", "rid", "exit", "dismiss", "clean", "block", "boot", "expel", "oust", "nuke", "rm", "wipe", "purge", "kill", "shutdown", "terminate", "trash", "ditch", "scrap", "unlike", "zap", "flush"),
			[]string{"删", "撤回", "撤销", "撤了", "撤掉", "撤下", "解除好友", "踢", "移除", "移出", "清除", "清理", "清空", "清一下", "清掉", "清了", "取消", "退出", "退群", "撤掉", "去掉", "拉黑", "请出", "弄出", "赶出", "关掉", "退了", "不想", "拿掉", "飞机票", "移掉", "解除掉", "清出", "不要了", "干掉", "退掉"}},
		{intentCreate, words("send", "sends", "sending", "post", "publish", "create", "add", "upload", "write", "share", "forward", "reply", "attach", "dm", "pm", "tell", "say", "announce", "build", "compose", "comment", "synthesize", "synthesise", "generate", "mkdir", "relay"),
			[]string{"发", "建", "添加", "新增", "上传", "写", "转发", "回复", "分享", "附", "告诉", "通知", "说", "评论", "生成", "合成", "念一", "念出", "朗读", "读一句", "读出来", "叫他", "叫她", "叫大家", "回一句"}},
		{intentChange, words("set", "change", "modify", "update", "edit", "rename", "mute", "unmute", "ban", "unban", "silence", "timeout", "approve", "accept", "reject", "deny", "decline", "turn", "switch", "mark", "pin", "promote", "demote", "give", "like", "transfer", "move", "sign", "poke", "nudge", "pat", "handle", "restart", "click", "react", "put", "save", "toggle", "allow", "signin", "checkin", "feature", "tick", "label", "ack", "acknowledge", "require", "bump", "fix", "drag", "relocate"),
			[]string{"设", "改", "更换", "换", "修改", "禁言", "闭麦", "解禁", "同意", "拒", "通过", "处理", "开启", "关闭", "标记", "置顶", "点赞", "赞", "签到", "打卡", "移动", "移回", "放回", "重命名", "戳", "拍", "开", "关", "转存", "存", "接受", "加精", "授予", "允许", "挪", "切成", "切到", "调成", "调到", "升成", "升为", "移到", "给他过", "给她过", "让他过"}},
		{intentRead, words("list", "show", "view", "get", "fetch", "see", "look", "lookup", "find", "search", "browse", "read", "display", "check", "open", "count", "retrieve", "query", "load", "pull", "resolve", "parse", "inspect", "enumerate", "identify", "whois", "recognize", "transcribe", "peek", "expand", "dump", "grab", "print", "export", "scan", "review", "examine", "summarize", "summarise", "glance", "page", "convert", "scroll", "translate"),
			[]string{"查", "看", "读", "阅读", "浏览", "显示", "展示", "搜索", "搜", "找", "打开", "获取", "读取", "列出", "列表", "翻", "拉取", "刷一下", "刷刷", "刷空间", "刷动态", "下载地址", "下载链接", "直链", "瞅", "瞧", "统计", "数一下", "解析", "识别", "了解", "取回", "拿回", "展开", "转文字", "转成文字", "列一下", "列下", "列个", "导出", "翻译", "给我拉", "拉一下", "调出", "调取", "第一页", "第二页", "下一页", "上一页", "翻页"}},
	}
)

// nounPhrases are English phrases whose verb is a noun: a download link
// or URL is asked for, not downloaded; "in dm" says where, not to send
// one.
var nounPhrases = lazy(` (?:download\s+)?(?:urls?|links?)\s+to\s+download | download\s+(?:urls?|links?|address) | (?:in|via|by|over|through)\s+(?:a\s+)?(?:dm|pm)s? `)

// cueNoun is a cue word naming the kind of a list ("checkin roster",
// "mute list", "kick log"): the list is read.
var cueNoun = lazy(` ([a-z]+) +(list|lists|roster|log|logs|records|history|count|counts|counter|total|stats) `)

// shareNoun is "share" naming a kind of link or code, as 分享链接 does.
var shareNoun = lazy(` share +(links?|codes?|urls?) `)

// postNoun is "post" as a noun after a determiner or "qzone" ("my
// latest qzone post", "that post"): no cue to post.
var postNoun = lazy(` (the|a|my|this|that|qzone|latest|last|his|her|your|their|our|space) +post `)

// determined is a word after a determiner or a preposition, a noun
// wherever it is also a verb (the reply segment, with reply id 5566,
// the last kick, yesterday's mass kick).
var determined = lazy(` (?:(the|a|an|this|that|these|those|his|her|its|their|our|your|with|of|from) +(?:` + sizedAdjectives + ` +)?|(s) +` + sizedAdjectives + ` +)([a-z]+) `)

// sizedAdjectives say how big or how recent a deed was, between a
// determiner or a possessive 's and the noun (yesterday's mass kick).
const sizedAdjectives = `(?:mass|big|last|recent|latest|first|bulk|whole|full)`

// yesNoEN is an English question answered yes or no about what is so
// ("… supported?", "… y/n").
var yesNoEN = lazy(` (?:supported|allowed|possible|available|enabled|working)(?: +[a-z]+)? *[?？]| y */ *n | or +not *[?？.]? *$`)

// gerundNoun is a verb's -ing form naming a kind of ability or state
// ("image sending capability", "posting rights"): a noun, no cue.
var gerundNoun = lazy(` [a-z]+ing +(capability|capabilities|ability|support|permission|permissions|rights|status|limit|limits|quota) `)

// midQuestion is a yes-no question after a comma ("…, did he set himself
// to busy?").
var midQuestion = lazy(`(?i)[,，;；]\s*(?:did|does|do|is|are|was|were|has|have)\s+(?:he|she|they|it|i|you|we|someone|anyone|anybody|somebody|(?:the|an?|my|our)\s+[a-z]+)\b[^?？]*[?？]`)

// readAloud is reading text out loud: a voice is made and sent, nothing
// is read back.
var readAloud = lazy(` read\s+(?:out|aloud)\b| read\s+'`)

// shownAs is 显示 before a small number (电量显示 80%): what a setting
// shows, not a request to display something (显示群 4455 的成员).
var shownAs = lazy(`显示\s*(\d{1,3}(?:\s*%|[^\d]|$))`)

// readSaid is reading right before what is said, a quote or a colon
// (read 'good morning' in group 4455, 用AI声音读一下：明天放假), in the request
// as written, before its payload is blanked: the words are said aloud.
// 标记已读：… marks a message read.
var readSaid = lazy(`(?i)\bread\s+(?:it\s+)?(?:out\s+|aloud\s+)?["'“「‘]|(?:^|[^已未])(?:读|念)(?:一下|一遍|出来)?\s*(?:[:：]|[“「‘"])`)

// describedDone blanks a verb that describes its noun ("加精的都给我显示出来",
// "被踢的人", "禁言了的"): a thing named by what was done to it, not a
// request to do it again.
func describedDone(q string) string {
	for i := strings.Index(q, "的"); i >= 0; {
		head := strings.TrimSuffix(strings.TrimSuffix(q[:i], "了"), "过")
	heads:
		for _, end := range describedHeads(head) {
			for _, c := range cueWords {
				if c.in == intentRead {
					continue // a read word before 的 names what is read
				}
				for _, w := range c.zh {
					if w != "说" && strings.HasSuffix(end, w) { // (怎么说的 still asks)
						q = q[:len(end)-len(w)] + blanked(w) + q[len(end):]
						break heads
					}
				}
			}
		}
		next := strings.Index(q[i+len("的"):], "的")
		if next < 0 {
			break
		}
		i += len("的") + next
	}
	return q
}

// describedHeads are where a verb describing the noun after 的 may end:
// right before it (被踢的人), or before what the verb made it into (设为精华的
// 那些消息, 改成管理的).
func describedHeads(head string) []string {
	out := []string{head}
	for _, into := range []string{"为", "成"} {
		if i := strings.LastIndex(head, into); i >= 0 && utf8.RuneCountInString(head[i+len(into):]) <= 2 && isHan(head[i+len(into):]) {
			out = append(out, head[:i])
		}
	}
	return out
}

// changedTo is what a 把 sentence changes its object into.
var changedTo = lazy(`(?:改|换|设)(?:成|为|到)`)

// nounPhrase is what a match of nounPhrases reads as.
func nounPhrase(p string) string {
	if strings.Contains(p, "download") {
		return " link " // a download link is asked for, as 下载链接 is
	}
	return " private " // sent in dm: where, not a verb
}

// nounsWithCues are nouns that hold a cue word's character without its
// meaning (看得到 says who can see, and asks to look at nothing), and what
// intent reads them as: a noun with no cue.
var nounsWithCues = map[string]string{"说说": "动态", "未读": "红点", "群通知": "群系统消息", "系统通知": "系统消息", "待处理": "未决", "离开": "离席", "发件人": "来源人", "有人说": "据称", "有人问": "据称", "看得到": "可见", "能看到": "可见", "看得见": "可见", "看不到": "不可见", "看不见": "不可见", "缓存": "快取", "发言": "言语", "已读人数": "读者数", "已读数": "读者数", "分享链接": "共享网址", "分享码": "共享码", "赞数": "喜数", "邀请通知": "邀请消息", "申请通知": "申请消息", "入群通知": "入群消息", "进群通知": "进群消息", "好友通知": "好友消息", "这条通知": "这条消息", "那条通知": "那条消息", "那条合并转发": "那条合并消息", "这条合并转发": "这条合并消息", "谁都": "人人", "谁也": "人人", "合并转发里": "合并消息里", "合并转发的": "合并消息的"}

// forwardByID is a merged forward named by its id.
var forwardByID = lazy(`合并转发(?:的)?\s*(?:内容|详情)?\s*(?:id|编号)`)

// passiveRead is a read cue that something undergoes (被别人搜到, 被看到):
// it says what the change allows, and asks to read nothing.
var passiveRead = lazy(`被\p{Han}{0,3}?(?:搜索到|搜到|搜索|看到|看见|找到|查到)`)

// removalWords mark an action that removes something, by the words of its
// name.
var removalWords = words("delete", "del", "remove", "kick", "leave", "clean", "clear", "cancel", "recall", "quit", "unset", "exit", "logout")

// intentOf reads a request's intent from its words outside the payload,
// English split at case changes and read through typos of the cue words
// ("delte", "kik").
func intentOf(query string) intent { return intentMemo.get(query, weighedIntent) }

var intentMemo memo[intent]

func readIntent(query string) intent {
	raw := withoutContext(withoutPayload(query))
	// The request's words in their order, English read through typos.
	var en []string
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		for _, p := range splitCase(raw[start:end]) {
			w := cueWord(strings.ToLower(p))
			en = append(en, w)
			b.WriteString(" " + w + " ")
		}
		start = -1
	}
	for i, r := range raw {
		switch {
		case r < unicode.MaxASCII && unicode.IsLetter(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
			b.WriteRune(unicode.ToLower(r))
		}
	}
	flush(len(raw))
	q := b.String()
	for noun, plain := range nounsWithCues {
		q = strings.ReplaceAll(q, noun, plain) // 说说 is a post, not a 说; 未读 a count, not a 读
	}
	if strings.Contains(q, "合并转发") {
		q = forwardByID.ReplaceAllString(q, "合并消息 id") // 合并转发 id: f9: a forward named, not one to make
	}
	if strings.Contains(q, "显示") {
		q = shownAs.ReplaceAllString(q, "显为$1") // 电量显示 80: a value to show, set, not a list shown
	}
	for _, demonstrative := range []string{"这几", "那几"} {
		q = strings.ReplaceAll(q, demonstrative, "这")
	}
	if strings.Contains(q, "被") {
		q = passiveRead.ReplaceAllString(q, "被") // 可以被别人搜到 is found, not a search
	}
	if strings.Contains(q, "的") {
		q = describedDone(q)
	}
	for _, sent := range []string{"发给我", "给我发", "我发的", "发的", "发过", "发错", "刚发", "发来", "私聊发我", "私发我", "发我的那", "私发了", "发了个", "发了条", "发了一", "sent"} {
		q = strings.ReplaceAll(q, sent, "") // what was sent is read, not sent again
	}
	if containsAny(q, []string{" download", " url", " link", " dm", " pm"}) {
		q = nounPhrases.ReplaceAllStringFunc(q, nounPhrase)
	}
	if strings.Contains(q, " read ") {
		q = readAloud.ReplaceAllString(q, " say ")
	}
	if containsAny(query, []string{"read", "读", "念"}) && readSaid.MatchString(query) {
		q = strings.ReplaceAll(strings.ReplaceAll(q, " read ", " say "), "读", "念出") // read 'good morning' in group 4455: said aloud
	}
	if strings.Contains(q, " share ") {
		q = shareNoun.ReplaceAllString(q, " $1 ") // the fileset id from this share link: a link named, nothing shared
	}
	if strings.Contains(q, " post ") {
		q = postNoun.ReplaceAllString(q, " $1 entry ")
	}
	if containsAny(q, []string{" list", " roster", " log", " records", " history", " count", " total", " stats"}) {
		q = cueNoun.ReplaceAllStringFunc(q, func(m string) string {
			f := strings.Fields(m)
			if firstCue(" "+f[0]+" ") == intentNone {
				return m
			}
			return " show " + f[1] + " " // the checkin roster: the list is read
		})
	}
	if strings.Contains(q, "ing ") {
		q = gerundNoun.ReplaceAllString(q, " $1 ")
	}
	q = determined.ReplaceAllStringFunc(q, func(m string) string {
		f := strings.Fields(m)
		if in := firstCue(" " + f[len(f)-1] + " "); in == intentNone || in == intentRead {
			return m
		}
		return " " + f[0] + " entry " // the reply segment, that kick: a noun, no cue
	})
	if (changePhrases.MatchString(q) || (strings.ContainsAny(query, "'\"“「‘") && typingShown.MatchString(query))) && !asksWho(q) {
		return intentChange
	}
	if strings.Contains(q, "tell me") || strings.Contains(q, "show me") {
		return intentRead
	}
	// A command that opens with its verb asks for what the verb does,
	// whatever question word its object holds ("change whether the group
	// can be found", "kick whoever spammed"); a question mark still asks.
	if len(en) > 0 && !strings.ContainsAny(raw, "?？") {
		if in := firstCue(" " + en[0] + " "); in != intentNone && in != intentRead && strings.HasPrefix(strings.TrimSpace(strings.ToLower(raw)), en[0]) && strings.HasPrefix(strings.TrimSpace(q), en[0]) {
			return in
		}
	}
	for _, w := range en {
		if questionEN[w] {
			return intentRead
		}
	}
	if midQuestion.MatchString(raw) {
		return intentRead // user 10001's status, did he set himself busy?: asked
	}
	if yesNoEN.MatchString(q) {
		return intentRead // voice messages supported? y/n: asked, not done
	}
	if abilityQuestion(raw, en) || abilityQuestionZH(raw) {
		return intentRead
	}
	if len(en) > 0 && (questionStart[en[0]] || (len(en) > 1 && (en[0] == "do" || en[0] == "does" || en[0] == "did") && doQuestion[en[1]])) {
		return intentRead
	}
	for _, w := range questionZH {
		if strings.Contains(q, w) {
			return intentRead
		}
	}
	if strings.Contains(q, "没") && doneOrNot(q) {
		return intentRead // 群上限改没改: asks whether it was done
	}
	if yesNoQuestion(raw) {
		return intentRead
	}
	if endsAsking(strings.ToLower(query)) {
		return intentRead // "… says what": the question word the payload cut
	}
	if readNounLast(raw) && firstCue(q) != intentRemove && !makes(q) {
		return intentRead // 群4455禁言名单, 和10001的私聊记录: a thing to read, named
	}
	if len(en) > 0 && (en[0] == "has" || en[0] == "have") && strings.ContainsAny(raw, "?？") {
		return intentRead // "have I got …?", not "have the bot quit …"
	}
	in := firstCue(q)
	if in == intentRead && strings.Contains(q, "把") && changedTo.MatchString(q) {
		in = intentChange // 把在线机型显示改成 iPhone: what 把's object becomes, whatever read word it holds
	}
	if in != intentRemove && strongRemoval(q, englishWords(q)) {
		in = intentRemove // 老发广告 直接踢了吧: the removal asked for, not the posting described
	}
	if in == intentNone && strings.ContainsAny(raw, "?？") {
		return intentRead // a question that names no verb
	}
	if in == intentNone && (containsAny(q, askedNouns) || (possessiveLast.MatchString(raw) && namesFirst(raw))) && !containsAny(q, []string{"下载", "下到", "存到", "把", " download ", " save "}) {
		return intentRead // private chat file url for …, 群 4455 里 10002 的群名片: a thing named with no verb, to be read
	}
	if in == intentNone && nounOfFirst.MatchString(raw) && !strings.ContainsAny(query, ":：") {
		return intentRead // title of @10001 in 4455: a thing named, whose it is, with no verb
	}
	return in
}

// doneOrNot reports a Chinese question asking whether something was done,
// its verb said twice around 没 (改没改, 发没发, 踢没踢).
func doneOrNot(q string) bool {
	rs := []rune(q)
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] == '没' && rs[i-1] == rs[i+1] && unicode.Is(unicode.Han, rs[i-1]) {
			return true
		}
	}
	return false
}

// yesNoQuestion reports a Chinese question that asks whether something
// is so ("群里还有人被禁言吗", "机器人在线吗"), as opposed to a polite request
// ("能帮我禁言他吗"), which asks someone to do it.
func yesNoQuestion(q string) bool {
	t := strings.TrimRight(strings.TrimSpace(q), "?？。! ")
	t = strings.TrimSpace(withoutTrailingID(t)) // 这个群满员没 群 556677
	if !strings.HasSuffix(t, "吗") && !strings.HasSuffix(t, "么") && !strings.HasSuffix(t, "呢") && !strings.HasSuffix(t, "没") && !strings.HasSuffix(t, "没有") && !strings.HasSuffix(t, "不") {
		return false
	}
	if strings.HasPrefix(t, "请") {
		return false // 请…吗: a polite request (申请 holds 请 and asks nothing)
	}
	for _, asks := range []string{"帮", "请你", "请帮", "把", "给我", "麻烦", "能不能", "可以", "你能"} {
		if strings.Contains(t, asks) && !strings.Contains(t, "有人") { // (今天有人给我点赞没: asked of others)
			return false
		}
	}
	return true
}

// abilityQuestion reports an English question about what the bot can do
// ("can you send voice messages?"), as opposed to a polite request, which
// names whom or where ("can you send this to group 123?", "could you mute
// him?"): it starts with can or could, ends with a question mark, and
// names no id, mention, target or person.
func abilityQuestion(raw string, en []string) bool {
	t := strings.TrimSpace(raw)
	if len(en) < 3 || (en[0] != "can" && en[0] != "could") || !strings.ContainsAny(t, "?？") || strings.ContainsAny(t, "0123456789@") {
		return false
	}
	for i, w := range en[2:] {
		if clauseEnds[w] {
			break // can it send pics, or is it restricted: the question's object ends
		}
		if abilityTargets[w] && !(i+3 < len(en) && selfNouns[en[i+3]]) {
			return false
		}
	}
	return true
}

// clauseEnds end the clause an ability question's object is in.
var clauseEnds = words("or", "and", "but", "because", "cuz", "since")

// selfNouns after "this" or "my" name the bot asked about, not a target
// ("can I send voice on this bot?").
var selfNouns = words("bot", "account")

// abilityQuestionZH reports a Chinese question about what the bot can do
// ("能不能发图片", "可以发语音吗"), as opposed to a request put politely,
// which asks for help or names whom, where or what ("能不能帮我把图片发到群里",
// "能不能给10001发个图片"): it opens with an ability word and holds no
// helper, target, id or mention.
func abilityQuestionZH(raw string) bool {
	t := strings.TrimRight(strings.TrimSpace(raw), "?？。!！ ")
	if i := strings.IndexAny(t, "?？"); i >= 0 && containsAny(t[i:], []string{"确认", "查", "看看", "试"}) && !containsAny(t[i:], []string{"能不能", "能否", "可不可以"}) {
		t = t[:i] // 能发语音吗？帮我确认下: the question, then a request to check it
	}
	t = strings.TrimRight(withoutTrailingID(t), "，, ") // 还能不能艾特全体了，群号 556677: asked of that group
	for _, now := range []string{"现在", "目前", "这会儿", "此刻", "还"} {
		t = strings.TrimPrefix(t, now) // 现在能发语音吗: asked of now
	}
	opens, asks := false, false
	for _, w := range []string{"能不能", "能否", "可不可以", "可以", "能"} {
		opens = opens || strings.HasPrefix(t, w)
	}
	// 现在这个号能不能发语音？: asked mid-sentence, with a question mark
	asks = containsAny(t, []string{"能不能", "能否", "可不可以"}) && strings.ContainsAny(raw, "?？")
	if checksWhetherCan.MatchString(t) {
		return !strings.ContainsAny(t, "0123456789@") // 帮我确认下能不能发录音: asked to check, not to send
	}
	if !(opens || asks) || strings.ContainsAny(t, "0123456789@") {
		return false
	}
	excluded := []string{"帮", "给", "到", "把", "群里", "他", "她", "他们", "大家"}
	if !asks {
		excluded = append(excluded, "这", "那") // 能不能把这个…: a request put politely
	}
	return !containsAny(t, excluded)
}

// checksWhetherCan is asking to check whether the bot can do something
// (帮我确认下能不能发录音, 探测一下能不能发图片).
var checksWhetherCan = lazy(`(?:确认|看看|查查|查一下|试试|探测|检测|测一下|测试)(?:一下|下)?能不能`)

// asksWho reports a request that asks who or what, whatever change it
// names beside ("打开全员禁言前先看看谁已经在小黑屋里了" reads who is muted).
func asksWho(q string) bool {
	return containsAny(q, []string{"谁", "什么", "哪些", "多少", "有没有", "who", "what", "which"})
}

// abilityTargets make a can-you question a request: they name whom or
// where the action goes.
var abilityTargets = words("to", "in", "him", "her", "them", "me", "us", "this", "that", "it", "group", "everyone", "my", "his", "their")

// readNouns name what a request reads; one last in a request with no
// verb after it ("群4455禁言名单", "group 4455 mute list") asks to read it.
var readNouns = []string{"名单", "列表", "记录", "详情", "资料", "信息", "情况", "多少", "文件", "公告", "相册", "说说", "list", "history", "info", "details", "records", "log", "logs", "status", "files", "members", "announcements"}

// possessiveLast is a request that ends in whose thing it names
// (群 4455 里 10002 的群名片).
var possessiveLast = lazy(`的\p{Han}{1,4}\s*[?？。.!]?\s*$`)

// namesFirst reports a Chinese request that opens with what it names,
// not with a verb or a word that brings one (给, 让, 把, 帮 …).
func namesFirst(raw string) bool {
	t := strings.TrimSpace(raw)
	for _, w := range []string{"给", "让", "把", "帮", "请", "算", "替", "叫", "使", "将"} {
		if strings.HasPrefix(t, w) {
			return false
		}
	}
	return true
}

// nounOfFirst is an English request that opens by naming a thing and
// whose it is ("title of …", "the join date of …").
var nounOfFirst = lazy(`(?i)^\s*(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+of\s`)

// askedNouns name something a request with no verb asks for.
var askedNouns = []string{" url ", " urls ", " link ", " links ", " list ", " info ", " details ", "链接", "直链", "地址", "列表", "信息", "详情"}

// strongRemoval reports a request holding a verb that only removes (踢,
// 撤回, 删, 拉黑, kick, delete, recall …): whatever it describes besides,
// it asks for a removal, and a removal's intent demotes no write.
func strongRemoval(q string, en []string) bool {
	if containsAny(q, []string{"踢", "撤回", "撤了", "撤掉", "撤下", "删", "拉黑", "移出", "退群", "取消掉", "取消了", "飞机票"}) {
		return true
	}
	for _, w := range en {
		switch w {
		case "kick", "delete", "recall", "unsend", "remove", "unfriend", "trash":
			return true
		}
	}
	return false
}

// endsAsking reports a request whose last word asks (what, who, 什么, 啥,
// 谁), wherever its payload was cut.
func endsAsking(q string) bool {
	t := strings.TrimRight(strings.TrimSpace(q), "?？。.!！ ")
	return endsWithAny(t, []string{" what", " who", " which", "什么", "啥", "谁"})
}

// makes reports a request with a verb that makes or changes what its
// read noun names ("新建一个文件夹叫资料", "改一下资料").
func makes(q string) bool {
	return containsAny(q, []string{"建", "上传", "下载", "改", "设", "清", "删", "发", "传", "写", "踢", "create", "set", "change", "update", "clear", "delete", "send", "post", "upload", "download"})
}

// trailingID is an id at a request's end, with what introduces it.
var trailingID = lazy(`(?i)(?:\s*(?:of|in|for|from)?\s*(?:group|grp|user|qq|群号|群|qq号)?\s*[:：]?\s*\d+)+$`)

// withoutTrailingID is t without the id it ends with, if it ends with
// one (the pattern runs only then: it is the costly part of a search).
func withoutTrailingID(t string) string {
	if t == "" || t[len(t)-1] < '0' || t[len(t)-1] > '9' {
		return t
	}
	return trailingID.ReplaceAllString(t, "")
}

// readNounLast reports a request that ends in a read noun.
func readNounLast(raw string) bool {
	t := strings.ToLower(strings.TrimRight(strings.TrimSpace(raw), "?？。.!！ "))
	t = strings.TrimSpace(withoutTrailingID(t)) // group files of 9090
	return endsWithAny(t, readNouns)
}

// verbForms are the endings of a verb's forms and its doer (cueWord).
var verbForms = []string{"ed", "ing", "er", "ers"}

// cueWord is w, or the cue word it is a typo of when w is no word the
// search knows ("kik" is kick; "lift", a vocabulary word, stays). A word
// in -ed or -ing is a verb's form ("removed", "reported", "checking"),
// and one in -er a doer ("sender", "uploader"): no typo of a cue
// ("checking" is no "checkin", "sender" no "send").
func cueWord(w string) string {
	if knownWords()[w] || plainEnglish[w] || (endsWithAny(w, verbForms) && len(w) >= 5) {
		return w
	}
	if n := cueTypos().nearest(w); n != "" && n+"s" != w {
		return n
	}
	return w
}

// knownWords are the English words of the synonyms, the fillers and the
// vocabulary; built on the first search, like cueTypos, so that a server
// that never searches never holds them.
var knownWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range classOf {
		m[w] = true
	}
	for w := range fillers {
		m[w] = true
	}
	for _, v := range vocabulary {
		for _, w := range strings.Fields(v) {
			for _, p := range splitCase(w) {
				m[strings.ToLower(p)] = true
			}
		}
	}
	return m
})

// cueTypos reads a misspelt English cue word as the word meant.
var cueTypos = sync.OnceValue(func() *bm25 {
	x := &bm25{postings: map[string][]posting{}, english: map[string][]string{}}
	for _, c := range cueWords {
		for w := range c.en {
			x.learn(w)
		}
	}
	for w := range questionEN {
		x.learn(w)
	}
	return x
})

// englishWords are the query's runs of ASCII letters.
func englishWords(q string) []string {
	return strings.FieldsFunc(q, func(r rune) bool { return !(r < unicode.MaxASCII && unicode.IsLetter(r)) })
}

// removes reports whether an action removes something: a word of its name
// is a removal word (delete_msg, _del_group_notice, set_group_kick).
func removes(a *catalog.Action) bool {
	for _, w := range strings.Split(strings.ToLower(a.Name), "_") {
		if removalWords[w] {
			return true
		}
	}
	return false
}

// builds reports a read-only action named for making something
// (share_peer, send_ark_share: each builds a card's JSON and sends
// nothing): what a request to make or share that thing wants, so such a
// request does not put it below the writes.
func builds(a *catalog.Action) bool {
	if !a.ReadOnly && lookups[a.Name] == nil {
		return false
	}
	for _, w := range strings.Split(strings.ToLower(a.Name), "_") {
		if w == "share" || w == "send" || w == "create" || w == "make" || w == "generate" {
			return true
		}
	}
	return false
}

// placeholder reports whether an action is a compatibility placeholder
// that answers the same whatever it is asked (can_send_image always says
// yes): never the answer a request is looking for while a real one is.
func placeholder(a *catalog.Action) bool {
	return strings.Contains(a.Summary, "占位") || strings.Contains(strings.ToLower(a.Summary), "placeholder")
}

// lookups are the actions SnowLuma's catalog marks as writes though they
// only read, each with the words that name its family. In its source
// (v1.11.1) the flash-transfer ones (packages/core/src/bridge/apis/
// flash-transfer.ts) ask for a fileset's details, its files, a file's
// download URL or its share link (download_fileset returns the URL and
// downloads nothing); the stream downloads (packages/onebot/src/actions/
// stream-download.ts) send a file's bytes back in chunks, and
// test_download_stream sends ten test frames; request_decrypt_key
// (packages/onebot/src/actions/extended.ts) reads a database file's salt
// on the host and asks QQ for its key: none changes anything. A
// read request that names the family is asking for one of them, so for it
// they rank as the reads they are, and a request to change something gets
// them below its writes as it gets any read (闪传改名 is the rename); any
// other read request still gets a read first.
// TestLookupsAreCataloguedAsWrites holds the list to the catalog's flags.
var lookups = map[string][]string{
	"list_filesets": flashWords, "get_fileset_info": flashWords, "get_flash_file_list": flashWords,
	"get_flash_file_url": flashWords, "get_share_link": flashWords, "download_fileset": flashWords,
	"download_file_stream": streamWords, "download_file_image_stream": streamWords,
	"download_file_record_stream": streamWords, "test_download_stream": streamWords,
	"request_decrypt_key": databaseWords,
}

// flashWords name flash transfer; streamWords a transfer in chunks;
// databaseWords QQ's local message database and its key.
var (
	flashWords    = []string{"闪传", "flash", "fileset"}
	streamWords   = []string{"流式", "分块", "按块", "分片", "stream", "chunk"}
	databaseWords = []string{"解密", "decrypt", "sqlcipher", "数据库", "database", "nt_msg", "nt_db"}
)

// namesFamily reports whether a request names the family of a lookup
// (family, its words).
func namesFamily(query string, family []string) bool {
	return family != nil && containsAny(strings.ToLower(query), family)
}

// demotion is how far down an action goes for a request of intent in,
// the lower the better: what the intent rules out (a write for a read, a
// removal for anything but a removal) below everything else, a read below
// the writes a request to create, change or remove asks for, and within
// each by score. h is the action's haystack, which knows whether it
// removes.
func (in intent) demotion(a *catalog.Action, h haystack, query string) int {
	d := 0
	switch {
	case in == intentRead && !a.ReadOnly && !namesFamily(query, h.looksUp):
		d = 4
	case in != intentRead && in != intentRemove && h.removes:
		d = 4 // a removal is the answer only where the request removes
	case (in == intentCreate || in == intentChange || in == intentRemove) && (a.ReadOnly || h.looksUp != nil) && !h.builds:
		d = 2 // a request to send, make or change something wants a write first
	}
	return d
}

// firstCue is the intent of the earliest cue word in q; intentNone when q
// holds none. At one place the earlier listed wins.
func firstCue(q string) intent {
	best, at := intentNone, len(q)+1
	for _, c := range cueWords {
		for _, w := range c.zh {
			if i := strings.Index(q, w); i >= 0 && i < at {
				best, at = c.in, i
			}
		}
		offset := 0
		for _, w := range englishWords(q) {
			i := strings.Index(q[offset:], w) + offset
			offset = i + len(w)
			if i >= at {
				break
			}
			// A past participle describes a state ("muted ppl", "the deleted
			// message"): no cue.
			if c.en[w] || c.en[strings.TrimSuffix(w, "ing")] {
				best, at = c.in, i
				break
			}
		}
	}
	return best
}
