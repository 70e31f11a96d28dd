package content

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// coverage is testdata/coverage.json: for each action, the parts of its
// result that hold no one else's words and are shown as they are, each
// with the key of its reason.
type coverage struct {
	Reasons map[string]string            `json:"reasons"`
	Listed  map[string]map[string]string `json:"listed"`
}

// A leaf is a place in a result the schema walk cannot prove to be free
// of anyone's words: a string member, the unknown members of an open
// object (path ending ".*", or "*" at the top), or a value of no type.
type leaf struct{ path, kind string }

// leaves walks a returnsSchema. Fixed vocabularies (const, enum) and
// digit-only patterns are no one's words; a oneOf or anyOf branch is
// walked like the rest; an array that never holds anything is empty.
func leaves(schema json.RawMessage) []leaf {
	var s map[string]json.RawMessage
	if json.Unmarshal(schema, &s) != nil {
		return []leaf{{"", "unreadable schema"}}
	}
	var out []leaf
	walkSchema(s, "", &out)
	return out
}

func walkSchema(s map[string]json.RawMessage, path string, out *[]leaf) {
	if _, never := s["not"]; never {
		return
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		var branches []map[string]json.RawMessage
		if raw, ok := s[k]; ok {
			if json.Unmarshal(raw, &branches) != nil {
				*out = append(*out, leaf{path, "unreadable " + k})
			}
			for _, b := range branches {
				walkSchema(b, path, out)
			}
		}
	}
	types := schemaTypes(s)
	if len(types) == 0 {
		if _, branched := s["oneOf"]; branched {
			return
		}
		if _, branched := s["anyOf"]; branched {
			return
		}
		*out = append(*out, leaf{path, "untyped"})
		return
	}
	for _, t := range types {
		switch t {
		case "string":
			if !fixed(s) {
				*out = append(*out, leaf{path, "string"})
			}
		case "object":
			walkObject(s, path, out)
		case "array":
			var n int
			if raw, ok := s["maxItems"]; ok && json.Unmarshal(raw, &n) == nil && n == 0 {
				continue
			}
			var items map[string]json.RawMessage
			if raw, ok := s["items"]; !ok || json.Unmarshal(raw, &items) != nil {
				*out = append(*out, leaf{path + "[]", "untyped"})
				continue
			}
			walkSchema(items, path+"[]", out)
		}
	}
}

func walkObject(s map[string]json.RawMessage, path string, out *[]leaf) {
	var n int
	if raw, ok := s["maxProperties"]; ok && json.Unmarshal(raw, &n) == nil && n == 0 {
		return
	}
	if string(s["additionalProperties"]) != "false" {
		*out = append(*out, leaf{join(path, "*"), "open object"})
	}
	var props map[string]map[string]json.RawMessage
	_ = json.Unmarshal(s["properties"], &props)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		walkSchema(props[name], join(path, name), out)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// schemaTypes is a schema's type, a name or a list of names.
func schemaTypes(s map[string]json.RawMessage) []string {
	var one string
	if json.Unmarshal(s["type"], &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s["type"], &many)
	return many
}

// fixed reports whether a string schema admits no one's words.
func fixed(s map[string]json.RawMessage) bool {
	_, isConst := s["const"]
	_, isEnum := s["enum"]
	var pattern string
	_ = json.Unmarshal(s["pattern"], &pattern)
	return isConst || isEnum || pattern == "^[0-9]+$" || pattern == "^-?[0-9]+$"
}

// covered reports whether a leaf lies where a declared shape takes its
// words as content: in an item of a spot, outside the members the shape
// keeps as metadata. Unknown members of the item itself are words.
func covered(l leaf, spots []catalog.ContentSpot) bool {
	for _, spot := range spots {
		sh := shapes[spot.Shape]
		rest, ok := under(l.path, spot.At)
		if sh == nil || !ok {
			continue
		}
		if rest == "" || rest == "*" {
			return true
		}
		head, inner, _ := strings.Cut(rest, ".")
		head = strings.TrimSuffix(head, "[]")
		if sh.keeps([]byte(head)) {
			continue
		}
		if part := sh.part([]byte(head)); part != nil {
			innerHead, _, _ := strings.Cut(inner, ".")
			if part[strings.TrimSuffix(innerHead, "[]")] {
				continue
			}
		}
		return true
	}
	return false
}

// under reports whether path lies at or under prefix (a spot's path or a
// listing's), and what of it is left.
func under(path, prefix string) (string, bool) {
	switch {
	case prefix == "":
		return path, true
	case path == prefix:
		return "", true
	case strings.HasPrefix(path, prefix+"."):
		return path[len(prefix)+1:], true
	case strings.HasPrefix(path, prefix+"[]"):
		return strings.TrimPrefix(path[len(prefix)+2:], "."), true
	}
	return "", false
}

// TestEveryWordInAResultIsDeclaredOrListedWithAReason walks every action's
// returnsSchema: each string member, open object, untyped value and
// oneOf/anyOf branch must lie in an item a declared shape screens, or be
// listed in testdata/coverage.json with the reason it holds no one
// else's words. An action or a member added to the catalog fails here
// until someone decides whose words it carries. A listing that covers
// nothing left fails too, so the list stays the catalog's.
func TestEveryWordInAResultIsDeclaredOrListedWithAReason(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join("testdata", "coverage.json"))
	require.NoError(t, err)
	var cov coverage
	require.NoError(t, json.Unmarshal(raw, &cov))
	names := map[string]bool{}
	for _, a := range cat.Actions() {
		names[a.Name] = true
		listed := cov.Listed[a.Name]
		used := map[string]bool{}
		var open []string
		for _, l := range leaves(a.ReturnsSchema) {
			if covered(l, a.ThirdParty) {
				continue
			}
			by, found := "", false
			for p := range listed {
				if _, ok := under(l.path, p); ok && (!found || len(p) > len(by)) {
					by, found = p, true
				}
			}
			if !found {
				open = append(open, l.path+" ("+l.kind+")")
				continue
			}
			used[by] = true
		}
		assert.Empty(t, open, "%s: declare a shape for these or list them with a reason in testdata/coverage.json", a.Name)
		for p, why := range listed {
			assert.True(t, used[p], "%s: the listing %q covers nothing a shape does not", a.Name, p)
			assert.NotEmpty(t, cov.Reasons[why], "%s %q: no reason %q", a.Name, p, why)
		}
	}
	for name := range cov.Listed {
		assert.True(t, names[name], "%s is listed but is no action of the catalog", name)
	}
	checkCoverageSummary(t, cat, cov)
	var unused []string
	for why := range cov.Reasons {
		if !slices.ContainsFunc(cat.Actions(), func(a *catalog.Action) bool {
			for _, r := range cov.Listed[a.Name] {
				if r == why {
					return true
				}
			}
			return false
		}) {
			unused = append(unused, why)
		}
	}
	assert.Empty(t, unused, "reasons no listing gives")
}

func TestTheWalkFindsEveryPlaceWordsCouldBe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, schema string
		want         []leaf
	}{
		{"a closed object of numbers has none", `{"type":"object","additionalProperties":false,"properties":{"n":{"type":"integer"}}}`, nil},
		{"an open object's unknown members count", `{"type":"object","properties":{"n":{"type":"integer"}}}`, []leaf{{"*", "open object"}}},
		{"an object with no members allowed has none", `{"type":"object","maxProperties":0}`, nil},
		{"a string member counts, a fixed one does not", `{"type":"object","additionalProperties":false,"properties":{"s":{"type":"string"},"c":{"type":"string","const":"x"},"e":{"type":"string","enum":["a"]},"d":{"type":"string","pattern":"^[0-9]+$"}}}`,
			[]leaf{{"s", "string"}}},
		{"a type list with string counts", `{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"id":{"type":["integer","string","null"]}}}}`,
			[]leaf{{"[].id", "string"}}},
		{"untyped array items count", `{"type":"array","items":{"description":"raw"}}`, []leaf{{"[]", "untyped"}}},
		{"an array with no items schema counts", `{"type":"array"}`, []leaf{{"[]", "untyped"}}},
		{"an array that is always empty has none", `{"type":"array","maxItems":0,"items":{}}`, nil},
		{"every oneOf branch is walked", `{"oneOf":[{"type":"string"},{"type":"null"},{"type":"object","properties":{}}]}`,
			[]leaf{{"", "string"}, {"*", "open object"}}},
		{"an anyOf branch of no type counts", `{"anyOf":[{"description":"anything"}]}`, []leaf{{"", "untyped"}}},
		{"a result that never comes has none", `{"not":{}}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, leaves(json.RawMessage(tt.schema)))
		})
	}
}

func TestAShapeCoversItsWordsNotWhatItKeeps(t *testing.T) {
	t.Parallel()
	spots := []catalog.ContentSpot{{At: "messages[]", Shape: "message"}}
	for path, want := range map[string]bool{
		"messages[].raw_message":     true,  // words
		"messages[].*":               true,  // an unknown member of the item is words
		"messages[].sender.nickname": true,  // a member kept in part: its other members are words
		"messages[].sender.role":     false, // kept: shown as it is, so it needs a reason
		"messages[].sub_type":        false, // kept
		"*":                          false, // outside the item
		"message_count":              false,
	} {
		assert.Equal(t, want, covered(leaf{path, "string"}, spots), path)
	}
}

// checkCoverageSummary holds testdata/coverage.golden.json: every action
// of the catalog with how its result is covered, so that a change in
// coverage is a visible diff in review (go test ./internal/content
// -update after an intended change).
func checkCoverageSummary(t *testing.T, cat *catalog.Catalog, cov coverage) {
	t.Helper()
	summary := map[string]string{}
	for _, a := range cat.Actions() {
		declared, listed := len(a.ThirdParty) > 0, len(cov.Listed[a.Name]) > 0
		switch {
		case declared && listed:
			summary[a.Name] = "declared; the rest listed with a reason"
		case declared:
			summary[a.Name] = "declared"
		case listed:
			summary[a.Name] = "listed with a reason"
		default:
			summary[a.Name] = "nothing to list: its result schema admits no text (null, an empty object, or no result)"
		}
	}
	got, err := json.MarshalIndent(summary, "", "  ")
	require.NoError(t, err)
	path := filepath.Join("testdata", "coverage.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/content -update")
	assert.Equal(t, string(want), string(got)+"\n")
}
