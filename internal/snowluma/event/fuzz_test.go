package event

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecode feeds arbitrary frames to the decoder. Whatever arrives, it
// must not panic; a frame it accepts must be valid UTF-8 JSON kept byte for
// byte, with a positive account and a known kind, and decoding it again
// must give the same header, the one an exact-key reader (a map) sees.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{lifecycle, heartbeat, groupMessage, privMessage, sentMessage, recall, friendReq,
		`{}`, `[]`, `{"self_id":1e3}`, `{"time":1,"self_id":10001,"post_type":"notice","group_id":null}`,
		`{"time":1,"self_id":99999,"Self_ID":10001,"post_type":"notice"}`, `{"time":1,"self\u005fid":10001,"post_type":"notice","x":[{"}":"]"}]}`} {
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
		var exact map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(frame, &exact))
		assert.JSONEq(t, string(exact["self_id"]), strconv.FormatInt(e.SelfID, 10))
		assert.JSONEq(t, string(exact["post_type"]), strconv.Quote(e.PostType))
		assert.Equal(t, e.HasGroup, present(exact["group_id"]))
		assert.Equal(t, e.HasUser, present(exact["user_id"]))
	})
}
