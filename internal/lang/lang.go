// Package lang is the one shape of a text for people in both languages
// snowluma-mcp speaks to them in, English and Simplified Chinese: the
// docs' tables (cmd/docgen), a tool's line in a host's list (the bundle)
// and the settings dialog. Many SnowLuma users read Chinese first, so
// whatever a person reads is declared in both, beside the code it
// describes, and never kept apart in prose.
package lang

// Text is one text in English and in Simplified Chinese.
type Text struct {
	EN, ZH string
}
