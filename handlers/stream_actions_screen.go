package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/download"
	"github.com/snowluma/snowluma-mcp/internal/task"
)

// ScreenTaskResults is the task store's screen (task.Store.SetScreen) for
// a server whose content policy is f: nil without lockdown, which shows a
// record as it was saved. A background task's result is saved as its run
// rendered it, under the trust settings of the server that ran it; a
// download run without lockdown keeps the file under the name SnowLuma's
// frames gave it, which whoever sent the file chose. A reader in lockdown
// is shown what a synchronous download in lockdown shows: no chosen name.
// The file itself stays where it was saved, so its path, file_name and
// remote_file_name are withheld (the name is the path's last element),
// and the size and SHA-256 that find it remain.
//
// Only downloads vary with the trust settings: no stream action declares
// third-party content (catalog thirdParty), so the rest of a task's result
// is what any reader is shown.
func ScreenTaskResults(f *content.Filter) task.Screen {
	if !f.Lockdown() {
		return nil
	}
	return func(r task.Record, body []byte) ([]byte, error) {
		if !downloads[r.Action] {
			return body, nil
		}
		out, err := screenSaved(body)
		if err != nil {
			return nil, fmt.Errorf("task %s's saved download record could not be checked for a file name someone else chose, so it is withheld (%w); the file is still in %s", r.ID, err, download.DirVar)
		}
		return out, nil
	}
}

// withheldNote replaces a withheld download record's note.
const withheldNote = "path, file_name and remote_file_name are withheld by lockdown: this task ran on a server without lockdown, so the file kept the name SnowLuma's stream gave it, which someone else may have chosen. The file is in " +
	download.DirVar + " on the MCP host; find it by sha256 and size."

// screenSaved withholds the chosen name in a saved download result (the
// tool result task.Render stored): the body unchanged when its file is
// named by its content or it holds no saved file (a failure).
func screenSaved(body []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	var sc map[string]json.RawMessage
	if raw, ok := doc["structuredContent"]; ok {
		if err := json.Unmarshal(raw, &sc); err != nil {
			return nil, err
		}
	}
	var res map[string]json.RawMessage
	if raw, ok := sc["result"]; ok {
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, err
		}
	}
	raw, ok := res["saved_file"]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return body, nil
	}
	var saved download.Saved
	if err := json.Unmarshal(raw, &saved); err != nil {
		return nil, err
	}
	if saved.ByContent() {
		return body, nil
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, err
	}
	placeholder, marker := content.Withheld(content.ReasonUnknownAuthor)
	for _, k := range []string{"path", "file_name", "remote_file_name"} {
		if _, ok := file[k]; ok {
			file[k] = placeholder
		}
	}
	file[content.MarkerKey] = marker
	var err error
	if res["saved_file"], err = json.Marshal(file); err != nil {
		return nil, err
	}
	if res["note"], err = json.Marshal(withheldNote); err != nil {
		return nil, err
	}
	result, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	sc["result"] = result
	if doc["structuredContent"], err = json.Marshal(sc); err != nil {
		return nil, err
	}
	// The text a model reads first is the same result, written out
	// (pipeline.Render); a verdict after it is this server's own words.
	var blocks []map[string]json.RawMessage
	if err := json.Unmarshal(doc["content"], &blocks); err != nil {
		return nil, err
	}
	if len(blocks) == 0 || blocks[0] == nil {
		return nil, fmt.Errorf("a result without its text")
	}
	if blocks[0]["text"], err = json.Marshal(string(result)); err != nil {
		return nil, err
	}
	if doc["content"], err = json.Marshal(blocks); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}
