package lang

import "strings"

// Tag is a language a person is spoken to in.
type Tag string

// The languages snowluma-mcp speaks to people in.
const (
	English Tag = "en"
	Chinese Tag = "zh"
)

// In is the text in tag's language.
func (t Text) In(tag Tag) string {
	if tag == Chinese && t.ZH != "" {
		return t.ZH
	}
	return t.EN
}

// Terminal is the language of the terminal a command runs in: Chinese for
// a zh locale, English otherwise. The locale is the first of LC_ALL,
// LC_MESSAGES and LANG that is set, as POSIX programs read it for their
// messages; when none is, the system's own setting decides (on Windows,
// whose consoles set none of them, the user's UI language).
func Terminal(getenv func(string) string) Tag {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			return ofLocale(v)
		}
	}
	return system()
}

// ofLocale reads a POSIX locale name ("zh_CN.UTF-8", "zh_TW", "C").
func ofLocale(v string) Tag {
	if strings.HasPrefix(strings.ToLower(v), "zh") {
		return Chinese
	}
	return English
}
