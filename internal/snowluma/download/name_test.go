package download

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/internal/filename"
)

// TestFinalNameIsSafeOnWindows: whatever SnowLuma calls a file, the saved
// name is one Windows stores as written.
func TestFinalNameIsSafeOnWindows(t *testing.T) {
	t.Parallel()
	tests := []struct{ remote, want string }{
		{"hello.txt", "hello.txt"},
		{"群文件 报告.docx", "群文件 报告.docx"},
		{"CON", "_CON"},
		{"nul.txt", "_nul.txt"},
		{"com1", "_com1"},
		{"LPT9.log", "_LPT9.log"},
		{"CON .txt", "_CON .txt"},
		{"conference.txt", "conference.txt"},
		{"a.txt.", "a.txt"},
		{"a.txt . ", "a.txt"},
		{"name. . .", "name"},
		{`a<b>c:d"e/f\g|h?i*j`, "a_b_c_d_e_f_g_h_i_j"},
		{"file.txt::$DATA", "file.txt__$DATA"},
		{"tab\there", "tab_here"},
		{`C:\Windows\System32\drivers`, "C__Windows_System32_drivers"},
		{`\\?\C:\x`, "____C__x"},
		{"...", "download"},
		{". .", "download"},
		{"", "download"},
		{strings.Repeat("x", 300) + ".", strings.Repeat("x", 200)},
	}
	for _, tt := range tests {
		got := finalName(tt.remote)
		assert.Equal(t, tt.want, got, "%q", tt.remote)
		assert.False(t, filename.Device(got), "%q → %q is a device", tt.remote, got)
		assert.False(t, filename.Trimmed(got), "%q → %q ends in a dot or space", tt.remote, got)
		assert.False(t, strings.ContainsFunc(got, filename.Forbidden), "%q → %q has a forbidden character", tt.remote, got)
		assert.False(t, strings.HasPrefix(got, "."), "%q → %q starts with a dot", tt.remote, got)
	}
}
