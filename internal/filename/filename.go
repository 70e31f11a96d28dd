// Package filename knows which names Windows reads as something other
// than a file: the rules that upload containment and saved download names
// share. They are plain string rules, the same on every platform, so a
// name checked on Linux stays safe when the files are copied to Windows.
package filename

import "strings"

// Device reports whether Windows takes name for a device rather than a
// file: CON, PRN, AUX, NUL, COM0–9, LPT0–9 (and their superscript
// variants), CONIN$, CONOUT$, CLOCK$, in any case, with any extension and
// with spaces before the extension ("nul", "Com1.txt", "CON .log").
func Device(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$":
		return true
	}
	if len(stem) < 4 || (stem[:3] != "COM" && stem[:3] != "LPT") {
		return false
	}
	switch stem[3:] {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// Forbidden reports a character Windows does not allow in a name: one of
// <>:"/\|?* or a control character.
func Forbidden(r rune) bool {
	return r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"/\|?*`, r)
}

// Trimmed reports a name that Windows would shorten: it drops a trailing
// dot or space, so "a.txt." opens "a.txt" and ".. " opens "..".
func Trimmed(name string) bool {
	return name != "" && name != "." && name != ".." && (name[len(name)-1] == '.' || name[len(name)-1] == ' ')
}
