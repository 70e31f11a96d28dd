package content

import "encoding/json"

// MarkerKey is the member that marks an object carrying third-party
// content ("third_party").
const MarkerKey = markerKey

// Withheld is what lockdown writes for words of no one it can name, for a
// screen outside the shapes (a task's saved download record, which names
// a file by whatever SnowLuma's frames called it): the placeholder each
// withheld member reads, and the marker of the object that held them,
// both as the shapes write them.
func Withheld(reason string) (placeholder, marker json.RawMessage) {
	return json.RawMessage(placeholders[reason]), json.RawMessage(`{"author":null,"withheld":` + string(quote(reason)) + `}`)
}
