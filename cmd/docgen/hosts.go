package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The hosts of docs/platforms.md's table, in its order: the folder of
// each one's capture under e2e/hosts/testdata and the name people know.
var hostCaptures = []struct{ dir, name string }{
	{"claude-code", "Claude Code"},
	{"gemini", "Gemini CLI"},
	{"codex", "Codex"},
}

// hostCapture is what make test-hosts captured of one host: the first
// message it sent the server (connect.json) and the client field of the
// server's get_runtime_info answer to it (client.json), which says what
// the server read there and offers in return.
type hostCapture struct {
	Method          string `json:"method"`
	ProtocolVersion string `json:"protocolVersion"`
	ClientInfo      struct {
		Version string `json:"version"`
	} `json:"clientInfo"`
	Meta struct {
		ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		ClientInfo      struct {
			Version string `json:"version"`
		} `json:"io.modelcontextprotocol/clientInfo"`
	} `json:"_meta"`
}

type hostClient struct {
	Declared            []string `json:"declared"`
	BackgroundTransfers struct {
		On bool `json:"on"`
	} `json:"background_transfers"`
	PreviewPanel struct {
		On bool `json:"on"`
	} `json:"preview_panel"`
	AskForMissingParams struct {
		On bool `json:"on"`
	} `json:"ask_for_missing_params"`
}

// hostTable is docs/platforms.md's table of what each host declares,
// from the host suite's captures: a host bump that declares something
// else changes the capture (make test-hosts UPDATE=1), and the page
// follows with go generate.
func hostTable(root string, lang Lang) (string, error) {
	var rows [][]string
	for _, h := range hostCaptures {
		dir := filepath.Join(root, "e2e", "hosts", "testdata", h.dir)
		var connects []hostCapture
		if err := readJSON(filepath.Join(dir, "connect.json"), &connects); err != nil {
			return "", err
		}
		var clients []hostClient
		if err := readJSON(filepath.Join(dir, "client.json"), &clients); err != nil {
			return "", err
		}
		if len(connects) == 0 || len(clients) != 1 {
			return "", fmt.Errorf("%s: the host suite's capture is incomplete: run make test-hosts UPDATE=1", dir)
		}
		c, cl := connects[0], clients[0]
		version, protocol := c.ClientInfo.Version, c.ProtocolVersion
		if c.Method == "server/discover" {
			version, protocol = c.Meta.ClientInfo.Version, c.Meta.ProtocolVersion
		}
		rows = append(rows, []string{
			h.name + " " + version, protocol, declaredCell(lang, cl.Declared),
			onOff(lang, cl.BackgroundTransfers.On, "off: in the foreground through `query_action`/`invoke_action`", "不可用：在前台通过 `query_action`/`invoke_action` 进行"),
			onOff(lang, cl.PreviewPanel.On, "off: previews are text", "不可用：预览以文字给出"),
			onOff(lang, cl.AskForMissingParams.On, "off: the agent asks in chat", "不可用：由智能体在对话里询问"),
		})
	}
	header := []string{"host", "protocol", "declares", "background transfers (tasks extension)", "preview panel (MCP Apps)", "asking for missing parameters (form elicitation)"}
	if lang == Chinese {
		header = []string{"宿主", "协议版本", "声明的能力", "后台传输（tasks 扩展）", "预览面板（MCP Apps）", "询问缺少的参数（表单式 elicitation）"}
	}
	return table(header, rows), nil
}

// declaredCell names what a host declared, as the server reads it.
func declaredCell(lang Lang, declared []string) string {
	var parts, forms []string
	for _, d := range declared {
		switch {
		case strings.HasPrefix(d, "elicitation."):
			forms = append(forms, strings.TrimPrefix(d, "elicitation."))
		case strings.HasPrefix(d, "extensions/"):
			parts = append(parts, pick(lang, "extension ", "扩展 ")+code(strings.TrimPrefix(d, "extensions/")))
		default:
			parts = append(parts, code(d))
		}
	}
	if len(forms) > 0 {
		parts = append(parts, code("elicitation")+pick(lang, " "+strings.Join(forms, " and "), " 的 "+strings.Join(forms, " 和 ")))
	}
	if len(parts) == 0 {
		return pick(lang, "nothing", "无")
	}
	return strings.Join(parts, pick(lang, ", ", "，"))
}

// onOff is a feature's cell: on, or off with what stands in for it.
func onOff(lang Lang, on bool, offEN, offZH string) string {
	if on {
		return pick(lang, "on", "可用")
	}
	return pick(lang, offEN, offZH)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
