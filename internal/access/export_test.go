package access

// WithBeforeFix returns p running hook in Secure between the look that
// found the folder empty and the fix, as another account's write could.
func WithBeforeFix(p Purpose, hook func(dir string)) Purpose {
	p.beforeFix = hook
	return p
}
