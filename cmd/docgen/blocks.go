package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/handlers"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/hub"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages"
)

// blocks renders each marker's text from the code.
type blocks struct {
	root    string
	catalog *catalog.Catalog
	// tools are every tool a server can list, in listing order, and
	// eventsOnly the names of those that exist only with an events URL.
	tools      []*pipeline.Tool
	eventsOnly map[string]bool
}

func newBlocks(root string) (*blocks, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	deps := func() *handlers.Deps {
		return &handlers.Deps{Catalog: cat, Config: &config.Config{Mode: config.ModeWrite}}
	}
	without := map[string]bool{}
	for _, t := range handlers.All(deps()) {
		without[t.Name] = true
	}
	d := deps()
	d.Events = hub.New(hub.Options{})
	b := &blocks{root: root, catalog: cat, tools: handlers.All(d), eventsOnly: map[string]bool{}}
	for _, t := range b.tools {
		if !without[t.Name] {
			b.eventsOnly[t.Name] = true
		}
	}
	return b, nil
}

// render is the text of the marker name in lang.
func (b *blocks) render(name string, lang Lang) (string, error) {
	switch name {
	case "tools":
		return b.toolTable(lang)
	case "tools-by-mode":
		return b.modeTable(lang), nil
	case "variables":
		return variableTable(lang), nil
	case "bundle-settings":
		return dialogTable(lang), nil
	case "kinds":
		return kindTable(lang, fault.Kinds()), nil
	case "lockdown-reasons":
		return reasonTable(lang), nil
	case "third-party-actions":
		return b.thirdPartyTable(lang), nil
	case "trust-boundary":
		return boundaryTable(), nil
	case "pacing-deliveries":
		return b.deliveryTable(), nil
	case "pacing-unpaced":
		return b.unpacedTable(), nil
	case "stages":
		return stageDiagram(), nil
	case "packages":
		return packageTable(b.root)
	case "admission":
		return admissionTable(), nil
	case "hosts":
		return hostTable(b.root, lang)
	}
	return "", fmt.Errorf("no generated text is named %q", name)
}

// pick is the text of lang.
func pick(lang Lang, en, zh string) string {
	if lang == Chinese {
		return zh
	}
	return en
}

// table renders a Markdown table; a cell's bars are escaped.
func table(header []string, rows [][]string) string {
	var s strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i == 0 {
				s.WriteString("|")
			}
			s.WriteString(" " + strings.ReplaceAll(strings.ReplaceAll(c, `\|`, "|"), "|", `\|`) + " |")
		}
		s.WriteString("\n")
	}
	line(header)
	s.WriteString(strings.Repeat("|---", len(header)) + "|\n")
	for _, r := range rows {
		line(r)
	}
	return s.String()
}

func code(s string) string { return "`" + s + "`" }

// toolTable lists every tool: the modes (and settings) it needs, its
// arguments as its input schema declares them, and the line for people
// it declares (pipeline.Spec.Summary).
func (b *blocks) toolTable(lang Lang) (string, error) {
	var rows [][]string
	for _, t := range b.tools {
		args, err := arguments(t.InputSchema, lang)
		if err != nil {
			return "", fmt.Errorf("tool %s: %w", t.Name, err)
		}
		if t.Summary.EN == "" || t.Summary.ZH == "" {
			return "", fmt.Errorf("tool %s declares no Summary in both languages", t.Name)
		}
		rows = append(rows, []string{code(t.Name), b.modes(t, lang), args, pick(lang, t.Summary.EN, t.Summary.ZH)})
	}
	return table([]string{pick(lang, "tool", "工具"), pick(lang, "modes", "模式"), pick(lang, "arguments", "参数"), pick(lang, "what it does", "作用")}, rows), nil
}

// modeTable says which tools each server lists: per mode, and what an
// events URL or a task directory (with a client of the tasks extension)
// adds.
func (b *blocks) modeTable(lang Lang) string {
	var rows [][]string
	for _, m := range []config.Mode{config.ModeDocs, config.ModeRead, config.ModeWrite} {
		var plain, events, tasks []string
		for _, t := range b.tools {
			switch {
			case !m.Allows(t.MinMode):
			case t.Tasks:
				tasks = append(tasks, code(t.Name))
			case b.eventsOnly[t.Name]:
				events = append(events, code(t.Name))
			default:
				plain = append(plain, code(t.Name))
			}
		}
		sep := pick(lang, ", ", "、")
		add := func(what string, names []string) string {
			if len(names) == 0 {
				return "—"
			}
			return what + strings.Join(names, sep)
		}
		rows = append(rows, []string{code(string(m)), strings.Join(plain, sep),
			add("+ ", events), add("+ ", tasks)})
	}
	return table([]string{pick(lang, "mode", "模式"), pick(lang, "tools", "工具"),
		pick(lang, "with `SNOWLUMA_MCP_EVENTS_URL`", "设置了 `SNOWLUMA_MCP_EVENTS_URL` 时"),
		pick(lang, "with `SNOWLUMA_MCP_TASK_DIR`, for a client of the tasks extension", "设置了 `SNOWLUMA_MCP_TASK_DIR`、且客户端声明了 tasks 扩展时")}, rows)
}

// modes says which servers list t: its least mode, and what else it needs.
func (b *blocks) modes(t *pipeline.Tool, lang Lang) string {
	var s string
	switch t.MinMode {
	case config.ModeDocs:
		s = pick(lang, "all", "全部")
	case config.ModeRead:
		s = pick(lang, "read, write", "read、write")
	default:
		s = string(t.MinMode)
	}
	switch {
	case t.Tasks:
		s += pick(lang, " (with `SNOWLUMA_MCP_TASK_DIR` and a client that declares the tasks extension)", "（需设置 `SNOWLUMA_MCP_TASK_DIR`，且客户端声明了 tasks 扩展）")
	case b.eventsOnly[t.Name]:
		s += pick(lang, " (with `SNOWLUMA_MCP_EVENTS_URL`)", "（需设置 `SNOWLUMA_MCP_EVENTS_URL`）")
	}
	return s
}

// arguments names a tool's arguments in its schema's order: the required
// ones marked, and the values of an enumerated one.
func arguments(raw json.RawMessage, lang Lang) (string, error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	names, props, err := orderedKeys(s.Properties)
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return pick(lang, "none", "无"), nil
	}
	var out []string
	for i, n := range names {
		var p struct {
			Enum []any `json:"enum"`
		}
		if err := json.Unmarshal(props[i], &p); err != nil {
			return "", err
		}
		a := code(n)
		if slices.Contains(s.Required, n) {
			a += pick(lang, " (required)", "（必填）")
		}
		if len(p.Enum) > 0 {
			var vs []string
			for _, v := range p.Enum {
				vs = append(vs, code(fmt.Sprint(v)))
			}
			a += pick(lang, ": ", "：") + strings.Join(vs, pick(lang, ", ", "、"))
		}
		out = append(out, a)
	}
	return strings.Join(out, pick(lang, "; ", "；")), nil
}

// orderedKeys returns an object's keys and values in the order written.
func orderedKeys(obj json.RawMessage) ([]string, []json.RawMessage, error) {
	if len(obj) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, values = append(keys, k.(string)), append(values, v)
	}
	return keys, values, nil
}

// variableTable lists every setting, from config.Descriptions.
func variableTable(lang Lang) string {
	var rows [][]string
	for _, d := range config.Descriptions() {
		rows = append(rows, []string{code(d.Name), pick(lang, d.Meaning.EN, d.Meaning.ZH), pick(lang, d.Accepts.EN, d.Accepts.ZH), pick(lang, d.Absent.EN, d.Absent.ZH)})
	}
	return table([]string{pick(lang, "variable", "变量"), pick(lang, "meaning", "含义"), pick(lang, "accepted values", "可接受的值"), pick(lang, "when absent", "未设置时")}, rows)
}

// dialogTable lists the settings Claude Desktop asks for when it installs
// the bundle (config.Dialog), each titled as the host shows it (both
// languages: the manifest cannot localize a setting), with the variable it
// fills and its help in the page's language.
func dialogTable(lang Lang) string {
	var rows [][]string
	for _, d := range config.Dialog() {
		rows = append(rows, []string{d.HostTitle(), code(d.Var), pick(lang, d.Description.EN, d.Description.ZH)})
	}
	return table([]string{pick(lang, "setting", "设置项"), pick(lang, "fills", "对应变量"), pick(lang, "what to enter", "填什么")}, rows)
}

// kindTable lists every diagnostics kind the server can emit, in the
// words of their rows (fault.Kinds).
func kindTable(lang Lang, kinds []fault.Described) string {
	var rows [][]string
	for _, d := range kinds {
		rows = append(rows, []string{code(d.Kind), pick(lang, d.Outcome.EN, d.Outcome.ZH), pick(lang, d.Happened.EN, d.Happened.ZH), pick(lang, d.Fix.EN, d.Fix.ZH)})
	}
	return table([]string{"kind", "outcome", pick(lang, "what happened", "发生了什么"), pick(lang, "usual next step", "通常的下一步")}, rows)
}

// reasonTable lists every reason lockdown gives in "withheld", with the
// placeholder that replaces what it withholds, as the agent reads it.
func reasonTable(lang Lang) string {
	var rows [][]string
	for _, r := range content.Reasons() {
		rows = append(rows, []string{code(r), code("[withheld by lockdown: " + content.Explain(r) + "]")})
	}
	return table([]string{code("withheld"), pick(lang, "the placeholder the agent reads instead", "智能体读到的占位文字（原文）")}, rows)
}

// thirdPartyTable lists the actions whose results the catalog declares
// to carry other people's words, with where in the result they are.
func (b *blocks) thirdPartyTable(lang Lang) string {
	var rows [][]string
	for _, a := range b.catalog.Actions() {
		var spots []string
		for _, s := range a.ThirdParty {
			// An empty path is the result itself: a code span of nothing
			// renders as two backquotes, so it is named in words.
			at := pick(lang, "the whole result", "整个结果")
			if s.At != "" {
				at = code(s.At)
			}
			spots = append(spots, at+pick(lang, " ("+s.Shape+")", "（"+s.Shape+"）"))
		}
		if len(spots) > 0 {
			rows = append(rows, []string{code(a.Name), strings.Join(spots, ", ")})
		}
	}
	return table([]string{pick(lang, "action", "动作"), pick(lang, "where its result carries someone's words (shape)", "结果中他人文字所在的位置（结构）")}, rows)
}

// boundaryTable is the trust boundary, from content.Boundary. It is a
// contributor's table, in English only.
func boundaryTable() string {
	var rows [][]string
	for _, f := range content.Boundary() {
		name := f.Name
		if name != "—" {
			name = code(name)
		}
		rows = append(rows, []string{code(f.Shape), name, f.Where, f.Control, f.Decision, code(f.Test)})
	}
	return table([]string{"shape", "field", "where", "who controls its value", "decision", "pinned by"}, rows)
}

// stageDiagram draws every call's trip through the stages, in the order
// of stages.Places, each with the line it Does. It is a contributor's
// drawing, in English only.
func stageDiagram() string {
	width := 0
	for _, p := range stages.Places() {
		width = max(width, len(p.Name))
	}
	var s strings.Builder
	s.WriteString("```\n tools/call\n")
	s.WriteString("   │  server.adapt copies arguments, _meta, client capabilities, continuation\n")
	s.WriteString("   │  and progress token into a pipeline.Call (nothing reads the request after)\n")
	s.WriteString("   ▼\n")
	for _, p := range stages.Places() {
		s.WriteString(" " + p.Name + " " + strings.Repeat("─", width+1-len(p.Name)) + " " + p.Does + "\n")
	}
	s.WriteString("   │\n   ▼\n")
	s.WriteString(" handler (handlers/<tool>.go)  ──►  pipeline.Render ──► CallToolResult\n```\n")
	return s.String()
}

// admissionTable lists the stages a background call's admission passes,
// in order, each with its reason, from stages.Places.
func admissionTable() string {
	var rows [][]string
	for _, p := range stages.Places() {
		if p.Admits {
			rows = append(rows, []string{code(p.Name), p.AdmitsWhy})
		}
	}
	return table([]string{"stage", "why the admission passes it"}, rows)
}

// deliveryTable lists every action that is paced: the params that name
// where it goes, from its Delivers, and why it is a delivery. A
// contributor's table, in English only.
func (b *blocks) deliveryTable() string {
	var rows [][]string
	for _, a := range b.sortedActions() {
		if a.Delivers == nil {
			continue
		}
		var targets []string
		for _, tg := range a.Delivers.Targets {
			targets = append(targets, code(tg.Param)+" ("+tg.Chat+")")
		}
		where := strings.Join(targets, ", ")
		switch {
		case where == "":
			where = "none: the account alone"
		case a.Delivers.Required:
			where += ", required"
		}
		rows = append(rows, []string{code(a.Name), where, catalog.DeliveryReason(a.Name)})
	}
	return table([]string{"action", "target params, in routing order", "why it is a delivery"}, rows)
}

// unpacedTable lists the writes that are not paced, by why.
func (b *blocks) unpacedTable() string {
	var rows [][]string
	for _, group := range []string{"moderation", "settings", "takes back", "own files", "own state"} {
		var names []string
		for _, a := range b.sortedActions() {
			if catalog.UnpacedGroup(a.Name) == group {
				names = append(names, code(a.Name))
			}
		}
		rows = append(rows, []string{group, strings.Join(names, ", ")})
	}
	return table([]string{"why not", "actions"}, rows)
}

// sortedActions are the catalog's actions by name, leading underscores
// ignored, as the pacing tables list them.
func (b *blocks) sortedActions() []*catalog.Action {
	as := slices.Clone(b.catalog.Actions())
	slices.SortFunc(as, func(x, y *catalog.Action) int {
		return strings.Compare(strings.TrimLeft(x.Name, "_"), strings.TrimLeft(y.Name, "_"))
	})
	return as
}
