package download

import (
	"strconv"
	"strings"
)

// ByContent reports whether a saved file's record names it by its content
// alone, as an anonymous download does: no remote name, and a file name
// (the last element of its path too) that is contentName of its SHA-256,
// with the " (n)" claim adds when the same content was saved before. Any
// other record carries a name SnowLuma's frames gave, which someone else
// may have chosen: a reader in lockdown must not be shown it, whichever
// server saved the file (a task's record outlives the settings it ran
// under).
func (s Saved) ByContent() bool {
	if s.RemoteName != "" || !digest(s.SHA256) || baseName(s.Path) != s.FileName {
		return false
	}
	rest, ok := strings.CutPrefix(s.FileName, s.SHA256[:16])
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, " (") {
		n, after, ok := strings.Cut(rest[2:], ")")
		if _, err := strconv.Atoi(n); !ok || err != nil || n == "" || n[0] == '+' || n[0] == '-' {
			return false
		}
		rest = after
	}
	if rest == "" {
		return true
	}
	ext, ok := strings.CutPrefix(rest, ".")
	return ok && contentName(s.SHA256, "x."+ext) == s.SHA256[:16]+"."+ext
}

// digest reports whether sum is a SHA-256 as Save writes it: 64 lower-case
// hex digits.
func digest(sum string) bool {
	if len(sum) != 64 {
		return false
	}
	return strings.Trim(sum, "0123456789abcdef") == ""
}
