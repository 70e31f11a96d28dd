package download

import (
	"crypto/sha256"
	"hash"
	"os"
	"sync"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// sink hashes and writes decoded chunks on its own goroutine, so the disk
// write and the hash of one chunk overlap with receiving and decoding the
// next. Two buffers circulate between the decoder and the sink, which keeps
// memory at two chunks whatever the file size.
type sink struct {
	file     *os.File
	hash     hash.Hash
	progress Progress
	announce func() int64

	work chan []byte
	free chan []byte
	done chan struct{}

	mu      sync.Mutex
	err     error
	written int64
}

func newSink(file *os.File, progress Progress, announce func() int64) *sink {
	s := &sink{file: file, hash: sha256.New(), progress: progress, announce: announce,
		work: make(chan []byte, 1), free: make(chan []byte, 2), done: make(chan struct{})}
	s.free <- nil
	s.free <- nil
	go s.run()
	return s
}

// buffer returns a buffer of at least n bytes for the next chunk.
func (s *sink) buffer(n int) []byte {
	b := <-s.free
	if cap(b) < n {
		b = make([]byte, n)
	}
	return b[:n]
}

// put queues a decoded chunk; it reports an earlier write failure instead.
func (s *sink) put(b []byte) error {
	if err := s.failure(); err != nil {
		s.free <- b
		return err
	}
	s.work <- b
	return nil
}

func (s *sink) run() {
	defer close(s.done)
	for b := range s.work {
		if s.failure() == nil {
			if _, err := s.file.Write(b); err != nil {
				s.mu.Lock()
				s.err = fault.Wrap(fault.CodeInternal, err, "cannot write the file")
				s.mu.Unlock()
			} else {
				s.hash.Write(b)
				s.mu.Lock()
				s.written += int64(len(b))
				written := s.written
				s.mu.Unlock()
				if s.progress != nil {
					s.progress(written, s.announce())
				}
			}
		}
		s.free <- b
	}
}

func (s *sink) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// close waits until every queued chunk is written and returns the first
// write failure. It must be called exactly once.
func (s *sink) close() error {
	close(s.work)
	<-s.done
	return s.failure()
}

// sum is the SHA-256 of everything written; call it after close.
func (s *sink) sum() []byte { return s.hash.Sum(nil) }
