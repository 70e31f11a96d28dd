package event

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecode feeds arbitrary frames to the decoder. Whatever arrives, it
// must not panic; a frame it accepts must be valid UTF-8 JSON kept byte for
// byte, with a positive account and a known kind, and decoding it again
// must give the same header.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{lifecycle, heartbeat, groupMessage, privMessage, sentMessage, recall, friendReq,
		`{}`, `[]`, `{"self_id":1e3}`, `{"time":1,"self_id":10001,"post_type":"notice","group_id":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		e, err := Decode(frame)
		if err != nil {
			require.ErrorIs(t, err, ErrMalformed)
			return
		}
		require.True(t, utf8.Valid(frame))
		require.True(t, json.Valid(frame))
		assert.True(t, bytes.Equal(frame, e.Raw))
		assert.Positive(t, e.SelfID)
		assert.Contains(t, []Kind{KindMessage, KindNotice, KindRequest, KindMeta}, e.Kind)
		again, err := Decode(e.Raw)
		require.NoError(t, err)
		assert.Equal(t, e, again)
	})
}
