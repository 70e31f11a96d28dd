package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// Bounds of a generic stream's collected frames.
const (
	maxGenericFrames = 1000
	maxGenericBytes  = 8 << 20
)

// downloads are the stream actions whose chunks become a file on the MCP host.
var downloads = map[string]bool{
	"download_file_stream": true, "download_file_image_stream": true, "download_file_record_stream": true,
}

type savedFile struct {
	SavedFile *download.Saved `json:"saved_file"`
	Note      string          `json:"note"`
}

type uploaded struct {
	Upload     *upload.Result  `json:"upload"`
	Completion json.RawMessage `json:"completion"`
	Note       string          `json:"note"`
}

// runStream executes a stream action: a download to disk, an automatic
// upload, or a generic stream whose frames are collected.
func runStream(ctx context.Context, d *Deps, c *pipeline.Call, input *string) (pipeline.Reply[any], error) {
	// A malformed folder was cleared at start and says so; one that was
	// only missing or unusable is checked again below, at every call, so
	// that the user's fix takes effect on the next call.
	if f := d.Config.Off(upload.RootVar); input != nil && f != nil && d.Config.UploadRoot == "" {
		return pipeline.Reply[any]{}, offFailure(f)
	}
	if f := d.Config.Off(download.DirVar); downloads[c.Action.Name] && f != nil && d.Config.DownloadDir == "" {
		return pipeline.Reply[any]{}, offFailure(f)
	}
	if input != nil {
		res, err := upload.Send(ctx, c.OneBot, *input, upload.Options{
			Root: d.Config.UploadRoot, ChunkBytes: d.Config.UploadChunkBytes, MaxFile: d.Config.MaxFileBytes,
			ResetTimeout: ResetTimeout(d.Config), Track: c.Trail,
		}, c.Progress)
		if err != nil {
			return pipeline.Reply[any]{}, streamError(err)
		}
		return pipeline.Reply[any]{Payload: uploaded{Upload: res, Completion: res.Completion,
			Note: "completion.file_path is a path on the SnowLuma host, usable by later actions there; SnowLuma deletes it after file_retention (default 5 minutes)."}}, nil
	}
	if downloads[c.Action.Name] {
		if err := download.Ready(d.Config.DownloadDir); err != nil {
			return pipeline.Reply[any]{}, err
		}
	}
	body, err := c.OneBot.Stream(ctx, c.Action.Name, c.Params)
	if err != nil {
		return pipeline.Reply[any]{}, err
	}
	defer body.Close()
	if downloads[c.Action.Name] {
		saved, err := download.Save(body, download.Limits{Dir: d.Config.DownloadDir, MaxFile: d.Config.MaxFileBytes, Quota: d.Quota, Track: c.Trail,
			Anonymous: len(d.Config.TrustedUsers) > 0}, c.Progress)
		if err != nil {
			return pipeline.Reply[any]{}, streamError(err)
		}
		return pipeline.Reply[any]{Payload: savedFile{SavedFile: saved,
			Note: "path is a file on the MCP host (where this server runs), not on the SnowLuma host."}}, nil
	}
	collected, err := frame.Collect(body, maxGenericFrames, maxGenericBytes, c.Action.Name == upload.Action, func(n int64) { c.Progress(n, 0) })
	if err != nil {
		return pipeline.Reply[any]{}, streamError(err)
	}
	return pipeline.Reply[any]{Payload: collected}, nil
}

// ResetTimeout bounds an upload's reset, and the wait for a request in
// flight before it: the stream connect timeout, at least 5 s.
func ResetTimeout(cfg *config.Config) time.Duration {
	return max(cfg.StreamConnectTimeout, 5*time.Second)
}

// streamError keeps SnowLuma's reason from a failed terminal frame.
func streamError(err error) error {
	var f *frame.Failure
	if errors.As(err, &f) {
		return fault.Wrap(fault.CodeStreamFailed, err, "")
	}
	return err
}
