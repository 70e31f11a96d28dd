package hub

import "strings"

// URIPrefix starts every event resource's URI; the resource ID follows.
const URIPrefix = "snowluma://onebot/events/"

// URI is the canonical URI of resource id.
func URI(id string) string { return URIPrefix + id }

// IDOf returns the resource ID of a canonical event URI (no query, no
// fragment, no further path).
func IDOf(uri string) (string, bool) {
	id, ok := strings.CutPrefix(uri, URIPrefix)
	if !ok || id == "" || strings.ContainsAny(id, "/?#") {
		return "", false
	}
	return id, true
}
