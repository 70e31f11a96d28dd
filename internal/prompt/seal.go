package prompt

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// Seal signs data for purpose with the store's key and returns it as an
// opaque token: for values the server hands out and must recognise when
// they come back (a page cursor), without keeping them. The purpose is
// signed too, so a token sealed for one use is never accepted for another,
// nor as a continuation state, which is signed without one. A token is not
// secret; it cannot be forged or altered, and a restart invalidates it.
func (s *Store) Seal(purpose string, data []byte) string {
	payload := base64.RawURLEncoding.EncodeToString(data)
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.sealSign(purpose, payload))
}

// Open returns the data of a token Seal made for purpose with this store's
// key; ok is false for anything else.
func (s *Store) Open(purpose, token string) (data []byte, ok bool) {
	payload, sig, found := strings.Cut(token, ".")
	if !found {
		return nil, false
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.sealSign(purpose, payload)) {
		return nil, false
	}
	data, err = base64.RawURLEncoding.Strict().DecodeString(payload)
	return data, err == nil
}

// sealSign signs purpose and payload apart from continuation states: the
// NUL cannot occur in a base64 payload, so no sealed message is ever the
// message of a continuation's signature.
func (s *Store) sealSign(purpose, payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("seal\x00" + purpose + "\x00"))
	m.Write([]byte(payload))
	return m.Sum(nil)
}
