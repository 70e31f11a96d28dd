package fault

import (
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// Code classifies why a call failed. Codes come from known causes only,
// and each is declared with its row of Codes: the kind, outcome and next
// step a failure reports are read from it, never inferred from message
// text.
type Code string

// Facts is everything the server says about one failure code, in one row,
// as connect-go keeps a code's facts beside it: whether a write already
// sent may have taken effect (the outcome), the agent's default next step,
// and the words the docs' diagnostics tables show a person. pipeline's
// Failure reads the first two, Kinds and cmd/docgen the rest.
type Facts struct {
	Code Code
	// MayAct says a write whose request may already have reached SnowLuma
	// when this failure came might have taken effect: its outcome is then
	// unknown rather than failed (unless the error says nothing was sent).
	MayAct bool
	// Next is the agent's next step, unless the failure brings one of its
	// own cause (Error.Then); NextForRead, when set, replaces it for a
	// read-only action, whose repetition is always safe.
	Next, NextForRead string
	// Happened and Fix are the docs' words: what happened, and the usual
	// next step as the person who runs the server sees it.
	Happened, Fix lang.Text
}

// Table is a list of failure codes with their facts. The server uses one,
// Codes; tests extend a copy to show that a new row is all a new code needs.
type Table []Facts

// Codes is every failure code, in the order they are declared below: each
// code is declared by its row (define), so a code cannot be without one.
var Codes Table

// define adds f to Codes and returns its code: a code's constant, doc
// comment and facts are one declaration.
func define(f Facts) Code {
	Codes = append(Codes, f)
	return f.Code
}

// Of returns code's row; an unknown code (none is raised: every code is
// declared by its row) reads as internal.
func (t Table) Of(code Code) Facts {
	for _, f := range t {
		if f.Code == code {
			return f
		}
	}
	if code != CodeInternal {
		return t.Of(CodeInternal)
	}
	return Facts{Code: code}
}

// The known failure codes, each with its facts. Adding a code is adding
// one declaration here; the docs' tables and every failure read it.
var (
	// CodeInvalidArgument is arguments that do not fit the tool or the action:
	// nothing was sent, and the message names the field.
	CodeInvalidArgument = define(Facts{Code: "invalid_argument",
		Next: "Correct the call as the message says; nothing was sent. For an action's params, get_action shows them and an example.",
		Happened: lang.Text{EN: "the arguments do not fit the tool or the action's params (the message names the field), a parameter name the action does not read (the message names the nearest it does), `execution.input_file` is not an allowed file, an answer to an input request does not fit, or an event subscription asks for another account than the open connection serves",
			ZH: "参数不符合工具或该动作的参数要求（消息会指出是哪个字段）；给了该动作不读取的参数名（消息会给出最接近的正确参数名）；`execution.input_file` 不是允许的文件；对询问的回答不符合要求；或者订阅事件时给的账号与已打开的连接所服务的账号不同"},
		Fix: lang.Text{EN: "correct them as the message says; `get_action` shows the action's parameters and an example",
			ZH: "按消息所说改正；`get_action` 会列出该动作的参数和示例"}})

	// CodeModeDenied is a call this server's mode does not offer; only the
	// user can change the mode.
	CodeModeDenied = define(Facts{Code: "mode_denied",
		Next: "This server's mode does not allow the call. The user can change SNOWLUMA_MCP_MODE (and SNOWLUMA_MCP_ENDPOINT) in the MCP client configuration.",
		Happened: lang.Text{EN: "the server's mode does not offer this (for example `invoke_action` in read mode, `check_connection` in docs mode)",
			ZH: "服务器当前的模式不提供这项功能（例如 read 模式下的 `invoke_action`、docs 模式下的 `check_connection`）"},
		Fix: lang.Text{EN: "the user changes `SNOWLUMA_MCP_MODE` (and `SNOWLUMA_MCP_ENDPOINT`) in the host's configuration",
			ZH: "由用户在宿主配置里修改 `SNOWLUMA_MCP_MODE`（和 `SNOWLUMA_MCP_ENDPOINT`）"}})

	// CodeUnknownAction is a name that is neither an action nor an alias in
	// the catalog.
	CodeUnknownAction = define(Facts{Code: "unknown_action",
		Next: "Find the right name with search_actions or list_actions.",
		Happened: lang.Text{EN: "the name is neither an action nor an alias in the bundled catalog",
			ZH: "这个名字在内置动作目录里既不是动作也不是别名"},
		Fix: lang.Text{EN: "find the right name with `search_actions` or `list_actions`",
			ZH: "用 `search_actions` 或 `list_actions` 找到正确的名字"}})

	// CodeWrongTool is an action given to a tool that does not run its kind (a
	// write to query_action).
	CodeWrongTool = define(Facts{Code: "wrong_tool",
		Next: "Use invoke_action for write and stream actions; it needs write mode.",
		Happened: lang.Text{EN: "a write or stream action given to `query_action`, or a non-stream action to `invoke_action_background`",
			ZH: "把写动作或流式动作交给了 `query_action`，或把非流式动作交给了 `invoke_action_background`"},
		Fix: lang.Text{EN: "use `invoke_action` (write mode)",
			ZH: "改用 `invoke_action`（write 模式）"}})

	// CodeInputDeclined is a form for missing values that was declined or
	// cancelled; nothing ran.
	CodeInputDeclined = define(Facts{Code: "input_declined",
		Next: "Nothing was executed. If the user wants it, ask them in the chat for the missing values, then call again with them in params.",
		Happened: lang.Text{EN: "the form was declined or cancelled, by the user or by a host that answers forms without showing them (Claude Code's `-p` mode, Codex with writes allowed); nothing ran",
			ZH: "表单被拒绝或取消了：可能是用户，也可能是不显示表单、自行作答的宿主（Claude Code 的 `-p` 模式、允许写操作的 Codex）；什么都没有执行"},
		Fix: lang.Text{EN: "if the user wants it, the agent asks in the chat for the missing values and calls again with them",
			ZH: "如果用户确实想做，智能体在对话里问清缺少的值，再带上它们重新调用"}})

	// CodeCancelled is a call cancelled by the client, or by the server
	// stopping, while it waited.
	CodeCancelled = define(Facts{Code: "cancelled", MayAct: true,
		Next:        "The wait was cancelled. For a write, check whether it took effect before calling again.",
		NextForRead: "The wait was cancelled; a read can simply be called again.",
		Happened: lang.Text{EN: "the client cancelled the call, or the server was stopping",
			ZH: "客户端取消了调用，或服务器正在停止"},
		Fix: lang.Text{EN: "for a write, check whether it took effect before calling again",
			ZH: "如果是写操作，先确认它是否已生效，再决定是否重新调用"}})

	// CodeTimeout is SnowLuma not answering in time; a write may have taken
	// effect.
	CodeTimeout = define(Facts{Code: "timeout", MayAct: true,
		Next:        "SnowLuma did not answer in time. For a write, check whether it took effect before calling again; nothing was retried.",
		NextForRead: "SnowLuma did not answer in time; nothing was retried. A read can be called again, or with a longer SNOWLUMA_MCP_TIMEOUT_MS if SnowLuma is merely slow (the user sets it).",
		Happened: lang.Text{EN: "SnowLuma did not answer within `SNOWLUMA_MCP_TIMEOUT_MS` (streams: the connect or idle timeout)",
			ZH: "SnowLuma 没有在 `SNOWLUMA_MCP_TIMEOUT_MS` 内应答（流式传输：连接超时或空闲超时）"},
		Fix: lang.Text{EN: "for a write, check its effect; if SnowLuma is merely slow, raise the timeout",
			ZH: "如果是写操作，先确认效果；如果 SnowLuma 只是慢，调大超时"}})

	// CodeTransport is SnowLuma that could not be reached at the endpoint.
	CodeTransport = define(Facts{Code: "transport", MayAct: true,
		Next: "Check that SnowLuma is running and SNOWLUMA_MCP_ENDPOINT points at its HTTP server. Nothing was retried.",
		Happened: lang.Text{EN: "SnowLuma could not be reached at `SNOWLUMA_MCP_ENDPOINT`",
			ZH: "无法通过 `SNOWLUMA_MCP_ENDPOINT` 连接到 SnowLuma"},
		Fix: lang.Text{EN: "start SnowLuma, enable its HTTP API node, check the endpoint's host and port",
			ZH: "启动 SnowLuma，启用它的 HTTP API 节点，检查 endpoint 的主机和端口"}})

	// CodeUpstreamHTTP is an HTTP error status from SnowLuma (or a proxy in
	// front of it).
	CodeUpstreamHTTP = define(Facts{Code: "upstream_http", MayAct: true,
		Next: "SnowLuma answered with an HTTP error status (the message gives it and SnowLuma's wording): a 5xx is a failure inside SnowLuma, so follow the traceparent into its logs. Nothing was retried.",
		Happened: lang.Text{EN: "SnowLuma answered HTTP 5xx, a server error, or a status its HTTP server never sends (a proxy in between)",
			ZH: "SnowLuma 返回了 HTTP 5xx（服务器错误），或是它的 HTTP 服务从来不会返回的状态码（中间有代理）"},
		Fix: lang.Text{EN: "follow the `traceparent` into SnowLuma's logs",
			ZH: "凭 `traceparent` 去 SnowLuma 的日志里查"}})

	// CodeUpstreamAuth is a token SnowLuma refused (HTTP 401 or 403, WebSocket
	// close 1008).
	CodeUpstreamAuth = define(Facts{Code: "upstream_auth",
		Next: "SnowLuma rejected the access token: SNOWLUMA_MCP_TOKEN must equal the token of SnowLuma's HTTP server (" + webui.InWebUI(webui.NodeHTTP, webui.FieldToken) + "); only the user can change it, in this server's entry in the MCP client configuration.",
		Happened: lang.Text{EN: "SnowLuma refused the token (HTTP 401 or 403; WebSocket close 1008 for events)",
			ZH: "SnowLuma 拒绝了 Token（HTTP 401 或 403；事件连接为 WebSocket 关闭码 1008）"},
		Fix: lang.Text{EN: "set `SNOWLUMA_MCP_TOKEN` to the HTTP API node's 授权 Token; for events (close 1008), `SNOWLUMA_MCP_EVENTS_TOKEN` to the WS 服务端 node's (or give both nodes the same Token)",
			ZH: "把 `SNOWLUMA_MCP_TOKEN` 设为 HTTP API 节点的授权 Token；事件连接（关闭码 1008）则把 `SNOWLUMA_MCP_EVENTS_TOKEN` 设为 WS 服务端节点的授权 Token（或给两个节点设置相同的 Token）"}})

	// CodeBadReply is a reply that is not a OneBot envelope, or a malformed
	// stream frame.
	CodeBadReply = define(Facts{Code: "bad_reply", MayAct: true,
		Next: "SnowLuma's reply was not a OneBot envelope; check that SNOWLUMA_MCP_ENDPOINT is SnowLuma's OneBot HTTP server.",
		Happened: lang.Text{EN: "the reply was not a OneBot envelope, or a stream frame was malformed",
			ZH: "返回的内容不是 OneBot 格式的响应，或流式帧格式错误"},
		Fix: lang.Text{EN: "check that the endpoint is SnowLuma's HTTP API node",
			ZH: "确认 endpoint 是 SnowLuma 的 HTTP API 节点"}})

	// CodeStreamFailed is a failure SnowLuma reported in a stream's terminal frame.
	CodeStreamFailed = define(Facts{Code: "stream_failed",
		Next: "SnowLuma reported the failure in the stream's terminal frame; the message carries its retcode and reason.",
		Happened: lang.Text{EN: "SnowLuma reported the failure in the stream's last frame (retcode and reason in the message)",
			ZH: "SnowLuma 在流的最后一帧报告了失败（消息里有 retcode 和原因）"},
		Fix: lang.Text{EN: "read the reason; a download of a file that does not exist fails here",
			ZH: "看原因；下载不存在的文件就会在这里失败"}})

	// CodeStreamBroken is a stream that broke off or contradicted itself:
	// it ended before its terminal frame, or its chunks, counts or sizes
	// disagree. Each frame was a proper OneBot frame, so the endpoint is
	// right; the transfer itself went wrong.
	CodeStreamBroken = define(Facts{Code: "stream_broken",
		Next: "The stream broke off or contradicted itself (ended early, chunks out of order, or sizes that disagree); a partial download was deleted, an upload was reset, and nothing was retried. The call can be repeated.",
		Happened: lang.Text{EN: "the stream ended early or contradicted itself (chunks out of order, sizes that disagree); a partial download was deleted, an upload reset",
			ZH: "流提前结束或前后矛盾（分块乱序、大小对不上）；已删除下载了一半的文件，或已重置上传"},
		Fix: lang.Text{EN: "the call can be repeated",
			ZH: "可以重新调用"}})

	// CodeLimit is a configured limit crossed (sizes, quotas, slots, counts).
	CodeLimit = define(Facts{Code: "limit",
		Next: "The call crossed a configured limit; get_runtime_info shows the effective limits.",
		Happened: lang.Text{EN: "a configured limit was crossed: file size, download quota, busy stream slots, event resources, running tasks, pending prompts, frame or reply size; or a request body would pass the 2 MiB SnowLuma reads (refused before sending, no send budget spent)",
			ZH: "超出了某项配置的限制：文件大小、下载配额、流式通道全忙、事件资源数、运行中的任务数、待回答的询问数、帧或应答大小；或者请求体会超过 SnowLuma 读取的 2 MiB（发送前就被拒绝，不消耗发送额度）"},
		Fix: lang.Text{EN: "`get_runtime_info` shows the effective limits; wait for a slot or raise the limit; over SnowLuma's body cap, split the message and send a file through the upload route (`upload_file_stream` with `execution.input_file`)",
			ZH: "`get_runtime_info` 会显示生效的限制；等待空出通道，或调大限制；超过 SnowLuma 的请求体上限时，把消息拆开发送，文件则走上传通道（`upload_file_stream` 加 `execution.input_file`）"}})

	// CodeEventConnection is an event WebSocket that could not be opened
	// or has ended; the message says why and what to release.
	CodeEventConnection = define(Facts{Code: "event_connection",
		Next: "The event WebSocket could not be opened or has ended (the message says why); nothing reconnects on its own. Check SnowLuma's WebSocket server and SNOWLUMA_MCP_EVENTS_URL, release existing event resources with unsubscribe_events, then subscribe again.",
		Happened: lang.Text{EN: "the event WebSocket could not be opened or has ended; nothing reconnects on its own",
			ZH: "事件 WebSocket 无法打开，或已经结束；不会自动重连"},
		Fix: lang.Text{EN: "check SnowLuma's WebSocket server and `SNOWLUMA_MCP_EVENTS_URL`; release every event resource with `unsubscribe_events`, then subscribe again",
			ZH: "检查 SnowLuma 的 WS 服务端节点和 `SNOWLUMA_MCP_EVENTS_URL`；用 `unsubscribe_events` 释放所有事件资源，然后重新订阅"}})

	// CodeUnsupported is something this server or client cannot do here; the
	// message says what to use instead.
	CodeUnsupported = define(Facts{Code: "unsupported",
		Next: "The server cannot do this here; the message says why and what to use instead.",
		Happened: lang.Text{EN: "this server or client cannot do it: a `*_with_input` tool for a client without form elicitation, a task tool without `SNOWLUMA_MCP_TASK_DIR`, a task started while the server stops",
			ZH: "这个服务器或客户端做不到：客户端不支持表单询问（form elicitation）却调用了 `*_with_input` 工具，没有设置 `SNOWLUMA_MCP_TASK_DIR` 却调用了任务工具，或在服务器正在停止时启动任务"},
		Fix: lang.Text{EN: "use the plain tool (`query_action`, `invoke_action`), or the configuration the message names",
			ZH: "改用普通工具（`query_action`、`invoke_action`），或按消息所说修改配置"}})

	// CodeInternal is a fault inside snowluma-mcp, and the code of any error
	// that carries none.
	CodeInternal = define(Facts{Code: "internal",
		Next: "An internal error occurred in snowluma-mcp; the call can be repeated if it was read-only.",
		Happened: lang.Text{EN: "a fault inside snowluma-mcp (it keeps running)",
			ZH: "snowluma-mcp 内部出错（它会继续运行）"},
		Fix: lang.Text{EN: "the call can be repeated if it was read-only; check a write's effect first",
			ZH: "只读调用可以重试；写操作先确认效果"}})

	// CodeRateLimited is a send refused by the pacing stage because its
	// budget would make it wait longer than allowed; nothing was sent, and
	// the error says when it could go (RetryAfter).
	CodeRateLimited = define(Facts{Code: "rate_limited",
		Next: "Nothing was sent. Wait at least retry_after_ms before sending to that chat again, and send less at once: this server paces deliveries so QQ's risk control does not restrict the user's account. get_runtime_info shows what is left of each send budget; the user can tune SNOWLUMA_MCP_SEND_PACE and SNOWLUMA_MCP_SEND_WAIT_MS.",
		Happened: lang.Text{EN: "a delivery (message, poke, like, notice…) would have to wait longer than `SNOWLUMA_MCP_SEND_WAIT_MS` for its target's or the account's send budget; nothing was sent",
			ZH: "一次投递（消息、戳一戳、点赞、公告……）要等目标或账号的发送额度，而需要等待的时间超过了 `SNOWLUMA_MCP_SEND_WAIT_MS`；什么都没有发送"},
		Fix: lang.Text{EN: "wait `retry_after_ms`, then send again; sending less often keeps the account safe (see [Send pacing](pacing.md))",
			ZH: "等待 `retry_after_ms` 后再发；发得慢一些能保护账号（见“[发送限速](pacing.md)”）"}})

	// CodeWrongEndpoint is an answer that shows SNOWLUMA_MCP_ENDPOINT
	// reaches a server, but not SnowLuma's OneBot HTTP server at its
	// configured path: a 404 for the path, a 426 or 405 from the
	// WebSocket adapter's port, or every probe answered "unknown action".
	// SnowLuma ran nothing; only the user can correct the setting.
	CodeWrongEndpoint = define(Facts{Code: "wrong_endpoint",
		Next: "Nothing ran in SnowLuma. SNOWLUMA_MCP_ENDPOINT does not lead to SnowLuma's OneBot HTTP server as the message explains; only the user can correct it in the MCP client configuration (the HTTP server's port, 3000 by default, and its path, / by default).",
		Happened: lang.Text{EN: "`SNOWLUMA_MCP_ENDPOINT` reaches a server, but not SnowLuma's HTTP server on its path: HTTP 426 or 405 (the WS 服务端 node's port), HTTP 404 (a path outside the HTTP API node's `path`), or `1404` to every connection check (a path SnowLuma reads as the action's name); nothing ran",
			ZH: "`SNOWLUMA_MCP_ENDPOINT` 能连上该地址上的某个服务，但不是 SnowLuma 在该路径上的 HTTP API 服务：HTTP 426 或 405（WS 服务端节点的端口）、HTTP 404（HTTP API 节点 `path` 之外的路径），或所有连接检查都得到 `1404`（SnowLuma 把这个路径当成了动作名）；什么都没有执行"},
		Fix: lang.Text{EN: "the user sets the HTTP API node's port and `path` in the endpoint, as the message says",
			ZH: "由用户按消息所说，在 endpoint 里填 HTTP API 节点的端口和 `path`"}})

	// CodeConfiguration is a call that needs a setting the user got
	// wrong (a malformed variable, an upload root that is not a
	// directory): nothing was sent, and the message names the variable.
	CodeConfiguration = define(Facts{Code: "configuration",
		Next: "A setting this call needs is wrong, as the message says, and the call fails the same way until it is corrected: tell the user, who can correct that variable in the MCP client configuration (then restart the server).",
		Happened: lang.Text{EN: "a setting the call needs is wrong: `SNOWLUMA_MCP_UPLOAD_ROOT` is missing or a file, `SNOWLUMA_MCP_DOWNLOAD_DIR` cannot be created, or any malformed variable in the explaining state (see [Configuration](configuration.md)); the message names it; nothing was sent",
			ZH: "这次调用需要的某项设置有误：`SNOWLUMA_MCP_UPLOAD_ROOT` 不存在或是个文件，`SNOWLUMA_MCP_DOWNLOAD_DIR` 无法创建，或让服务器进入配置错误状态的任何格式错误的变量（见“[设置项](configuration.md#设置项)”）；消息会指明是哪个；什么都没有发送"},
		Fix: lang.Text{EN: "tell the user: only they can correct the variable in the host's configuration",
			ZH: "告诉用户：只有用户能在宿主配置里改正这个变量"}})

	// CodeLockdown is a call lockdown refuses because it would repeat
	// words lockdown withholds as the account's own (a forward of a
	// stranger's message): nothing was sent, and the message says whose
	// words they are and why they are withheld.
	CodeLockdown = define(Facts{Code: "lockdown",
		Next: "Nothing was sent. Lockdown does not let the account send again words it withholds from you: sent from the account, they would read as the account's own. Do not try another way to repeat them; tell the user what you meant to send, and they can forward it themselves or, if they trust its author, add that QQ number to SNOWLUMA_MCP_TRUSTED_USERS.",
		Happened: lang.Text{EN: "in lockdown, a forward of a single message (`forward_group_single_msg`, `forward_friend_single_msg`) whose words lockdown withholds: a stranger's, an unknown author's, or a forward's nodes; the account would send them again as its own; nothing was sent, and SnowLuma saw only the `get_msg` that read the message",
			ZH: "锁定模式下，转发的单条消息（`forward_group_single_msg`、`forward_friend_single_msg`）里有会被隐去的内容：陌生人的话、作者无法确定的话，或合并转发的节点；账号会把这些话当作自己的话再发一遍；什么都没有发送，SnowLuma 只收到了读取这条消息的 `get_msg`"},
		Fix: lang.Text{EN: "tell the user what you meant to forward: they can forward it themselves, or trust its author (see [Lockdown](trust-boundary.md))",
			ZH: "告诉用户你想转发什么：用户可以自己转发，或者信任它的作者（见“[锁定](trust-boundary.md)”）"}})
)
