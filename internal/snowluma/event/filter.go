package event

import (
	"errors"
	"fmt"
	"slices"
)

// Filter is what one subscription asks for. Its parts AND together: an
// event must be of one of the kinds, in one of the groups and from one of
// the users, each part that is set. An event without a group_id never
// passes a group filter, and one without a user_id never passes a user
// filter.
type Filter struct {
	// SelfID is the account every event must belong to.
	SelfID int64 `json:"self_id"`
	// Types are the kinds wanted; empty means all three.
	Types []Kind `json:"types"`
	// GroupIDs and UserIDs are sorted and distinct; empty means any.
	GroupIDs []int64 `json:"group_ids,omitempty"`
	UserIDs  []int64 `json:"user_ids,omitempty"`
}

// MaxIDs is the most distinct IDs one ID filter may hold.
const MaxIDs = 100

// Normalize sorts the filter's lists and removes duplicates; an empty
// Types becomes all three kinds, so a filter always says what it passes.
func (f Filter) Normalize() Filter {
	out := Filter{SelfID: f.SelfID}
	if len(f.Types) == 0 {
		out.Types = slices.Clone(Kinds)
	} else {
		for _, k := range Kinds {
			if slices.Contains(f.Types, k) {
				out.Types = append(out.Types, k)
			}
		}
	}
	out.GroupIDs = distinct(f.GroupIDs)
	out.UserIDs = distinct(f.UserIDs)
	return out
}

func distinct(ids []int64) []int64 {
	if len(ids) == 0 {
		return nil
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// Match reports whether e passes the (normalized) filter. Meta events
// never match: they are checked, not kept.
func (f Filter) Match(e *Event) bool {
	if e.Kind == KindMeta || !slices.Contains(f.Types, e.Kind) {
		return false
	}
	if len(f.GroupIDs) > 0 {
		if _, ok := slices.BinarySearch(f.GroupIDs, e.GroupID); !ok || !e.HasGroup {
			return false
		}
	}
	if len(f.UserIDs) > 0 {
		if _, ok := slices.BinarySearch(f.UserIDs, e.UserID); !ok || !e.HasUser {
			return false
		}
	}
	return true
}

// Check reports what is wrong with a filter a caller asked for, in words
// the caller can act on; nil means it is usable.
func (f Filter) Check() error {
	if f.SelfID <= 0 {
		return errors.New("self_id must be a positive integer: the QQ account whose events you want (get_login_info returns it)")
	}
	for _, k := range f.Types {
		if !slices.Contains(Kinds, k) {
			return fmt.Errorf("types may hold only message, notice and request, not %.40q", k)
		}
	}
	for name, ids := range map[string][]int64{"group_ids": f.GroupIDs, "user_ids": f.UserIDs} {
		for _, id := range ids {
			if id <= 0 {
				return fmt.Errorf("%s may hold only positive integers", name)
			}
		}
		if n := len(distinct(ids)); n > MaxIDs {
			return fmt.Errorf("%s holds %d distinct IDs; at most %d are allowed", name, n, MaxIDs)
		}
	}
	return nil
}
