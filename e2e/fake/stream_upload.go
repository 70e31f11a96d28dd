package fake

// upload_file_stream with SnowLuma's per-request decision order
// (handleUpload in packages/onebot/src/actions/stream-file.ts): every
// request is answered by one terminal frame; stream_id syntax first, then
// reset (always an error frame), verify_only, stream creation (needs
// total_chunks), metadata updates, a chunk when both chunk_data and
// chunk_index are present (idempotent, never completing in the same call),
// completion on is_complete or when every chunk is in (missing chunks and a
// sha256 mismatch are errors), else file_created. The file name and so the
// merged file's path are fixed when the stream is created (createUpload);
// later calls update only expected_sha256 and file_size. The state it
// works on is in stream_upload_state.go.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// UploadAction is SnowLuma's upload stream action.
const UploadAction = "upload_file_stream"

// UploadDir is where SnowLuma keeps the self account's merged uploads.
var UploadDir = fmt.Sprintf("%s/upload/%d", StreamDir, SelfID)

// Upload limits.
const (
	maxUploadChunks  = 200000
	maxUploadBytes   = 4 << 30
	maxChunkBytes    = 32 << 20
	maxUploadStreams = 64
)

// UploadLag is how long a lagupload:<n> request is processed late.
const UploadLag = 1500 * time.Millisecond

// Wordings of upload failures.
const (
	WordingInvalidStreamID = "invalid stream_id (allowed: 1-128 chars of A-Z a-z 0-9 _ -)"
	WordingResetCompleted  = "Stream reset completed"
	WordingStreamNotFound  = "stream not found"
	WordingTotalRequired   = "total_chunks required for new stream"
)

var streamIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

type uploadStatus struct {
	Type           string `json:"type"`
	StreamID       string `json:"stream_id"`
	Status         string `json:"status"`
	ReceivedChunks int    `json:"received_chunks"`
	TotalChunks    int    `json:"total_chunks"`
}

type uploadDone struct {
	uploadStatus
	FilePath string `json:"file_path"`
	FileSize int64  `json:"file_size"`
	SHA256   string `json:"sha256"`
}

// uploadParams are the validated params of one request.
type uploadParams struct {
	id                                  string
	data                                string
	hasData                             bool
	index, total, size                  int64
	hasIndex, hasTotal, hasSize, hasSHA bool
	sha, filename                       string
	complete, reset, verify             bool
}

// parseUpload validates the params as action-kit would, before the action.
func parseUpload(p params) (uploadParams, *failure) {
	var u uploadParams
	steps := []func() *failure{
		func() (f *failure) { u.id, f = p.nonEmptyStr("stream_id"); return },
		func() (f *failure) { u.data, u.hasData, f = p.str("chunk_data"); return },
		func() (f *failure) { u.index, u.hasIndex, f = p.integer("chunk_index", false, naturalInt); return },
		func() (f *failure) { u.total, u.hasTotal, f = p.integer("total_chunks", false, positiveInt); return },
		func() (f *failure) { u.size, u.hasSize, f = p.integer("file_size", false, naturalInt); return },
		func() (f *failure) { u.sha, u.hasSHA, f = p.str("expected_sha256"); return },
		func() (f *failure) { u.complete, _, f = p.boolean("is_complete"); return },
		func() (f *failure) { u.filename, _, f = p.str("filename"); return },
		func() (f *failure) { u.reset, _, f = p.boolean("reset"); return },
		func() (f *failure) { u.verify, _, f = p.boolean("verify_only"); return },
		func() (f *failure) { _, _, f = p.integer("file_retention", false, naturalInt); return },
	}
	for _, step := range steps {
		if fail := step(); fail != nil {
			return u, fail
		}
	}
	return u, nil
}

func uploadFileStream(f *Fake, e *emitter, p params) (json.RawMessage, *failure) {
	q, fail := parseUpload(p)
	if fail != nil {
		return nil, fail
	}
	// 1. stream_id syntax.
	if !streamIDRE.MatchString(q.id) {
		return nil, actionFailed(WordingInvalidStreamID)
	}
	u := f.uploads
	u.mu.Lock()
	u.requests[q.id]++
	n := u.requests[q.id]
	u.mu.Unlock()
	// Injected faults stand for a failure inside SnowLuma at this request.
	if e.faults.slowUpload == n && !e.wait(maxSlow) {
		return nil, nil
	}
	if e.faults.lagUpload == n {
		time.Sleep(UploadLag) // the client may leave meanwhile; the request is processed anyway
	}
	if e.faults.hangUpload[n] {
		// The connection drops before the frame; nothing is processed.
		e.stopped = true
		panic(http.ErrAbortHandler)
	}
	if e.faults.failUpload == n {
		return nil, actionFailed("injected upload failure (request " + strconv.Itoa(n) + ")")
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.step(q)
}

// step applies one request to the stream state; u.mu is held.
func (u *uploads) step(q uploadParams) (json.RawMessage, *failure) {
	// 2. reset: an open stream's parts and final file go (cleanupUpload
	// does nothing for a stream no longer open, so a merged file stays);
	// always an error frame.
	if q.reset {
		if s := u.open[q.id]; s != nil {
			delete(u.open, q.id)
			u.dropFinal(q.id, s.filename)
		}
		return nil, actionFailed(WordingResetCompleted)
	}
	s := u.open[q.id]
	// 3. verify_only reports an existing stream.
	if q.verify {
		if s == nil {
			return nil, actionFailed(WordingStreamNotFound)
		}
		return mustJSON(uploadStatus{"stream", q.id, "file_created", len(s.chunks), s.total}), nil
	}
	// 4. A new stream needs total_chunks; its file name is fixed now.
	if s == nil {
		switch {
		case !q.hasTotal:
			return nil, actionFailed(WordingTotalRequired)
		case q.total > maxUploadChunks:
			return nil, actionFailed(fmt.Sprintf("total_chunks exceeds limit (%d)", maxUploadChunks))
		case q.hasSize && q.size > maxUploadBytes:
			return nil, actionFailed(fmt.Sprintf("file_size exceeds limit (%d bytes)", maxUploadBytes))
		case len(u.open) >= maxUploadStreams:
			return nil, actionFailed(fmt.Sprintf("too many concurrent upload streams (%d)", maxUploadStreams))
		}
		s = &upStream{total: int(q.total), chunks: map[int][]byte{}, filename: safeFilename(q.filename, q.id)}
		u.open[q.id] = s
	}
	// 5. Metadata on any call: only the digest and the size.
	if q.hasSHA {
		s.sha = q.sha
	}
	if q.hasSize {
		s.size = q.size
	}
	// 6. A chunk; completion never happens in the same call.
	if q.hasData && q.hasIndex {
		if q.index >= int64(s.total) {
			return nil, actionFailed(fmt.Sprintf("invalid chunk index: %d", q.index))
		}
		if _, seen := s.chunks[int(q.index)]; !seen {
			b := nodeBase64(q.data) // never fails, as Buffer.from(x, 'base64')
			switch {
			case len(b) > maxChunkBytes:
				return nil, actionFailed(fmt.Sprintf("chunk exceeds size limit (%d bytes)", maxChunkBytes))
			case s.bytes+int64(len(b)) > maxUploadBytes:
				return nil, actionFailed(fmt.Sprintf("stream exceeds total size limit (%d bytes)", maxUploadBytes))
			}
			s.chunks[int(q.index)] = b
			s.bytes += int64(len(b))
		}
		return mustJSON(uploadStatus{"stream", q.id, "chunk_received", len(s.chunks), s.total}), nil
	}
	// 7. Completion, asked for or implied by having every chunk.
	if q.complete || len(s.chunks) == s.total {
		return u.complete(q.id, s)
	}
	// 8. Nothing else to do.
	return mustJSON(uploadStatus{"stream", q.id, "file_created", len(s.chunks), s.total}), nil
}

// complete merges the chunks in index order and checks the digest.
func (u *uploads) complete(id string, s *upStream) (json.RawMessage, *failure) {
	var missing []string
	for i := 0; i < s.total; i++ {
		if _, ok := s.chunks[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		shown := missing[:min(16, len(missing))]
		more := ""
		if len(missing) > 16 {
			more = "…"
		}
		return nil, actionFailed(fmt.Sprintf("incomplete stream: missing %d chunk(s) [%s%s]", len(missing), strings.Join(shown, ","), more))
	}
	var merged []byte
	for i := 0; i < s.total; i++ {
		merged = append(merged, s.chunks[i]...)
	}
	sum := sha256.Sum256(merged)
	digest := hex.EncodeToString(sum[:])
	if s.sha != "" && s.sha != digest {
		// The final file is deleted; the stream stays so it can be reset.
		u.dropFinal(id, s.filename)
		return nil, actionFailed(fmt.Sprintf("sha256 mismatch (expected %s, got %s)", s.sha, digest))
	}
	u.final[id] = mergedFile{s.filename, merged}
	delete(u.open, id)
	done := uploadDone{uploadStatus: uploadStatus{"response", id, "file_complete", len(s.chunks), s.total},
		FilePath: finalPath(id, s.filename), FileSize: int64(len(merged)), SHA256: digest}
	return mustJSON(done), nil
}
