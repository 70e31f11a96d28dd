package checkup

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// answer is one probe's outcome.
type answer struct {
	reply *onebot.Reply
	err   error
}

func (a answer) ok() bool { return a.err == nil && a.reply.Status == "ok" && a.reply.Retcode == "0" }

func (a answer) unknown() bool {
	return a.err == nil && a.reply.UnknownAction()
}

// endpoint checks that the endpoint is SnowLuma's HTTP server on its path,
// that it accepts the token, the account it is logged in to, and its
// version against the bundled catalog. It returns the account's QQ number
// (0 when unknown), which the events check expects in its greeting.
func (r *Report) endpoint(ctx context.Context, cfg *config.Config, cat *catalog.Catalog, wait time.Duration) int64 {
	client := onebot.New(cfg.Endpoint, cfg.Token, onebot.StreamTimeouts{})
	answers := map[string]answer{}
	for _, name := range onebot.Probes {
		pctx, cancel := context.WithTimeout(ctx, wait)
		reply, err := client.Do(pctx, name, nil)
		cancel()
		answers[name] = answer{reply: reply, err: err}
	}
	first := answers[onebot.Probes[0]]
	switch {
	case first.err != nil && fault.CodeOf(first.err) == fault.CodeUpstreamAuth:
		r.add(Item{Name: "endpoint", Status: OK, Detail: "SnowLuma's HTTP server answers at " + redact(cfg.Endpoint)})
		item := failure("token", first.err)
		if cfg.EventsURL != nil {
			// Said beside the HTTP node's fix, so that the two
			// nodes' fixes never ask for one token in two places.
			item.Fix = strings.Replace(item.Fix, again, " (the WS 服务端 node's Token, if it differs, goes into "+config.EventsTokenVar+")"+again, 1)
		}
		r.add(item)
		r.skip("SnowLuma refused the token", "account", "version")
		return 0
	case first.err != nil:
		r.add(failure("endpoint", first.err))
		r.skip("the endpoint check failed", "token", "account", "version")
		return 0
	case allUnknown(answers):
		r.add(Item{Name: "endpoint", Status: Fail, Detail: onebot.PathReadAsAction(onebot.Path(cfg.Endpoint), onebot.Probes),
			Fix: personFixes[fault.CodeWrongEndpoint]})
		r.skip("the endpoint check failed", "token", "account", "version")
		return 0
	}
	r.add(Item{Name: "endpoint", Status: OK, Detail: "SnowLuma's OneBot HTTP server answers at " + redact(cfg.Endpoint)})
	if cfg.Token == "" {
		r.add(Item{Name: "token", Status: OK, Detail: "SnowLuma accepts the requests without SNOWLUMA_MCP_TOKEN"})
	} else {
		r.add(Item{Name: "token", Status: OK, Detail: "SNOWLUMA_MCP_TOKEN is accepted by the HTTP API node"})
	}
	id := r.account(answers[onebot.Probes[0]], answers[onebot.Probes[1]])
	r.version(answers[onebot.Probes[2]], cat)
	return id
}

func allUnknown(answers map[string]answer) bool {
	for _, name := range onebot.Probes {
		if !answers[name].unknown() {
			return false
		}
	}
	return true
}

// account reports who SnowLuma is logged in as, and whether it is online.
func (r *Report) account(login, status answer) int64 {
	if !login.ok() {
		r.add(refused("account", "get_login_info", login))
		return 0
	}
	var who struct {
		Data struct {
			UserID   int64  `json:"user_id"`
			Nickname string `json:"nickname"`
		} `json:"data"`
	}
	_ = json.Unmarshal(login.reply.Raw, &who)
	detail := fmt.Sprintf("logged in as %d", who.Data.UserID)
	if who.Data.Nickname != "" {
		detail += fmt.Sprintf(" (%s)", who.Data.Nickname)
	}
	var state struct {
		Data struct {
			Online bool `json:"online"`
		} `json:"data"`
	}
	switch {
	case !status.ok():
		r.add(refused("account", "get_status", status))
	case json.Unmarshal(status.reply.Raw, &state) != nil || !state.Data.Online:
		r.add(Item{Name: "account", Status: Fail, Detail: detail + ", but SnowLuma reports the account offline",
			Fix: "log the account in again in SnowLuma's WebUI"})
	default:
		r.add(Item{Name: "account", Status: OK, Detail: detail + ", online"})
	}
	return who.Data.UserID
}

// version compares SnowLuma's version with the catalog's. A difference is
// a warning: most actions stay the same across versions.
func (r *Report) version(v answer, cat *catalog.Catalog) {
	if !v.ok() {
		r.add(refused("version", "get_version_info", v))
		return
	}
	var info struct {
		Data struct {
			AppVersion string `json:"app_version"`
		} `json:"data"`
	}
	_ = json.Unmarshal(v.reply.Raw, &info)
	// SnowLuma adds a build suffix ("1.11.1-node"); the release is what
	// the catalog was made from.
	release, _, _ := strings.Cut(strings.TrimPrefix(info.Data.AppVersion, "v"), "-")
	if release == cat.Version() {
		r.add(Item{Name: "version", Status: OK, Detail: fmt.Sprintf("SnowLuma %s, as the bundled catalog", info.Data.AppVersion)})
		return
	}
	r.add(Item{Name: "version", Status: Warn,
		Detail: fmt.Sprintf("SnowLuma %q, the bundled catalog describes %s: some actions may differ", info.Data.AppVersion, cat.Version()),
		Fix:    "use the SnowLuma release the catalog describes, or a snowluma-mcp whose catalog describes yours"})
}

// failure is an item for a probe that got no envelope back, with the fix
// for the person at the terminal (the agent's next step is worded for an
// agent that cannot change the settings).
func failure(name string, err error) Item {
	fix, ok := personFixes[fault.CodeOf(err)]
	if !ok {
		fix = pipeline.NextStep(fault.CodeOf(err))
	}
	return Item{Name: name, Status: Fail, Detail: err.Error(), Fix: fix}
}

// again ends every fix: what to do once the setting is changed.
const again = ", then run this check again (and restart the server in the MCP host)"

// personFixes are the fixes of the failures a probe can meet, for the
// person who edits the MCP host's entry for this server.
var personFixes = map[fault.Code]string{
	fault.CodeUpstreamAuth: "copy the token of SnowLuma's HTTP server (" + onebot.InWebUI(onebot.NodeHTTP, onebot.FieldToken) +
		") into SNOWLUMA_MCP_TOKEN in this server's entry in the MCP host" + again,
	fault.CodeWrongEndpoint: "set SNOWLUMA_MCP_ENDPOINT to http://127.0.0.1:<port><path>, the port and path of SnowLuma's HTTP server (" +
		onebot.InWebUI(onebot.NodeHTTP, onebot.FieldPort) + ", and its \"" + onebot.FieldPath + "\" field)" + again,
	fault.CodeTransport: "start SnowLuma if it is not running, or set SNOWLUMA_MCP_ENDPOINT to the port of its HTTP server (" +
		onebot.InWebUI(onebot.NodeHTTP, onebot.FieldPort) + ")" + again,
	fault.CodeTimeout: "check that SnowLuma runs and answers at SNOWLUMA_MCP_ENDPOINT (a proxy or firewall in between can hold requests)" + again,
	fault.CodeBadReply: "set SNOWLUMA_MCP_ENDPOINT to SnowLuma's HTTP server (" + onebot.InWebUI(onebot.NodeHTTP, onebot.FieldPort) +
		"), not another service" + again,
}

// refused is an item for a probe SnowLuma answered without success.
func refused(name, action string, a answer) Item {
	if a.err != nil {
		return failure(name, a.err)
	}
	return Item{Name: name, Status: Fail,
		Detail: fmt.Sprintf("%s answered status %q, retcode %s: %s", action, a.reply.Status, a.reply.Retcode, a.reply.Wording),
		Fix:    "check the account in SnowLuma's WebUI"}
}

// skip adds the items that could not be checked, saying why.
func (r *Report) skip(why string, names ...string) {
	for _, n := range names {
		r.add(Item{Name: n, Status: Skip, Detail: "not checked: " + why})
	}
}
