package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAShippedReadmeLinksTheRestOfTheTreeAtItsCommit(t *testing.T) {
	t.Parallel()
	readme := "See [Tools](docs/tools.md#quoted-ids), [中文](README.zh-CN.md), [MIT](LICENSE), " +
		"[Install](#install), [releases](https://github.com/snowluma/snowluma-mcp/releases) and [CONTRIBUTING.md](CONTRIBUTING.md).\n"
	docs := []entry{{"README.md", 0o644, []byte(readme)}, {"README.zh-CN.md", 0o644, []byte("见 [工具](docs/zh-CN/tools.md)\n")}, {"LICENSE", 0o644, []byte("MIT (docs/x.md)\n")}}
	tests := []struct {
		name, version, ref string
	}{
		{"a release links its tag", "1.2.0", "v1.2.0"},
		{"a pre-release links its tag", "1.3.0-rc.1", "v1.3.0-rc.1"},
		{"a snapshot links its commit", "0.0.0-20261204083000-0123456789ab", "0123456789ab"},
		{"a dirty snapshot links the commit it started from", "0.0.0-20261204083000-0123456789ab+dirty", "0123456789ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := shippedTexts(docs, tt.version)
			base := "https://github.com/snowluma/snowluma-mcp/blob/" + tt.ref + "/"
			assert.Equal(t, "See [Tools]("+base+"docs/tools.md#quoted-ids), [中文](README.zh-CN.md), [MIT](LICENSE), "+
				"[Install](#install), [releases](https://github.com/snowluma/snowluma-mcp/releases) and [CONTRIBUTING.md]("+base+"CONTRIBUTING.md).\n",
				string(got[0].Data), "what ships beside it stays relative; the rest points at the tree")
			assert.Equal(t, "见 [工具]("+base+"docs/zh-CN/tools.md)\n", string(got[1].Data))
			assert.Equal(t, "MIT (docs/x.md)\n", string(got[2].Data), "only Markdown is rewritten")
			assert.Equal(t, readme, string(docs[0].Data), "the tree's own copy is untouched")
		})
	}
}
