package handlers

import (
	"fmt"
	"slices"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/mcp/generation"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// clientInfo is what the client of this call declared and what the server
// therefore offers it. A host that shows the server as connected says
// nothing of this, and none of the hosts measured (docs/platforms.md)
// declares the tasks or the MCP Apps extension, so the agent and the user
// read here why background transfers or the preview panel are missing,
// and what stands in for them. It is read where the call is served: a
// 2026-07-28 client declares its capabilities on each request, a legacy
// one at initialize (pipeline.Client reads whichever applies).
type clientInfo struct {
	// Protocol is the protocol version the client speaks: 2026-07-28
	// (declared with this request), or the legacy version its initialize
	// negotiated (2025-06-18, 2025-11-25 …).
	Protocol string `json:"protocol"`
	// Declared names what the client declared that the server reads:
	// roots, sampling, elicitation.form, elicitation.url and each
	// extension as extensions/<id>.
	Declared            []string      `json:"declared"`
	BackgroundTransfers clientFeature `json:"background_transfers"`
	PreviewPanel        clientFeature `json:"preview_panel"`
	AskForMissingParams clientFeature `json:"ask_for_missing_params"`
}

// clientFeature is one feature: on or off, and one line for a person
// that says why and, when off, what happens instead.
type clientFeature struct {
	On   bool   `json:"on"`
	Line string `json:"line"`
}

// describeClient reads c's declaration for a server in mode; tasks says
// whether the server keeps a task store (write mode with a usable
// SNOWLUMA_MCP_TASK_DIR). Each line is true of this mode and this client
// together: a feature this mode does not offer is off whatever the client
// declared, and the fallback named is one this mode has (RT-3).
func describeClient(c pipeline.Client, mode config.Mode, tasks bool) clientInfo {
	info := clientInfo{Protocol: c.Protocol, Declared: []string{}}
	if info.Protocol == "" && c.Modern {
		info.Protocol = generation.ModernVersion
	} else if info.Protocol == "" {
		info.Protocol = "unknown"
	}
	caps := c.Capabilities()
	var extensions map[string]any
	if caps != nil {
		extensions = caps.Extensions
		//lint:ignore SA1019 what a client declares is reported, deprecated or not
		if caps.RootsV2 != nil {
			info.Declared = append(info.Declared, "roots")
		}
		//lint:ignore SA1019 what a client declares is reported, deprecated or not
		if caps.Sampling != nil {
			info.Declared = append(info.Declared, "sampling")
		}
		if e := caps.Elicitation; e != nil {
			if e.Form != nil || e.URL == nil {
				info.Declared = append(info.Declared, "elicitation.form")
			}
			if e.URL != nil {
				info.Declared = append(info.Declared, "elicitation.url")
			}
		}
		for id := range extensions {
			info.Declared = append(info.Declared, "extensions/"+id)
		}
		slices.Sort(info.Declared)
	}
	_, hostTasks := extensions[generation.TasksExtension]
	info.BackgroundTransfers = transfers(c, mode, hostTasks, tasks)
	if generation.RendersApps(extensions[generation.AppsExtension]) {
		info.PreviewPanel = clientFeature{true, "Preview panel: on. This host declared the MCP Apps extension, so a draft can be shown in a panel."}
	} else {
		info.PreviewPanel = clientFeature{false, "Preview panel: off. This host did not declare the MCP Apps extension (with HTML); a preview is given as text."}
	}
	info.AskForMissingParams = asking(c, mode)
	return info
}

// transfers is the background transfers line. Transfers (stream actions)
// run through invoke_action, in write mode only: query_action refuses
// them, so below write mode there is none, in the background or not.
func transfers(c pipeline.Client, mode config.Mode, hostTasks, tasks bool) clientFeature {
	if !mode.Allows(config.ModeWrite) {
		return clientFeature{false, fmt.Sprintf("Background transfers: off. Transfers (uploads and downloads) need write mode, and this server runs in %s mode: there are none here, in the background or the foreground.", mode)}
	}
	const foreground = "transfers run in the foreground through invoke_action, and the call lasts as long as the transfer"
	switch {
	case hostTasks && !c.Modern:
		// The extension is served on 2026-07-28 requests only
		// (generation.Tasks).
		return clientFeature{false, "Background transfers: off. This host declared the tasks extension at a legacy initialize, and tasks need 2026-07-28 requests that declare it; " + foreground + "."}
	case hostTasks && tasks:
		return clientFeature{true, "Background transfers: on. This host declared the tasks extension, so a long upload or download can run as a task while the conversation goes on."}
	case hostTasks:
		return clientFeature{false, "Background transfers: off. This host declared the tasks extension, but the server keeps no task folder (write mode with SNOWLUMA_MCP_TASK_DIR); " + foreground + "."}
	}
	return clientFeature{false, "Background transfers: off. This host did not declare the tasks extension; " + foreground + "."}
}

// asking is the asking-for-missing-parameters line: the *_with_input
// twins of query_action (read mode) and invoke_action (write mode) ask, so
// docs mode has none to ask with.
func asking(c pipeline.Client, mode config.Mode) clientFeature {
	if !mode.Allows(config.ModeRead) {
		return clientFeature{false, fmt.Sprintf("Asking for missing parameters: off. This server runs in %s mode, which runs no action, so no tool asks (the *_with_input tools need read or write mode).", mode)}
	}
	if !c.FormElicitation() {
		return clientFeature{false, "Asking for missing parameters: off. This host did not declare form elicitation; ask the user in chat, then call again with the answer."}
	}
	tools := "query_action_with_input"
	if mode.Allows(config.ModeWrite) {
		tools += " and invoke_action_with_input"
	}
	return clientFeature{true, "Asking for missing parameters: on. This host declared form elicitation, so " + tools + " can ask the user in a form for a missing parameter."}
}
