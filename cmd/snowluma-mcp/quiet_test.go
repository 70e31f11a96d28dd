package main

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitCount waits, up to a safety bound that is no assertion about speed,
// for n releases.
func waitCount(t *testing.T, n *atomic.Int32, want int32) {
	t.Helper()
	require.Eventually(t, func() bool { return n.Load() >= want }, 10*time.Second, time.Millisecond)
}

func TestQuietReleasesOncePerQuietSpellAfterActivity(t *testing.T) {
	var n atomic.Int32
	q := newQuiet(5*time.Millisecond, func() { n.Add(1) })
	var out bytes.Buffer
	_, err := q.writer(&out).Write([]byte("answer\n"))
	require.NoError(t, err)
	waitCount(t, &n, 1)
	assert.Equal(t, "answer\n", out.String(), "writes pass through")

	buf := make([]byte, 16)
	got, err := q.reader(strings.NewReader("request\n")).Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "request\n", string(buf[:got]), "reads pass through")
	waitCount(t, &n, 2)
	assert.EqualValues(t, 2, n.Load(), "one release per spell: a spell ends only with new activity")
}

func TestQuietIsNotArmedWithoutActivity(t *testing.T) {
	q := newQuiet(time.Hour, func() { t.Error("released without activity") })
	assert.False(t, q.timer.Stop(), "the timer waits for the first activity")
	_, err := q.reader(strings.NewReader("")).Read(make([]byte, 4))
	assert.Error(t, err, "an empty read is no activity")
	assert.False(t, q.timer.Stop(), "and arms nothing")
}
