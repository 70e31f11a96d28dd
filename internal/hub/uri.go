package hub

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

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

// ParseURI splits a URI a reader sends into the resource ID and the after
// cursor (0 without one). The only query it accepts is one after; the
// error says what a readable URI looks like.
func ParseURI(uri string) (id string, after uint64, err error) {
	base, query, _ := strings.Cut(uri, "?")
	id, ok := IDOf(base)
	if !ok || strings.Contains(query, "#") {
		return "", 0, fmt.Errorf("not an event resource URI: use %s<id> as subscribe_events returned it, optionally with ?after=<next_cursor>", URIPrefix)
	}
	if query == "" {
		return id, 0, nil
	}
	values, err := url.ParseQuery(query)
	cursor := values["after"]
	if err != nil || len(values) != 1 || len(cursor) != 1 {
		return "", 0, errors.New("the only query an event URI takes is one ?after=<next_cursor>")
	}
	after, err = strconv.ParseUint(cursor[0], 10, 64)
	if err != nil {
		return "", 0, errors.New("after must be a next_cursor from an earlier read: a whole number, 0 or more")
	}
	return id, after, nil
}
