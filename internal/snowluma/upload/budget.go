package upload

import (
	"encoding/json"
	"path/filepath"
	"unicode/utf8"

	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
)

// The size budget of one chunk request. SnowLuma drops the socket,
// without any HTTP response, once a request body passes onebot.BodyCap
// bytes, so the largest chunk is derived from the worst request the chunk
// can travel in, not from base64's ratio alone.
const (
	// BodyCap is SnowLuma's request body limit in bytes: the HTTP
	// client's, which refuses any larger request.
	BodyCap = onebot.BodyCap

	// maxStreamIDLen is SnowLuma's longest stream_id; ours are shorter,
	// but the budget does not depend on how we happen to name streams.
	maxStreamIDLen = 128
	// MaxNameJSON bounds the file name as it is sent: JSON-encoded, quotes
	// and escapes included (a control character takes six bytes).
	MaxNameJSON = 255
	// maxIntLen is the longest decimal int64, sign included.
	maxIntLen = 20

	// chunkOverhead is every byte of a chunk request except the base64
	// data: the OneBot wrapper (onebot.Client.newRequest) and the params
	// chunkParams writes, each value at its longest.
	chunkOverhead = len(`{"action":"`+Action+`","params":`) + len(`}`) +
		len(`{"stream_id":""`) + maxStreamIDLen +
		len(`,"filename":`) + MaxNameJSON +
		len(`,"chunk_index":`) + maxIntLen +
		len(`,"total_chunks":`) + maxIntLen +
		len(`,"file_size":`) + maxIntLen +
		len(`,"chunk_data":"`) + len(`"}`)

	// MaxChunkBytes is the largest SNOWLUMA_MCP_UPLOAD_CHUNK_BYTES: the
	// most raw bytes whose base64 fits beside chunkOverhead, rounded down
	// to whole KiB so the documented limit is a plain number.
	MaxChunkBytes = (BodyCap - chunkOverhead) / 4 * 3 / 1024 * 1024
)

// maxExtJSON bounds an extension worth keeping when a name is shortened.
const maxExtJSON = 34

// wireName is the file name sent to SnowLuma, shortened until its JSON
// encoding fits MaxNameJSON. The extension survives when it is short, since
// SnowLuma names the merged file after it.
func wireName(name string) string {
	if jsonLen(name) <= MaxNameJSON {
		return name
	}
	ext := filepath.Ext(name)
	if jsonLen(ext) > maxExtJSON {
		ext = ""
	}
	stem := name[:len(name)-len(ext)]
	// Escaping is per character, so the lengths of stem and ext (each
	// without its two quotes) add up.
	budget := MaxNameJSON - (jsonLen(ext) - 2)
	// Every byte encodes to at least one, so a longer stem cannot fit;
	// cutting it first keeps the loop below short for any input.
	if len(stem) > budget {
		stem = stem[:budget]
	}
	for stem != "" && jsonLen(stem) > budget {
		_, w := utf8.DecodeLastRuneInString(stem)
		stem = stem[:len(stem)-w]
	}
	return stem + ext
}

// jsonLen is the length of s as encoding/json writes it, quotes included.
func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b)
}
