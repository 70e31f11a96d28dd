package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type runtimeInfo struct {
	Mode             string         `json:"mode"`
	ExecutionEnabled bool           `json:"execution_enabled"`
	WriteEnabled     bool           `json:"write_enabled"`
	Catalog          catalogInfo    `json:"catalog"`
	ServerSupport    string         `json:"server_support"`
	Transport        *transportInfo `json:"transport"`
	// Client is what the client of this call declared and what it can
	// therefore use.
	Client            clientInfo       `json:"client"`
	ConnectionChecked bool             `json:"connection_checked"`
	Checks            map[string]check `json:"checks,omitempty"`
	// Events is there only when live events are enabled.
	Events *eventsInfo `json:"events,omitempty"`
	// SendPace is there only in write mode.
	SendPace *sendPaceInfo `json:"send_pace,omitempty"`
	// Lockdown says whether other people's words are withheld.
	Lockdown lockdownInfo `json:"lockdown"`
	// IgnoredVariables is there only when the environment sets variables
	// named like settings that the server does not read: the agent, which
	// does not see stderr, can then tell the user why a feature is off.
	IgnoredVariables []ignoredVariable `json:"ignored_variables,omitempty"`
	// SettingProblems is there only when a setting could not be used as
	// given (a service it turned off, a mode it fell back from) or a
	// folder was made private: the variable, what the server does, and
	// what to tell the user. The ignored variables are not repeated.
	SettingProblems []settingProblem `json:"setting_problems,omitempty"`
}

// settingProblem is one finding of the reading of the settings, as the
// agent needs it; never a value.
type settingProblem struct {
	Variable string        `json:"variable"`
	Effect   config.Effect `json:"effect"`
	Message  string        `json:"message"`
}

// ignoredVariable is one such variable: its name, the setting it likely
// meant ("" when none is close) and what to do; never its value, which
// may be a secret.
type ignoredVariable struct {
	Name        string `json:"name"`
	LikelyMeant string `json:"likely_meant,omitempty"`
	Fix         string `json:"fix"`
}

// lockdownInfo is the third-party content policy: on with a trusted list
// (SNOWLUMA_MCP_TRUSTED_USERS), and how many users it names; never who.
// The logged-in account is trusted besides them.
type lockdownInfo struct {
	Enabled      bool `json:"enabled"`
	TrustedUsers int  `json:"trusted_users"`
}

// eventsInfo is the live event limits and how much of them is in use;
// never the event URL.
type eventsInfo struct {
	ActiveResources int   `json:"active_resources"`
	MaxResources    int   `json:"max_resources"`
	MaxEvents       int   `json:"max_events_per_resource"`
	MaxBytes        int64 `json:"max_bytes_per_resource"`
	MaxFrameBytes   int64 `json:"max_frame_bytes"`
}

type catalogInfo struct {
	Version     string `json:"version"`
	ActionCount int    `json:"action_count"`
}

// transportInfo holds effective limits and host paths; never the endpoint,
// the token or any header.
type transportInfo struct {
	TimeoutMS              int64   `json:"timeout_ms"`
	MaxFileBytes           int64   `json:"max_file_bytes"`
	DownloadQuotaBytes     int64   `json:"download_quota_bytes"`
	MaxStreams             int     `json:"max_streams"`
	StreamConnectTimeoutMS int64   `json:"stream_connect_timeout_ms"`
	StreamIdleTimeoutMS    int64   `json:"stream_idle_timeout_ms"`
	UploadChunkBytes       int     `json:"upload_chunk_bytes"`
	DownloadDir            string  `json:"download_dir"`
	UploadRoot             *string `json:"upload_root"`
	UploadEnabled          bool    `json:"upload_enabled"`
	// UploadRootProblem says why a configured upload root cannot be used
	// (upload_enabled is then false); DownloadDirProblem why the download
	// directory cannot be created. Both are checked at each call.
	UploadRootProblem  string `json:"upload_root_problem,omitempty"`
	DownloadDirProblem string `json:"download_dir_problem,omitempty"`
}

type check struct {
	Result      json.RawMessage      `json:"result"`
	Diagnostics pipeline.Diagnostics `json:"diagnostics"`
	// unknown says SnowLuma answered retcode 1404, "unknown action".
	unknown bool
}

type runtimeArgs struct {
	CheckConnection bool `json:"check_connection,omitempty" jsonschema:"为 true 时用 get_login_info、get_status、get_version_info 检查与 SnowLuma 的连接（check connection；read/write 模式）。"`
}

// GetRuntimeInfo reports the effective configuration and, on request,
// checks the connection with three read-only actions.
func GetRuntimeInfo(d *Deps) *pipeline.Tool {
	return pipeline.NewTool[runtimeArgs, runtimeInfo](pipeline.Spec{
		Name:        "get_runtime_info",
		Description: "运行时概况（runtime info）：模式、能否执行和写、动作目录版本、生效的超时、文件与上传限制、发送额度、锁定状态；不含 endpoint 与 Token。",
		Sample:      pipeline.Sample{Good: `{}`, Bad: `{"check_connection":"yes"}`},
		Summary: lang.Text{
			EN: "Shows the mode, the limits and what this host can use; with check_connection: true (read and write mode) it also checks the connection to SnowLuma.",
			ZH: "查看模式、各项限制和这个宿主能用哪些功能；传入 check_connection: true 时（read 和 write 模式），还会检查与 SnowLuma 的连接。",
		},
		MinMode: config.ModeDocs, Annotations: readOnlyDocs,
	}, func(ctx context.Context, c *pipeline.Call, args *runtimeArgs) (pipeline.Reply[runtimeInfo], error) {
		if p := d.Config.Broken; p != nil {
			// What the runtime would be depends on the setting that was
			// refused; say that instead of describing a stand-in.
			msg := fmt.Sprintf("snowluma-mcp is not configured: %s. The server connects to nothing and offers only the documentation tools until the user corrects %s in the MCP client configuration and restarts it", p, p.Var)
			if n := config.Notice(d.Config.Strays); n != "" {
				msg += ". " + strings.TrimSuffix(n, ".")
			}
			return pipeline.Reply[runtimeInfo]{}, fault.Errorf(fault.CodeConfiguration, "%s", msg).Unsent()
		}
		info := describe(d)
		info.Client = describeClient(c.Client, d.Config.Mode, d.Tasks != nil)
		if !args.CheckConnection {
			return pipeline.Reply[runtimeInfo]{Payload: info}, nil
		}
		if c.OneBot == nil {
			return pipeline.Reply[runtimeInfo]{}, fault.Errorf(fault.CodeModeDenied, "check_connection needs read or write mode with an endpoint")
		}
		info.ConnectionChecked = true
		info.Checks = map[string]check{}
		for _, name := range onebot.Probes {
			info.Checks[name] = runCheck(ctx, d, c, name)
		}
		return pipeline.Reply[runtimeInfo]{Payload: info, Diagnostics: overall(info.Checks, d.Config.Endpoint)}, nil
	})
}

// overall is the verdict of a connection check: success only when every
// check succeeded. When all fail alike (a refused token, say) the verdict
// carries that kind and its advice; otherwise it names the checks that
// failed and points to their own diagnostics. Every SnowLuma knows the
// three checks, so "unknown action" for all of them is not an old
// SnowLuma but a wrong endpoint path: SnowLuma's HTTP server reads a path
// below its own as the action's name, and that name wins over the body's.
func overall(checks map[string]check, endpoint *url.URL) pipeline.Diagnostics {
	if allUnknown(checks) {
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeFailed, Kind: string(fault.CodeWrongEndpoint),
			Message:  onebot.PathReadAsAction(onebot.Path(endpoint), onebot.Probes),
			NextStep: pipeline.NextStep(fault.CodeWrongEndpoint)}
	}
	var failed []string
	kinds := map[string]bool{}
	for _, name := range onebot.Probes {
		if d := checks[name].Diagnostics; d.Outcome != pipeline.OutcomeSuccess {
			failed = append(failed, fmt.Sprintf("%s (%s)", name, d.Kind))
			kinds[d.Kind] = true
		}
	}
	if len(failed) == 0 {
		return pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}
	}
	diag := pipeline.Verdict(fault.KindConnectionCheckFailed,
		fmt.Sprintf("%d of %d connection checks failed: %s", len(failed), len(onebot.Probes), strings.Join(failed, ", ")), "", false)
	if len(failed) == len(onebot.Probes) && len(kinds) == 1 {
		first := checks[onebot.Probes[0]].Diagnostics
		diag.Kind, diag.NextStep = first.Kind, first.NextStep
	}
	return diag
}

func allUnknown(checks map[string]check) bool {
	for _, name := range onebot.Probes {
		if !checks[name].unknown {
			return false
		}
	}
	return true
}

func describe(d *Deps) runtimeInfo {
	cfg := d.Config
	info := runtimeInfo{
		Mode: string(cfg.Mode), ExecutionEnabled: cfg.Mode.Allows(config.ModeRead), WriteEnabled: cfg.Mode.Allows(config.ModeWrite),
		Catalog:       catalogInfo{Version: d.Catalog.Version(), ActionCount: len(d.Catalog.Actions())},
		ServerSupport: "unknown",
		Lockdown:      lockdownInfo{Enabled: len(cfg.TrustedUsers) > 0, TrustedUsers: len(cfg.TrustedUsers)},
	}
	for _, s := range cfg.Strays {
		info.IgnoredVariables = append(info.IgnoredVariables, ignoredVariable{Name: s.Name, LikelyMeant: s.Closest, Fix: s.Fix})
	}
	for _, f := range cfg.Findings {
		if f.Agent != "" && f.Item != config.StrayItem {
			info.SettingProblems = append(info.SettingProblems, settingProblem{Variable: f.Var, Effect: f.Effect, Message: f.Agent})
		}
	}
	if info.ExecutionEnabled {
		t := &transportInfo{
			TimeoutMS: cfg.Timeout.Milliseconds(), MaxFileBytes: cfg.MaxFileBytes, DownloadQuotaBytes: cfg.DownloadQuotaBytes,
			MaxStreams: cfg.MaxStreams, StreamConnectTimeoutMS: cfg.StreamConnectTimeout.Milliseconds(),
			StreamIdleTimeoutMS: cfg.StreamIdleTimeout.Milliseconds(), UploadChunkBytes: cfg.UploadChunkBytes,
			DownloadDir: cfg.DownloadDir,
		}
		if cfg.UploadRoot != "" {
			t.UploadRoot = &cfg.UploadRoot
			t.UploadEnabled = true
		}
		// Uploads and downloads are stream actions, which need write
		// mode; only there can the directories stop a call.
		if cfg.WriteEnabled() {
			if cfg.UploadRoot != "" {
				if why := upload.RootProblem(cfg.UploadRoot); why != "" {
					t.UploadRootProblem, t.UploadEnabled = upload.RootVar+" "+why, false
				}
			}
			if why := download.DirProblem(cfg.DownloadDir); why != "" {
				t.DownloadDirProblem = download.DirVar + " " + why
			}
		}
		info.Transport = t
		info.SendPace = describePace(cfg, d.Pace)
		if d.Events != nil {
			l := d.Events.Limits()
			info.Events = &eventsInfo{ActiveResources: len(d.Events.List()), MaxResources: l.Resources,
				MaxEvents: l.Events, MaxBytes: l.Bytes, MaxFrameBytes: l.Frame}
		}
	}
	return info
}

// runCheck runs one check through the same read gate as query_action; each
// check keeps its own verdict so a partial failure stays visible.
func runCheck(ctx context.Context, d *Deps, c *pipeline.Call, name string) check {
	a, err := pipeline.Resolve(d.Catalog, name, pipeline.ReadActions)
	if err == nil {
		reply, doErr := c.OneBot.Do(ctx, a.Name, nil)
		if doErr == nil {
			return check{Result: reply.Raw, Diagnostics: verdict(reply, true), unknown: reply.UnknownAction()}
		}
		err = doErr
	}
	return check{Result: json.RawMessage("null"), Diagnostics: pipeline.Failure(c, err).Diagnostics}
}
