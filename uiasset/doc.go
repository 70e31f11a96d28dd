// Package uiasset will hold the message preview panel: one self-contained
// HTML file built from source with the MCP Apps client and embedded with
// go:embed. It holds no asset yet; the preview_message tool arrives with it.
package uiasset
