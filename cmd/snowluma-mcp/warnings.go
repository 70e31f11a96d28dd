package main

import (
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
)

// directoryWarnings names, at start, the directories that write mode will
// need and cannot use: an upload root that is missing or a file, and a
// download directory that cannot be created. They do not stop the server
// (the user may fix them while it runs, and every other tool works), and
// nothing is created to find out.
func directoryWarnings(cfg *config.Config) []string {
	if !cfg.WriteEnabled() {
		return nil
	}
	var out []string
	if cfg.UploadRoot != "" {
		if why := upload.RootProblem(cfg.UploadRoot); why != "" {
			out = append(out, upload.RootVar+" "+why+": automatic upload is refused until it names a directory")
		}
	}
	if why := download.DirProblem(cfg.DownloadDir); why != "" {
		out = append(out, download.DirVar+" "+why+": downloads will fail until it can be created")
	}
	return out
}
