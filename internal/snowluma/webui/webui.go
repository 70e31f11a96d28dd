// Package webui is where a person finds SnowLuma's settings, in the words
// its WebUI shows. It imports nothing, so every message that sends the user
// there can use it, down to the failure codes' table (internal/fault).
package webui

// Where a person finds SnowLuma's settings, in the words SnowLuma 1.11.1's
// WebUI shows (packages/webui): the 节点配置 page lists the OneBot nodes
// in tabs, "HTTP API" for the HTTP server this client calls and
// "WS 服务端" for the WebSocket server events come from, and a node's
// dialog has the fields 端口, 路径 and 授权 Token. Every message that
// sends the user there is worded from these, so none can name a page
// that does not exist.
const (
	PageNodes  = "节点配置"
	NodeHTTP   = "HTTP API"
	NodeWS     = "WS 服务端"
	FieldPort  = "端口"
	FieldPath  = "路径"
	FieldToken = "授权 Token"
)

// InWebUI says where field of a node of kind node is set in the WebUI.
func InWebUI(node, field string) string {
	return "SnowLuma's WebUI: " + PageNodes + " page, the \"" + node + "\" node's \"" + field + "\" field"
}

// InWebUIZH is InWebUI in Chinese, for `check` in a Chinese terminal. The
// Token shows only in a node's dialog (编辑), in its 鉴权 section.
func InWebUIZH(node, field string) string {
	if field == FieldToken {
		field = "编辑」→「鉴权」→「" + field
	}
	return "SnowLuma WebUI 的「" + PageNodes + "」页，「" + node + "」节点的「" + field + "」"
}
