// Package fault is the typed failure every part of a call reports: a code
// from a fixed list, Codes (codes.go), whose row says whether a write may
// have acted and the agent's next step. The diagnostics stage applies the
// row (pipeline.Failure), so nothing downstream ever has to guess a cause
// from message text.
package fault

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"
	"unicode/utf8"
)

// Error is a failure with a code.
type Error struct {
	Code Code
	Msg  string
	Err  error
	// NothingSent says SnowLuma cannot have acted on the call: the failure
	// came before any request reached it (a refused dial, a stream slot that
	// never freed, a prompt the store refused, a download refused on its
	// announced size). Only then is a failed write reported as failed rather
	// than unknown.
	NothingSent bool
	// RetryAfter, when positive, is how long until the same call could
	// succeed (a send refused by its budget); diagnostics carry it as
	// retry_after_ms, so give it in whole milliseconds.
	RetryAfter time.Duration
	// Next, when set, is the next step for this failure's own cause, said
	// to the agent instead of its code's default: a setting only the user
	// can fix, the names a misspelt one was near, the node whose token was
	// refused. It follows the same rule as Msg: no secrets.
	Next string
}

// Error implements error. The message never contains secrets: callers pass
// only text that is safe to show the agent.
func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error without a cause.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wrap builds an Error around a cause.
func Wrap(code Code, err error, msg string) *Error {
	return &Error{Code: code, Msg: msg, Err: err}
}

// Unsent marks e as raised before anything reached SnowLuma and returns it.
func (e *Error) Unsent() *Error {
	e.NothingSent = true
	return e
}

// After records when the call could succeed if repeated, and returns e.
func (e *Error) After(d time.Duration) *Error {
	e.RetryAfter = d
	return e
}

// Then gives e a next step of its own cause (see Error.Next) and returns e.
func (e *Error) Then(step string) *Error {
	e.Next = step
	return e
}

// NextOf returns the next step of the first Error in err's chain that has
// one of its own, or "" when the code's default applies.
func NextOf(err error) string {
	for err != nil {
		if e, ok := err.(*Error); ok && e.Next != "" {
			return e.Next
		}
		err = errors.Unwrap(err)
	}
	return ""
}

// RetryAfterOf returns err's RetryAfter, or 0 when it has none.
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// NothingSent reports whether err says SnowLuma cannot have acted (see
// Error.NothingSent).
func NothingSent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.NothingSent
}

// CodeOf returns the code of the first Error in err's chain, or CodeInternal
// for errors that carry none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// QuoteLimit is the most bytes of a caller's value a message repeats.
const QuoteLimit = 200

// Quote renders a caller-supplied value for a message: quoted, and cut to
// QuoteLimit bytes (on a rune boundary) with the full length noted, so a
// huge argument is never echoed back whole.
func Quote(s string) string {
	head, cut := Prefix(s, QuoteLimit)
	if !cut {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(head), len(s))
}

// Prefix returns at most limit bytes of s, cut on a rune boundary, and
// whether anything was cut: how every message bounds what it repeats.
func Prefix(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return s[:limit], true
}

// PathCause is a file-system error's cause without the path it repeats,
// for messages that name the path (or the setting holding it) themselves.
func PathCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
