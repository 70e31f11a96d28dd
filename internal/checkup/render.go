package checkup

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// names are the items' names as a Chinese terminal shows them; the
// report's JSON keeps the English ones, for scripts.
var names = map[string]string{
	"unknown variable": "未知变量",
	"configuration":    "配置",
	"endpoint":         "HTTP API 地址",
	"token":            "Token",
	"account":          "账号",
	"version":          "版本",
	"events":           "事件",
	"upload root":      "上传根目录",
	"download dir":     "下载目录",
	"task dir":         "任务目录",
	"state dir":        "状态目录",
	"send pace":        "发送限速",
	"lockdown":         "lockdown",
}

// statuses are the statuses as a Chinese terminal shows them.
var statuses = map[Status]string{OK: "通过", Warn: "注意", Fail: "失败", Skip: "跳过"}

// Write prints the report for a person: one line per item, its status
// first, and under an item that is not OK the line that says what to
// change; then the verdict.
func (r *Report) Write(w io.Writer) {
	zh := r.lang == lang.Chinese
	name := func(it Item) string {
		if n, ok := names[it.Name]; ok && zh {
			return n
		}
		return it.Name
	}
	state := func(it Item) string {
		if zh {
			return statuses[it.Status]
		}
		return string(it.Status)
	}
	width, sw := 0, 4
	for _, it := range r.Items {
		width = max(width, columns(name(it)))
		sw = max(sw, columns(state(it)))
	}
	for _, it := range r.Items {
		fmt.Fprintf(w, "%s  %s  %s\n", pad(state(it), sw), pad(name(it), width), it.Detail)
		if it.Fix != "" && it.Status != OK && it.Status != Skip {
			fmt.Fprintf(w, "%s  %s  → %s\n", pad("", sw), pad("", width), it.Fix)
		}
	}
	failed := 0
	for _, it := range r.Items {
		if it.Status == Fail {
			failed++
		}
	}
	if r.OK {
		fmt.Fprintln(w, r.say(lang.Text{EN: "everything the configured mode needs works", ZH: "所配置的模式需要的一切都正常"}))
		return
	}
	noun := "items"
	if failed == 1 {
		noun = "item"
	}
	fmt.Fprintln(w, r.say(lang.Text{EN: fmt.Sprintf("%d %s failed: the server would not work as configured", failed, noun),
		ZH: fmt.Sprintf("%d 项失败：按现在的配置，服务器无法正常工作", failed)}))
}

// columns is how many terminal columns s takes: a Chinese character takes
// two.
func columns(s string) int {
	n := 0
	for _, c := range s {
		n++
		if unicode.Is(unicode.Han, c) || (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x3000 && c <= 0x303F) {
			n++
		}
	}
	return n
}

// pad is s filled with spaces to width columns.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-columns(s)))
}

// WriteJSON prints the report as one JSON object, for scripts: the keys,
// item names and statuses are English whatever the terminal's language.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
