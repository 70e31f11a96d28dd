package task

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// Status is a task's lifecycle state, as the tasks extension names it.
// input_required never occurs: no background entry asks for input.
type Status string

// The statuses a stored task can have.
const (
	Working   Status = "working"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Terminal reports whether s never changes again.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

func (s Status) valid() bool { return s == Working || s.Terminal() }

// Limits of what the store keeps.
const (
	// MaxRecord bounds one task on disk, metadata and result together.
	MaxRecord = 16 << 20
	// maxMeta bounds a metadata file; messages are short, so anything
	// larger is corrupt.
	maxMeta = 64 << 10
	// recordVersion is the format of the metadata files this code writes:
	// 2 added partialFile and uploadStream, 3 the owner. Versions 1 and 2
	// still load.
	recordVersion = 3
)

// Record is one task's metadata: everything but the result body.
type Record struct {
	Version       int       `json:"v"`
	ID            string    `json:"taskId"`
	Tool          string    `json:"tool"`
	Action        string    `json:"action"`
	Status        Status    `json:"status"`
	StatusMessage string    `json:"statusMessage,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"lastUpdatedAt"`
	// Error is set exactly when Status is Failed.
	Error *Error `json:"error,omitempty"`
	// Result describes the stored result body; set exactly when Status is
	// Completed.
	Result *Body `json:"result,omitempty"`
	// PartialFile and UploadStream name what the transfer may leave
	// behind if the process dies mid-way (a download's hidden partial
	// file, an upload's chunks in SnowLuma), recorded before it exists,
	// so that the next start can clean it up. Never shown to clients.
	PartialFile  string `json:"partialFile,omitempty"`
	UploadStream string `json:"uploadStream,omitempty"`
	// Owner is the owner id of the server process that runs (or ran) the
	// task (see lease.go); empty in records of earlier versions. Never
	// shown to clients.
	Owner string `json:"owner,omitempty"`
}

// Error is a failed task's JSON-RPC error, as tasks/get reports it.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Body identifies a stored result body, so that reading it can prove it is
// the one that was written.
type Body struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ErrCorrupt marks a record or result that does not hold what the store
// wrote.
var ErrCorrupt = errors.New("corrupt task record")

// validID reports whether id is one the store issues: 32 lower-case hex
// digits (128 random bits, so ids cannot be guessed).
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range []byte(id) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validStream reports whether id is in SnowLuma's stream id alphabet.
func validStream(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// DecodeRecord parses and validates one metadata file. id is the task id
// its file name promises. Any deviation is ErrCorrupt with the reason.
func DecodeRecord(id string, data []byte) (*Record, error) {
	if len(data) > maxMeta {
		return nil, fmt.Errorf("%w: %d bytes, more than a record's metadata can be", ErrCorrupt, len(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the record", ErrCorrupt)
	}
	if err := r.validate(id); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return &r, nil
}

func (r *Record) validate(id string) error {
	switch {
	case r.Version < 1 || r.Version > recordVersion:
		return fmt.Errorf("format version %d, this server reads 1 to %d", r.Version, recordVersion)
	case r.Version < 2 && (r.PartialFile != "" || r.UploadStream != ""):
		return errors.New("leftovers in a format that has none")
	case r.Version < 3 && r.Owner != "":
		return errors.New("an owner in a format that has none")
	case r.Owner != "" && !validID(r.Owner):
		return errors.New("a malformed owner id")
	case r.PartialFile != "" && !filepath.IsAbs(r.PartialFile):
		return errors.New("a partial file that is not an absolute path")
	case r.UploadStream != "" && !validStream(r.UploadStream):
		return errors.New("a malformed upload stream id")
	case !validID(r.ID):
		return errors.New("malformed task id")
	case r.ID != id:
		return errors.New("the task id does not match the file name")
	case r.Tool == "" || r.Action == "":
		return errors.New("tool or action missing")
	case !r.Status.valid():
		return fmt.Errorf("unknown status %q", r.Status)
	case r.CreatedAt.IsZero() || r.UpdatedAt.IsZero():
		return errors.New("timestamps missing")
	case r.UpdatedAt.Before(r.CreatedAt):
		return errors.New("updated before it was created")
	case (r.Status == Failed) != (r.Error != nil):
		return errors.New("an error belongs to exactly the failed status")
	case (r.Status == Completed) != (r.Result != nil):
		return errors.New("a result belongs to exactly the completed status")
	case r.Error != nil && r.Error.Message == "":
		return errors.New("a failure without a message")
	}
	if b := r.Result; b != nil {
		if b.Size <= 0 || b.Size > MaxRecord {
			return fmt.Errorf("result size %d out of range", b.Size)
		}
		if sum, err := hex.DecodeString(b.SHA256); err != nil || len(sum) != 32 {
			return errors.New("malformed result digest")
		}
	}
	return nil
}

// encode is the metadata file's content.
func (r *Record) encode() ([]byte, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if len(data) > maxMeta {
		return nil, fmt.Errorf("task metadata of %d bytes exceeds %d", len(data), maxMeta)
	}
	return data, nil
}
