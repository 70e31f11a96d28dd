package fake

// test_download_stream and the three download actions, as
// packages/onebot/src/actions/stream-download.ts has them: file_info, then
// file_chunk frames with index, base64 data, raw size, progress percentage
// and base64 length, then the file_complete terminal. Local sources are cut
// at chunk_size (default 65536, capped at 16 MiB); URL sources at the HTTP
// body's pieces.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
)

// Download defaults and caps.
const (
	DefaultChunkSize = 65536
	maxChunkSize     = 16 << 20
)

type testChunk struct {
	Type     string `json:"type"`
	Data     string `json:"data"`
	DataType string `json:"data_type"`
}

type testComplete struct {
	Type     string `json:"type"`
	DataType string `json:"data_type"`
	Data     string `json:"data"`
}

// testDownloadStream sends ten data_chunk frames, then data_complete, or
// with error:true a failed terminal "This is a test error".
func testDownloadStream(_ *Fake, e *emitter, p params) (json.RawMessage, *failure) {
	fail, _, bad := p.boolean("error")
	if bad != nil {
		return nil, bad
	}
	for i := 1; i <= 10; i++ {
		if !e.send(mustJSON(testChunk{Type: "stream", Data: fmt.Sprintf("Index-> %d", i), DataType: "data_chunk"})) {
			return nil, nil
		}
	}
	if fail {
		return nil, actionFailed("This is a test error")
	}
	return mustJSON(testComplete{Type: "response", DataType: "data_complete", Data: "Stream transmission complete"}), nil
}

type fileInfo struct {
	Type      string `json:"type"`
	DataType  string `json:"data_type"`
	FileName  string `json:"file_name"`
	FileSize  int64  `json:"file_size"`
	ChunkSize int64  `json:"chunk_size"`
}

type fileChunk struct {
	Type       string `json:"type"`
	DataType   string `json:"data_type"`
	Index      int    `json:"index"`
	Data       string `json:"data"`
	Size       int    `json:"size"`
	Progress   int    `json:"progress"`
	Base64Size int    `json:"base64_size"`
}

type fileComplete struct {
	Type        string `json:"type"`
	DataType    string `json:"data_type"`
	FileName    string `json:"file_name"`
	TotalChunks int    `json:"total_chunks"`
	TotalBytes  int64  `json:"total_bytes"`
	Message     string `json:"message"`
}

// downloadStream is a download action that resolves cached IDs in caches.
func downloadStream(caches cache) streamAction {
	return func(_ *Fake, e *emitter, p params) (json.RawMessage, *failure) {
		file, _, fail := p.str("file")
		if fail != nil {
			return nil, fail
		}
		fileID, _, fail := p.str("file_id")
		if fail != nil {
			return nil, fail
		}
		chunkSize, ok, fail := p.integer("chunk_size", false, positiveInt)
		if fail != nil {
			return nil, fail
		}
		if !ok {
			chunkSize = DefaultChunkSize
		}
		chunkSize = min(chunkSize, maxChunkSize)
		target := file
		if target == "" {
			target = fileID
		}
		if target == "" {
			return nil, actionFailed(WordingFileRequired)
		}
		src, wording := resolve(target, caches)
		if wording != "" {
			return nil, actionFailed(wording)
		}
		return sendFile(e, src, chunkSize)
	}
}

// sendFile streams src in chunks, applying the download faults.
func sendFile(e *emitter, src StreamFile, chunkSize int64) (json.RawMessage, *failure) {
	sf := e.faults
	name := src.Name
	if sf.rename != nil {
		name = *sf.rename
	}
	piece := int(chunkSize)
	announced := int64(len(src.Data))
	if src.URL {
		piece, announced = urlPiece, 0
	}
	if sf.unannounced {
		announced = 0
	}
	if sf.announce >= 0 {
		announced = sf.announce
	}
	chunks := split(src.Data, piece)
	if !e.send(mustJSON(fileInfo{Type: "stream", DataType: "file_info", FileName: name, FileSize: announced, ChunkSize: chunkSize})) {
		return nil, nil
	}
	order := make([]int, len(chunks))
	for i := range order {
		order[i] = i
	}
	if sf.outOfOrder && len(order) >= 3 {
		order[1], order[2] = order[2], order[1]
	} else if sf.outOfOrder && len(order) == 2 {
		order[0], order[1] = order[1], order[0]
	}
	var sent int64
	for _, i := range order {
		data := base64.StdEncoding.EncodeToString(chunks[i])
		sent += int64(len(chunks[i]))
		progress := 0
		if announced > 0 {
			progress = min(100, int(math.Round(float64(sent)*100/float64(announced))))
		}
		if !e.send(mustJSON(fileChunk{Type: "stream", DataType: "file_chunk", Index: i, Data: data,
			Size: len(chunks[i]), Progress: progress, Base64Size: len(data)})) {
			return nil, nil
		}
	}
	done := fileComplete{Type: "response", DataType: "file_complete", FileName: name,
		TotalChunks: len(chunks), TotalBytes: int64(len(src.Data)), Message: "Download completed"}
	if sf.badChunks {
		done.TotalChunks++
	}
	if sf.badTotal {
		done.TotalBytes++
	}
	return mustJSON(done), nil
}

// split cuts data into pieces of at most n bytes; empty data has none.
func split(data []byte, n int) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		k := min(n, len(data))
		out = append(out, data[:k])
		data = data[k:]
	}
	return out
}
