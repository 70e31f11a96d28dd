//go:build !windows

package lang

// system is English where the locale variables are the system's setting:
// none set means the POSIX locale, C.
func system() Tag { return English }
