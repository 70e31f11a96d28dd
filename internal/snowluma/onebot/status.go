package onebot

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/webui"
)

// WherePathIsSet says where SnowLuma sets its HTTP server's path, the one
// place every message about a wrong endpoint path points the user to.
var WherePathIsSet = "the path of SnowLuma's HTTP server (" + webui.InWebUI(webui.NodeHTTP, webui.FieldPath) + "; " +
	"\"path\" under httpServers in config/onebot.json or config/onebot_<uin>.json; \"/\" by default)"

// Probes are the read actions a connection check sends (get_runtime_info's
// and snowluma-mcp check's): every SnowLuma knows them, so "unknown action"
// to all of them means the endpoint's path, not SnowLuma's version.
var Probes = []string{"get_login_info", "get_status", "get_version_info"}

// UnknownAction reports SnowLuma's answer "unknown action": status failed,
// retcode 1404.
func (r *Reply) UnknownAction() bool { return r.Status == "failed" && r.Retcode == "1404" }

// PathReadAsAction words the answer "unknown action" (retcode 1404 with
// HTTP 200) to every one of actions, which every SnowLuma knows: SnowLuma's
// HTTP server reads a path below its own as the action's name, and that
// name wins over the body's, so the endpoint's path is the likely cause.
func PathReadAsAction(path string, actions []string) string {
	return fmt.Sprintf("SnowLuma answered %s with retcode 1404 \"unknown action\", and every SnowLuma knows these actions: "+
		"it most likely read SNOWLUMA_MCP_ENDPOINT's path %q as the action's name. Set the endpoint's path to %s",
		strings.Join(actions, ", "), path, WherePathIsSet)
}

// statusError words an HTTP status other than 200 by what it means for the
// user's settings, as SnowLuma 1.11.1 uses them: its HTTP adapter answers
// 401 for a wrong token and 404 for a path outside its configured one
// (both before reading the action), and its WebSocket adapter answers any
// plain HTTP request with 426 Upgrade Required. A 405 can only come from a
// server that is not the HTTP adapter either, since the adapter accepts the
// POST this client sends. path is the endpoint's path, the one part of the
// endpoint that is safe to repeat; wording is SnowLuma's, when it sent one.
func statusError(status int, wording, path string) *fault.Error {
	said := ""
	if wording != "" {
		said = fmt.Sprintf(" (%q)", wording)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fault.Errorf(fault.CodeUpstreamAuth, "SnowLuma refused the access token (HTTP %d%s)", status, said).Unsent()
	case status == http.StatusNotFound:
		return fault.Errorf(fault.CodeWrongEndpoint,
			"SnowLuma answered HTTP 404%s: its HTTP server is configured with a different path than SNOWLUMA_MCP_ENDPOINT's %q. "+
				"Set the endpoint's path to "+WherePathIsSet, said, path).Unsent()
	case status == http.StatusUpgradeRequired || status == http.StatusMethodNotAllowed:
		return fault.Errorf(fault.CodeWrongEndpoint,
			"the server at SNOWLUMA_MCP_ENDPOINT answered HTTP %d, as SnowLuma's WebSocket server does to a plain HTTP request: "+
				"the endpoint's port belongs to the WebSocket adapter (3001 by default). Set SNOWLUMA_MCP_ENDPOINT to the port of SnowLuma's "+
				"HTTP server ("+webui.InWebUI(webui.NodeHTTP, webui.FieldPort)+"; 3000 by default)", status).Unsent()
	case status >= 500:
		return fault.Errorf(fault.CodeUpstreamHTTP, "SnowLuma reported a server error (HTTP %d%s)", status, said)
	default:
		return fault.Errorf(fault.CodeUpstreamHTTP, "SnowLuma answered HTTP %d%s, which its OneBot HTTP server does not send for a well-formed request; "+
			"a proxy or another service may be in between", status, said)
	}
}
