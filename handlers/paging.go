package handlers

import (
	"strconv"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// filterArgs are the filters and paging shared by list_actions and
// search_actions.
type filterArgs struct {
	Category *string     `json:"category,omitempty" jsonschema:"分类（category），见 list_categories。"`
	ReadOnly *bool       `json:"read_only,omitempty" jsonschema:"true 只读，false 写（read_only）。"`
	Stream   *bool       `json:"stream,omitempty" jsonschema:"true 流式，false 普通（stream）。"`
	Limit    *schema.Int `json:"limit,omitempty" jsonschema:"每页条数；给出 limit 或 offset 即分页。" schema:"minimum=1,maximum=200"`
	Offset   *schema.Int `json:"offset,omitempty" jsonschema:"上一页的 next_offset。" schema:"minimum=0"`
}

// compactResultSchema describes both list shapes: {count, actions} and, when
// paged, {count, total, next_offset, actions}.
var compactResultSchema = listSchema("")

// searchResultSchema adds what a search gives beside its matches: ranked
// suggestions, marked as nearest matches, the line saying so, and the hint
// of a message segment.
var searchResultSchema = listSchema(`,
 "suggestions":{"type":"array","items":` + entrySchema + `,"description":"Nearest matches, not exact: up to ` + strconv.Itoa(catalog.MaxSuggestions) + ` actions ranked by the query's words and what it asks for; when nothing matched, or when the best is not the first of actions."},
 "suggestions_match":{"type":"string","enum":["nearest"],"description":"Present with suggestions: they are nearest matches, not exact."},
 "note":{"type":"string","description":"Says why suggestions are given and names the best match."},
 "hint":{"type":"string","description":"What the query asks to send is a message segment: the actions that send it and its JSON shape."}`)

const entrySchema = `{"type":"object","properties":{
  "name":{"type":"string"},"category":{"type":"string"},"summary":{"type":"string"},
  "aliases":{"type":"array","items":{"type":"string"}},"readOnly":{"type":"boolean"},"stream":{"type":"boolean"}},
  "required":["name","category","summary","aliases","readOnly","stream"]}`

func listSchema(more string) string {
	return `{"type":["object","null"],"properties":{
 "count":{"type":"integer","description":"Entries in this reply."},
 "total":{"type":"integer","description":"All matching entries (paged replies only)."},
 "next_offset":{"type":["integer","null"],"description":"Offset of the next page, or null on the last page (paged replies only)."},
 "actions":{"type":"array","items":` + entrySchema + `}` + more + `},
 "required":["count","actions"]}`
}

type compactList struct {
	Count   int             `json:"count"`
	Actions []catalog.Entry `json:"actions"`
	beside
}

// beside is what a search gives beside its matches (searchResultSchema);
// a list gives none of it.
type beside struct {
	Suggestions      []catalog.Entry `json:"suggestions,omitempty"`
	SuggestionsMatch string          `json:"suggestions_match,omitempty"`
	Note             string          `json:"note,omitempty"`
	Hint             string          `json:"hint,omitempty"`
}

// filter turns the arguments into a catalog filter.
func (f filterArgs) filter() catalog.Filter {
	return catalog.Filter{Category: f.Category, ReadOnly: f.ReadOnly, Stream: f.Stream}
}

// page cuts the matching actions to the requested page. Without limit or
// offset the reply keeps its original {count, actions} shape. What a
// search gives beside them (b) goes beside every page.
func (f filterArgs) page(all []*catalog.Action, b beside) any {
	if f.Limit == nil && f.Offset == nil {
		return compactList{Count: len(all), Actions: entries(all), beside: b}
	}
	offset, limit := 0, 50
	if f.Offset != nil {
		offset = int(*f.Offset)
	}
	if f.Limit != nil {
		limit = int(*f.Limit)
	}
	total := len(all)
	start := min(offset, total)
	end := min(start+limit, total)
	var next *int
	if end < total {
		next = &end
	}
	return pagedList{Count: end - start, Total: total, NextOffset: next, Actions: entries(all[start:end]), beside: b}
}

// pagedList always carries next_offset, null on the last page.
type pagedList struct {
	Count      int             `json:"count"`
	Total      int             `json:"total"`
	NextOffset *int            `json:"next_offset"`
	Actions    []catalog.Entry `json:"actions"`
	beside
}

func entries(as []*catalog.Action) []catalog.Entry {
	out := make([]catalog.Entry, len(as))
	for i, a := range as {
		out[i] = a.Entry()
	}
	return out
}
