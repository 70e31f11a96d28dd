package search

import (
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// A request carries what is to be sent or looked up besides what it asks
// for: "tell group 123 that the meeting moved to friday" asks to send a
// group message, and "meeting", "moved" and "friday" say nothing about
// which action does that; matched against the summaries, they vote for
// actions that have nothing to do with it. So before scoring, the
// request's payload is blanked: quoted text, URLs and file paths,
// @mentions, and what follows a word that introduces what is said
// (say, tell, saying, 说, 告诉, 通知, a colon …) up to the end. Numbers
// and ids never become terms (tokens.go). The blanked request is what
// votes and what the intent is read from (intent.go).

var (
	// quoted text, in ASCII and CJK quotes; single quotes only around
	// words, so "don't" and "10001's" stay.
	quotedRE = lazy(`"[^"]*"|“[^”]*”|「[^」]*」|『[^』]*』|《[^》]*》|‘[^’]*’|(^|\s)'[^']*'($|[\s,.!?;:])`)
	// URLs (with or without their scheme), paths and file names.
	urlRE = lazy(`(?i)\b(?:https?|ftp|file|base64)://[!-~]*|\bwww\.[!-~]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|cn|net|org|io|me|cc)/[!-~]*|(?:^|\s)[/~][!-~]*|\b[\w-]+\.(?:zip|png|jpe?g|gif|webp|mp[34]|amr|silk|wav|pdf|docx?|xlsx?|pptx?|txt|apk|exe|rar|7z|mov|avi)\b|(?:[\s“"'「（(])[\p{Han}\w-]*\p{Han}[\p{Han}\w-]*\.(?:zip|png|jpe?g|gif|webp|mp[34]|amr|silk|wav|pdf|docx?|xlsx?|pptx?|txt|apk|exe|rar|7z|mov|avi)\b`)
	// @mentions: a name after @ (not @all, which is what a request asks
	// to send, not to whom).
	mentionRE = lazy(`@(?:[A-Za-z0-9_.\-]+|\p{Han}{1,3})`)
	// what is said, in English: everything after one of these words.
	saidEN = lazy(`(?i)\b(?:saying|says|say|asking|reason|because|caption|titled|named|called)\b|[:：]`)
	// reportedEN is what someone else said, up to its sentence's end
	// ("he said he got muted, check …"): told, not to be sent.
	reportedEN = lazy(`(?i)\b(?:he|she|they|someone|somebody|some1|ppl|people|my\s+friend|a\s+friend|a\s+member|the\s+admin|an\s+admin|the\s+owner|the\s+group\s+owner|my\s+boss)\s+(?:just\s+|already\s+)?(?:says|said|claims|claimed|mentioned|told\s+me)\b[^.!?;。！？；,，]*[.!?;。！？；,，]`)
	// setTo is a request that sets something, and after its last "to" the
	// new value (submatch 1), up to a bracket or comma that may say more
	// ("… to landlord (remark only)").
	setTo = lazy(`(?i)^\s*(?:(?:can|could|would)\s+(?:you|u)\s+|please\s+|pls\s+)?(?:set|change|rename|update|modify)\b.*\bto\b([^(（,，]*)`)
	// sendMe is 发我 / 发给我 asking for something, not 发我的… (sending
	// one's own).
	// notThat is what a request says it does not want, set apart after a
	// comma, a dash or a bracket (", not as a chat record", "(not the
	// group name)", "，不是收藏表情"), or after a blank in Chinese (最新十条
	// 不要评论: nothing to comment on).
	notThat = lazy(`(?i)(?:[,，;；(（—.。]|\s-)\s*(?:and\s+|but\s+|just\s+)?(?:not\b|don'?t\b|no\b|不是)[^,，.。;；)）]*|(?:^|[\s，,;；(（—。])(?:不要|不用|无需|不需要|别)[^人的，,.。;；)）\s][^，,.。;；)）\s]*`)
	// purposeClause is what a request is for, a later call ("… so I can
	// delete it", "… so it doesn't kick itself", ", to pass one to …", "，我要挑几个人私聊").
	purposeClause = lazy(`(?i)\bso\s+(?:that\s+)?(?:(?:i|we)\s+can|everyone|everybody|nobody|(?:it|he|she|they|the\s+bot|we|i)\s+(?:doesn'?t|doesnt|does\s+not|won'?t|wont|will\s+not|can'?t|cant|cannot|don'?t|dont|never))\b[^,，.。;；]*|(?:[,，;；?？—–]|\s-)\s*(?:to|in\s+order\s+to|i\s+want\s+to|i\s+need\s+to|i\s+wanna|i\s+gotta|want\s+to|wanna|gonna|i'?m\s+going\s+to|going\s+to|(?:i'?m\s+)?planning\s+to|i\s+plan\s+to|(?:i'?m\s+)?about\s+to|i'?ll|i\s+will|(?:i\s+)?might|i\s+may|before\s+i|then\s+i|need\s+it\s+to)\b[^,，.。;；]*|[，,；;？?。—]\s*(?:确认下|确认一下)?\s*(?:[^，,。]{0,8}的话)?\s*(?:我要|我想|我再|我好|再决定|然后再|好让|以便|之后再|我?(?:等下|等会|待会|回头|准备|打算)|要(?:拿|删|踢|禁|撤|改|发|把|给))[^，,。；;]*|再决定[^，,。；;]*`)
	// putOff is a matter put off, a clause that ends in 再说 after a time
	// (删文件的事回头再说, 解禁的事等会再说) or a choice not yet made (踢不踢再说,
	// 要不要改密码再说): a later call, as a purpose is. 先全禁了再说 ("mute
	// them all first") has neither and is the request.
	putOff = lazy(`(?:^|[，,。；;\s])[^，,。；;\s]*(?:(?:回头|以后|之后|改天|晚点|等会儿?|等下|待会儿?|明天|后面|下次)再说|(?:要不要|还是|\p{Han}不\p{Han})[^，,。；;\s]*再说)[^，,。；;]*`)
	// readDone is reading the asker has already done (群里的消息我都看过了):
	// a state told, not a request to read.
	readDone = lazy(`(?:看|读|查|翻|浏览)(?:过|完)了`)
	// toggledQuote is a quote right after a toggle: the setting's name
	// (submatches 3 to 6), kept as words.
	toggledQuote = lazy(`(?i)(\b(?:enable|disable|turn\s+on|turn\s+off|switch\s+on|switch\s+off)\b|开启|关闭|打开|关掉)([^，。,"“「']{0,12}?)(?:"([^"]*)"|“([^”]*)”|「([^」]*)」|(?:^|\s)'([^']*)')`)
	// saidQuote is a say verb with its quote: what is said ends there.
	saidQuote = lazy(`(?i)\b(?:say|says|saying)\s*[:：,]?\s*(?:"[^"]*"|“[^”]*”|‘[^’]*’|'[^']*')`)
	// laterClause is an English clause that says when, by a call made
	// later ("before I kick him, …", "… before I change it"): what the
	// rest of the request asks comes first.
	laterClause = lazy(`(?i)\b(?:before|b4|after|once|until|till)\s+(?:(?:i|we|u|you|the\s+bot|it|he|she|they|someone)\b[^,，.。;；—–]*|[a-z]+ing(?:\s+(?:up|out|off|down))?\b)`)
	// mainClause is where a request's own ask starts inside a later
	// clause that no comma closes ("before I ping 10001 check if he is
	// online"): a read verb, a question word, or the asker's wish, after
	// the later clause's subject and verb (clauseOpening).
	mainClause    = lazy(`(?i)\b(?:check|show|list|get|give|tell|find|see|look|confirm|verify|fetch|pull|count|what|whats|what's|how|who|whose|which|where|is|are|does|do|did|can|could|pls|please|lemme|let\s+me|i\s+(?:wanna|want|need|gotta|would\s+like))\b`)
	clauseOpening = lazy(`(?i)^\s*\S+\s+(?:the\s+bot|\S+)\s+\S+`)
	// firstThen is a first clause followed by what to do first (…，先给我…).
	firstThen = lazy(`^([^，,。]*)[，,]\s*先`)
	// reported is what someone asked, said or sent, told before the
	// request itself (群里有人问…，你回一句…; 有人发了个卡片，帮我打开).
	reported = lazy(`有人(?:在群里|在群|刚才|刚刚|又)?(?:问|说|发|转)[^，,。！!？?]*[，,]`)
	// cqCode is a message segment written as a CQ code ([CQ:at,qq=all]),
	// part of what is sent.
	cqCode = lazy(`(?i)\[CQ:[^\]]*\]`)
	// colonID is an id whose parts colons join (invite:4455:u_x1).
	colonID = lazy(`(?i)\b[a-z][a-z_]*:[0-9a-z_-]+(?::[0-9a-z_-]+)*\b`)
	// beforeFirst is what a request does later, before which it asks for
	// something first (发通知前先查查…, 踢人之前先看看…): its marker, after
	// which the request's own ask goes on; the later deed is the clause
	// before it (clauseStart).
	beforeFirst = lazy(`(?:之前|以前|前)[，,]?\s*(?:得|要|我)?先`)
	// needToDo is what a needed thing is for ("need fresh rkeys to sign
	// image links"); "need to send" needs a thing between need and to.
	needToDo = lazy(`(?i)(\bneeds?\s+(?:[a-z_-]+\s+){1,6}?)to\s+[a-z]+[^,.;!?]*`)
	// likeAPI is "like" comparing with another bot API ("like Telegram
	// deleteMessage", "like lagrange's SendPacket"): no like given.
	likeAPI = lazy(`(?i)\blike\s+(?:in\s+|on\s+)?(?:telegram|discord|mirai|napcat|go-cqhttp|cqhttp|gocq|lagrange|llonebot|onebot|yunzai|oicq|koishi|nonebot)\b`)
	// vocative is the bot addressed at a request's start ("yo bot",
	// "hey bot,").
	vocative = lazy(`(?i)^\s*(?:(?:hey|yo|hi|ok|okay|hello|oi)\s+bot\b[,:，：]?|bot\s*[,:，：])`)
	// convertOrOpen is "turn X into Y" and "open a dm with": a
	// conversion and a message, not a toggle or something opened to read.
	convertOrOpen = lazy(`(?i)\bturn(\s+\S+){1,6}\s+into\b|\bopen\s+(?:a\s+)?(?:dm|pm|private\s+chat)\s+with\b`)
	sendMe        = lazy(`发给?我([^的们]|$)`)
	// voiceToText is asking for a voice message's words.
	voiceToText = lazy(`转(?:一下|下)?(?:这条|那条|这段|那段)?语音(?:的|成|为)?文字`)
	// splitWords is asking to segment a text into words (分一下词, 切个词).
	splitWords = lazy(`[分切](?:一下|下|个|成)?词`)
	// kickSlang is QQ's T (踢) beside Chinese: T了, T掉, T出去, T人.
	kickSlang = lazy(`(^|[^A-Za-z])[Tt]\s?(?:了|掉|出|人)`)
	// toMe is "send me" or "give (it to) me": what the request wants to
	// read, brought to the one asking.
	toMe = lazy(`(?i)\b(?:send|give)\s+(?:it\s+to\s+|them\s+to\s+)?me\b`)
	// showTo is showing something to a group or a person named by its id
	// ("show group 556677 this link"): sending it to them.
	showTo = lazy(`(?i)\bshow\s+((?:group|grp|friend|user|qq)?\s*\d{4,})\s+(?:this|that|these|the|my|our|a|an)\b`)
	// idList is what follows a colon that lists ids ("清人：10086、10087都移出去"):
	// the ids, not something said, so what comes after them still votes.
	idList = lazy(`^\s*\d{4,}(?:\s*(?:[,，、]|和|及|\band\b)\s*\d{4,})+`)
	// fileNamed gives what is sent or saved a file name ("文件名改成作业.docx",
	// "文件名叫 x.jpg"): in a request that transfers a file, an option of
	// the upload or download, as "named" is in English, not a rename.
	// transfers is a request that sends, uploads or saves a file.
	transfers = lazy(`传|丢|存到|下载|发个?文件|发一?份`)
	fileNamed = lazy(`文件名\s*(?:改成|改为|叫做|叫|为|是|用)\s*\S*`)
	// noCache asks a read not to use a cache ("别用缓存", "skip the cache",
	// "no cache"): an option of what is read, naming no action.
	noCache = lazy(`(?i)(?:别|不|不要|不用|无需|勿)(?:用|走|使用|读)?缓存|\b(?:skip|no|without|bypass|ignore)(?:ing)?\s+(?:the\s+)?cache\b`)
	// particleLast is a phrasal verb with its object before its particle
	// ("take it back", "shut the bot process down", "turn mute-all off"):
	// read with the particle beside the verb, as the phrases are written.
	particleLast = lazy(`(?i)\b(take|shut|turn|switch|kick|throw|clean|clear)\s+((?:it|that|this|them|him|her|everything|the\s+[a-z\-]+(?:\s+[a-z\-]+)?))\s+(back|down|off|on|out)\b`)
	// takeOut is "take X out of": removing X.
	takeOut = lazy(`(?i)\btake\s+(.{1,40}?)\s+(?:out\s+of|off)\b`)
	// plainWord is a value that is one lower-case word, maybe with a
	// filler after it ("set the bot to busy", "to invisible mode pls"): a
	// state the action names, kept as a term.
	plainWord = lazy(`^\s*[a-z]+(?:\s+(?:mode|pls|plz|please|now|again|thanks|thx))*\s*$`)
	// undoPrefix is un- before a word: undoing it ("un-essence", "un-mute").
	undoPrefix = lazy(`(?i)\bun-([a-z]+)`)
	// pathRE is a file path of two parts or more, or a group file's id
	// ("/a1b2c3d4"), wherever it starts.
	pathRE = lazy(`[/~][\w.\-]+(?:/[\w.\-]+)+|/[\w.\-]{4,}`)
	// askedSay is "say" asked about ("what did 10002 say in the group",
	// "does he say anything", "what were they saying in group 4455"): it
	// reads what was said and carries nothing.
	askedSay = lazy(`(?i)\b((?:did|does|do|has|had)(?:\s+[^\s:：]+){1,6}?)\s+say\b|\b((?:were|was|is|are)(?:\s+[^\s:：]+){1,3}?)\s+saying\b`)
	// tell X (that) …: the addressee stays, what is told goes.
	tellEN = lazy(`(?i)\b(?:tell|tells|telling|inform|notify|remind|ask)\s+(?:(?:the|my|our|all|every|in)\s+)?(\S+)(?:\s+\d+)?`)
)

// saidZH are the Chinese words after which a request says what is sent;
// notSaid are words that hold one of them but introduce nothing.
var (
	saidZH  = []string{"说", "回一句", "告诉", "通知", "内容是", "内容为", "写着", "写上", "提醒", "理由是", "原因是", "因为", "改成", "改为", "命名为", "名为", "叫做", "叫", "问问", "问他", "问她", "问一下"}
	notSaid = []string{"个叫", "有人说", "说说", "说话", "小说", "说了", "说过", "说的", "说什么", "怎么说", "群通知", "系统通知", "通知列表", "的通知", "通知消息", "加群通知", "条通知", "叫什么", "叫啥", "说得", "通知 id", "通知id", "说啥", "邀请通知", "申请通知", "入群通知", "进群通知", "好友通知", "验证通知", "管理员说", "群主说", "好友说", "对方说", "群友说", "老板说", "听说", "据说", "话说", "说是"}
	// addressees may follow 告诉 / 通知 / 提醒 and are kept.
	addressees = []string{"他们", "她们", "大家", "所有人", "全体成员", "全员", "群友", "群里", "好友", "他", "她", "我"}
)

// phrases are read as one word: "check in" is signing in, not checking.
var phrases = [][2]string{{"photo albums", "albums"}, {"photo album", "album"}, {"check-in", "checkin"}, {"gimme", "show me"}, {"should be called", "rename to"}, {"call it", "rename it"}, {"at the moment", "now"}, {"up rn", "online now"}, {"up right now", "online now"}, {"speech-to-text", "transcribe"}, {"speech to text", "transcribe"}, {"check in", "checkin"}, {"sign-in", "signin"}, {"sign in", "signin"},
	{"get rid of", "rid"}, {"take back", "retract"}, {"give me", "show me"},
	// who am I is the account's own; a member of is in; a group's or a
	// chat's title is its name (Telegram's setChatTitle), not a member's.
	{"who am i", "whoami"}, {"remove the mute", "unmute"}, {"shut up", "mute"}, {"remove mute", "unmute"}, {"lift the mute", "unmute"}, {"undo message", "recall message"}, {"undo my message", "recall message"}, {"undo the message", "recall message"}, {"undo msg", "recall message"}, {"take away", "remove"}, {"take down", "remove"}, {"chat record", "chat history"}, {"direct url", "download url"}, {"direct link", "download link"}, {"shut the bot down", "shutdown the bot"}, {"shut it down", "shutdown"}, {"shut down", "shutdown"}, {"make a new", "create a new"}, {"make new", "create new"}, {"to-do", "todo"}, {"to do list", "todo"}, {"tell me about", "show info of"}, {"tell me", "show me"}, {"告诉我", "给我看"}, {"是谁发的", "的发送者是谁"}, {"谁发的", "的发送者是谁"}, {"who sent", "who is the sender of"}, {"图片转文字", "识别图片文字"}, {"图转文字", "识别图片文字"}, {"加我为好友", "加好友"}, {"加我好友", "加好友"}, {"group nickname", "group card"}, {"all-member", "全员"}, {"all member", "全员"}, {"all-members", "全员"}, {"nickname in group", "group card in group"}, {"nickname in the group", "group card in the group"}, {"群昵称", "群名片"}, {"look up", "lookup"}, {"who is in", "members in"}, {"who's in", "members in"}, {"who are in", "members in"}, {"a member of", "in"}, {"group title", "group name"}, {"chat title", "group name"}}

// Verbs read by their object: to post something on, in or to a place is
// to send it ("a post" stays a noun); to send a file is to upload it, as
// OneBot names it (发个文件 is 上传文件).
var (
	postVerb = lazy(`(?i)(^|[\s,.!;])post\s+(on|in|to|this|that|it|a|an|the|these|my|our|some)\b`)
	// to mark something is to read it only as read, seen or unread.
	markRead = lazy(`\b(read|unread|seen)\b`)
	markVerb = lazy(`(?i)\bmark(?:ed|ing|s)?\b`)
	// a message verb first, then whom, then the rest: "message group 333
	// hello everyone", "dm 10001 see you", "text my friend 10001 happy
	// birthday": the verb is a send, and what follows the id is the text.
	messageVerb = lazy(`(?i)^\s*(?:please\s+)?(text|message|msg|ping|whisper|dm|pm)\s+(?:(?:to\s+)?(?:my|the|our|group|grp|user|friend|him|her|them|everyone|all|qq)\b|\d{4,}\s*[:：,]?\s*\S)`)
	toID        = lazy(`(?i)^\s*(?:please\s+)?(?:send|text|message|msg|ping|whisper|dm|pm)\s+(?:(?:a\s+)?(?:message|msg|dm|pm|text)\s+)?(?:to\s+)?(?:(?:my|the|our)\s+)?(?:(?:friend|user|group|grp|qq|buddy|contact|member)\s+)?\d{4,}\b`)
	// kindFollows is what follows "send 10001" when it names the kind of
	// message ("a merged forward of …", "the file /a.pdf") rather than
	// its text ("the meeting moved").
	kindFollows = lazy(`(?i)^\s+(?:a|an|the|this|that|these|those|my|our)\s+(?:[a-z]+\s+)?(?:forward|merged|bundle|file|image|picture|photo|pic|voice|audio|record|video|card|sticker|emoji|face|link|location|music|song|ark|json|nodes?|document|pdf)`)
	letKnow     = lazy(`(?i)\blet\s+(.{1,40}?)\s+know(?:\s+that)?\b`)
	// getOut is getting the bot out of a group: it leaves.
	getOut       = lazy(`(?i)\bget\s+(?:the\s+)?(?:bot|me|us|yourself|this\s+account)\s+out\s+of\s+((?:the\s+|this\s+)?(?:group|grp|chat))\b`)
	removeMember = lazy(`(?i)\b(?:remove|throw)\s+((?:user\s+|member\s+)?(?:@\S+|\d{4,}|him|her|them))\s+(?:from|out of)\s+(?:the\s+|this\s+|our\s+)?(?:group|grp|chat)\b`)
	// what changes a group's name: the group is renamed, not a file.
	// renameGroupZH is the same in Chinese: 把群 4455 改名 (叫 …) renames
	// the group, 把群文件 … 改名 a file.
	renameGroupZH = lazy(`群\s*(?:号\s*)?\d*\s*(?:的名字|的名称|名字|名称)?\s*(?:改名|改个名|重命名)`)
	renameGroup   = lazy(`(?i)\brename\s+(?:the\s+|this\s+|our\s+)?(?:group|grp|chat)\b(?:\s+(?:file|folder|dir)\b)?`)
	sendFile      = lazy(`(?i)\bsend\s+(?:a\s+|the\s+|this\s+|that\s+|my\s+)?(?:file|document|pdf)s?\b|发(?:个|一个|份|一份|送|送个|送一个)?文件|文件(?:发给|发到|传给|发送给)`)
)

// memo is one function's last answer: a search reads its request several
// times (terms, intent, hint), so the last request's reading is kept.
type memo[T any] struct{ last atomic.Pointer[memoEntry[T]] }

type memoEntry[T any] struct {
	q   string
	out T
}

// get returns f(q), from the last call when q is the same.
func (m *memo[T]) get(q string, f func(string) T) T {
	if e := m.last.Load(); e != nil && e.q == q {
		return e.out
	}
	out := f(q)
	m.last.Store(&memoEntry[T]{q, out})
	return out
}

var payloadMemo memo[string]

// withoutPayload is query with its payload blanked.
func withoutPayload(query string) string { return payloadMemo.get(query, blankPayload) }

func blankPayload(query string) string {
	q := query
	for _, anyone := range []string{"@某人", "@someone", "@somebody", "@everyone", "@all", "@全体成员", "@全体"} {
		if strings.Contains(q, "@") {
			q = replaceFold(q, anyone, " 艾特"+anyone[1:]+" ") // asks to send a mention, to no one in particular
		}
	}
	if containsAny(strings.ToLower(q), []string{" back", " down", " off", " on", " out"}) {
		q = particleLast.ReplaceAllString(q, "$1 $3 $2") // take it back is take back it, shut the bot down shut down the bot
	}
	if strings.Contains(q, "need") {
		q = needToDo.ReplaceAllStringFunc(q, func(m string) string {
			if strings.Contains(strings.ToLower(m), "to download") {
				return m // a url to download is a link (intent.go)
			}
			return needToDo.FindStringSubmatch(m)[1] // need the rkeys to sign urls: what they are for is a later call
		})
	}
	if strings.Contains(strings.ToLower(q), "like") {
		q = likeAPI.ReplaceAllString(q, " ") // like Telegram's deleteMessage: as another API has it, no like
	}
	if strings.Contains(strings.ToLower(q), "bot") {
		q = vocative.ReplaceAllString(q, " ") // yo bot, send …: the bot addressed, not asked about
	}
	if containsAny(q, []string{"not", "n't", "dont", "不是", "no ", "不要", "不用", "无需", "不需要", "别"}) {
		q = blankOutsideQuotes(notThat, q) // …, not as a merged bundle: what is not wanted does not vote
	}
	if strings.Contains(q, "前") {
		if m := beforeFirst.FindStringIndex(q); m != nil {
			from := clauseStart(q[:m[0]])
			q = q[:from] + blanked(q[from:m[1]]) + q[m[1]:] // 发通知前先查查还能@几次, 活动截止了，踢人之前先看看…: what comes after is a later call
		}
	}
	if containsAny(q, []string{"so ", ",", "，", ";", "；", "？", "?", "。", "—", "–", " -", "再决定"}) {
		q = blankOutsideQuotes(purposeClause, q) // list my posts so I can delete one: the purpose is a later call
		if m := firstThen.FindStringSubmatchIndex(q); m != nil && containsAny(q[:m[3]], []string{"我要", "我想", "准备", "打算", "要去"}) {
			q = blanked(q[:m[3]]) + q[m[3]:] // 我要去网页上批量踢人，先给我 cookies: what it is for comes first
		}
	}
	if strings.Contains(q, "再说") {
		q = putOff.ReplaceAllStringFunc(q, blanked) // 群文件列表，删文件的事回头再说: the deletion waits
	}
	if containsAny(strings.ToLower(q), []string{"before", "b4", "after", "once", "until", "till"}) {
		q = laterClause.ReplaceAllStringFunc(q, untilMainClause) // before I kick him, show his join date: the kick comes later
	}
	if strings.Contains(q, "过了") || strings.Contains(q, "完了") {
		q = readDone.ReplaceAllString(q, " ") // 消息我都看过了，清一下未读: what is done is no request
	}
	if strings.Contains(q, "有人") {
		if m := reported.FindStringIndex(q); m != nil && len(strings.TrimSpace(q[m[1]:])) > 3 {
			q = q[:m[0]] + blanked(q[m[0]:m[1]]) + q[m[1]:] // 有人问报名啥时候截止，你回一句…: what was asked is no request
		}
	}
	lowered := strings.ToLower(q)
	for _, p := range phrases {
		if strings.Contains(lowered, p[0]) { // one lowering for every phrase
			q = replaceFold(q, p[0], p[1])
			lowered = strings.ToLower(q)
		}
	}
	if strings.Contains(lowered, "mark") && !markRead.MatchString(lowered) {
		q = markVerb.ReplaceAllString(q, "set") // mark it as featured is set essence
	}
	if strings.Contains(lowered, "know") {
		q = letKnow.ReplaceAllString(q, "tell $1 that") // let X know that … is tell X that …
	}
	if m := messageVerb.FindStringSubmatchIndex(q); m != nil && !labelsMessage(q, m) {
		q = q[:m[2]] + "send " + q[m[2]:]
	}
	if m := setTo.FindStringSubmatchIndex(q); m != nil && !plainWord.MatchString(q[m[2]:m[3]]) {
		q = q[:m[2]] + q[m[3]:] // set the group card of 4455 to [Mod] Alice: what it becomes is payload
	}
	if m := toID.FindStringIndex(q); m != nil && !kindFollows.MatchString(q[m[1]:]) {
		q = q[:m[1]]
	}
	if strings.Contains(lowered, "out of") {
		q = getOut.ReplaceAllString(q, "leave $1") // get the bot out of group 4455: it leaves
	}
	if strings.Contains(lowered, "remove") || strings.Contains(lowered, "throw") {
		q = removeMember.ReplaceAllString(q, "kick $1 from group") // a person removed from a group is kicked
	}
	if strings.Contains(q, "发") {
		q = sendMe.ReplaceAllString(q, "给我$1") // 下载地址发我一下: to be read here (发我的照片 still sends)
		q = strings.ReplaceAll(q, "给我发", "给我") // 给我发一下好友列表: shown here
	}
	if strings.Contains(lowered, "turn") || strings.Contains(lowered, "open") {
		q = convertOrOpen.ReplaceAllStringFunc(q, func(m string) string {
			if strings.EqualFold(m[:4], "turn") {
				return "convert" + m[4:] // turn a share code into a fileset id: a conversion, no toggle
			}
			return "dm" // open a dm with 10002 and say …: a message sent
		})
	}
	if strings.Contains(q, "语音") && strings.Contains(q, "文字") {
		q = voiceToText.ReplaceAllString(q, "语音转文字") // 转一下这条语音的文字: transcribe it
	}
	if strings.Contains(q, "词") {
		q = splitWords.ReplaceAllString(q, "分词") // 分一下词: segment the text
	}
	if strings.ContainsAny(q, "Tt") && strings.ContainsAny(q, "了掉出人") {
		q = kickSlang.ReplaceAllString(q, "${1}踢") // 全T了: kicked, in QQ slang
	}
	if strings.Contains(lowered, " me") {
		q = toMe.ReplaceAllString(q, "show me") // send me the notices, give it to me: to be read here
	}
	if strings.Contains(lowered, "take") {
		q = takeOut.ReplaceAllString(q, "remove $1 from") // take X out of the list: remove it
	}
	if strings.Contains(lowered, "un-") {
		q = undoPrefix.ReplaceAllString(q, "remove $1") // un-essence: remove the essence
	}
	if strings.Contains(lowered, "rename") {
		q = renameGroup.ReplaceAllStringFunc(q, func(m string) string {
			if last := m[strings.LastIndexAny(m, " \t")+1:]; containsAny(strings.ToLower(last), []string{"file", "folder", "dir"}) {
				return m // rename group file: a file is renamed, not the group
			}
			return "set group name"
		})
	}
	if strings.Contains(lowered, "show") {
		q = showTo.ReplaceAllString(q, "send to $1 ") // show group 556677 this link: sent to them, not read
	}
	if strings.Contains(q, "群") && containsAny(q, []string{"改名", "改个名", "重命名"}) {
		q = renameGroupZH.ReplaceAllString(q, "群名改成") // 把群 4455 改名叫 …: the group's name
	}
	if strings.Contains(q, "文件名") && transfers.MatchString(q) {
		q = fileNamed.ReplaceAllString(q, " ") // 传个文件…，文件名改成作业.docx: the upload's name, not a rename
	}
	if strings.Contains(q, "缓存") || strings.Contains(lowered, "cache") {
		q = noCache.ReplaceAllString(q, " ") // 别用缓存, skip the cache: a read's option, not the cache cleaner or the cached file
	}
	if strings.Contains(lowered, "post") {
		q = postVerb.ReplaceAllString(q, "${1}send $2")
	}
	if carriesDocument(q) && (strings.Contains(lowered, "file") || strings.Contains(lowered, "document") || strings.Contains(q, "文件")) {
		q = sendFile.ReplaceAllString(q, " upload file ") // the file it carries is uploaded
	}
	// Each pattern runs only where its mark is (a quote, a slash or dot, an
	// @): most requests have none, and a regular expression costs.
	if strings.ContainsAny(q, "\"“「『《‘'") {
		q = toggledQuote.ReplaceAllString(q, "$1$2 $3$4$5$6 ") // enable 'allow search by number': the setting's name, not a payload
		q = saidQuote.ReplaceAllString(q, " send ")            // say 'hi' in group 4455 with voice c1: the quote is all that is said
		q = quotedRE.ReplaceAllString(q, " ")
	}
	if strings.Contains(q, "[") {
		q = cqCode.ReplaceAllString(q, " ") // 发一条 [CQ:at,qq=all] 服务器已恢复: a segment of what is sent
	}
	if strings.ContainsAny(q, "/.~") {
		q = urlRE.ReplaceAllString(q, " ")
		q = pathRE.ReplaceAllString(q, " ") // 用主机上/home/bot/logo.png: a path right after Chinese
	}
	if strings.Contains(q, "@") {
		q = mentionRE.ReplaceAllString(q, " ")
	}
	lower := strings.ToLower(q)
	if containsAny(lower, []string{"say", "said", "claim", "told", "mention"}) {
		if m := reportedEN.FindStringIndex(q); m != nil && len(strings.TrimSpace(q[m[1]:])) > 3 {
			q = q[:m[0]] + blanked(q[m[0]:m[1]]) + q[m[1]:] // someone says a scammer tried adding the bot. show …: what was said asks nothing
			lower = strings.ToLower(q)
		}
	}
	hasTell := false
	for _, w := range []string{"tell", "inform", "notify", "remind", "ask"} {
		hasTell = hasTell || strings.Contains(lower, w)
	}
	if m := tellEN.FindStringSubmatchIndex(q); hasTell && m != nil && !strings.EqualFold(q[m[2]:m[3]], "me") && !strings.EqualFold(q[m[2]:m[3]], "to") { // ask to join: a request made, nothing said
		rest := q[m[1]:]
		if i := strings.Index(strings.ToLower(rest), " that "); i >= 0 && i < 40 {
			rest = rest[:i]
		} else {
			rest = ""
		}
		q = q[:m[1]] + rest
	}
	if strings.Contains(lower, "say") {
		q = askedSay.ReplaceAllString(q, "$1$2 said") // what did he say: a question about what was said, not what to send
	}
	if strings.Contains(q, ":") {
		q = colonID.ReplaceAllString(q, " ") // invite:4455:u_x1 is an id, and its colons introduce nothing said
	}
	if strings.ContainsAny(q, ":：") || saidMark(strings.ToLower(q)) {
		if loc := saidEN.FindStringIndex(q); loc != nil && !idList.MatchString(q[loc[1]:]) && !askingTo(q, loc) && !labelColon(q, loc) && !namesID(q[:loc[0]]) {
			q = q[:loc[1]]
		}
	}
	return saidInChinese(q)
}

// clauseStart is where the clause that ends before's text starts: after
// its last stop, or its last blank between Chinese (谁在禁言中 想解禁: a
// new clause; 改成 iPhone 15 Pro: one value).
func clauseStart(before string) int {
	for i := len(before); i > 0; {
		r, n := utf8.DecodeLastRuneInString(before[:i])
		if strings.ContainsRune("，,。；;？?！!", r) {
			return i
		}
		if unicode.IsSpace(r) {
			p, _ := utf8.DecodeLastRuneInString(before[:i-n])
			if f, _ := utf8.DecodeRuneInString(before[i:]); unicode.Is(unicode.Han, p) && unicode.Is(unicode.Han, f) {
				return i
			}
		}
		i -= n
	}
	return 0
}

// untilMainClause blanks a later clause (laterClause's match) up to
// where the request's own ask starts in it, when no comma closed it
// (before we kick him whats his join date): all of it when none does.
func untilMainClause(later string) string {
	if o := clauseOpening.FindStringIndex(later); o != nil {
		if m := mainClause.FindStringIndex(later[o[1]:]); m != nil {
			return blanked(later[:o[1]+m[0]]) + later[o[1]+m[0]:]
		}
	}
	return " "
}

// blankOutsideQuotes blanks re's matches in q that do not start inside a
// quote ("send \"don't be late\"" says it; it wants nothing less).
func blankOutsideQuotes(re *pattern, q string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringIndex(q, -1) {
		if insideQuote(q[:m[0]]) {
			continue
		}
		b.WriteString(q[last:m[0]])
		if r, n := utf8.DecodeRuneInString(q[m[0]:]); r == '?' || r == '？' {
			b.WriteString(q[m[0] : m[0]+n]) // can it send voice? about to send one: still asked
		}
		b.WriteString(" ")
		last = m[1]
	}
	b.WriteString(q[last:])
	return b.String()
}

// insideQuote reports whether a quote is open at the end of before.
func insideQuote(before string) bool {
	return strings.Count(before, `"`)%2 == 1 || strings.LastIndex(before, "“") > strings.LastIndex(before, "”") || strings.LastIndex(before, "「") > strings.LastIndex(before, "」")
}

// saidInChinese cuts q after the first Chinese word that introduces what
// is said, keeping an addressee right after it. What someone named by
// role and number said (reportedSpeaker) is blanked to the end of its
// clause, and the request goes on after it.
func saidInChinese(q string) string {
	best, named := -1, false
	for _, w := range saidZH {
		for from := 0; from < len(q); {
			i := strings.Index(q[from:], w)
			if i < 0 {
				break
			}
			i += from
			reported := w == "说" && !inNotSaid(q, i, len(w)) && reportedSpeaker(q[:i]) && !strings.HasPrefix(q[i+len(w):], "的") // 他说的那条: the one he said, no report
			if end := reportEnd(q[i+len(w):]); reported && end >= 0 {
				said := q[i+len(w) : i+len(w)+end]
				q = q[:i+len(w)] + blanked(said) + q[i+len(w)+end:] // 群友 10001 说我把他踢了，…: what was said asks nothing
			}
			if !inNotSaid(q, i, len(w)) && !commaAfter(q[i+len(w):]) && !reported && (best < 0 || i < best) {
				best, named = i+len(w), namingZH[w]
				if w == "告诉" || w == "通知" || w == "提醒" || w == "叫" {
					for _, a := range addressees {
						if strings.HasPrefix(q[best:], a) {
							if a == "我" {
								best = -1 // 告诉我: a question
							} else {
								best += len(a)
							}
							break
						}
					}
				}
				break
			}
			from = i + len(w)
		}
	}
	if best < 0 {
		return q
	}
	if named {
		if c := strings.IndexAny(q[best:], "，,。；;"); c >= 0 {
			return q[:best] + blanked(q[best:best+c]) + q[best+c:] // 那边叫 get_x，我就想知道…: a name ends where the sentence goes on
		}
	}
	return q[:best]
}

// namingZH introduce a name or a new value, not a message: what follows
// them ends at a comma.
var namingZH = map[string]bool{"叫": true, "叫做": true, "名为": true, "命名为": true, "改成": true, "改为": true}

// reportedSpeaker reports a said word whose speaker is someone named by
// their role, by a pronoun or by where they are (好友 10001 说…, 他说要撤回,
// 群主发语音说…, 图床那边说…): what they said is reported. Someone right
// after 给, 跟, 私聊 … is spoken to (给好友 10001 说, 私聊他说: to say).
func reportedSpeaker(before string) bool {
	t := strings.TrimRight(before, "0123456789 ")
	at, end := -1, -1
	for _, who := range speakers { // the speaker nearest the said word
		if i := strings.LastIndex(t, who); i >= 0 && i+len(who) > end {
			at, end = i, i+len(who)
		}
	}
	if at < 0 {
		return false
	}
	middle := t[end:]
	return !endsWithAny(strings.TrimRight(t[:at], " "), toSomeone) && utf8.RuneCountInString(middle) <= 6 && !containsAny(middle, toSomeone) && !strings.ContainsAny(middle, "，,。；; ")
}

// speakers are who may be reported to have said something; toSomeone the
// words before whom something is said to.
var (
	speakers  = []string{"好友", "群友", "管理员", "管理", "群主", "对方", "用户", "老板", "他们", "她们", "他", "她", "大家", "一堆人", "很多人", "好多人", "那边"}
	toSomeone = []string{"给", "跟", "对", "向", "和", "让", "叫", "帮", "替", "聊", "回", "复", "问", "信", "@", "艾特", "通知", "告诉", "提醒"}
)

// reportEnd is where what someone was reported to say ends in rest: at a
// stop, or at the first blank after its first word; -1 when nothing ends
// it.
func reportEnd(rest string) int {
	lead := len(rest) - len(strings.TrimLeft(rest, " "))
	if end := strings.IndexAny(rest[lead:], "，,。；; "); end >= 0 {
		return lead + end
	}
	return -1
}

// commaAfter reports a said word right before a comma (发提醒，先…): a
// noun, introducing nothing said.
func commaAfter(rest string) bool {
	return strings.HasPrefix(rest, "，") || strings.HasPrefix(rest, ",")
}

// inNotSaid reports whether the word at q[i:i+n] is part of a notSaid word.
func inNotSaid(q string, i, n int) bool {
	for _, w := range notSaid {
		for k := max(0, i-len(w)+n); k <= i && k+len(w) <= len(q); k++ {
			if q[k:k+len(w)] == w {
				return true
			}
		}
	}
	return false
}

// replaceFold replaces every occurrence of old in s, ignoring ASCII case,
// where it stands as whole words: an English phrase matches only between
// non-letters ("give me" is not in "give member"), Chinese anywhere.
func replaceFold(s, old, new string) string {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, old) {
		return s
	}
	var b strings.Builder
	for from := 0; ; {
		i := strings.Index(lower[from:], old)
		if i < 0 {
			b.WriteString(s[from:])
			return b.String()
		}
		i += from
		end := i + len(old)
		if letterAt(lower, i-1) && letterAt(old, 0) || letterAt(lower, end) && letterAt(old, len(old)-1) {
			b.WriteString(s[from : i+1]) // inside a longer word: keep it, look further on
			from = i + 1
			continue
		}
		b.WriteString(s[from:i])
		b.WriteString(new)
		from = end
	}
}

// letterAt reports whether s holds an ASCII letter at i.
func letterAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i] | 0x20
	return c >= 'a' && c <= 'z'
}

// labelsMessage reports a messageVerb match that is a message named by
// its id with Chinese after it (msg 778899 加到精华里): a label, no verb.
func labelsMessage(q string, m []int) bool {
	if v := strings.ToLower(q[m[2]:m[3]]); v != "msg" && v != "message" {
		return false
	}
	rest := strings.TrimLeft(q[m[3]:], " ")
	i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 {
		return false
	}
	after := strings.TrimLeft(rest[i:], " ")
	if beingOrOwned.MatchString(after) {
		return true // msg 7788's sender, msg 7788 was reported, msg 7788 details: that message
	}
	r, _ := utf8.DecodeRuneInString(after)
	return unicode.Is(unicode.Han, r)
}

// beingOrOwned, right after a message's id, makes the id a message's:
// its owner's 's, a verb saying what the message is or was, or a part of
// it asked for (msg 7788 details, msg 7788 sender).
var beingOrOwned = lazy(`(?i)^(?:'s\b|’s\b|(?:was|is|got|has|had|were|details?|info|contents?|sender|author|raw)\b)`)

// askingTo reports a saidEN match that is "asking to …": what the asker
// wants to do ("people asking to join"), no words to say.
func askingTo(q string, loc []int) bool {
	return strings.EqualFold(q[loc[0]:loc[1]], "asking") && strings.HasPrefix(strings.TrimLeft(q[loc[1]:], " "), "to ")
}

// namesID reports a colon's left side that ends in the name of an id
// (合并转发 id: mRk88sQ1, message_id: 7788): the id follows, not words said.
func namesID(before string) bool {
	t := strings.ToLower(strings.TrimSpace(before))
	if containsAny(strings.ReplaceAll(t, "合并转发", ""), []string{"send", "say", "tell", "post", "reply", "发", "说", "告诉", "回复"}) {
		return false // send to group id: 4455 hi all: the id, then what is said
	}
	return strings.HasSuffix(t, "id") || strings.HasSuffix(t, "编号") || strings.HasSuffix(t, "flag")
}

// labelColon reports a colon after a short label that opens the request
// ("NapCat-style: delete folder …", "client probe: packet status"): the
// request itself follows, not what is said. A label names no one, no
// number (but where a question follows) and nothing said, and holds no
// cue word.
func labelColon(q string, loc []int) bool {
	if loc[1]-loc[0] > len("：") || !strings.ContainsAny(q[loc[0]:loc[1]], ":：") {
		return false
	}
	head := strings.TrimSpace(q[:loc[0]])
	f := strings.Fields(strings.ToLower(head))
	if len(f) == 0 || len(f) > 3 || strings.ContainsFunc(head, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return false
	}
	if strings.ContainsAny(head, "0123456789") {
		if !asksAfter(q[loc[1]:]) || strings.ContainsAny(f[len(f)-1], "0123456789") {
			return false
		}
		f = f[len(f)-1:] // group 4455 files: how many are there: the thing named, then the question
	}
	for _, w := range f {
		if saidNouns[w] {
			return false
		}
	}
	return firstCue(" "+strings.Join(f, " ")+" ") == intentNone
}

// asksAfter reports text that opens with a question word: what a label
// before it introduces is the request's question, not something said.
func asksAfter(rest string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	return questionEN[strings.ToLower(strings.Trim(first, "?,."))]
}

// saidNouns, before a colon, name what follows as something said or
// whom it goes to ("msg: hi", "group: …").
var saidNouns = words("msg", "message", "text", "content", "reason", "title", "caption", "name", "note", "remark", "notice", "announcement", "group", "grp", "friend", "user", "qq", "dm", "to", "him", "her", "them", "everyone", "all", "reply", "answer", "body", "subject", "status", "nickname", "card", "signature", "bio")

// saidMark reports whether lower holds the start of a word saidEN reads,
// so that the expression runs only where it may match.
func saidMark(lower string) bool {
	for _, w := range []string{"say", "ask", "reason", "because", "caption", "titled", "named", "called"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
