package search

import (
	"github.com/snowluma/snowluma-mcp/catalog"
	"strings"
	"unicode"
)

// A hasty model calls the first name a search gives it, so the ranking
// weighs what the request asks for (issue 41): a request that reads never
// gets an action that changes something above one that reads; a request
// that creates or sends gets the writes before the reads; and a request
// that does not remove, whether it creates, sends or says nothing of what
// it does ("群公告"), never gets a delete first. The rule is
// one-sided on purpose: where a request reads and writes in one breath
// ("which messages did I send"), reading wins, because a read put first by
// mistake does no harm and a write put first by mistake may.

// intent is what a request asks for, as far as ranking cares.
type intent int

const (
	intentNone   intent = iota
	intentRead          // list, show, how many, 查, 哪些 …
	intentCreate        // send, post, add, 发, 上传 …
	intentRemove        // delete, recall, kick, 删, 撤回 …: nothing to demote
)

// readWords and createWords mark a request's intent: English words whole,
// Chinese as pieces of the query. They are read from the query before
// fillers are dropped ("哪些" and "what" say nothing to the match, much to
// the intent). "read" is left out: "mark as read" writes.
var (
	readWordsEN   = words("list", "lists", "show", "get", "view", "check", "find", "fetch", "see", "look", "display", "lookup", "search", "what", "which", "who", "whose", "many", "much", "count", "whether")
	readWordsZH   = []string{"查", "看", "哪些", "哪个", "多少", "列表", "列出", "谁", "什么", "几个", "几条", "获取", "读取", "是否", "有没有", "能否"}
	createWordsEN = words("send", "sends", "sending", "post", "posts", "publish", "create", "add", "upload", "write", "share", "forward", "reply", "attach", "make", "new")
	createWordsZH = []string{"发", "建", "添加", "新增", "上传", "写", "转发", "回复", "分享", "附"}
	removeWordsEN = words("delete", "remove", "recall", "unsend", "retract", "withdraw", "kick", "erase", "undo", "cancel", "clear", "leave", "quit")
	removeWordsZH = []string{"删", "撤回", "踢", "移除", "移出", "清除", "清理", "取消", "退出", "退群"}
	// removalWords mark an action that removes something, by the words of
	// its name.
	removalWords = words("delete", "del", "remove", "kick", "leave", "clean", "clear", "cancel", "recall", "quit", "unset", "exit", "logout")
	// questionWords, first in an English request, make it one that reads
	// ("is the bot online").
	questionWords = words("is", "are", "was", "were", "does", "has", "have")
)

// intentOf reads a query's intent: reading wins over removing, removing
// over creating ("撤回我刚发的那条" removes what was sent).
func intentOf(query string) intent {
	q := strings.ToLower(query)
	for _, checkin := range []string{"check-in", "check in"} {
		q = strings.ReplaceAll(q, checkin, "checkin") // signing in, not checking
	}
	en := englishWords(q)
	has := func(enWords map[string]bool, zh []string) bool {
		for _, w := range en {
			if enWords[w] {
				return true
			}
		}
		for _, w := range zh {
			if strings.Contains(q, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(readWordsEN, readWordsZH) || (len(en) > 0 && questionWords[en[0]]):
		return intentRead
	case has(removeWordsEN, removeWordsZH):
		return intentRemove
	case has(createWordsEN, createWordsZH):
		return intentCreate
	}
	return intentNone
}

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

// placeholder reports whether an action is a compatibility placeholder
// that answers the same whatever it is asked (can_send_image always says
// yes): never the answer a request is looking for while a real one is.
func placeholder(a *catalog.Action) bool {
	return strings.Contains(a.Summary, "占位") || strings.Contains(strings.ToLower(a.Summary), "placeholder")
}

// demotion is how far down an action goes for a request of intent in,
// the lower the better: what the intent rules out (a write for a read, a
// removal for anything but a removal) below everything else, a read below
// the writes a create request asks for, and within each, a placeholder
// below the rest. h is the action's haystack, which knows
// whether it removes and whether it is a placeholder.
func (in intent) demotion(a *catalog.Action, h haystack) int {
	d := 0
	switch {
	case in == intentRead && !a.ReadOnly:
		d = 4
	case in != intentRead && in != intentRemove && h.removes:
		d = 4 // a removal is the answer only where the request removes
	case in == intentCreate && a.ReadOnly:
		d = 2 // a request to send or make something wants a write first
	}
	if h.placeholder {
		d++
	}
	return d
}
