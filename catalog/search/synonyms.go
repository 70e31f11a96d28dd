package search

// synonyms groups the words people use for one idea, Chinese and English
// side by side: the words of the catalog's own summaries and names first
// (TestEverySynonymGroupIsAnchoredInTheCatalog holds each group to at least
// one of them), then how QQ users say the same thing. A query term that is
// one of them matches any. The Chinese words are also the vocabulary a
// query without spaces is segmented by (terms.go).
var synonyms = [][]string{
	// who and where
	{"群", "群聊", "group", "groups", "qun"},
	{"好友", "friend", "friends", "联系人", "contact", "contacts", "朋友", "buddy", "buddies", "加好友"},
	{"成员", "群员", "member", "members", "群友", "哪些人", "有哪些人", "多少人", "几个人", "什么人"},
	{"管理员", "admin", "admins", "administrator", "moderator", "mod"},
	{"机器人", "bot", "robot"},
	{"私聊", "private", "私信", "dm", "direct"},
	{"陌生人", "stranger", "user", "用户"},
	{"登录", "login", "logged", "当前账号", "account", "self", "我是谁", "whoami", "登"},
	// what
	{"消息", "message", "messages", "msg", "聊天", "chat"},
	{"文件", "file", "files"},
	{"链接", "直链", "下载链接", "link", "links", "url", "urls"},
	{"文件夹", "目录", "folder", "folders", "directory"},
	{"图片", "image", "images", "img", "picture", "photo", "pic", "照片"},
	{"语音", "record", "voice", "ptt", "audio"},
	{"表情", "face", "emoji", "sticker", "stickers"},
	{"回应", "表情回应", "reaction", "reactions", "react"},
	{"公告", "announcement", "announcements", "notice", "notices", "announce"},
	{"历史", "聊天记录", "记录", "history", "recent", "recently", "last", "latest", "past", "previous", "earlier"},
	{"会话", "conversation", "conversations", "session", "sessions", "chats"},
	{"说说", "feed", "feeds", "动态", "shuoshuo"},
	{"空间", "qzone", "zone"},
	{"相册", "album", "albums"},
	{"精华", "essence"},
	{"头衔", "title", "称号"},
	{"名片", "群名片", "card"},
	{"昵称", "nickname", "nick"},
	{"备注", "remark", "备注名", "label"},
	{"群名", "群名称", "name"},
	{"头像", "avatar", "portrait"},
	{"签名", "个性签名", "longnick", "signature", "bio"},
	{"信息", "资料", "详情", "info", "information", "profile", "detail", "details"},
	{"状态", "在线", "status", "online"},
	{"版本", "version"},
	{"流", "stream", "streaming"},
	{"转发", "forward", "forwarded", "relay"},
	{"合并转发", "合并", "merged", "combined"},
	{"申请", "请求", "request", "requests", "同意", "接受", "approve", "accept", "拒绝", "拒了", "拒掉", "reject", "处理", "handle"},
	{"加群", "入群", "加入", "加", "join", "invite", "invitation", "邀请"},
	// being in a group is not asking to join one
	{"已加入", "joined", "加了", "加入的", "所在的"},
	{"列表", "列出", "list", "所有", "全部"},
	{"全员", "全体", "whole", "everyone"},
	{"待办", "todo"},
	{"闪传", "flash", "fileset"},
	{"收藏", "favorite", "favourite", "collection"},
	{"已读", "read", "mark"},
	{"翻译", "translate"},
	{"识别", "文字识别", "ocr"},
	{"荣誉", "龙王", "honor", "honour"},
	// doing
	{"发送", "发", "发表", "发布", "send", "publish"},
	{"获取", "查询", "查看", "查", "读取", "看", "get", "fetch", "show", "view", "check", "find", "lookup", "look", "query", "examine", "review", "inspect", "peek", "glance", "dump", "grab"},
	{"设置", "设", "修改", "改", "更换", "set", "change", "modify", "update", "edit"},
	{"删除", "删", "delete", "del", "remove", "nuke", "wipe", "purge", "trash", "ditch", "scrap", "撤下"},
	{"撤回", "recall", "unsend", "retract", "withdraw"},
	{"拉黑", "黑名单", "block", "blacklist"},
	{"踢", "踢出", "踢人", "移出", "kick", "boot", "飞机票"},
	{"禁言", "解禁", "禁", "闭麦", "禁麦", "mute", "unmute", "ban", "unban", "shut", "silence", "unsilence"},
	{"戳", "戳一戳", "拍一拍", "拍", "poke", "nudge", "pat"},
	{"退群", "退出群聊", "退", "leave", "quit"},
	{"告诉", "tell", "say", "说", "通知", "notify", "inform", "remind", "提醒", "ask", "叫他", "叫她"},
	{"打卡", "签到", "sign", "signin", "checkin"},
	{"点赞", "赞", "like", "likes", "thumbs"},
	{"取消", "cancel", "unlike", "undo"},
	{"上传", "传", "upload"},
	{"下载", "download", "downloads"},
	{"重命名", "改名", "改个名", "rename"},
	{"匿名", "anonymous", "anon", "anony"},
	{"移动", "move", "drag", "relocate", "挪", "挪到", "移到", "移回", "放回"},
	{"添加", "add"},
	{"评论", "comment", "comments"},
	{"输入", "typing", "input"},
	{"清理", "clean", "clear", "flush", "清一下", "清掉", "清除"},
	{"缓存", "cache"},
	{"重启", "restart", "reboot"},
}

// fillers are words that carry no search meaning: they are dropped from a
// keywords query, Chinese and English alike.
var fillers = words(
	// English
	"a", "an", "the", "me", "i", "to", "of", "in", "on", "for", "from", "into", "out", "this", "that",
	"these", "those", "is", "are", "am", "be", "was", "it", "its", "as", "with", "by", "at", "please",
	"can", "could", "you", "your", "how", "do", "does", "did", "some", "someone", "somebody",
	"his", "their", "our", "we", "what", "which", "want", "would", "if", "there",
	"and", "or", "any", "about", "up", "new", "one", "message's", "i'm", "whom",
	// what an apostrophe leaves ("what's", "10001's", "don't") and the
	// words of a question that name nothing
	"s", "t", "d", "m", "ll", "re", "ve", "many", "much", "has", "have", "had", "been", "will", "should",
	// the product's own name: every action is SnowLuma's, so it tells none
	// apart, and as a term it would read "now" as a typo of "snow"
	"snowluma", "snow", "luma", "onebot",
	// the names of other bot APIs and their dialects ("NapCat-style",
	// "in mirai terms"): they say whose words a request uses, and every
	// action has a name in each, so they tell none apart
	"napcat", "nap", "cat", "lagrange", "mirai", "cqhttp", "gocq", "gocqhttp", "llonebot", "yunzai", "oicq", "telegram", "discord", "style", "styled",
	// Chinese
	"我", "我的", "的", "一条", "一个", "一张", "一下", "一", "个", "条", "张", "把", "给", "它",
	"他们", "她们", "这个", "那个", "这", "那", "里", "里面", "中", "在", "了", "吗", "呢", "吧", "啊",
	"请", "帮我", "帮", "某人", "某个", "有哪些", "哪些", "什么", "怎么", "如何", "是", "和", "与", "到",
	"去", "一下子", "让", "用", "要", "想", "能", "可以", "有", "都", "被", "跟", "向", "对",
	// question words ask (intent.go reads them); they name nothing
	"哪个", "哪一个", "是哪", "现在", "能不能", "能否", "可不可以",
)

func words(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
