package prompt

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSealOpensOnlyWhatThisStoreSealedForThePurpose(t *testing.T) {
	t.Parallel()
	s := NewStore(time.Now)
	token := s.Seal("cursor", []byte("2026-01-02T03:04:05Z abc"))
	data, ok := s.Open("cursor", token)
	require.True(t, ok)
	assert.Equal(t, "2026-01-02T03:04:05Z abc", string(data))

	payload, sig, _ := strings.Cut(token, ".")
	forged := NewStore(time.Now).Seal("cursor", []byte("0001-01-01T00:00:00Z ../../x"))
	fPayload, _, _ := strings.Cut(forged, ".")
	tests := []struct {
		name, purpose, token string
	}{
		{"another purpose", "other", token},
		{"another server run's key", "cursor", forged},
		{"a payload swapped under a valid signature", "cursor", fPayload + "." + sig},
		{"no signature", "cursor", payload},
		{"an unsigned plain cursor", "cursor", "MjAyNi0wMS0wMlQwMzowNDowNVogYWJj"},
		{"a signature in padded base64", "cursor", payload + "." + sig + "="},
		{"empty", "cursor", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := s.Open(tt.purpose, tt.token)
			assert.False(t, ok)
		})
	}
}

func TestSealAndContinuationStatesNeverStandInForEachOther(t *testing.T) {
	t.Parallel()
	s := NewStore(time.Now)
	state, err := s.Issue("invoke_action_with_input", json.RawMessage(args), []string{"message"})
	require.NoError(t, err)
	_, ok := s.Open("cursor", state)
	assert.False(t, ok, "a continuation state is not a sealed token")
	payload, _, _ := strings.Cut(state, ".")
	claims, err := base64.RawURLEncoding.DecodeString(payload)
	require.NoError(t, err)
	for _, purpose := range []string{"", "cursor"} {
		sealed := s.Seal(purpose, claims)
		require.True(t, strings.HasPrefix(sealed, payload+"."), "the same claims, sealed")
		_, err = s.Verify(sealed)
		assert.ErrorIs(t, err, ErrStateInvalid, "a sealed token is not a continuation state, whatever it carries")
	}
}
