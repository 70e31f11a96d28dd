package config

import (
	"slices"
	"strconv"
	"strings"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// TrustedUsersVar turns lockdown on: the QQ users whose messages, comments
// and notices an agent may read. Everyone else's are withheld.
const TrustedUsersVar = "SNOWLUMA_MCP_TRUSTED_USERS"

// trustedUsers reads the trusted list: QQ numbers separated by commas or
// spaces, each a positive whole number. Unset or the empty string means no
// lockdown: hosts write "" for an optional setting the user left out (MCP
// Bundles among them). Anything else must name someone: a value of only
// spaces, tabs or separators is a list gone wrong (a template whose number
// was never filled in), and running without lockdown on it would turn the
// protection off silently. A malformed list stops the server rather than
// running with a list other than the one meant; the message says what is
// accepted, never the value.
func (p *parser) trustedUsers() []int64 {
	if p.getenv(TrustedUsersVar) == "" {
		return nil
	}
	v := p.value(TrustedUsersVar)
	var ids []int64
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id < 1 {
			p.fail(TrustedUsersVar, lang.Text{EN: "must be a list of QQ numbers (positive whole numbers) separated by commas or spaces",
				ZH: "必须是一串 QQ 号（正整数），用逗号或空格分隔"})
			return nil
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		p.fail(TrustedUsersVar, lang.Text{EN: "must name at least one QQ number when set: it holds only spaces, tabs or separators. Leave it empty or unset to turn lockdown off",
			ZH: "设置了就至少要写一个 QQ 号：现在里面只有空格、制表符或分隔符。想关闭锁定，就留空或不设置它"})
		return nil
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
