package accesstest

import (
	"testing"
	"time"
)

// NotAFileWords is what the refusal of NotAFile's thing says.
const NotAFileWords = "not a regular file"

// Returns runs f and fails t if f has not returned within a generous
// bound: a guard against a hang (an open that waits for a pipe's writer
// for good), never a measure of speed.
func Returns(t testing.TB, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("it hangs: an open of a stored path waited for good")
	}
}
