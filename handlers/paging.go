package handlers

import (
	"strconv"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/schema"
)

// filterArgs are the filters and paging shared by list_actions and
// search_actions.
type filterArgs struct {
	Category *string     `json:"category,omitempty" jsonschema:"分类，见 list_categories。"`
	ReadOnly *bool       `json:"read_only,omitempty" jsonschema:"true 只读，false 写。"`
	Stream   *bool       `json:"stream,omitempty" jsonschema:"true 流式，false 普通。"`
	Limit    *schema.Int `json:"limit,omitempty" jsonschema:"每页条数；给出 limit 或 offset 即分页。" schema:"minimum=1,maximum=200"`
	Offset   *schema.Int `json:"offset,omitempty" jsonschema:"上一页的 next_offset。" schema:"minimum=0"`
}

// actionList is a list of actions: {count, actions}, and, when paged,
// total and next_offset too.
type actionList struct {
	Count      int             `json:"count" jsonschema:"Entries in this reply."`
	Total      *int            `json:"total,omitempty" jsonschema:"All matching entries (paged replies only)."`
	NextOffset nextOffset      `json:"next_offset,omitzero" jsonschema:"Offset of the next page, or null on the last page (paged replies only)." schema:"type=integer|null"`
	Actions    []catalog.Entry `json:"actions"`
}

// nextOffset is next_offset: absent from a reply that was not paged, the
// next page's offset, or null on a paged reply's last page.
type nextOffset struct {
	paged bool
	next  *int
}

// IsZero leaves next_offset out of a reply that was not paged (omitzero).
func (o nextOffset) IsZero() bool { return !o.paged }

// MarshalJSON writes the offset, or null on the last page.
func (o nextOffset) MarshalJSON() ([]byte, error) {
	if o.next == nil {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(*o.next), 10), nil
}

// searchReply is a search's list, and what it gives beside its matches.
type searchReply struct {
	actionList
	beside
}

// beside is what a search gives beside its matches; a list gives none of it.
type beside struct {
	Suggestions      []catalog.Entry `json:"suggestions,omitempty" jsonschema:"Nearest matches, not exact: actions ranked by the query's words and what it asks for; when nothing matched, or when the best is not the first of actions."`
	SuggestionsMatch string          `json:"suggestions_match,omitempty" jsonschema:"Present with suggestions: they are nearest matches, not exact." schema:"enum=nearest"`
	Note             string          `json:"note,omitempty" jsonschema:"Says why suggestions are given and names the best match."`
	Hint             string          `json:"hint,omitempty" jsonschema:"What the query asks to send is a message segment: the actions that send it and its JSON shape."`
}

// filter turns the arguments into a catalog filter.
func (f filterArgs) filter() catalog.Filter {
	return catalog.Filter{Category: f.Category, ReadOnly: f.ReadOnly, Stream: f.Stream}
}

// page cuts the matching actions to the requested page. Without limit or
// offset the reply keeps its original {count, actions} shape.
func (f filterArgs) page(all []*catalog.Action) actionList {
	if f.Limit == nil && f.Offset == nil {
		return actionList{Count: len(all), Actions: entries(all)}
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
	next := nextOffset{paged: true}
	if end < total {
		next.next = &end
	}
	return actionList{Count: end - start, Total: &total, NextOffset: next, Actions: entries(all[start:end])}
}

func entries(as []*catalog.Action) []catalog.Entry {
	out := make([]catalog.Entry, len(as))
	for i, a := range as {
		out[i] = a.Entry()
	}
	return out
}
